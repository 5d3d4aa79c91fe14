#include "eval/reference_cache.h"

#include <cstdlib>

namespace aoc::eval {

CaseInputs::CaseInputs(std::vector<std::vector<aoc::package::CaseTensor>> drawn)
    : tensors_(std::move(drawn)), copied_(tensors_.size(), true) {
  for (const auto& trial : tensors_) {
    bytes_.emplace_back();
    for (const auto& t : trial) bytes_.back().emplace_back(t.data.bytes.data(), t.data.bytes.size());
  }
}

CaseInputs::CaseInputs(std::shared_ptr<const base::MappedFile> file,
                       std::vector<std::vector<aoc::package::CaseTensor>> described,
                       std::vector<std::vector<std::span<const unsigned char>>> bytes)
    : file_(std::move(file)), tensors_(std::move(described)), copied_(tensors_.size(), false), bytes_(std::move(bytes)) {}

const std::vector<aoc::package::CaseTensor>& CaseInputs::tensors(size_t trial) const {
  std::lock_guard lock(mu_);
  if (!copied_.at(trial)) {
    for (size_t i = 0; i < tensors_[trial].size(); ++i)
      tensors_[trial][i].data.bytes.assign(bytes_[trial][i].begin(), bytes_[trial][i].end());
    copied_[trial] = true;
  }
  return tensors_[trial];
}

size_t CaseInputs::total_bytes() const {
  size_t n = 0;
  for (const auto& trial : bytes_)
    for (const auto& b : trial) n += b.size();
  return n;
}

size_t CaseReference::bytes() const {
  size_t n = inputs ? inputs->total_bytes() : 0;
  for (const auto& trial : outputs)
    for (const auto& o : trial.outputs) n += o.size() * sizeof(double);
  return n;
}

std::shared_ptr<const CaseReference> ReferenceCache::find(const std::string& key, size_t trials) {
  std::lock_guard lock(mu_);
  const auto it = index_.find(key);
  if (it == index_.end() || it->second->value->outputs.size() < trials) return nullptr;
  lru_.splice(lru_.begin(), lru_, it->second);
  ++hits_;
  return it->second->value;
}

void ReferenceCache::put(const std::string& key, std::shared_ptr<const CaseReference> entry) {
  const size_t bytes = entry->bytes();
  std::lock_guard lock(mu_);
  if (max_bytes_ == 0 || bytes > max_bytes_ / 2) return;
  if (const auto it = index_.find(key); it != index_.end()) {
    if (it->second->value->outputs.size() >= entry->outputs.size()) return;
    bytes_ -= it->second->bytes;
    lru_.erase(it->second);
    index_.erase(it);
  }
  lru_.push_front(Entry{key, std::move(entry), bytes});
  index_[key] = lru_.begin();
  bytes_ += bytes;
  while (bytes_ > max_bytes_ && !lru_.empty()) {
    bytes_ -= lru_.back().bytes;
    index_.erase(lru_.back().key);
    lru_.pop_back();
  }
}

size_t ReferenceCache::hits() const {
  std::lock_guard lock(mu_);
  return hits_;
}

size_t ReferenceCache::size() const {
  std::lock_guard lock(mu_);
  return lru_.size();
}

void ReferenceCache::clear() {
  std::lock_guard lock(mu_);
  lru_.clear();
  index_.clear();
  bytes_ = 0;
}

size_t megabytes_from_environment(const char* name, size_t default_mb) {
  const char* mb = std::getenv(name);
  char* end = nullptr;
  const unsigned long long v = mb != nullptr && *mb ? std::strtoull(mb, &end, 10) : default_mb;
  return static_cast<size_t>(end != nullptr && *end != '\0' ? default_mb : v) << 20;
}

ReferenceCache& ReferenceCache::shared() {
  static ReferenceCache cache(megabytes_from_environment("AOC_REFERENCE_CACHE_MB", 1024));
  return cache;
}

}  // namespace aoc::eval
