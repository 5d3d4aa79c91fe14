#include "eval/program_identity.h"

#include <elf.h>
#include <link.h>

#include <cstdio>
#include <cstring>

#include "eval/content_hash.h"

namespace aoc::eval {
namespace {

// The NT_GNU_BUILD_ID note of the main program (the first object dl_iterate_phdr reports).
int find_build_id(dl_phdr_info* info, size_t, void* out) {
  auto& id = *static_cast<std::string*>(out);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const auto* p = reinterpret_cast<const unsigned char*>(info->dlpi_addr + ph.p_vaddr);
    const unsigned char* end = p + ph.p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      const auto* note = reinterpret_cast<const ElfW(Nhdr)*>(p);
      const unsigned char* name = p + sizeof(ElfW(Nhdr));
      const unsigned char* desc = name + ((note->n_namesz + 3) & ~3u);
      if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
        for (unsigned k = 0; k < note->n_descsz; ++k) {
          char hex[3];
          std::snprintf(hex, sizeof hex, "%02x", desc[k]);
          id += hex;
        }
        return 1;
      }
      p = desc + ((note->n_descsz + 3) & ~3u);
    }
  }
  return 1;  // only the main program is looked at
}

std::string compute_identity() {
  std::string id;
  dl_iterate_phdr(find_build_id, &id);
  if (!id.empty()) return "build-id:" + id;
  try {
    return "exe:" + ContentHash().add_file("/proc/self/exe").hex();
  } catch (const std::exception&) {
    return "unknown";  // nothing kept on disk can then be told apart: the caller keeps nothing
  }
}

}  // namespace

const std::string& program_identity() {
  static const std::string id = compute_identity();
  return id;
}

}  // namespace aoc::eval
