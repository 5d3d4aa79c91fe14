#include "cli/rewind_tasks.h"

#include <cctype>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>

#include <nlohmann/json.hpp>

#include "bank/merge.h"
#include "base/content_hash.h"

namespace aoc::cli {

namespace fs = std::filesystem;

namespace {

// A name that stays the same across reruns: the kernel folder's last two parts and a hash of
// its absolute path ("relu-expert-1f2e3d4c").
std::string task_name(const std::string& dir) {
  const fs::path p = fs::absolute(dir).lexically_normal();
  const fs::path clean = p.filename().empty() ? p.parent_path() : p;
  std::string label = clean.parent_path().filename().string() + "-" + clean.filename().string();
  for (char& c : label)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') c = '_';
  return label + "-" + aoc::base::ContentHash().add(clean.string()).hex().substr(0, 8);
}

// The task's copy of the bank, taken once (a rerun keeps what the task had mined) with the last
// id it held then, above which its entries are the task's own.
int64_t prepare_bank_copy(aoc::bank::Bank& bank, const fs::path& task_dir) {
  const fs::path base_file = task_dir / "bank.base";
  if (std::ifstream in(base_file); in) {
    int64_t base = 0;
    if (in >> base) return base;
  }
  fs::create_directories(task_dir);
  fs::remove(task_dir / "bank.sqlite");
  aoc::bank::Bank copy(task_dir / "bank.sqlite");
  copy.insert_all(bank.entries());
  const int64_t base = aoc::bank::last_entry_id(copy);
  std::ofstream(base_file) << base << "\n";
  return base;
}

// What the task's `rewind --json` printed of its one kernel; nullopt while it has not printed a
// whole report (not run, killed, or stopped by an error before reporting).
std::optional<aoc::rewind::RewindResult> task_result(const aoc::cluster::Task& t) {
  std::ifstream in(t.stdout_file);
  if (!in) return std::nullopt;
  try {
    const auto j = nlohmann::json::parse(in);
    if (j.at("kernels").size() != 1) return std::nullopt;
    return aoc::rewind::result_from_json(j.at("kernels").at(0));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

RewindTasksResult rewind_as_tasks(const RewindTasksOptions& o, aoc::bank::Bank& bank) {
  std::vector<aoc::cluster::Task> tasks;
  for (const auto& dir : o.dirs) {
    aoc::cluster::Task t;
    t.name = task_name(dir);
    t.dir = o.work_dir / "tasks" / t.name;
    t.stdout_file = t.dir / "result.json";
    if (!task_result(t)) prepare_bank_copy(bank, t.dir);
    t.argv = {o.program.string(), "rewind", fs::absolute(dir).string(), "--json", "--bank", (t.dir / "bank.sqlite").string(),
              "--work-dir", (t.dir / "work").string()};
    if (o.no_store) t.argv.push_back("--no-store");
    else t.argv.insert(t.argv.end(), {"--store", (t.dir / "results.sqlite").string()});
    t.argv.insert(t.argv.end(), o.common_args.begin(), o.common_args.end());
    tasks.push_back(std::move(t));
  }
  RewindTasksResult out;
  auto finished = [](const aoc::cluster::Task& t) { return task_result(t).has_value(); };
  size_t done = 0, todo = 0;
  for (const auto& t : tasks) todo += finished(t) ? 0 : 1;
  if (o.executor.log)
    o.executor.log(std::to_string(tasks.size() - todo) + " of " + std::to_string(tasks.size()) +
                   " kernel(s) already rewound; rewinding " + std::to_string(todo) + " as tasks");
  const auto summary = aoc::cluster::run_tasks(o.executor, tasks, finished, [&](const aoc::cluster::Task& t, const aoc::cluster::TaskEnd& e) {
    ++done;
    if (o.executor.log)
      o.executor.log("[" + std::to_string(done) + "/" + std::to_string(todo) + "] " + t.name + ": " +
                     (e.finished ? "rewound" : "failed, " + e.why));
  });
  if (o.executor.slurm.dry_run) return out;
  if (!summary.error.empty()) out.failed.push_back(summary.error);
  // Merged in kernel order, whatever order the tasks ended in; a merge redone adds nothing twice.
  for (size_t i = 0; i < tasks.size(); ++i) {
    const auto& t = tasks[i];
    auto result = task_result(t);
    if (!result) {
      out.failed.push_back(o.dirs[i] + ": its task did not finish; see " + (t.dir / "log.txt").string());
      continue;
    }
    try {
      aoc::rewind::RewindResult r = std::move(*result);
      int64_t base = 0;
      std::ifstream(t.dir / "bank.base") >> base;
      aoc::bank::Bank task_bank(t.dir / "bank.sqlite");
      const auto ids = aoc::bank::merge_new_entries(bank, task_bank, base);
      for (auto& m : r.motifs)
        if (m.entry_id) {
          const auto it = ids.find(*m.entry_id);
          // An id at or below the base is an entry the bank held before the task ran.
          if (it != ids.end()) m.entry_id = it->second;
        }
      out.results.push_back(std::move(r));
    } catch (const std::exception& e) {
      out.failed.push_back(o.dirs[i] + ": cannot merge what its task found (" + t.dir.string() + "): " + e.what());
    }
  }
  return out;
}

}  // namespace aoc::cli
