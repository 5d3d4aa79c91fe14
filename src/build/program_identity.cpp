#include "build/program_identity.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <unistd.h>

#include <sys/stat.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

#include "base/content_hash.h"

namespace aoc::build {
namespace {

// The hex digits of the NT_GNU_BUILD_ID note among the notes in [p, end), or "".
std::string build_id_in_notes(const unsigned char* p, const unsigned char* end) {
  while (p + sizeof(ElfW(Nhdr)) <= end) {
    const auto* note = reinterpret_cast<const ElfW(Nhdr)*>(p);
    const unsigned char* name = p + sizeof(ElfW(Nhdr));
    const unsigned char* desc = name + ((note->n_namesz + 3) & ~3u);
    if (desc + note->n_descsz > end) break;
    if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
      std::string id;
      for (unsigned k = 0; k < note->n_descsz; ++k) {
        char hex[3];
        std::snprintf(hex, sizeof hex, "%02x", desc[k]);
        id += hex;
      }
      return id;
    }
    p = desc + ((note->n_descsz + 3) & ~3u);
  }
  return "";
}

// The build-id of the main program (the first object dl_iterate_phdr reports).
int find_build_id(dl_phdr_info* info, size_t, void* out) {
  auto& id = *static_cast<std::string*>(out);
  for (int i = 0; i < info->dlpi_phnum && id.empty(); ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const auto* p = reinterpret_cast<const unsigned char*>(info->dlpi_addr + ph.p_vaddr);
    id = build_id_in_notes(p, p + ph.p_memsz);
  }
  return 1;  // only the main program is looked at
}

// The build-id of an ELF file, read from its note segments (a few hundred bytes, whatever the
// size of the file), or "" when it has none or is not a 64-bit ELF file.
std::string file_build_id(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  std::string id;
  Elf64_Ehdr eh{};
  if (::pread(fd, &eh, sizeof eh, 0) == static_cast<ssize_t>(sizeof eh) && std::memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
      eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_phentsize == sizeof(Elf64_Phdr)) {
    for (unsigned i = 0; i < eh.e_phnum && id.empty(); ++i) {
      Elf64_Phdr ph{};
      if (::pread(fd, &ph, sizeof ph, static_cast<off_t>(eh.e_phoff + i * sizeof ph)) != static_cast<ssize_t>(sizeof ph))
        break;
      if (ph.p_type != PT_NOTE || ph.p_filesz == 0 || ph.p_filesz > (1u << 16)) continue;
      std::vector<unsigned char> notes(ph.p_filesz);
      if (::pread(fd, notes.data(), notes.size(), static_cast<off_t>(ph.p_offset)) != static_cast<ssize_t>(notes.size()))
        break;
      id = build_id_in_notes(notes.data(), notes.data() + notes.size());
    }
  }
  ::close(fd);
  return id;
}

std::string compute_identity() {
  std::string id;
  dl_iterate_phdr(find_build_id, &id);
  if (!id.empty()) return "build-id:" + id;
  try {
    return "exe:" + base::ContentHash().add_file("/proc/self/exe").hex();
  } catch (const std::exception&) {
    return "unknown";  // nothing kept on disk can then be told apart: the caller keeps nothing
  }
}

}  // namespace

const std::string& program_identity() {
  static const std::string id = compute_identity();
  return id;
}

std::string executable_identity(const std::filesystem::path& path) {
  if (const std::string id = file_build_id(path); !id.empty()) return "build-id:" + id;
  return "content:" + base::ContentHash().add_file(path).hex();
}

std::string executable_identity_once(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "missing:" + path.string();
  const std::string stamp = path.string() + "\n" + std::to_string(st.st_size) + "\n" +
                            std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
  static std::mutex mu;
  static std::map<std::string, std::string> known;
  std::lock_guard lock(mu);
  auto [it, fresh] = known.try_emplace(stamp);
  if (fresh) it->second = executable_identity(path);
  return it->second;
}

}  // namespace aoc::build
