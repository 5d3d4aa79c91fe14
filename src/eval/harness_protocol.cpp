#include "eval/harness_protocol.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <stdexcept>

#include <nlohmann/json.hpp>
#include <zstd.h>

#include "base/fd_write.h"
#include "base/file_text.h"
#include "runtime/large_buffer.h"

namespace aoc::eval {
namespace fs = std::filesystem;
using nlohmann::json;

fs::path input_file(const fs::path& dir, int trial, size_t i) {
  return dir / ("in_" + std::to_string(trial) + "_" + std::to_string(i) + ".bin");
}
fs::path output_file(const fs::path& dir, int trial, size_t o) {
  return dir / ("out_" + std::to_string(trial) + "_" + std::to_string(o) + ".bin");
}
fs::path trace_file(const fs::path& dir, int trial) { return dir / ("trace_" + std::to_string(trial) + ".bin"); }

namespace {

json tensor_json(const WireTensor& t) {
  return {{"name", t.name}, {"shape", t.shape}, {"dtype", aoc::package::info(t.dtype).name}, {"format", t.format}};
}

WireTensor tensor_from(const json& j) {
  WireTensor t;
  t.name = j.at("name").get<std::string>();
  t.shape = j.at("shape").get<std::vector<int64_t>>();
  const auto dt = aoc::package::parse_elem_type(j.at("dtype").get<std::string>());
  if (!dt) throw std::runtime_error("request: unknown dtype " + j.at("dtype").dump());
  t.dtype = *dt;
  t.format = j.at("format").get<std::string>();
  return t;
}

// JSON has no infinities or NaN (nlohmann writes them as null), yet an attribute may be one
// (a masked fill of -inf): such a float travels as the string "inf", "-inf" or "nan".
json float_json(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return x;
}

double float_from(const json& v) {
  if (!v.is_string()) return v.get<double>();
  const std::string s = v.get<std::string>();
  if (s == "inf") return std::numeric_limits<double>::infinity();
  if (s == "-inf") return -std::numeric_limits<double>::infinity();
  if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
  throw std::runtime_error("request: float attribute value \"" + s + "\" is not a number, inf, -inf or nan");
}

json attr_json(const aoc::package::AttrValue& v) {
  return std::visit([](const auto& x) -> json {
    using T = std::decay_t<decltype(x)>;
    if constexpr (std::is_same_v<T, double>) {
      return {{"type", "float"}, {"value", float_json(x)}};
    } else if constexpr (std::is_same_v<T, std::vector<double>>) {
      json list = json::array();
      for (const double e : x) list.push_back(float_json(e));
      return {{"type", "list_float"}, {"value", list}};
    } else {
      const char* tag = std::is_same_v<T, int64_t> ? "int"
                        : std::is_same_v<T, bool>  ? "bool"
                        : std::is_same_v<T, std::string> ? "string" : "list_int";
      return {{"type", tag}, {"value", x}};
    }
  }, v);
}

aoc::package::AttrValue attr_from(const json& j) {
  const std::string t = j.at("type").get<std::string>();
  const json& v = j.at("value");
  if (t == "int") return v.get<int64_t>();
  if (t == "float") return float_from(v);
  if (t == "bool") return v.get<bool>();
  if (t == "string") return v.get<std::string>();
  if (t == "list_int") return v.get<std::vector<int64_t>>();
  if (t == "list_float") {
    std::vector<double> out;
    for (const auto& e : v) out.push_back(float_from(e));
    return out;
  }
  throw std::runtime_error("request: unknown attribute type " + t);
}

json read_json(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  return json::parse(in);
}

// Fixed-size image of a TraceRecord with its strings replaced by table indices.
struct WireRecord {
  aoc::TraceRecord rec;
  uint32_t op = 0, file = 0;
};

// The engine indexes tables by these enums: a forged record must not reach it.
bool record_is_valid(const aoc::TraceRecord& r) {
  const auto pipes = static_cast<uint8_t>(aoc::Pipe::Count);
  auto space_ok = [](const aoc::Range& x) { return static_cast<uint8_t>(x.space) <= static_cast<uint8_t>(aoc::Space::FB); };
  if (static_cast<uint8_t>(r.kind) > static_cast<uint8_t>(aoc::RecKind::SyncAll)) return false;
  if (static_cast<uint8_t>(r.pipe) >= pipes || static_cast<uint8_t>(r.peer) >= pipes) return false;
  if (static_cast<uint8_t>(r.dtype) > static_cast<uint8_t>(aoc::DType::B1)) return false;
  if (static_cast<uint8_t>(r.dst_dtype) > static_cast<uint8_t>(aoc::DType::B1)) return false;
  if (r.nreads > 3 || !space_ok(r.write)) return false;
  for (int i = 0; i < r.nreads; ++i)
    if (!space_ok(r.reads[i])) return false;
  return true;
}

}  // namespace

json to_json(const TuningConfig& c) {
  json j = {{"knobs", json::object()}, {"cores", c.cores}, {"ub_bytes", c.ub_bytes}};
  for (const auto& [k, v] : c.knobs) j["knobs"][k] = v;
  return j;
}

TuningConfig tuning_config_from_json(const json& j) {
  try {
    TuningConfig c;
    const json knobs = j.value("knobs", json::object());  // items() must not outlive it
    for (const auto& [k, v] : knobs.items()) c.knobs[k] = v.get<int64_t>();
    c.cores = j.value("cores", 0u);
    c.ub_bytes = j.value("ub_bytes", uint64_t{0});
    return c;
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("malformed tuning configuration: ") + e.what());
  }
}

