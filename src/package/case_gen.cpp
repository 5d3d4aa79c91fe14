#include "package/case_gen.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "base/rng.h"
#include "package/case_inputs.h"

namespace aoc::package {

std::optional<CaseSet> parse_case_set(const std::string& s) {
  if (s == "public") return CaseSet::Public;
  if (s == "hidden") return CaseSet::Hidden;
  if (s == "all") return CaseSet::All;
  return std::nullopt;
}

uint64_t hidden_seed_from_environment() {
  if (const char* env = std::getenv("ASCENDOPT_HIDDEN_SEED"); env != nullptr && *env != '\0') {
    try {
      size_t used = 0;
      const uint64_t v = std::stoull(env, &used, 0);
      if (used == std::string(env).size()) return v;
    } catch (const std::exception&) {
    }
    throw std::invalid_argument(std::string("ASCENDOPT_HIDDEN_SEED='") + env +
                                "' is not a number; set it to a decimal or 0x-hex seed, or unset it for a fresh one");
  }
  std::random_device rd;
  return (static_cast<uint64_t>(rd()) << 32) ^ rd();
}

namespace {

bool is_prime(int64_t n) {
  if (n < 2) return false;
  for (int64_t d = 2; d * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}

int64_t prime_at_or_above(int64_t n) {
  n = std::max<int64_t>(n, 2);
  while (!is_prime(n)) ++n;
  return n;
}

// Uniform integer in [lo, hi].
int64_t pick(base::Xoshiro256& rng, int64_t lo, int64_t hi) {
  return lo + static_cast<int64_t>(rng.next() % static_cast<uint64_t>(hi - lo + 1));
}

int64_t log_uniform(base::Xoshiro256& rng, int64_t lo, int64_t hi) {
  const double v = std::exp(rng.uniform(std::log(static_cast<double>(lo)), std::log(static_cast<double>(hi) + 1.0)));
  return std::clamp<int64_t>(static_cast<int64_t>(v), lo, hi);
}

// Innermost dimensions the evaluation standard names: primes and near-powers of two
// whose byte lengths miss every 512 B boundary.
constexpr int64_t kBiasedInner[] = {3, 7, 13, 31, 127, 257, 769, 1009, 1021, 1537, 4097, 8191, 65537, 1000003};

// Size of a dimension near `target`: half the time the next prime (odd lengths exercise
// tails), a quarter a multiple of the 512 B granule, else the target itself.
int64_t biased_dim(base::Xoshiro256& rng, int64_t target, int64_t elem_bytes, int64_t lo, int64_t hi) {
  target = std::clamp(target, lo, hi);
  const double u = rng.unit();
  int64_t d = target;
  if (u < 0.5) {
    d = prime_at_or_above(target);
  } else if (u < 0.75) {
    const int64_t granule = std::max<int64_t>(1, 512 / elem_bytes);
    d = std::max<int64_t>(granule, target / granule * granule);
  }
  return d <= hi ? d : target;
}

int64_t innermost_any(base::Xoshiro256& rng, const HiddenSpec& h, int64_t elements, int64_t elem_bytes, int64_t rank);

// The innermost dimension, rounded down to the package's inner_multiple (never below it); of a
// rank-1 shape, to the elements_multiple too.
int64_t innermost(base::Xoshiro256& rng, const HiddenSpec& h, int64_t elements, int64_t elem_bytes, int64_t rank) {
  const int64_t d = innermost_any(rng, h, elements, elem_bytes, rank);
  int64_t k = std::max<int64_t>(h.inner_multiple, 1);
  if (rank == 1) k = std::lcm(k, std::max<int64_t>(h.elements_multiple, 1));
  return std::max(k, d / k * k);
}

int64_t innermost_any(base::Xoshiro256& rng, const HiddenSpec& h, int64_t elements, int64_t elem_bytes, int64_t rank) {
  const int64_t hi = std::min(h.inner_max > 0 ? h.inner_max : elements, elements);
  const int64_t lo = std::min(h.inner_min, hi);
  if (rank == 1) return biased_dim(rng, elements, elem_bytes, lo, hi);
  std::vector<int64_t> listed;
  for (int64_t d : kBiasedInner)
    if (d >= lo && d <= hi) listed.push_back(d);
  if (!listed.empty() && rng.unit() < 0.4) return listed[rng.next() % listed.size()];
  // Otherwise a log-uniform length, biased like every other dimension.
  return biased_dim(rng, log_uniform(rng, lo, hi), elem_bytes, lo, hi);
}

int64_t needed_rank(const std::vector<int64_t>& idx) {
  int64_t r = 0;
  for (int64_t i : idx) r = std::max(r, i >= 0 ? i + 1 : -i);
  return r;
}

}  // namespace

std::map<std::string, std::vector<int64_t>> input_shapes_from_first(const OpPackage& p,
                                                                   const std::vector<int64_t>& first) {
  std::map<std::string, std::vector<int64_t>> shapes;
  const auto rank = static_cast<int64_t>(first.size());
  for (const auto& in : p.inputs) {
    auto it = p.hidden.input_dims.find(in.name);
    if (it == p.hidden.input_dims.end()) {
      shapes[in.name] = first;
      continue;
    }
    std::vector<int64_t> dims;
    for (int64_t k : it->second) dims.push_back(first[static_cast<size_t>(k >= 0 ? k : rank + k)]);
    shapes[in.name] = dims.empty() ? std::vector<int64_t>{1} : dims;
  }
  return shapes;
}

int64_t least_rank(const HiddenSpec& h) {
  int64_t r = h.rank_min;
  for (const auto& [name, idx] : h.input_dims) r = std::max(r, needed_rank(idx));
  return r;
}

std::string shape_outside_declared(const HiddenSpec& h, const std::vector<int64_t>& first) {
  const auto rank = static_cast<int64_t>(first.size());
  if (rank < least_rank(h) || rank > std::max(least_rank(h), h.rank_max))
    return "rank " + std::to_string(rank) + " is outside [hidden].rank";
  for (int64_t d : first)
    if (d < 1) return "a dimension below 1";
  const int64_t inner = first.back();
  if (inner < h.inner_min || (h.inner_max > 0 && inner > h.inner_max))
    return "innermost dimension " + std::to_string(inner) + " is outside [hidden].inner";
  if (h.inner_multiple > 1 && inner % h.inner_multiple != 0)
    return "innermost dimension " + std::to_string(inner) + " is not a multiple of [hidden].inner_multiple";
  int64_t n = 1;
  for (int64_t d : first) n *= d;
  if (h.elements_multiple > 1 && n % h.elements_multiple != 0)
    return std::to_string(n) + " elements are not a multiple of [hidden].elements_multiple";
  return "";
}

std::string declared_support(const HiddenSpec& h) {
  std::vector<std::string> parts;
  if (least_rank(h) != 1 || h.rank_max != 5) parts.push_back("rank " + std::to_string(least_rank(h)) + ".." +
                                                              std::to_string(std::max(least_rank(h), h.rank_max)));
  if (h.inner_min > 1 || h.inner_max > 0)
    parts.push_back("innermost " + std::to_string(h.inner_min) + ".." + (h.inner_max > 0 ? std::to_string(h.inner_max) : "any"));
  if (h.inner_multiple > 1) parts.push_back("innermost a multiple of " + std::to_string(h.inner_multiple));
  if (h.elements_multiple > 1) parts.push_back("elements a multiple of " + std::to_string(h.elements_multiple));
  std::string out;
  for (const auto& part : parts) out += (out.empty() ? "" : ", ") + part;
  return out;
}

std::vector<CaseSpec> generate_hidden_cases(const OpPackage& p, const HiddenDraw& draw) {
  const HiddenSpec& h = p.hidden;
  const int64_t count = draw.count > 0 ? draw.count : h.count;
  const int64_t max_elements = draw.max_elements > 0 ? std::min(draw.max_elements, h.elements_max) : h.elements_max;
  const int64_t min_elements = std::min(h.elements_min, max_elements);
  const int64_t rank_min = least_rank(h);
  const int64_t rank_max = std::max(rank_min, h.rank_max);
  std::vector<size_t> variants = h.variants;
  if (variants.empty())
    for (size_t v = 0; v < p.variant_count(); ++v) variants.push_back(v);

  std::vector<CaseSpec> out;
  for (int64_t i = 0; i < count; ++i) {
    base::Xoshiro256 rng(base::mix_seed(draw.seed, static_cast<uint64_t>(i), 0x68696464656eull));
    CaseSpec c;
    c.name = "hidden_" + std::to_string(i);
    c.variant = variants[rng.next() % variants.size()];
    const int64_t elem_bytes = static_cast<int64_t>(info(p.inputs.front().dtypes[c.variant]).bytes);
    const int64_t rank = pick(rng, rank_min, rank_max);
    const int64_t elements = log_uniform(rng, min_elements, max_elements);

    std::vector<int64_t> shape{innermost(rng, h, elements, elem_bytes, rank)};
    int64_t outer = std::max<int64_t>(1, elements / shape.front());
    for (int64_t left = rank - 1; left > 0; --left) {
      const auto target = static_cast<int64_t>(std::llround(std::pow(static_cast<double>(outer), 1.0 / left)));
      const int64_t d = left == 1 ? std::max<int64_t>(1, outer)
                                  : biased_dim(rng, std::max<int64_t>(1, target), elem_bytes, 1, std::max<int64_t>(1, outer));
      shape.insert(shape.begin(), d);
      outer = std::max<int64_t>(1, outer / d);
    }

    // An element count the operator requires to be a multiple: the outermost dimension is rounded
    // down to a multiple of the least factor q that makes the count one, and kept within the
    // largest count allowed (never below q itself), instead of growing by up to the multiple.
    if (const int64_t m = std::max<int64_t>(h.elements_multiple, 1); m > 1 && shape.size() > 1) {
      int64_t rest = 1;
      for (size_t d = 1; d < shape.size(); ++d) rest *= shape[d];
      const int64_t q = m / std::gcd(rest, m);
      shape.front() = std::max(q, std::min(shape.front(), max_elements / rest) / q * q);
    }
    c.shapes = input_shapes_from_first(p, shape);
    for (const auto& [name, choices] : h.attrs) c.attrs[name] = choices[rng.next() % choices.size()];
    c.values = h.values[rng.next() % h.values.size()];
    for (const auto& [name, v] : h.input_values) c.input_values[name] = v;
    out.push_back(std::move(c));
  }
  return out;
}

OpPackage with_case_set(const OpPackage& p, CaseSet set, const HiddenDraw& draw) {
  OpPackage q = p;
  if (set == CaseSet::Public) return q;
  std::vector<CaseSpec> hidden = generate_hidden_cases(p, draw);
  if (set == CaseSet::Hidden) q.cases = std::move(hidden);
  else q.cases.insert(q.cases.end(), hidden.begin(), hidden.end());
  return q;
}

bool innermost_unaligned(const OpPackage& p, const CaseSpec& c) {
  const auto& shape = c.shapes.at(p.inputs.front().name);
  const int64_t bytes = (shape.empty() ? 1 : shape.back()) *
                        static_cast<int64_t>(info(p.inputs.front().dtypes[c.variant]).bytes);
  return bytes % 512 != 0;
}

int64_t case_input_elements(const OpPackage& p, const CaseSpec& c) {
  int64_t n = 0;
  for (const auto& in : p.inputs) n += element_count(c.shapes.at(in.name));
  return n;
}

namespace {

std::string range_key(const ValueRange& v) {
  std::ostringstream os;
  os << v.dist << ":" << v.low << ":" << v.high << ":" << v.value << ":";
  for (double s : v.special) os << s << ",";
  return os.str();
}

bool has_nan_and_infs(const ValueRange& v) {
  bool nan = false, pinf = false, ninf = false;
  for (double s : v.special) {
    nan = nan || std::isnan(s);
    pinf = pinf || s == std::numeric_limits<double>::infinity();
    ninf = ninf || s == -std::numeric_limits<double>::infinity();
  }
  return nan && pinf && ninf;
}

}  // namespace

std::vector<std::string> validate_public_cases(const OpPackage& p) {
  std::vector<std::string> problems;
  const std::string where = p.toml_path.string() + ": ";
  const auto& cs = p.cases;
  if (cs.size() < kMinPublicCases)
    problems.push_back(where + std::to_string(cs.size()) + " public cases; add [[cases]] up to at least " +
                       std::to_string(kMinPublicCases));

  const auto unaligned = std::count_if(cs.begin(), cs.end(), [&](const CaseSpec& c) { return innermost_unaligned(p, c); });
  if (2 * static_cast<size_t>(unaligned) < cs.size())
    problems.push_back(where + "only " + std::to_string(unaligned) + " of " + std::to_string(cs.size()) +
                       " cases have an innermost byte length that is not a multiple of 512 B; give at least half of "
                       "them a prime innermost dimension such as 1009, 1021 or 4097");

  std::set<std::tuple<int64_t, std::string, std::string>> seen;
  for (const auto& c : cs) {
    std::string attrs, values = range_key(c.values);
    for (const auto& [n, v] : p.case_attrs(c)) attrs += n + "=" + to_string(v) + ";";
    for (const auto& [n, v] : c.input_values) values += "|" + n + "=" + range_key(v);
    if (!seen.emplace(case_input_elements(p, c), attrs, values).second)
      problems.push_back(where + "case '" + c.name + "' repeats another case's element count, attributes and value "
                         "range; change its shape, attributes or values");
  }

  int64_t smallest = std::numeric_limits<int64_t>::max(), largest = 0;
  std::set<int64_t> ranks;
  bool special = false, zeros = false;
  for (const auto& c : cs) {
    int64_t bytes = 0;
    for (const auto& in : p.inputs)
      bytes += element_count(c.shapes.at(in.name)) * static_cast<int64_t>(info(in.dtypes[c.variant]).bytes);
    smallest = std::min(smallest, bytes);
    largest = std::max(largest, case_input_elements(p, c));
    ranks.insert(static_cast<int64_t>(c.shapes.at(p.inputs.front().name).size()));
    special = special || has_nan_and_infs(c.values);
    for (const auto& [n, v] : c.input_values) special = special || has_nan_and_infs(v);
    zeros = zeros || c.values.dist == "zeros";
  }
  if (!cs.empty() && smallest > kSmallCaseBytes)
    problems.push_back(where + "no case fits in the Unified Buffer (smallest case: " + std::to_string(smallest) +
                       " input bytes > " + std::to_string(kSmallCaseBytes) + "); add a small case");
  if (!cs.empty() && largest < kLargeCaseElements)
    problems.push_back(where + "no large case (largest: " + std::to_string(largest) + " input elements); add a case "
                       "with at least " + std::to_string(kLargeCaseElements) + " input elements");
  for (int64_t r = p.hidden.rank_min; r <= p.hidden.rank_max; ++r)
    if (!ranks.count(r))
      problems.push_back(where + "no public case of rank " + std::to_string(r) + " although [hidden].rank allows it; "
                         "add one or narrow [hidden].rank to the ranks the operator supports");
  const bool wants_special = std::any_of(p.hidden.values.begin(), p.hidden.values.end(), has_nan_and_infs);
  const bool wants_zeros = std::any_of(p.hidden.values.begin(), p.hidden.values.end(),
                                       [](const ValueRange& v) { return v.dist == "zeros"; });
  if (wants_special && !special)
    problems.push_back(where + "no public case injects nan, inf and -inf although [hidden].values does; add "
                       "values = { special = [\"nan\", \"inf\", \"-inf\"] } to a case, or drop \"special\" from "
                       "[hidden].values when they are not meaningful for the operator");
  if (wants_zeros && !zeros)
    problems.push_back(where + "no all-zero public case although [hidden].values has zeros; add values = { dist = "
                       "\"zeros\" } to a case, or drop \"zeros\" from [hidden].values");
  return problems;
}

}  // namespace aoc::package
