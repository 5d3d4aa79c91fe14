// What LocalTensor::operator() and GlobalTensor::operator() return. AscendC returns a
// PrimType& there and documents it as a GetValue when read and a SetValue when assigned; a plain
// reference would let a kernel read and write local and global memory without a trace, so that
// scalar loops cost nothing and escape the race check. This proxy makes each read a GetValue and
// each write a SetValue of the tensor, so they are traced, charged and race-checked alike; a
// compound assignment (x(i) += v) is a read and a write, as on the device.
//
// Only a proxy used where it is made (a prvalue) reads or writes: `T v = x(i)`, `x(i) = v`,
// `x(i) += v`, `f(x(i))` for a function taking T. A proxy kept in a variable (`auto v = x(i)`)
// would read the element later than the code says, and assigning to it would write the tensor,
// so its reads and writes are deleted: write `T v = x(i)` instead.
#pragma once
#include <source_location>
#include <type_traits>
#include <utility>

#include "aoc/instrumentation.h"

namespace aoc {

template <typename Tensor, typename Index> class ScalarRef;

template <typename U> struct is_scalar_ref : std::false_type {};
template <typename Tensor, typename Index> struct is_scalar_ref<ScalarRef<Tensor, Index>> : std::true_type {};

template <typename Tensor, typename Index> class ScalarRef {
 public:
  using T = typename Tensor::PrimType;
  // half and bfloat16_t compute through float: a proxy of them converts to float directly too,
  // as the reference it replaces did (one user-defined conversion, not two).
  static constexpr bool kViaFloat = !std::is_arithmetic_v<T> && std::is_convertible_v<T, float>;

  AOC_FORCE_INLINE ScalarRef(const Tensor& t, Index i, const std::source_location& loc) : t_(&t), i_(i), loc_(loc) {}
  ScalarRef(const ScalarRef&) = delete;

  // Reads.
  AOC_FORCE_INLINE operator T() && { return load(); }
  operator T() const& = delete;  // `auto v = x(i)` keeps a proxy: write `T v = x(i)`
  AOC_FORCE_INLINE operator float() && requires kViaFloat { return static_cast<float>(load()); }
  operator float() const& requires kViaFloat = delete;

  // Writes.
  AOC_FORCE_INLINE ScalarRef&& operator=(const T& v) && {
    store(v);
    return std::move(*this);
  }
  AOC_FORCE_INLINE ScalarRef&& operator=(ScalarRef&& other) && {  // x(i) = x(j): read, then write
    store(other.load());
    return std::move(*this);
  }
  template <typename OtherTensor, typename OtherIndex>
  AOC_FORCE_INLINE ScalarRef&& operator=(ScalarRef<OtherTensor, OtherIndex>&& other) && {
    store(static_cast<T>(other.load()));
    return std::move(*this);
  }

  // Read, modify, write.
#define AOC_SCALAR_REF_COMPOUND(op)                              \
  template <typename U> AOC_FORCE_INLINE ScalarRef&& operator op(U&& v) && { \
    T cur = load();                                              \
    cur op unwrap(std::forward<U>(v));                           \
    store(cur);                                                  \
    return std::move(*this);                                     \
  }
  AOC_SCALAR_REF_COMPOUND(+=)
  AOC_SCALAR_REF_COMPOUND(-=)
  AOC_SCALAR_REF_COMPOUND(*=)
  AOC_SCALAR_REF_COMPOUND(/=)
  AOC_SCALAR_REF_COMPOUND(%=)
  AOC_SCALAR_REF_COMPOUND(&=)
  AOC_SCALAR_REF_COMPOUND(|=)
  AOC_SCALAR_REF_COMPOUND(^=)
  AOC_SCALAR_REF_COMPOUND(<<=)
  AOC_SCALAR_REF_COMPOUND(>>=)
#undef AOC_SCALAR_REF_COMPOUND
  AOC_FORCE_INLINE ScalarRef&& operator++() && {
    T cur = load();
    ++cur;
    store(cur);
    return std::move(*this);
  }
  AOC_FORCE_INLINE ScalarRef&& operator--() && {
    T cur = load();
    --cur;
    store(cur);
    return std::move(*this);
  }
  AOC_FORCE_INLINE T operator++(int) && {
    T cur = load();
    T next = cur;
    ++next;
    store(next);
    return cur;
  }
  AOC_FORCE_INLINE T operator--(int) && {
    T cur = load();
    T next = cur;
    --next;
    store(next);
    return cur;
  }

 private:
  template <typename, typename> friend class ScalarRef;

  AOC_FORCE_INLINE T load() const { return t_->GetValue(i_, loc_); }
  AOC_FORCE_INLINE void store(const T& v) const { t_->SetValue(i_, v, loc_); }
  // The right-hand side of a compound assignment: another element is read first.
  template <typename U> static AOC_FORCE_INLINE decltype(auto) unwrap(U&& v) {
    if constexpr (is_scalar_ref<std::remove_cvref_t<U>>::value) return v.load();
    else return std::forward<U>(v);
  }

  const Tensor* t_;  // the tensor outlives the full-expression the proxy is used in
  Index i_;
  std::source_location loc_;
};

}  // namespace aoc