json to_json(const KnobDecl& k) {
  return {{"name", k.name}, {"default", k.default_value}, {"range", k.is_range}, {"values", k.values}, {"role", k.role}};
}

KnobDecl knob_decl_from_json(const json& j) {
  KnobDecl k;
  k.name = j.at("name").get<std::string>();
  k.default_value = j.at("default").get<int64_t>();
  k.is_range = j.at("range").get<bool>();
  k.values = j.at("values").get<std::vector<int64_t>>();
  k.role = j.at("role").get<int>();
  if (k.is_range && k.values.size() != 3) throw std::runtime_error("a range knob needs {lo, hi, step}");
  return k;
}

void write_request(const fs::path& dir, const HarnessRequest& r) {
  json j = {{"library", r.library}, {"kernel_symbol", r.kernel_symbol}, {"op_type", r.op_type},
            {"soc", r.soc},         {"trials", r.trials}};
  for (const auto& t : r.inputs) j["inputs"].push_back(tensor_json(t));
  for (const auto& t : r.outputs) j["outputs"].push_back(tensor_json(t));
  j["attrs"] = json::array();
  for (const auto& [n, v] : r.attrs) j["attrs"].push_back({{"name", n}, {"attr", attr_json(v)}});
  if (!r.config.empty()) j["config"] = to_json(r.config);
  if (r.tiling_only) j["tiling_only"] = true;
  for (const auto& trial : r.input_sources) {
    json& sources = j["input_sources"].emplace_back(json::array());
    for (const auto& in : trial) sources.push_back({{"path", in.path}, {"offset", in.offset}, {"bytes", in.bytes}});
  }
  base::write_text(dir / "request.json", j.dump());
}

HarnessRequest read_request(const fs::path& dir) {
  try {
    const json j = read_json(dir / "request.json");
    HarnessRequest r;
    r.library = j.at("library").get<std::string>();
    r.kernel_symbol = j.at("kernel_symbol").get<std::string>();
    r.op_type = j.at("op_type").get<std::string>();
    r.soc = j.at("soc").get<std::string>();
    r.trials = j.at("trials").get<int>();
    for (const auto& t : j.value("inputs", json::array())) r.inputs.push_back(tensor_from(t));
    for (const auto& t : j.value("outputs", json::array())) r.outputs.push_back(tensor_from(t));
    for (const auto& a : j.at("attrs")) r.attrs.emplace_back(a.at("name").get<std::string>(), attr_from(a.at("attr")));
    if (j.contains("config")) r.config = tuning_config_from_json(j.at("config"));
    r.tiling_only = j.value("tiling_only", false);
    for (const auto& trial : j.value("input_sources", json::array())) {
      r.input_sources.emplace_back();
      for (const auto& in : trial)
        r.input_sources.back().push_back(
            {in.at("path").get<std::string>(), in.at("offset").get<uint64_t>(), in.at("bytes").get<uint64_t>()});
    }
    return r;
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("malformed request.json: ") + e.what());
  }
}

