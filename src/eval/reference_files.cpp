#include "eval/reference_files.h"

#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <span>
#include <system_error>
#include <vector>

#include "base/content_hash.h"
#include "base/published_file.h"
#include "build/program_identity.h"
#include "package/dtype.h"

namespace aoc::eval {
namespace fs = std::filesystem;
namespace {

constexpr char kMagic[8] = {'A', 'O', 'C', 'R', 'E', 'F', '1', '\n'};        // the payload compressed
constexpr char kStoredMagic[8] = {'A', 'O', 'C', 'R', 'E', 'F', 'S', '\n'};  // the payload as it is
constexpr char kInputMagic[8] = {'A', 'O', 'C', 'I', 'N', 'P', '1', '\n'};
// Each tensor's bytes start at a multiple of this in an inputs file: a page, so that the harness
// can map a tensor as its GM buffer.
constexpr size_t kInputAlign = 4096;

size_t align_up(size_t n) { return (n + kInputAlign - 1) / kInputAlign * kInputAlign; }
std::atomic<size_t> g_hits{0}, g_input_hits{0};
constexpr int kZstdLevel = 1;  // fast; outputs are already narrowed, so little is left to squeeze

// Flat little-endian encoding of an entry; every read is bounds-checked, so a damaged
// payload throws instead of reading past its end.
class Writer {
 public:
  template <class T>
  void pod(T v) {
    const auto* p = reinterpret_cast<const unsigned char*>(&v);
    out.insert(out.end(), p, p + sizeof(T));
  }
  void bytes(const void* data, size_t n) {
    pod<uint64_t>(n);
    const auto* p = static_cast<const unsigned char*>(data);
    out.insert(out.end(), p, p + n);
  }
  void str(const std::string& s) { bytes(s.data(), s.size()); }
  std::vector<unsigned char> out;
};

class Reader {
 public:
  Reader(const unsigned char* p, size_t n) : begin_(p), p_(p), end_(p + n) {}
  template <class T>
  T pod() {
    need(sizeof(T));
    T v;
    std::memcpy(&v, p_, sizeof(T));
    p_ += sizeof(T);
    return v;
  }
  size_t offset() const { return static_cast<size_t>(p_ - begin_); }
  const unsigned char* bytes(size_t& n) {
    n = pod<uint64_t>();
    need(n);
    const unsigned char* at = p_;
    p_ += n;
    return at;
  }
  std::string str() {
    size_t n = 0;
    const unsigned char* p = bytes(n);
    return std::string(reinterpret_cast<const char*>(p), n);
  }
  bool done() const { return p_ == end_; }

