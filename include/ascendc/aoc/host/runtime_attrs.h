// gert::RuntimeAttrs: the operator attributes a tiling / InferShape function reads by index
// (the index is the attribute's position in the OpDef). Each value keeps real storage so
// the returned pointers stay valid for the context's lifetime.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace gert {

// A list attribute as the runtime lays it out: element count plus contiguous data.
class ContinuousVector {
 public:
  size_t GetSize() const { return size_; }
  size_t GetCapacity() const { return size_; }
  const void* GetData() const { return data_; }

 protected:
  size_t size_ = 0;
  const void* data_ = nullptr;
  friend class RuntimeAttrs;
};

template <typename T>
class TypedContinuousVector : public ContinuousVector {
 public:
  const T* GetData() const { return static_cast<const T*>(data_); }
};

class RuntimeAttrs {
 public:
  using Value = std::variant<int64_t, float, bool, std::string, std::vector<int64_t>, std::vector<float>,
                             std::vector<uint8_t> /* list of bool */, std::vector<std::vector<int64_t>>>;

  size_t GetAttrNum() const { return values_.size(); }

  // Pointer to attribute i viewed as T, or nullptr when i is out of range or the stored
  // attribute is of another kind. Integer attributes are stored as int64_t; narrower
  // integer views read its low bytes (the device runtime is little-endian too).
  template <typename T>
  const T* GetAttrPointer(size_t i) const {
    if (i >= values_.size()) return nullptr;
    const Value& v = values_[i];
    if constexpr (std::is_same_v<T, char>) {
      auto* s = std::get_if<std::string>(&v);
      return s ? s->c_str() : nullptr;
    } else if constexpr (std::is_same_v<T, bool>) {
      return std::get_if<bool>(&v);
    } else if constexpr (std::is_same_v<T, float>) {
      return std::get_if<float>(&v);
    } else if constexpr (std::is_integral_v<T>) {
      auto* p = std::get_if<int64_t>(&v);
      return p ? reinterpret_cast<const T*>(p) : nullptr;
    } else if constexpr (std::is_base_of_v<ContinuousVector, T>) {
      return static_cast<const T*>(&lists_[i]);
    } else {
      static_assert(sizeof(T) == 0, "GetAttrPointer: unsupported attribute type");
    }
  }
  const int64_t* GetInt(size_t i) const { return GetAttrPointer<int64_t>(i); }
  const float* GetFloat(size_t i) const { return GetAttrPointer<float>(i); }
  const bool* GetBool(size_t i) const { return GetAttrPointer<bool>(i); }
  const char* GetStr(size_t i) const { return GetAttrPointer<char>(i); }
  const TypedContinuousVector<int64_t>* GetListInt(size_t i) const { return typed_list<int64_t, std::vector<int64_t>>(i); }
  const TypedContinuousVector<float>* GetListFloat(size_t i) const { return typed_list<float, std::vector<float>>(i); }
  const TypedContinuousVector<bool>* GetListBool(size_t i) const { return typed_list<bool, std::vector<uint8_t>>(i); }

  // Building (used by the context builders).
  void Append(Value v) {
    values_.push_back(std::move(v));
    lists_.resize(values_.size());
    // Vectors may have moved: refresh every list view.
    for (size_t k = 0; k < values_.size(); ++k) refresh(k);
  }
  const Value& value(size_t i) const { return values_[i]; }

  RuntimeAttrs() = default;
  RuntimeAttrs(const RuntimeAttrs& o) : values_(o.values_), lists_(o.values_.size()) {
    for (size_t k = 0; k < values_.size(); ++k) refresh(k);
  }
  RuntimeAttrs& operator=(const RuntimeAttrs& o) {
    if (this != &o) {
      values_ = o.values_;
      lists_.assign(values_.size(), ContinuousVector{});
      for (size_t k = 0; k < values_.size(); ++k) refresh(k);
    }
    return *this;
  }

 private:
  template <typename E, typename Stored>
  const TypedContinuousVector<E>* typed_list(size_t i) const {
    if (i >= values_.size() || !std::holds_alternative<Stored>(values_[i])) return nullptr;
    return static_cast<const TypedContinuousVector<E>*>(&lists_[i]);
  }
  void refresh(size_t k) {
    ContinuousVector& cv = lists_[k];
    cv = ContinuousVector{};
    std::visit(
        [&](const auto& x) {
          using X = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<X, std::vector<int64_t>> || std::is_same_v<X, std::vector<float>> ||
                        std::is_same_v<X, std::vector<uint8_t>>) {
            cv.size_ = x.size();
            cv.data_ = x.data();
          } else if constexpr (std::is_same_v<X, std::vector<std::vector<int64_t>>>) {
            cv.size_ = x.size();
            cv.data_ = x.data();
          }
        },
        values_[k]);
  }

  std::vector<Value> values_;
  std::vector<ContinuousVector> lists_;  // list views, parallel to values_
};

}  // namespace gert
