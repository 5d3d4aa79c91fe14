// `ascendopt bank list | show ID | export --json | import FILE.json | query OP_DIR`: the
// experience bank (docs/bank.md).
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "bank/import.h"
#include "bank/store.h"
#include "cli/bank_cli.h"
#include "cli/commands.h"
#include "cli/number_format.h"

namespace aoc::cli {
namespace {
namespace fs = std::filesystem;

struct BankArgs {
  std::string bank;
  int64_t id = 0;
  bool json = false;
  std::string file;
};

fs::path bank_file(const BankArgs& a) { return bank_path(a.bank); }

int list(const BankArgs& a) {
  aoc::bank::Bank bank(bank_file(a));
  const auto entries = bank.entries();
  if (a.json) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& e : entries)
      j.push_back({{"id", e.id}, {"kind", e.kind}, {"motif", e.motif}, {"op", e.op}, {"category", e.category},
                   {"geomean", e.geomean ? nlohmann::json(*e.geomean) : nlohmann::json(nullptr)}, {"title", e.title}});
    std::cout << nlohmann::json{{"bank", bank.file()}, {"entries", j}}.dump(2) << "\n";
    return 0;
  }
  std::cout << bank.file().string() << ": " << entries.size() << " entries\n";
  if (entries.empty()) return 0;
  std::cout << std::left << std::setw(6) << "id" << std::setw(10) << "kind" << std::setw(18) << "motif"
            << std::setw(20) << "op" << std::right << std::setw(9) << "speedup" << "  title\n";
  for (const auto& e : entries)
    std::cout << std::left << std::setw(6) << e.id << std::setw(10) << e.kind << std::setw(18) << e.motif
              << std::setw(20) << (e.op.empty() ? "-" : e.op) << std::right << std::setw(9) << fixed(e.geomean, 3) << "  "
              << e.title << "\n";
  return 0;
}

int show(const BankArgs& a) {
  aoc::bank::Bank bank(bank_file(a));
  const auto e = bank.find(a.id);
  if (!e) {
    std::cerr << "error: " << bank.file().string() << " has no entry " << a.id << " (ascendopt bank list shows the ids)\n";
    return 1;
  }
  if (a.json) {
    std::cout << aoc::bank::to_json(*e).dump(2) << "\n";
    return 0;
  }
  const auto st = bank.stats(e->motif);
  std::cout << "entry " << e->id << ": " << e->title << "\n"
            << "  kind        " << e->kind << "\n"
            << "  motif       " << e->motif << "\n"
            << "  source      " << (e->source_path.empty() ? "-" : e->source_path)
            << (e->source_hash.empty() ? "" : " [" + e->source_hash.substr(0, 12) + "]") << "\n"
            << "  op          " << (e->op.empty() ? "-" : e->op) << " (" << (e->category.empty() ? "-" : e->category)
            << ")\n"
            << "  speedup     " << fixed(e->geomean, 3) << " (geomean, optimized over rewound)\n";
  for (const auto& c : e->cases)
    std::cout << "    " << std::left << std::setw(32) << c.name << std::right << std::setw(12) << fixed(c.optimized_us, 2)
              << " us" << std::setw(12) << fixed(c.rewound_us, 2) << " us  x" << fixed(c.speedup(), 3) << "\n";
  const auto& ctx = e->context;
  std::cout << "  context     dtypes";
  for (const auto& d : ctx.dtypes) std::cout << " " << d;
  std::cout << "; shapes " << (ctx.shape_class.empty() ? "-" : ctx.shape_class) << "; bound "
            << (ctx.bound.empty() ? "-" : ctx.bound) << "; cores " << ctx.cores << "; vec/mte2 "
            << fixed(ctx.vec_mte2_ratio, 3) << "\n";
  if (!e->profile.before.empty()) {
    std::cout << "  profile     bound " << (e->profile.bound_before.empty() ? "-" : e->profile.bound_before) << " -> "
              << (e->profile.bound_after.empty() ? "-" : e->profile.bound_after) << " (optimized -> rewound)\n";
    for (const auto& [pipe, before] : e->profile.before) {
      auto it = e->profile.after.find(pipe);
      std::cout << "    " << std::left << std::setw(24) << pipe << std::right << std::setw(12) << fixed(before, 2)
                << std::setw(12) << (it == e->profile.after.end() ? "-" : fixed(it->second, 2)) << "\n";
    }
  }
  std::cout << "  adoption    " << st.helped << " of " << st.tried << " guided uses of " << e->motif << " helped\n";
  if (!e->description.empty()) std::cout << "  description " << e->description << "\n";
  if (!e->bottleneck.empty()) std::cout << "  bottleneck  " << e->bottleneck << "\n";
  if (!e->provenance.empty()) std::cout << "  provenance  " << e->provenance.dump() << "\n";
  std::cout << "  created     " << e->created << "\n";
  if (!e->diff.empty()) std::cout << e->diff << (e->diff.back() == '\n' ? "" : "\n");
  return 0;
}

