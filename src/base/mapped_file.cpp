#include "base/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace aoc::base {

std::shared_ptr<const MappedFile> MappedFile::open(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return nullptr;
  struct stat st {};
  void* p = MAP_FAILED;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
    p = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);  // the mapping keeps the file
  if (p == MAP_FAILED) return nullptr;
  return std::shared_ptr<const MappedFile>(new MappedFile(static_cast<const unsigned char*>(p), static_cast<size_t>(st.st_size), path,
                                                          static_cast<unsigned long>(st.st_dev),
                                                          static_cast<unsigned long>(st.st_ino)));
}

bool MappedFile::still_at_path() const {
  struct stat st {};
  return ::stat(path_.c_str(), &st) == 0 && static_cast<unsigned long>(st.st_dev) == device_ &&
         static_cast<unsigned long>(st.st_ino) == inode_;
}

MappedFile::~MappedFile() { ::munmap(const_cast<unsigned char*>(data_), size_); }

}  // namespace aoc::base