namespace {

std::string statuses_text(const std::vector<TrialStatus>& s) {
  json j = json::array();
  for (const auto& t : s) {
    j.push_back({{"status", t.status}, {"message", t.message}, {"file", t.file}, {"line", t.line},
                 {"block_dim", t.block_dim}, {"tiling_key", t.tiling_key}});
    if (t.platform_reads != 0) j.back()["platform_reads"] = t.platform_reads;
    if (!t.tiling_digest.empty()) j.back()["tiling_digest"] = t.tiling_digest;
    if (t.config_read_by_kernel) j.back()["config_read_by_kernel"] = true;
    if (!t.knobs.empty()) {
      json& k = j.back()["knobs"];
      for (const auto& d : t.knobs) k.push_back(to_json(d));
    }
    if (!t.warnings.empty()) j.back()["warnings"] = t.warnings;
    if (!t.printed.empty()) j.back()["printed"] = t.printed;
  }
  return j.dump();
}

}  // namespace

void write_statuses(const fs::path& dir, const std::vector<TrialStatus>& s) {
  // Written whole then renamed: a child killed mid-write leaves no half result.
  base::write_text(dir / "result.json.tmp", statuses_text(s));
  fs::rename(dir / "result.json.tmp", dir / "result.json");
}

void write_statuses(int fd, const std::vector<TrialStatus>& s) {
  // A child killed mid-write leaves a half document, which read_statuses refuses like a missing one.
  const std::string text = statuses_text(s);
  write_bytes(fd, text.data(), text.size(), "result.json");
}

fs::path result_file(const fs::path& dir) { return dir / "result.json"; }

std::vector<TrialStatus> read_statuses(const fs::path& dir) {
  std::vector<TrialStatus> out;
  try {
    for (const auto& t : read_json(dir / "result.json")) {
      TrialStatus s;
      s.status = t.at("status").get<std::string>();
      s.message = t.at("message").get<std::string>();
      s.file = t.at("file").get<std::string>();
      s.line = t.at("line").get<unsigned>();
      s.block_dim = t.at("block_dim").get<uint32_t>();
      s.tiling_key = t.at("tiling_key").get<uint64_t>();
      for (const auto& k : t.value("knobs", json::array())) s.knobs.push_back(knob_decl_from_json(k));
      s.platform_reads = t.value("platform_reads", 0u);
      s.tiling_digest = t.value("tiling_digest", std::string());
      s.config_read_by_kernel = t.value("config_read_by_kernel", false);
      for (const auto& w : t.value("warnings", json::array())) s.warnings.push_back(w.get<std::string>());
      s.printed = t.value("printed", std::string());
      out.push_back(std::move(s));
    }
  } catch (const std::exception&) {
    out.clear();
  }
  return out;
}

void write_fd(int fd, const void* data, size_t n, const std::string& name) {
  if (!base::write_fully(fd, data, n)) throw std::runtime_error("cannot write " + name + ": " + std::strerror(errno));
}

void write_bytes(int fd, const void* data, size_t n, const std::string& name) {
  if (::ftruncate(fd, 0) != 0 || ::lseek(fd, 0, SEEK_SET) != 0)
    throw std::runtime_error("cannot write " + name + ": " + std::strerror(errno));
  write_fd(fd, data, n, name);
}

void write_bytes(const fs::path& p, const void* data, size_t n) {
  std::ofstream out(p, std::ios::binary);
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
  if (!out) throw std::runtime_error("cannot write " + p.string());
}

std::vector<unsigned char> read_bytes(const fs::path& p) {
  // One allocation of the file's size and whole reads: tensors are tens of MiB, and a
  // stream iterator appending byte by byte reallocated (and faulted in) every doubling.
  const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error("cannot read " + p.string() + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    throw std::runtime_error("cannot read " + p.string() + ": " + std::strerror(err));
  }
  std::vector<unsigned char> out;
  aoc::runtime::reserve_large(out, static_cast<size_t>(st.st_size));  // huge pages for a large tensor
  out.resize(static_cast<size_t>(st.st_size));
  size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::read(fd, out.data() + done, out.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      throw std::runtime_error("cannot read " + p.string() + ": " + std::strerror(err));
    }
    if (n == 0) break;  // the file shrank since fstat: keep what is there
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  out.resize(done);
  return out;
}

