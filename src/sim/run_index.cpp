#include "sim/run_index.h"

#include <algorithm>
#include <iterator>

namespace aoc::sim {

size_t RunIndex::leaf_of(uint64_t key) const {
  const size_t after = size_t(std::upper_bound(firsts_.begin(), firsts_.end(), key) - firsts_.begin());
  return after == 0 ? 0 : after - 1;
}

RunIndex::Around RunIndex::around(uint64_t key) const {
  if (leaves_.empty()) return {};
  const size_t li = leaf_of(key);
  const Leaf& l = leaves_[li];
  const size_t pos = size_t(std::upper_bound(l.keys.begin(), l.keys.end(), key) - l.keys.begin());
  Around a;
  if (pos > 0) a.value = l.values[pos - 1];
  if (pos < l.keys.size()) a.next = l.keys[pos];
  else if (li + 1 < leaves_.size()) a.next = firsts_[li + 1];
  return a;
}

void RunIndex::insert(uint64_t key, uint32_t value) {
  if (leaves_.empty()) {
    leaves_.push_back(Leaf{{key}, {value}});
    firsts_.push_back(key);
    return;
  }
  const size_t li = leaf_of(key);
  Leaf& l = leaves_[li];
  const auto at = std::upper_bound(l.keys.begin(), l.keys.end(), key);
  const auto pos = at - l.keys.begin();
  l.keys.insert(at, key);
  l.values.insert(l.values.begin() + pos, value);
  if (pos == 0) firsts_[li] = key;
  if (l.keys.size() > kMaxLeaf) split(li);
}

void RunIndex::erase(uint64_t key) {
  const size_t li = leaf_of(key);
  Leaf& l = leaves_[li];
  const auto pos = std::lower_bound(l.keys.begin(), l.keys.end(), key) - l.keys.begin();
  l.keys.erase(l.keys.begin() + pos);
  l.values.erase(l.values.begin() + pos);
  if (l.keys.empty()) {
    remove_leaf(li);
    return;
  }
  if (pos == 0) firsts_[li] = l.keys.front();
  merge_small(li);
}

void RunIndex::rekey(uint64_t key, uint64_t new_key) {
  const size_t li = leaf_of(key);
  Leaf& l = leaves_[li];
  const auto pos = std::lower_bound(l.keys.begin(), l.keys.end(), key) - l.keys.begin();
  l.keys[size_t(pos)] = new_key;
  if (pos == 0) firsts_[li] = new_key;
}

size_t RunIndex::size() const {
  size_t n = 0;
  for (const Leaf& l : leaves_) n += l.keys.size();
  return n;
}

void RunIndex::split(size_t li) {
  Leaf upper;
  {
    Leaf& l = leaves_[li];
    const size_t half = l.keys.size() / 2;
    upper.keys.assign(l.keys.begin() + std::ptrdiff_t(half), l.keys.end());
    upper.values.assign(l.values.begin() + std::ptrdiff_t(half), l.values.end());
    l.keys.resize(half);
    l.values.resize(half);
  }
  firsts_.insert(firsts_.begin() + std::ptrdiff_t(li + 1), upper.keys.front());
  leaves_.insert(leaves_.begin() + std::ptrdiff_t(li + 1), std::move(upper));
}

// Joins leaf li with a neighbour when the two together fill at most half a leaf.
void RunIndex::merge_small(size_t li) {
  auto fits = [&](size_t a) { return leaves_[a].keys.size() + leaves_[a + 1].keys.size() <= kMaxLeaf / 2; };
  size_t a;
  if (li + 1 < leaves_.size() && fits(li)) a = li;
  else if (li > 0 && fits(li - 1)) a = li - 1;
  else return;
  Leaf& low = leaves_[a];
  const Leaf& high = leaves_[a + 1];
  low.keys.insert(low.keys.end(), high.keys.begin(), high.keys.end());
  low.values.insert(low.values.end(), high.values.begin(), high.values.end());
  remove_leaf(a + 1);
}

void RunIndex::remove_leaf(size_t li) {
  firsts_.erase(firsts_.begin() + std::ptrdiff_t(li));
  leaves_.erase(leaves_.begin() + std::ptrdiff_t(li));
}

}  // namespace aoc::sim