int export_entries(const BankArgs& a) {
  if (!a.json) {
    std::cerr << "error: export writes JSON only; add --json\n";
    return 2;
  }
  aoc::bank::Bank bank(bank_file(a));
  nlohmann::json list = nlohmann::json::array();
  for (const auto& e : bank.entries()) list.push_back(aoc::bank::to_json(e));
  std::cout << nlohmann::json{{"schema_version", aoc::bank::kSchemaVersion}, {"entries", list}}.dump(2) << "\n";
  return 0;
}

int import_entries(const BankArgs& a) {
  std::vector<aoc::bank::Entry> entries;
  try {
    entries = aoc::bank::read_import_file(a.file);
  } catch (const aoc::bank::EntryImportError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  aoc::bank::Bank bank(bank_file(a));
  const auto ids = bank.insert_all(entries);
  if (a.json) {
    std::cout << nlohmann::json{{"bank", bank.file()}, {"imported", ids}}.dump(2) << "\n";
    return 0;
  }
  std::cout << "imported " << ids.size() << " entries into " << bank.file().string();
  if (!ids.empty()) std::cout << " (ids " << ids.front() << ".." << ids.back() << ")";
  std::cout << "\n";
  return 0;
}

// Bank errors (a file that is not a bank, an unknown version) end the command with status 1.
template <class F>
std::function<void()> guarded(std::shared_ptr<BankArgs> args, F f) {
  return [args, f]() {
    try {
      exit_status() = f(*args);
    } catch (const aoc::bank::BankError& e) {
      std::cerr << "error: " << e.what() << "\n";
      exit_status() = 1;
    }
  };
}

void add_bank_option(CLI::App* cmd, BankArgs& a) {
  cmd->add_option("--bank", a.bank, "Experience bank file (default: <cache dir>/experience-bank.sqlite)");
}

}  // namespace

void add_bank_command(CLI::App& app) {
  CLI::App* bank = app.add_subcommand("bank", "The experience bank: entries mined by `ascendopt rewind` or imported, "
                                              "ranked for a kernel (docs/bank.md)");
  bank->require_subcommand(1);

  auto l = std::make_shared<BankArgs>();
  CLI::App* list_cmd = bank->add_subcommand("list", "List the entries: id, kind, motif, source operator, speedup, title");
  add_bank_option(list_cmd, *l);
  list_cmd->add_flag("--json", l->json, "Print JSON");
  list_cmd->callback(guarded(l, list));

  auto s = std::make_shared<BankArgs>();
  CLI::App* show_cmd = bank->add_subcommand("show", "One entry in full: per-case effect, profile, context, adoption, diff");
  show_cmd->add_option("ID", s->id, "Entry id (from bank list)")->required();
  add_bank_option(show_cmd, *s);
  show_cmd->add_flag("--json", s->json, "Print JSON");
  show_cmd->callback(guarded(s, show));

  auto x = std::make_shared<BankArgs>();
  CLI::App* export_cmd = bank->add_subcommand("export", "Print every entry as JSON (the format bank import reads)");
  add_bank_option(export_cmd, *x);
  export_cmd->add_flag("--json", x->json, "Print JSON (required)");
  export_cmd->callback(guarded(x, export_entries));

  auto i = std::make_shared<BankArgs>();
  CLI::App* import_cmd = bank->add_subcommand(
      "import", "Add entries from a JSON file: a list of {title, description, bottleneck, diff, ...}; all or nothing");
  import_cmd->add_option("FILE", i->file, "JSON file")->required();
  add_bank_option(import_cmd, *i);
  import_cmd->add_flag("--json", i->json, "Print JSON");
  import_cmd->callback(guarded(i, import_entries));

  add_bank_query_command(*bank);
}

}  // namespace aoc::cli
