// OpenEvolve's documented algorithm (its program database and controller), with our
// mutation operators in place of the LLM call:
//  - 5 islands; iterations go to the islands in turn; a child joins its parent's island;
//  - per island a MAP-Elites grid over two features, complexity (characters of the program:
//    its kernel and host sources plus the configuration text) and diversity (mean
//    0.1*|length difference| + 10*|line count difference| + 0.5*|character set symmetric
//    difference| against up to 20 other programs), each min-max scaled over the values seen
//    and cut into 10 bins; a child takes its cell when it is empty or the child is fitter;
//  - an archive of up to 100 programs (a fitter child replaces the worst when full);
//  - parents: with probability 0.2 a uniform program of the island (exploration), 0.7 a
//    uniform archive member, preferring the island's (exploitation), else fitness-proportional
//    in the island; fitness is the speedup over the baseline;
//  - inspirations (2): the island's best, its top 10 %, programs of nearby cells, random ones;
//    they feed the configuration crossover;
//  - migration every 50 island generations: each island's top 10 % copied to both ring
//    neighbours (copies cost no evaluation: the same candidate);
//  - cascade evaluation: the first evaluation case alone first (one evaluation either way).
// The mutation: a motif applied to the parent with probability 0.3 while one is untried,
// else a configuration proposal (profile move, crossover with an inspiration, or a step).
// With a model (kernel_proposers.h: ModelSource) the mutation is, with probability 0.5, the model's guided
// answer on the parent with the inspirations in its prompt, as in OpenEvolve; an answer that
// cannot be applied is a failed child and costs its evaluation.
// Children that fail are charged and not added, as OpenEvolve keeps no failed program's cell.
#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "search/method_runs.h"

namespace aoc::search {

namespace {

constexpr size_t kIslands = 5, kArchive = 100, kBins = 10, kInspirations = 2, kMigrationInterval = 50,
                 kDiversityRefs = 20;
constexpr double kExploration = 0.2, kExploitation = 0.7, kElite = 0.1, kMigrationRate = 0.1, kMotifRate = 0.3,
                 kLlmRate = 0.5;

struct Program {
  ScoredPtr s;
  size_t island = 0;
  bool migrant = false;
  std::string code;
  double fitness = 0;
};

std::string read_tree(const std::filesystem::path& dir) {
  std::string out;
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir, ec))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    std::ifstream in(f);
    out.append(std::istreambuf_iterator<char>(in), {});
  }
  return out;
}

double code_distance(const std::string& a, const std::string& b) {
  const auto lines = [](const std::string& s) { return static_cast<double>(std::count(s.begin(), s.end(), '\n')); };
  std::set<char> ca(a.begin(), a.end()), cb(b.begin(), b.end()), sym;
  std::set_symmetric_difference(ca.begin(), ca.end(), cb.begin(), cb.end(), std::inserter(sym, sym.end()));
  return 0.1 * std::abs(double(a.size()) - double(b.size())) + 10 * std::abs(lines(a) - lines(b)) +
         0.5 * static_cast<double>(sym.size());
}

class Database {
 public:
  explicit Database(Rng& rng) : rng_(rng), maps_(kIslands), islands_(kIslands), generations_(kIslands) {}

  size_t add(Program p) {
    const size_t id = programs_.size();
    programs_.push_back(std::move(p));
    const Program& np = programs_.back();
    islands_[np.island].push_back(id);
    observe(id);
    const std::string cell = cell_of(id);
    auto& map = maps_[np.island];
    if (!map.count(cell) || programs_[map[cell]].fitness < np.fitness) map[cell] = id;
    if (archive_.size() < kArchive) archive_.push_back(id);
    else {
      auto worst = std::min_element(archive_.begin(), archive_.end(),
                                    [&](size_t a, size_t b) { return programs_[a].fitness < programs_[b].fitness; });
      if (programs_[*worst].fitness < np.fitness) *worst = id;
    }
    return id;
  }

  const Program& get(size_t id) const { return programs_[id]; }