namespace {

constexpr size_t kMaxTraceBytes = size_t(4) << 30;

// Trace files are zstd streams: records are wide and repetitive (most fields zero or equal to
// the previous record's), so a long kernel's trace shrinks by an order of magnitude, which
// keeps it under the sandbox's file-size limit and makes it quick to write and read.
class CompressedWriter {
 public:
  // Writes to `fd` (not owned) from its current offset; `name` is for messages.
  CompressedWriter(int fd, std::string name) : fd_(fd), name_(std::move(name)), cctx_(ZSTD_createCCtx()) {
    if (cctx_ == nullptr) throw std::runtime_error("cannot write " + name_);
    ZSTD_CCtx_setParameter(cctx_, ZSTD_c_compressionLevel, 1);
    in_.reserve(kChunk);
    buf_.resize(ZSTD_CStreamOutSize());
  }
  ~CompressedWriter() { ZSTD_freeCCtx(cctx_); }
  CompressedWriter(const CompressedWriter&) = delete;
  CompressedWriter& operator=(const CompressedWriter&) = delete;

  void write(const void* data, size_t n) {
    const auto* c = static_cast<const char*>(data);
    in_.insert(in_.end(), c, c + n);
    if (in_.size() >= kChunk) flush(ZSTD_e_continue);
  }
  void finish() { flush(ZSTD_e_end); }

 private:
  static constexpr size_t kChunk = 1 << 20;
  void flush(ZSTD_EndDirective mode) {
    ZSTD_inBuffer in{in_.data(), in_.size(), 0};
    for (;;) {
      ZSTD_outBuffer out{buf_.data(), buf_.size(), 0};
      const size_t left = ZSTD_compressStream2(cctx_, &out, &in, mode);
      if (ZSTD_isError(left)) throw std::runtime_error("compressing " + name_ + ": " + ZSTD_getErrorName(left));
      write_fd(fd_, buf_.data(), out.pos, name_);
      if (mode == ZSTD_e_end ? left == 0 : in.pos == in.size) break;
    }
    in_.clear();
  }
  int fd_;
  std::string name_;
  ZSTD_CCtx* cctx_;
  std::vector<char> in_, buf_;
};

// The decompressed bytes of a trace file, refusing more than kMaxTraceBytes: the file comes
// from the untrusted child, and a small stream can expand without bound.
std::vector<unsigned char> read_compressed(const fs::path& p) {
  const std::vector<unsigned char> packed = read_bytes(p);
  ZSTD_DCtx* dctx = ZSTD_createDCtx();
  if (dctx == nullptr) throw std::runtime_error("cannot decompress " + p.string());
  std::vector<unsigned char> data;
  ZSTD_inBuffer in{packed.data(), packed.size(), 0};
  size_t last = 1;
  while (in.pos < in.size || last != 0) {
    const size_t before = data.size();
    data.resize(before + ZSTD_DStreamOutSize());
    ZSTD_outBuffer out{data.data() + before, ZSTD_DStreamOutSize(), 0};
    last = ZSTD_decompressStream(dctx, &out, &in);
    data.resize(before + out.pos);
    if (ZSTD_isError(last)) {
      ZSTD_freeDCtx(dctx);
      throw std::runtime_error("trace file " + p.string() + " is corrupt: " + ZSTD_getErrorName(last));
    }
    if (data.size() > kMaxTraceBytes) {
      ZSTD_freeDCtx(dctx);
      throw std::runtime_error("trace file " + p.string() + " expands beyond " + std::to_string(kMaxTraceBytes >> 30) +
                               " GiB; the kernel issues too many instructions to simulate");
    }
    if (in.pos == in.size && out.pos == 0 && last != 0) {
      ZSTD_freeDCtx(dctx);
      throw std::runtime_error("trace file " + p.string() + " is truncated");
    }
  }
  ZSTD_freeDCtx(dctx);
  return data;
}

}  // namespace

void write_traces(const fs::path& p, const std::vector<aoc::runtime::CoreRun>& cores, const std::vector<GmSpan>& outputs) {
  const int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) throw std::runtime_error("cannot write " + p.string() + ": " + std::strerror(errno));
  try {
    write_traces(fd, cores, p.string(), outputs);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
}

