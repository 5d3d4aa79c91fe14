#include "package/op_import.h"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <variant>

#include "aoc/host/op_registry.h"
#include "base/file_text.h"
#include "package/dtype.h"
#include "package/kernel_entry.h"
#include "package/op_package.h"

namespace aoc::package {
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> files_with(const fs::path& d, const std::string& ext) {
  std::vector<fs::path> out;
  if (!fs::is_directory(d)) return out;
  for (const auto& e : fs::directory_iterator(d))
    if (e.is_regular_file() && e.path().extension() == ext) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// The package name: the stem the build expects for op_host/<name>_tiling.h, else the kernel file's.
std::string package_name(const fs::path& host_dir, const KernelEntry& k) {
  for (const auto& h : files_with(host_dir, ".h")) {
    const std::string stem = h.stem().string();
    const std::string suffix = "_tiling";
    if (stem.size() > suffix.size() && stem.compare(stem.size() - suffix.size(), suffix.size(), suffix) == 0)
      return stem.substr(0, stem.size() - suffix.size());
  }
  return k.file.stem().string();
}

std::vector<std::string> op_add_types(const fs::path& host_dir) {
  static const std::regex op_add(R"(OP_ADD\s*\(\s*(\w+))");
  std::vector<std::string> out;
  for (const auto& f : host_cpp_files(host_dir)) {
    const std::string src = base::read_text(f);
    for (std::sregex_iterator it(src.begin(), src.end(), op_add), end; it != end; ++it) out.push_back((*it)[1]);
  }
  return out;
}

std::optional<aoc::package::ElemType> elem_of(ge::DataType d) {
  for (int t = 0; t <= static_cast<int>(aoc::package::ElemType::Bool); ++t) {
    const auto e = static_cast<aoc::package::ElemType>(t);
    if (aoc::package::info(e).ge_value == static_cast<int32_t>(d)) return e;
  }
  return std::nullopt;
}

std::string ge_name(ge::DataType d) {
  switch (d) {
    case ge::DT_COMPLEX64: return "DT_COMPLEX64";
    case ge::DT_COMPLEX128: return "DT_COMPLEX128";
    case ge::DT_COMPLEX32: return "DT_COMPLEX32";
    case ge::DT_DOUBLE: return "DT_DOUBLE";
    case ge::DT_UINT16: return "DT_UINT16";
    case ge::DT_UINT32: return "DT_UINT32";
    case ge::DT_UINT64: return "DT_UINT64";
    case ge::DT_INT4: return "DT_INT4";
    case ge::DT_STRING: return "DT_STRING";
    default: return "ge::DataType " + std::to_string(static_cast<int>(d));
  }
}

std::string format_name(ge::Format f) {
  switch (f) {
    case ge::FORMAT_NCHW: return "NCHW";
    case ge::FORMAT_NHWC: return "NHWC";
    case ge::FORMAT_FRACTAL_NZ: return "FRACTAL_NZ";
    default: return "ND";
  }
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string number(double v) {
  std::ostringstream os;
  os.precision(9);
  os << v;
  std::string s = os.str();
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // a TOML float, not an integer
  return s;
}

// op.toml attribute type and default of an OpDef attribute.
std::pair<std::string, std::string> attr_toml(const ops::OpAttrDef& a) {
  const auto& v = a.default_value();
  if (auto* i = std::get_if<int64_t>(&v)) return {"int", std::to_string(*i)};
  if (auto* f = std::get_if<float>(&v)) return {"float", number(*f)};
  if (auto* b = std::get_if<bool>(&v)) return {"bool", *b ? "true" : "false"};
  if (auto* s = std::get_if<std::string>(&v)) return {"string", quoted(*s)};
  if (auto* li = std::get_if<std::vector<int64_t>>(&v)) {
    std::string out = "[";
    for (size_t k = 0; k < li->size(); ++k) out += (k ? ", " : "") + std::to_string((*li)[k]);
    return {"list_int", out + "]"};
  }
  if (auto* lf = std::get_if<std::vector<float>>(&v)) {
    std::string out = "[";
    for (size_t k = 0; k < lf->size(); ++k) out += (k ? ", " : "") + number((*lf)[k]);
    return {"list_float", out + "]"};
  }
  throw ImportError("attribute '" + a.name() +
                    "' is a list of bools or of lists, which op.toml cannot express (supported: int, float, bool, "
                    "string, list_int, list_float); see docs/compat.md");
}

struct Variants {
  std::vector<size_t> kept;  // OpDef dtype columns that become op.toml variants
  std::vector<std::string> notes;
};

// Dtype columns every tensor supports; a column with an unsupported type anywhere is left out.
Variants usable_variants(const ops::OpDef& def) {
  Variants v;
  size_t columns = 0;
  for (const auto* list : {&def.inputs(), &def.outputs()})
    for (const auto& t : *list) columns = std::max(columns, t.dtypes().size());
  for (size_t c = 0; c < columns; ++c) {
    std::string bad;
    for (const auto* list : {&def.inputs(), &def.outputs()})
      for (const auto& t : *list) {
        if (t.dtypes().empty()) continue;
        const ge::DataType d = t.dtypes()[std::min(c, t.dtypes().size() - 1)];
        if (!elem_of(d) && bad.empty()) bad = t.name() + " is " + ge_name(d);
      }
    if (bad.empty()) v.kept.push_back(c);
    else v.notes.push_back("dtype column " + std::to_string(c) + " of the OpDef left out: " + bad +
                           ", which op.toml does not support");
  }
  return v;
}

std::string dtypes_line(const ops::OpParamDef& t, const std::vector<size_t>& kept) {
  std::string out = "dtypes = [";
  for (size_t k = 0; k < kept.size(); ++k) {
    const ge::DataType d = t.dtypes().empty() ? ge::DT_FLOAT : t.dtypes()[std::min(kept[k], t.dtypes().size() - 1)];
    out += (k ? ", " : "") + quoted(aoc::package::info(*elem_of(d)).name);
  }
  return out + "]";
}

void tensor_section(std::ostringstream& os, const char* kind, const ops::OpParamDef& t, const std::vector<size_t>& kept,
                    std::vector<std::string>& notes) {
  os << "\n[[" << kind << "]]\nname = " << quoted(t.name()) << "\n" << dtypes_line(t, kept) << "\n";
  if (!t.formats().empty() && format_name(t.formats()[std::min(kept.front(), t.formats().size() - 1)]) != "ND")
    os << "format = " << quoted(format_name(t.formats()[std::min(kept.front(), t.formats().size() - 1)])) << "\n";
  if (t.param_type() == ops::OPTIONAL)
    notes.push_back(std::string(kind) + " '" + t.name() + "' is OPTIONAL in the OpDef; the package always passes it");
  if (t.param_type() == ops::DYNAMIC)
    notes.push_back(std::string(kind) + " '" + t.name() + "' is DYNAMIC (a tensor list) in the OpDef; the package "
                    "passes one tensor");
  if (t.value_depend() != ops::IGNORE)
    notes.push_back(std::string(kind) + " '" + t.name() + "' is value-dependent (ValueDepend) in the OpDef: on the "
                    "device its values reach the tiling function and InferShape, which packages do not support yet "
                    "(GetInputTensor(i)->GetData() is null there), so a tiling that reads them fails");
}

std::string generate_toml(const std::string& name, const ops::OpDef& def, const KernelEntry& k, const Variants& v,
                          std::vector<std::string>& notes) {
  std::ostringstream os;
  os << "# Generated by `ascendopt import` from the OpDef that op_host/ registers (OP_ADD(" << def.type()
     << ")).\n# Check the cases below: their shapes are placeholders, and every input gets the same shape unless\n"
     << "# a case says otherwise (shapes = { x = [...], y = [...] }). Output shapes come from the operator's\n"
     << "# InferShape when it registers one, else from the first input. Schema: docs/op-package.md.\n";
  os << "name = " << quoted(name) << "\nop_type = " << quoted(def.type()) << "\nkernel = " << quoted(k.symbol) << "\n";
  for (const auto& t : def.inputs()) tensor_section(os, "inputs", t, v.kept, notes);
  // Without an InferShape every output takes the first input's shape, which is wrong for a
  // reduction, a loss or a pooling: say how to write the shape instead.
  const bool infers = def.infer_shape() != nullptr || aoc::host::OpImplRegistry::instance().find(def.type()).infer_shape;
  for (const auto& t : def.outputs()) {
    tensor_section(os, "outputs", t, v.kept, notes);
    if (!infers && !def.inputs().empty())
      os << "# shape = [\"" << def.inputs().front().name() << "[:-1]\"]   # no InferShape is registered: when this output is "
         << "not shaped like " << def.inputs().front().name() << ", write its shape (docs/op-package.md, output shapes)\n";
  }

  for (const auto& a : def.attrs()) {
    const auto [type, dflt] = attr_toml(a);
    os << "\n[[attrs]]\nname = " << quoted(a.name()) << "\ntype = " << quoted(type) << "\n";
    // A REQUIRED attribute's Int()/Float()... value is no default: the caller always passes one.
    // Without a default the package does not load until every case (and the hidden draw) gives it.
    if (a.attr_type() == ops::REQUIRED) {
      os << "# REQUIRED in the OpDef, so no default: give it in every case (attrs = { " << a.name()
         << " = ... }) and its choices in [hidden] (attrs = { " << a.name() << " = [...] }).\n";
      notes.push_back("attribute '" + a.name() + "' is REQUIRED in the OpDef: op.toml gives it no default, and the " +
                      "package does not load until every case and [hidden] give it a value");
    } else {
      os << "default = " << dflt << "\n";
    }
  }
  // Two public cases per variant: whole 32-byte blocks, and an innermost length that is not.
  for (size_t i = 0; i < v.kept.size(); ++i) {
    const std::string dt = def.inputs().empty() ? "v" + std::to_string(i)
                                                : dtypes_line(def.inputs().front(), {v.kept[i]}).substr(10);
    std::string label = dt;
    label.erase(std::remove_if(label.begin(), label.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }),
                label.end());
    os << "\n[[cases]]\nname = " << quoted("aligned_" + label + "_v" + std::to_string(i))
       << "\nshape = [8, 2048]\nvariant = " << i << "\n";
    os << "\n[[cases]]\nname = " << quoted("unaligned_" + label + "_v" + std::to_string(i))
       << "\nshape = [3, 1021]\nvariant = " << i << "\n";
  }
  return os.str();
}

std::string identifier(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

std::string generate_golden(const ops::OpDef& def) {
  std::ostringstream os;
  os << "// Reference of " << def.type() << " for ascendopt, in double precision (golden_api::real).\n"
     << "// Written as a template by `ascendopt import`: compute every output from the inputs and\n"
     << "// attributes below, then remove the call.fail line. Interface: docs/op-package.md.\n"
     << "#include <cmath>\n\n#include \"aoc_golden.h\"\n\nusing golden_api::real;\n\n"
     << "extern \"C\" int aoc_golden(AocGoldenCall* raw) {\n  golden_api::Call call(raw);\n";
  for (const auto& t : def.inputs())
    os << "  const AocGoldenTensor& " << identifier(t.name()) << " = call.input(" << quoted(t.name())
       << ");  // data[i] (double), dims, rank, size\n";
  for (const auto& t : def.outputs())
    os << "  AocGoldenTensor& " << identifier(t.name()) << "_out = call.output(" << quoted(t.name()) << ");\n";
  for (const auto& a : def.attrs()) {
    const std::string type = attr_toml(a).first;
    const std::string id = identifier(a.name());
    if (type == "int") os << "  const int64_t " << id << " = call.attr_int(" << quoted(a.name()) << ", " << attr_toml(a).second << ");\n";
    else if (type == "float") os << "  const real " << id << " = call.attr_float(" << quoted(a.name()) << ", " << attr_toml(a).second << ");\n";
    else if (type == "bool") os << "  const bool " << id << " = call.attr_bool(" << quoted(a.name()) << ", " << attr_toml(a).second << ");\n";
    else if (type == "string") os << "  const char* " << id << " = call.attr_str(" << quoted(a.name()) << ", " << attr_toml(a).second << ");\n";
    else os << "  const AocGoldenAttr* " << id << " = call.attr(" << quoted(a.name()) << ");  // list\n";
  }
  os << "  // for (int64_t i = 0; i < " << (def.outputs().empty() ? "out" : identifier(def.outputs().front().name()) + "_out")
     << ".size; ++i) ...\n"
     << "  return call.fail(\"golden.cpp is still the template written by ascendopt import: write the reference\");\n}\n";
  return os.str();
}

}  // namespace

GeneratedPackage generate_package(const fs::path& dir, const HostBuild& build) {
  const fs::path host = dir / "op_host", kernel = dir / "op_kernel";
  if (!fs::is_directory(host) || !fs::is_directory(kernel))
    throw ImportError(dir.string() + " is not an operator folder in the msopgen layout: it needs op_host/ (OpDef, "
                      "TilingFunc, <op>_tiling.h) and op_kernel/ (the extern \"C\" kernel)");
  const KernelEntry k = find_kernel_entry(kernel);
  const std::string name = package_name(host, k);
  const std::vector<std::string> types = op_add_types(host);
  if (types.empty())
    throw ImportError("op_host/ of " + dir.string() + " has no OP_ADD(...): the OpDef must be registered for import "
                      "to read its inputs, outputs and attributes");

  HostSources sources{name + " op_host (import)", host, kernel, host_cpp_files(host)};
  const HostLibrary b = build(sources);
  if (b.library.empty())
    throw ImportError("op_host/ does not compile against the AscendC headers of ascendopt: " + b.first_error +
                      "\n(docs/compat.md lists what is supported)");
  void* handle = dlopen(b.library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) throw ImportError(std::string("cannot load the op_host library: ") + dlerror());
  const ops::OpDef* def = aoc::host::OpRegistry::instance().find(types.front());
  if (def == nullptr) throw ImportError("loading op_host/ registered no operator " + types.front());

  GeneratedPackage g;
  g.result.name = name;
  g.result.op_type = def->type();
  g.result.kernel = k.symbol;
  if (types.size() > 1) g.result.notes.push_back("op_host/ registers several operators; imported " + types.front());
  const Variants v = usable_variants(*def);
  g.result.notes.insert(g.result.notes.end(), v.notes.begin(), v.notes.end());
  if (v.kept.empty())
    throw ImportError("no dtype combination of " + std::string(def->type()) + " is supported by op.toml (" +
                      (v.notes.empty() ? "the OpDef declares no dtypes" : v.notes.front()) + ")");
  const size_t expected = def->inputs().size() + def->outputs().size() + 2;
  if (k.params != expected)
    g.result.notes.push_back("the kernel " + k.symbol + " takes " + std::to_string(k.params) + " arguments; the OpDef " +
                             "implies " + std::to_string(expected) + " (inputs, outputs, workspace, tiling)");
  g.op_toml = generate_toml(name, *def, k, v, g.result.notes);
  g.golden = generate_golden(*def);
  return g;
}

ImportResult import_operator(const ImportOptions& opt, const HostBuild& build) {
  GeneratedPackage g = generate_package(opt.dir, build);
  const fs::path out = opt.out.empty() ? opt.dir : opt.out;
  g.result.op_toml = out / "op.toml";
  g.result.golden = out / "golden.cpp";
  for (const auto& p : {g.result.op_toml, g.result.golden})
    if (fs::exists(p) && !opt.force) throw ImportError(p.string() + " exists; pass --force to overwrite it");
  std::error_code ec;
  fs::create_directories(out, ec);
  if (out != opt.dir) {
    // The package is the operator folder plus the two files: copy op_host/ and op_kernel/ along.
    for (const char* sub : {"op_host", "op_kernel"})
      fs::copy(opt.dir / sub, out / sub, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
    if (ec) throw ImportError("cannot copy the operator folder to " + out.string() + ": " + ec.message());
  }
  std::ofstream(g.result.op_toml) << g.op_toml;
  std::ofstream(g.result.golden) << g.golden;
  if (!fs::exists(g.result.op_toml) || !fs::exists(g.result.golden))
    throw ImportError("cannot write " + g.result.op_toml.string() + " / golden.cpp");
  return g.result;
}

}  // namespace aoc::package