  size_t sample_parent(size_t island) {
    if (islands_[island].empty()) seed_island(island);
    const auto& members = islands_[island];
    const double r = rng_.unit();
    if (r < kExploration) return members[rng_.below(members.size())];
    if (r < kExploration + kExploitation && !archive_.empty()) {
      std::vector<size_t> own;
      for (size_t id : archive_)
        if (programs_[id].island == island) own.push_back(id);
      const auto& from = own.empty() ? archive_ : own;
      return from[rng_.below(from.size())];
    }
    double total = 0;
    for (size_t id : members) total += std::max(programs_[id].fitness, 0.001);
    double x = rng_.unit() * total;
    for (size_t id : members) {
      x -= std::max(programs_[id].fitness, 0.001);
      if (x <= 0) return id;
    }
    return members.back();
  }

  std::vector<size_t> inspirations(size_t parent) {
    const size_t island = programs_[parent].island;
    std::vector<size_t> ranked = islands_[island];
    std::sort(ranked.begin(), ranked.end(), [&](size_t a, size_t b) { return programs_[a].fitness > programs_[b].fitness; });
    std::vector<size_t> out;
    const auto take = [&](size_t id) {
      if (id != parent && std::find(out.begin(), out.end(), id) == out.end() && out.size() < kInspirations)
        out.push_back(id);
    };
    if (!ranked.empty()) take(ranked.front());
    const size_t top = std::max<size_t>(1, static_cast<size_t>(double(ranked.size()) * kElite));
    for (size_t i = 0; i < std::min(top, ranked.size()); ++i) take(ranked[i]);
    // Nearby cells: each coordinate of the parent's cell moved by up to 2.
    const auto [b1, b2] = bins_of(parent);
    for (int t = 0; t < 6 && out.size() < kInspirations; ++t) {
      const int d1 = int(rng_.below(5)) - 2, d2 = int(rng_.below(5)) - 2;
      const std::string cell = std::to_string(int(b1) + d1) + "-" + std::to_string(int(b2) + d2);
      if (auto it = maps_[island].find(cell); it != maps_[island].end()) take(it->second);
    }
    for (size_t t = 0; t < ranked.size() && out.size() < kInspirations; ++t) take(ranked[rng_.below(ranked.size())]);
    return out;
  }

  // One more child on `island`; migrates when an island is kMigrationInterval generations on.
  void generation_done(size_t island) {
    ++generations_[island];
    if (*std::max_element(generations_.begin(), generations_.end()) - last_migration_ < kMigrationInterval) return;
    last_migration_ = *std::max_element(generations_.begin(), generations_.end());
    std::vector<Program> copies;
    for (size_t i = 0; i < kIslands; ++i) {
      std::vector<size_t> ranked;
      for (size_t id : islands_[i])
        if (!programs_[id].migrant) ranked.push_back(id);
      std::sort(ranked.begin(), ranked.end(), [&](size_t a, size_t b) { return programs_[a].fitness > programs_[b].fitness; });
      const size_t n = std::max<size_t>(1, static_cast<size_t>(double(islands_[i].size()) * kMigrationRate));
      for (size_t k = 0; k < std::min(n, ranked.size()); ++k)
        for (size_t to : {(i + 1) % kIslands, (i + kIslands - 1) % kIslands}) {
          Program c = programs_[ranked[k]];
          c.island = to;
          c.migrant = true;
          copies.push_back(std::move(c));
        }
    }
    for (auto& c : copies) {
      const bool present = std::any_of(islands_[c.island].begin(), islands_[c.island].end(),
                                       [&](size_t id) { return programs_[id].code == c.code; });
      if (!present) add(std::move(c));
    }
    ++migrations;
  }

  size_t migrations = 0;
  size_t occupied_cells() const {
    size_t n = 0;
    for (const auto& m : maps_) n += m.size();
    return n;
  }

 private:
  // An empty island gets a copy of the best program.
  void seed_island(size_t island) {
    size_t best = 0;
    for (size_t i = 0; i < programs_.size(); ++i)
      if (programs_[i].fitness > programs_[best].fitness) best = i;
    Program c = programs_[best];
    c.island = island;
    add(std::move(c));
  }