 private:
  void need(size_t n) const {
    if (static_cast<size_t>(end_ - p_) < n) throw std::runtime_error("truncated reference entry");
  }
  const unsigned char* begin_;
  const unsigned char* p_;
  const unsigned char* end_;
};

// The narrowest type among half, bfloat16 and float that holds every value of `v` bit for bit
// (any NaN stands for NaN: the judge only asks whether a value is NaN), else double.
aoc::package::ElemType narrowest_exact(const std::vector<double>& v, bool& as_double) {
  using aoc::package::ElemType;
  for (ElemType t : {ElemType::F16, ElemType::BF16, ElemType::F32}) {
    const bool exact = std::all_of(v.begin(), v.end(), [t](double x) {
      const double r = aoc::package::round_to(t, x);
      return std::isnan(x) ? std::isnan(r) : std::memcmp(&r, &x, sizeof x) == 0;
    });
    if (exact) {
      as_double = false;
      return t;
    }
  }
  as_double = true;
  return ElemType::F32;
}

constexpr uint8_t kAsDouble = 0xff;

std::vector<unsigned char> encode(const std::string& key, const TrialReferences& outputs) {
  Writer w;
  w.str(key);
  w.pod<uint32_t>(static_cast<uint32_t>(outputs.size()));
  for (const auto& r : outputs) {
    w.pod<uint8_t>(r.ok ? 1 : 0);
    w.str(r.error);
    w.pod<uint32_t>(static_cast<uint32_t>(r.outputs.size()));
    for (const auto& o : r.outputs) {
      bool as_double = false;
      const aoc::package::ElemType t = narrowest_exact(o, as_double);
      if (as_double) {
        w.pod<uint8_t>(kAsDouble);
        w.bytes(o.data(), o.size() * sizeof(double));
        continue;
      }
      aoc::package::TypedBuffer narrow(t, o.size());
      for (size_t i = 0; i < o.size(); ++i) narrow.set(i, o[i]);
      w.pod<uint8_t>(static_cast<uint8_t>(t));
      w.bytes(narrow.bytes.data(), narrow.bytes.size());
    }
  }
  return std::move(w.out);
}

std::optional<TrialReferences> decode(const std::string& key, const unsigned char* p, size_t n) {
  Reader r(p, n);
  if (r.str() != key) return std::nullopt;  // another key of the same file name: not ours
  TrialReferences outputs(r.pod<uint32_t>());
  for (auto& res : outputs) {
    res.ok = r.pod<uint8_t>() != 0;
    res.error = r.str();
    res.outputs.resize(r.pod<uint32_t>());
    for (auto& o : res.outputs) {
      const uint8_t tag = r.pod<uint8_t>();
      size_t len = 0;
      const unsigned char* b = r.bytes(len);
      if (tag == kAsDouble) {
        if (len % sizeof(double) != 0) throw std::runtime_error("reference output of odd length");
        o.resize(len / sizeof(double));
        std::memcpy(o.data(), b, len);
        continue;
      }
      using aoc::package::ElemType;
      const auto t = static_cast<ElemType>(tag);
      if (t != ElemType::F16 && t != ElemType::BF16 && t != ElemType::F32)
        throw std::runtime_error("unknown output encoding");
      const size_t width = aoc::package::info(t).bytes;
      if (len % width != 0) throw std::runtime_error("reference output of odd length");
      o = aoc::package::to_double(t, b, len / width);  // from the payload, without a copy of the narrow bytes
    }
  }
  if (!r.done()) throw std::runtime_error("trailing bytes in a reference entry");
  return outputs;
}

// An inputs file: kInputMagic, the XXH3 of everything after the first 24 bytes, the size of
// the table, the table (the key, then per trial and tensor its name, dtype, shape and where its
// bytes lie after the table), then zero bytes up to a multiple of kInputAlign before the bytes of
// each tensor.
constexpr size_t kInputHeader = sizeof kInputMagic + 2 * sizeof(uint64_t);

std::vector<unsigned char> input_table(const std::string& key, const CaseInputs& inputs, size_t& data_bytes) {
  Writer w;
  w.str(key);
  w.pod<uint32_t>(static_cast<uint32_t>(inputs.trials()));
  data_bytes = 0;
  for (size_t t = 0; t < inputs.trials(); ++t) {
    const std::vector<aoc::package::CaseTensor>& tensors = inputs.tensors(t);
    w.pod<uint32_t>(static_cast<uint32_t>(tensors.size()));
    for (size_t i = 0; i < tensors.size(); ++i) {
      const auto& x = tensors[i];
      w.str(x.name);
      w.pod<uint8_t>(static_cast<uint8_t>(x.data.type));
      w.pod<uint32_t>(static_cast<uint32_t>(x.shape.size()));
      for (int64_t d : x.shape) w.pod<int64_t>(d);
      w.pod<uint64_t>(x.data.count);
      data_bytes = align_up(data_bytes);
      w.pod<uint64_t>(data_bytes);
      w.pod<uint64_t>(inputs.bytes(t, i).size());
      data_bytes += inputs.bytes(t, i).size();
    }
  }
  return std::move(w.out);
}

size_t aligned_input_data(size_t table_size) { return align_up(kInputHeader + table_size); }

// Throws std::runtime_error when the table or the file's size disagree.
std::shared_ptr<const CaseInputs> decode_inputs(const std::string& key, std::shared_ptr<const base::MappedFile> file,
                                                size_t table_size, size_t trials) {
  using aoc::package::ElemType;
  Reader r(file->data() + kInputHeader, table_size);
  if (r.str() != key) return nullptr;
  const size_t stored = r.pod<uint32_t>();
  if (stored < trials) return nullptr;
  const size_t data_at = aligned_input_data(table_size);
  const size_t data_size = file->size() - data_at;
  std::vector<std::vector<aoc::package::CaseTensor>> described(trials);
  std::vector<std::vector<std::span<const unsigned char>>> bytes(trials);
  size_t end = 0;
  for (size_t t = 0; t < stored; ++t) {
    const size_t n = r.pod<uint32_t>();
    for (size_t i = 0; i < n; ++i) {
      aoc::package::CaseTensor x;
      x.name = r.str();
      x.data.type = static_cast<ElemType>(r.pod<uint8_t>());
      if (x.data.type > ElemType::Bool) throw std::runtime_error("unknown input dtype");
      x.shape.resize(r.pod<uint32_t>());
      for (int64_t& d : x.shape) d = r.pod<int64_t>();
      x.data.count = r.pod<uint64_t>();
      const uint64_t at = r.pod<uint64_t>(), size = r.pod<uint64_t>();
      if (at != align_up(end) || at > data_size || size > data_size - at || size / aoc::package::info(x.data.type).bytes != x.data.count ||
          size % aoc::package::info(x.data.type).bytes != 0)
        throw std::runtime_error("input tensor outside its file");
      end = at + size;
      if (t >= trials) continue;
      described[t].push_back(std::move(x));
      bytes[t].emplace_back(file->data() + data_at + at, size);
    }
  }
  if (!r.done() || end != data_size) throw std::runtime_error("inputs file of the wrong size");
  return std::make_shared<CaseInputs>(std::move(file), std::move(described), std::move(bytes));
}

}  // namespace

ReferenceFiles::ReferenceFiles(fs::path dir, size_t max_bytes)
    : dir_(std::move(dir)), max_bytes_(build::program_identity() == "unknown" ? 0 : max_bytes) {}

ReferenceFiles ReferenceFiles::in_cache(const fs::path& cache_dir, const std::vector<fs::path>& shared_caches) {
  ReferenceFiles f(cache_dir / "references", cache_dir.empty() ? 0 : megabytes_from_environment("AOC_REFERENCE_DISK_MB", 2048));
  for (const auto& c : shared_caches) f.read_only_dirs_.push_back(c / "references");
  return f;
}

fs::path ReferenceFiles::file_of(const std::string& key, const char* extension) const {
  return dir_ / (base::ContentHash().add(build::program_identity()).add(key).hex() + extension);
}

std::vector<fs::path> ReferenceFiles::files_of(const std::string& key, const char* extension) const {
  std::vector<fs::path> files;
  const fs::path own = file_of(key, extension);
  for (const auto& d : read_only_dirs_) files.push_back(d / own.filename());
  files.push_back(own);
  return files;
}

std::optional<TrialReferences> ReferenceFiles::load(const std::string& key, size_t trials) const {
  auto e = read_entry(key, trials);
  if (e) ++g_hits;
  return e;
}

bool ReferenceFiles::holds(const std::string& key, size_t trials) const { return read_entry(key, trials).has_value(); }

std::optional<TrialReferences> ReferenceFiles::read_entry(const std::string& key, size_t trials) const {
  if (!enabled()) return std::nullopt;
  for (const auto& file : files_of(key, ".ref"))
    if (auto e = read_entry_file(file, key, trials)) return e;
  return std::nullopt;
}

std::optional<TrialReferences> ReferenceFiles::read_entry_file(const fs::path& file, const std::string& key,
                                                               size_t trials) const {
  const std::shared_ptr<const base::MappedFile> raw = base::MappedFile::open(file);
  if (!raw) return std::nullopt;  // absent or unreadable: computed again
  constexpr size_t kHeader = sizeof kMagic + 2 * sizeof(uint64_t);
  if (raw->size() < kHeader) return std::nullopt;
  const bool stored = std::memcmp(raw->data(), kStoredMagic, sizeof kStoredMagic) == 0;
  if (!stored && std::memcmp(raw->data(), kMagic, sizeof kMagic) != 0) return std::nullopt;
  uint64_t sum = 0, size = 0;
  std::memcpy(&sum, raw->data() + sizeof kMagic, sizeof sum);
  std::memcpy(&size, raw->data() + sizeof kMagic + sizeof sum, sizeof size);
  const unsigned char* body = raw->data() + kHeader;
  const size_t body_size = raw->size() - kHeader;
  if (XXH3_64bits(body, body_size) != sum) return std::nullopt;
  std::vector<unsigned char> payload;
  if (stored) {
    if (body_size != size) return std::nullopt;
  } else {
    if (ZSTD_getFrameContentSize(body, body_size) != size) return std::nullopt;
    payload.resize(size);
    const size_t got = ZSTD_decompress(payload.data(), payload.size(), body, body_size);
    if (ZSTD_isError(got) || got != size) return std::nullopt;
  }
  std::optional<TrialReferences> e;
  try {
    e = stored ? decode(build::program_identity() + "|" + key, body, body_size)
               : decode(build::program_identity() + "|" + key, payload.data(), payload.size());
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (!e || e->size() < trials) return std::nullopt;
  e->resize(trials);
  std::error_code ec;
  // Recency for the budget, of this store's own files: a shared cache is never written.
  if (file.parent_path() == dir_) fs::last_write_time(file, fs::file_time_type::clock::now(), ec);
  return e;
}

size_t ReferenceFiles::hits() { return g_hits.load(); }
size_t ReferenceFiles::input_hits() { return g_input_hits.load(); }

std::shared_ptr<const CaseInputs> ReferenceFiles::load_inputs(const std::string& key, size_t trials) const {
  if (!enabled()) return nullptr;
  for (const auto& file : files_of(key, ".in"))
    if (auto inputs = load_inputs_file(file, key, trials)) return inputs;
  return nullptr;
}

std::shared_ptr<const CaseInputs> ReferenceFiles::load_inputs_file(const fs::path& file, const std::string& key,
                                                                   size_t trials) const {
  std::shared_ptr<const base::MappedFile> mapped = base::MappedFile::open(file);
  if (!mapped || mapped->size() < kInputHeader || std::memcmp(mapped->data(), kInputMagic, sizeof kInputMagic) != 0)
    return nullptr;
  uint64_t sum = 0, table_size = 0;
  std::memcpy(&sum, mapped->data() + sizeof kInputMagic, sizeof sum);
  std::memcpy(&table_size, mapped->data() + sizeof kInputMagic + sizeof sum, sizeof table_size);
  if (table_size > mapped->size() || aligned_input_data(table_size) > mapped->size()) return nullptr;
  if (XXH3_64bits(mapped->data() + kInputHeader, mapped->size() - kInputHeader) != sum) return nullptr;
  std::shared_ptr<const CaseInputs> inputs;
  try {
    inputs = decode_inputs(build::program_identity() + "|" + key, std::move(mapped), table_size, trials);
  } catch (const std::exception&) {
    return nullptr;
  }
  if (!inputs) return nullptr;
  ++g_input_hits;
  std::error_code ec;
  // Recency for the budget, of this store's own files: a shared cache is never written.
  if (file.parent_path() == dir_) fs::last_write_time(file, fs::file_time_type::clock::now(), ec);
  return inputs;
}

void ReferenceFiles::save_inputs(const std::string& key, const CaseInputs& inputs) const {
  if (!enabled() || inputs.trials() == 0 || inputs.total_bytes() > max_bytes_ / 2) return;
  if (load_inputs(key, inputs.trials())) return;
  size_t data_bytes = 0;
  const std::vector<unsigned char> table = input_table(build::program_identity() + "|" + key, inputs, data_bytes);
  std::vector<unsigned char> head(aligned_input_data(table.size()), 0);
  std::memcpy(head.data(), kInputMagic, sizeof kInputMagic);
  const uint64_t table_size = table.size();
  std::memcpy(head.data() + sizeof kInputMagic + sizeof(uint64_t), &table_size, sizeof table_size);
  std::memcpy(head.data() + kInputHeader, table.data(), table.size());
  std::vector<std::span<const unsigned char>> parts = {{head.data() + kInputHeader, head.size() - kInputHeader}};
  static const std::vector<unsigned char> zeros(kInputAlign, 0);
  size_t at = 0;
  for (size_t t = 0; t < inputs.trials(); ++t)
    for (size_t i = 0; i < inputs.count(t); ++i) {
      if (align_up(at) != at) parts.push_back({zeros.data(), align_up(at) - at});
      parts.push_back(inputs.bytes(t, i));
      at = align_up(at) + inputs.bytes(t, i).size();
    }
  XXH3_state_t* state = XXH3_createState();
  if (state == nullptr) return;
  XXH3_64bits_reset(state);
  for (const auto& part : parts) XXH3_64bits_update(state, part.data(), part.size());
  const uint64_t sum = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  std::memcpy(head.data() + sizeof kInputMagic, &sum, sizeof sum);
  parts.front() = {head.data(), head.size()};
  if (publish(file_of(key, ".in"), parts)) keep_to_budget();
}

bool ReferenceFiles::publish(const fs::path& file, const std::vector<std::span<const unsigned char>>& parts) const {
  return base::publish(file, [&](const fs::path& temp) {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    for (const auto& part : parts)
      out.write(reinterpret_cast<const char*>(part.data()), static_cast<std::streamsize>(part.size()));
    out.close();
    return static_cast<bool>(out);
  });
}

void ReferenceFiles::save(const std::string& key, const TrialReferences& outputs) const {
  if (!enabled() || outputs.empty() || holds(key, outputs.size())) return;
  const std::vector<unsigned char> payload = encode(build::program_identity() + "|" + key, outputs);
  if (payload.size() > max_bytes_ / 2) return;
  std::vector<unsigned char> packed(ZSTD_compressBound(payload.size()));
  const size_t n = ZSTD_compress(packed.data(), packed.size(), payload.data(), payload.size(), kZstdLevel);
  if (ZSTD_isError(n)) return;
  // Outputs that compression shrinks by less than a quarter (rounded half values) are stored as
  // they are: reading them is then one checksum and no decompression.
  const bool store = n > payload.size() / 4 * 3;
  const unsigned char* body = store ? payload.data() : packed.data();
  const size_t body_size = store ? payload.size() : n;
  const uint64_t sum = XXH3_64bits(body, body_size), size = payload.size();
  std::vector<unsigned char> head(store ? kStoredMagic : kMagic, (store ? kStoredMagic : kMagic) + sizeof kMagic);
  head.insert(head.end(), reinterpret_cast<const unsigned char*>(&sum), reinterpret_cast<const unsigned char*>(&sum + 1));
  head.insert(head.end(), reinterpret_cast<const unsigned char*>(&size), reinterpret_cast<const unsigned char*>(&size + 1));
  if (publish(file_of(key), {{head.data(), head.size()}, {body, body_size}})) keep_to_budget();
}

// Least recently used files go first; a temporary file an hour old was left by a process that
// died while writing it.
void ReferenceFiles::keep_to_budget() const {
  struct File {
    fs::path path;
    fs::file_time_type time;
    uintmax_t size;
  };
  std::vector<File> files;
  uintmax_t total = 0;
  const auto stale = fs::file_time_type::clock::now() - std::chrono::hours(1);
  std::error_code ec;
  for (const auto& d : fs::directory_iterator(dir_, ec)) {
    std::error_code e2;
    const auto time = d.last_write_time(e2);
    const uintmax_t size = d.file_size(e2);
    if (e2) continue;
    if (d.path().extension() != ".ref" && d.path().extension() != ".in") {
      const std::string name = d.path().string();
      const bool temporary = name.find(".ref.tmp.") != std::string::npos || name.find(".in.tmp.") != std::string::npos;
      if (temporary && time < stale) fs::remove(d.path(), e2);
      continue;
    }
    files.push_back({d.path(), time, size});
    total += size;
  }
  if (total <= max_bytes_) return;
  std::sort(files.begin(), files.end(), [](const File& a, const File& b) { return a.time < b.time; });
  for (const File& f : files) {
    if (total <= max_bytes_) break;
    std::error_code e2;
    if (fs::remove(f.path, e2)) total -= f.size;
  }
}

}  // namespace aoc::eval