void write_traces(int fd, const std::vector<aoc::runtime::CoreRun>& cores, const std::string& name,
                  const std::vector<GmSpan>& outputs) {
  if (::ftruncate(fd, 0) != 0 || ::lseek(fd, 0, SEEK_SET) != 0)
    throw std::runtime_error("cannot write " + name + ": " + std::strerror(errno));
  CompressedWriter out(fd, name);
  std::map<std::string, uint32_t> ids;
  std::vector<const std::string*> table;
  auto id = [&](const char* s) {
    auto [it, inserted] = ids.emplace(s == nullptr ? "" : s, static_cast<uint32_t>(table.size()));
    if (inserted) table.push_back(&it->first);
    return it->second;
  };
  auto put = [&](const auto& v) { out.write(&v, sizeof(v)); };
  put(static_cast<uint64_t>(cores.size()));
  for (const auto& c : cores) {
    put(c.core_type);
    put(c.block_idx);
    put(c.group);
    put(c.sub_block_idx);
    put(c.api_blocks);
    put(static_cast<uint64_t>(c.trace.records.size()));
    for (const auto& r : c.trace.records) {
      WireRecord w{r, id(r.op), id(r.file)};
      w.rec.op = nullptr;
      w.rec.file = nullptr;
      put(w);
    }
  }
  put(static_cast<uint64_t>(table.size()));
  for (const auto* s : table) {
    put(static_cast<uint64_t>(s->size()));
    out.write(s->data(), s->size());
  }
  put(static_cast<uint64_t>(outputs.size()));
  for (const GmSpan& o : outputs) {
    put(o.lo);
    put(o.hi);
  }
  out.finish();
}

TraceSet read_traces(const fs::path& p) {
  const std::vector<unsigned char> data = read_compressed(p);
  size_t pos = 0;
  auto get = [&](auto& v) {
    if (pos + sizeof(v) > data.size()) throw std::runtime_error("trace file " + p.string() + " is truncated");
    std::memcpy(&v, data.data() + pos, sizeof(v));
    pos += sizeof(v);
  };
  TraceSet ts;
  std::vector<std::pair<uint32_t, uint32_t>> refs;  // per record: op, file ids
  uint64_t ncores = 0;
  get(ncores);
  if (ncores > 1u << 20) throw std::runtime_error("trace file " + p.string() + " claims too many cores");
  for (uint64_t c = 0; c < ncores; ++c) {
    aoc::runtime::CoreRun run;
    get(run.core_type);
    get(run.block_idx);
    get(run.group);
    get(run.sub_block_idx);
    get(run.api_blocks);
    uint64_t n = 0;
    get(n);
    if (n > (data.size() - pos) / sizeof(WireRecord)) throw std::runtime_error("trace file " + p.string() + " is truncated");
    run.trace.records.resize(n);
    for (auto& r : run.trace.records) {
      WireRecord w;
      get(w);
      r = w.rec;
      if (!record_is_valid(r)) throw std::runtime_error("trace file " + p.string() + " holds an invalid record");
      refs.emplace_back(w.op, w.file);
    }
    ts.cores.push_back(std::move(run));
  }
  uint64_t nstr = 0;
  get(nstr);
  std::vector<const char*> table;
  for (uint64_t i = 0; i < nstr; ++i) {
    uint64_t len = 0;
    get(len);
    if (len > data.size() - pos) throw std::runtime_error("trace file " + p.string() + " is truncated");
    ts.strings.emplace_back(reinterpret_cast<const char*>(data.data() + pos), len);
    pos += len;
    table.push_back(ts.strings.back().c_str());
  }
  // Files written before the outputs' addresses were recorded end here.
  uint64_t nout = 0;
  if (pos < data.size()) get(nout);
  if (nout > (data.size() - pos) / (2 * sizeof(uint64_t)))
    throw std::runtime_error("trace file " + p.string() + " is truncated");
  ts.outputs.resize(nout);
  for (auto& o : ts.outputs) {
    get(o.lo);
    get(o.hi);
  }
  size_t k = 0;
  for (auto& c : ts.cores)
    for (auto& r : c.trace.records) {
      const auto [op, file] = refs[k++];
      if (op >= table.size() || file >= table.size())
        throw std::runtime_error("trace file " + p.string() + " names a string it does not hold");
      r.op = table[op];
      r.file = table[file];
    }
  return ts;
}

}  // namespace aoc::eval