  double diversity(size_t id) const {
    std::vector<size_t> refs;
    for (size_t i = programs_.size(); i-- > 0 && refs.size() < kDiversityRefs;)
      if (i != id) refs.push_back(i);
    if (refs.empty()) return 0;
    double sum = 0;
    for (size_t r : refs) sum += code_distance(programs_[id].code, programs_[r].code);
    return sum / static_cast<double>(refs.size());
  }

  void observe(size_t id) {
    features_[id] = {static_cast<double>(programs_[id].code.size()), diversity(id)};
    for (int f = 0; f < 2; ++f) {
      lo_[f] = std::min(lo_[f], features_[id][f]);
      hi_[f] = std::max(hi_[f], features_[id][f]);
    }
  }

  std::pair<size_t, size_t> bins_of(size_t id) const {
    size_t b[2];
    for (int f = 0; f < 2; ++f) {
      const double v = features_.at(id)[f];
      const double scaled = hi_[f] > lo_[f] ? (v - lo_[f]) / (hi_[f] - lo_[f]) : 0.5;
      b[f] = std::min(kBins - 1, static_cast<size_t>(std::clamp(scaled, 0.0, 1.0) * kBins));
    }
    return {b[0], b[1]};
  }
  std::string cell_of(size_t id) const {
    const auto [a, b] = bins_of(id);
    return std::to_string(a) + "-" + std::to_string(b);
  }

  Rng& rng_;
  std::vector<Program> programs_;
  std::vector<std::map<std::string, size_t>> maps_;
  std::vector<std::vector<size_t>> islands_;
  std::vector<size_t> archive_;
  std::vector<size_t> generations_;
  size_t last_migration_ = 0;
  std::map<size_t, std::array<double, 2>> features_;
  double lo_[2] = {INFINITY, INFINITY}, hi_[2] = {-INFINITY, -INFINITY};
};

Program program_of(const ScoredPtr& s, size_t island, double baseline_us) {
  const auto& src = s->variant.kernel->cand.sources;
  Program p{s, island, false, read_tree(src.kernel) + read_tree(src.host) + config_text(s->variant.config), 0};
  p.fitness = s->eval.valid && s->eval.time_us > 0 ? baseline_us / s->eval.time_us : 0;
  return p;
}

}  // namespace

void run_openevolve(SearchContext& ctx) {
  Rng rng(aoc::base::mix_seed(ctx.seed, 0x0e0e));
  Database db(rng);
  if (ctx.llm) ctx.llm->set_mode(ModelSource::Mode::Guided);
  const double base = ctx.baseline->eval.time_us;
  db.add(program_of(ctx.baseline, 0, base));
  const size_t max_iterations = 8 * ctx.ev.budget().limit() + 16;
  for (size_t it = 0; it < max_iterations && !ctx.ev.budget().exhausted(); ++it) {
    const size_t island = it % kIslands;
    const size_t parent_id = db.sample_parent(island);
    const ScoredPtr parent = db.get(parent_id).s;
    const size_t parent_island = db.get(parent_id).island;
    ProposalContext pc{*parent, {}, rng, seen_in(ctx.ev)};
    for (size_t id : db.inspirations(parent_id)) pc.inspirations.push_back(db.get(id).s.get());
    std::optional<Proposal> p;
    if (ctx.llm && ctx.llm->available() && rng.chance(kLlmRate)) p = ctx.llm->propose(pc);
    if (!p && rng.chance(kMotifRate) && ctx.motif.has_untried(*parent->variant.kernel)) p = ctx.motif.propose(pc);
    if (!p) p = ctx.config.propose(pc);
    if (!p) p = ctx.motif.propose(pc);
    if (!p) continue;  // nothing new from this parent: no evaluation, as an answer without a diff
    const Evaluator::Answer a = evaluate_proposal(ctx.ev, *p, parent->index, true);
    const ScoredPtr& s = a.scored;
    if (!s) break;
    if (a.free) continue;  // an evaluated variant's tiling: already a program
    if (s->eval.valid) db.add(program_of(s, parent_island, base));
    db.generation_done(parent_island);
  }
  if (ctx.log)
    ctx.log("openevolve: " + std::to_string(db.occupied_cells()) + " occupied cell(s), " +
            std::to_string(db.migrations) + " migration(s)");
}

}  // namespace aoc::search
