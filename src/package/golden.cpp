#include "package/golden.h"

#include <dlfcn.h>

#include <stdexcept>

#include "package/aoc_golden.h"
#include "runtime/large_buffer.h"

namespace aoc::package {

GoldenLibrary& GoldenLibrary::operator=(GoldenLibrary&& o) noexcept {
  std::swap(handle_, o.handle_);
  std::swap(fn_, o.fn_);
  return *this;
}

GoldenLibrary::~GoldenLibrary() {
  if (handle_ != nullptr) dlclose(handle_);
}

GoldenLibrary GoldenLibrary::open(const std::filesystem::path& so) {
  GoldenLibrary g;
  g.handle_ = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (g.handle_ == nullptr) throw std::runtime_error("cannot load golden library " + so.string() + ": " + dlerror());
  g.fn_ = dlsym(g.handle_, "aoc_golden");
  if (g.fn_ == nullptr)
    throw std::runtime_error(so.string() + ": golden.cpp must define extern \"C\" int aoc_golden(AocGoldenCall*)");
  return g;
}

namespace {

// Keeps the storage the C structs point into alive for the duration of a call.
struct AttrStorage {
  std::vector<AocGoldenAttr> attrs;
  std::vector<std::string> strings;
  std::vector<std::vector<int64_t>> int_lists;
  std::vector<std::vector<double>> float_lists;
};

void fill_attrs(const std::vector<std::pair<std::string, AttrValue>>& values, AttrStorage& st) {
  st.strings.reserve(values.size() * 2);
  st.int_lists.reserve(values.size());
  st.float_lists.reserve(values.size());
  for (const auto& [name, v] : values) {
    st.strings.push_back(name);
    AocGoldenAttr a{};
    a.name = st.strings.back().c_str();
    std::visit([&](const auto& x) {
      using T = std::decay_t<decltype(x)>;
      if constexpr (std::is_same_v<T, int64_t>) { a.kind = AOC_ATTR_INT; a.i = x; a.f = static_cast<double>(x); }
      else if constexpr (std::is_same_v<T, double>) { a.kind = AOC_ATTR_FLOAT; a.f = x; a.i = static_cast<int64_t>(x); }
      else if constexpr (std::is_same_v<T, bool>) { a.kind = AOC_ATTR_BOOL; a.i = x ? 1 : 0; }
      else if constexpr (std::is_same_v<T, std::string>) { st.strings.push_back(x); a.kind = AOC_ATTR_STRING; a.s = st.strings.back().c_str(); }
      else if constexpr (std::is_same_v<T, std::vector<int64_t>>) { st.int_lists.push_back(x); a.kind = AOC_ATTR_LIST_INT; a.li = st.int_lists.back().data(); a.len = static_cast<int64_t>(x.size()); }
      else { st.float_lists.push_back(x); a.kind = AOC_ATTR_LIST_FLOAT; a.lf = st.float_lists.back().data(); a.len = static_cast<int64_t>(x.size()); }
    }, v);
    st.attrs.push_back(a);
  }
}

}  // namespace

GoldenLibrary::Inputs::Inputs(const std::vector<CaseTensor>& t) : tensors(t) {
  values.reserve(t.size());
  for (const auto& x : t) values.push_back(x.data.to_double());
}

GoldenLibrary::Result GoldenLibrary::run(const OpPackage& p, const CaseSpec& c, const Inputs& in) const {
  std::vector<std::vector<int64_t>> out_shapes;
  for (size_t o = 0; o < p.outputs.size(); ++o) out_shapes.push_back(p.output_shape(c, o));
  return run(p, c, in, out_shapes);
}

GoldenLibrary::Result GoldenLibrary::run(const OpPackage& p, const CaseSpec& c, const Inputs& in,
                                         const std::vector<std::vector<int64_t>>& out_shapes) const {
  Result res;
  const std::vector<CaseTensor>& inputs = in.tensors;
  // Both goldens of a case read the same converted inputs; aoc_golden.h makes them read-only.
  std::vector<AocGoldenTensor> in_t;
  for (size_t i = 0; i < inputs.size(); ++i)
    in_t.push_back(AocGoldenTensor{inputs[i].name.c_str(), static_cast<int32_t>(inputs[i].shape.size()),
                                   inputs[i].shape.data(), static_cast<int64_t>(in.values[i].size()),
                                   const_cast<double*>(in.values[i].data())});
  for (size_t o = 0; o < p.outputs.size(); ++o) {
    res.outputs.emplace_back();
    const auto n = static_cast<size_t>(element_count(out_shapes[o]));
    aoc::runtime::reserve_large(res.outputs.back(), n);
    res.outputs.back().resize(n, 0.0);
  }
  std::vector<AocGoldenTensor> out_t;
  for (size_t o = 0; o < p.outputs.size(); ++o)
    out_t.push_back(AocGoldenTensor{p.outputs[o].name.c_str(), static_cast<int32_t>(out_shapes[o].size()),
                                    out_shapes[o].data(), static_cast<int64_t>(res.outputs[o].size()),
                                    res.outputs[o].data()});
  AttrStorage attrs;
  fill_attrs(p.case_attrs(c), attrs);
  AocGoldenCall call{};
  call.abi_version = AOC_GOLDEN_ABI_VERSION;
  call.inputs = in_t.data();
  call.n_inputs = static_cast<int32_t>(in_t.size());
  call.outputs = out_t.data();
  call.n_outputs = static_cast<int32_t>(out_t.size());
  call.attrs = attrs.attrs.data();
  call.n_attrs = static_cast<int32_t>(attrs.attrs.size());
  int rc = 0;
  try {
    rc = reinterpret_cast<AocGoldenFn>(fn_)(&call);
  } catch (const std::exception& e) {
    res.error = std::string("golden threw: ") + e.what();
    return res;
  }
  if (rc != 0) {
    res.error = std::string("golden failed: ") + (call.error[0] ? call.error : "no message");
    return res;
  }
  res.ok = true;
  return res;
}

}  // namespace aoc::package
