// A file mapped read-only into memory: opened O_RDONLY and mapped PROT_READ | MAP_SHARED, so
// this process cannot write to it through the mapping, and its pages are the page cache's,
// shared with every other process that maps the same file. Meant for files published whole
// (base/published_file.h): one replaced later is a new file, and the mapping keeps the old one.
#pragma once
#include <cstddef>
#include <filesystem>
#include <memory>

namespace aoc::base {

class MappedFile {
 public:
  // Null when the file is absent, unreadable, empty or cannot be mapped.
  static std::shared_ptr<const MappedFile> open(const std::filesystem::path& path);
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();
  const unsigned char* data() const { return data_; }
  size_t size() const { return size_; }
  const std::filesystem::path& path() const { return path_; }
  // Whether the path still names the file mapped (not removed, nor replaced by another).
  bool still_at_path() const;

 private:
  MappedFile(const unsigned char* data, size_t size, std::filesystem::path path, unsigned long device, unsigned long inode)
      : data_(data), size_(size), path_(std::move(path)), device_(device), inode_(inode) {}
  const unsigned char* data_;
  size_t size_;
  std::filesystem::path path_;
  unsigned long device_, inode_;
};

}  // namespace aoc::base
