#include "cluster/slurm_executor.h"

#include <pwd.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "base/process.h"
#include "cluster/slurm_queue.h"
#include "cluster/slurm_script.h"

namespace aoc::cluster {

namespace fs = std::filesystem;

namespace {

// Slurm's default MaxArraySize is 1001: larger runs are split into arrays of this many.
constexpr size_t kMaxArray = 1000;
// squeue failing this many times in a row (the controller gone) ends the wait.
constexpr int kSqueueFailures = 30;
// Polls an element may be missing from squeue (purged after MinJobAge) before sacct is asked.
constexpr int kMissingPolls = 3;

struct Element {
  const Task* task = nullptr;
  std::string job;
  size_t index = 0;
  fs::path submission_dir;
  int missing = 0;
  std::string last_state = "PENDING";
};

std::string element_name(const Element& e) { return e.job + "_" + std::to_string(e.index); }

// jobs.json: every submission of this state folder, {job, dir, tasks: [name by array index]}.
nlohmann::json load_jobs(const fs::path& file) {
  std::ifstream in(file);
  if (!in) return nlohmann::json::array();
  try {
    nlohmann::json j = nlohmann::json::parse(in);
    if (j.is_array()) return j;
  } catch (const std::exception&) {
  }
  return nlohmann::json::array();
}

void save_jobs(const fs::path& file, const nlohmann::json& jobs) {
  const fs::path tmp = file.string() + ".tmp";
  std::ofstream(tmp) << jobs.dump(1) << "\n";
  fs::rename(tmp, file);  // whole, so an interrupted write never loses the earlier submissions
}

// This user's name for squeue -u (--me exists only since Slurm 20.11).
std::string user_name() {
  if (const passwd* pw = ::getpwuid(::getuid()); pw != nullptr && pw->pw_name != nullptr) return pw->pw_name;
  return std::to_string(::getuid());
}

std::map<std::pair<std::string, size_t>, ElementState> queue_states(std::string& error) {
  const auto r = base::run_process({"squeue", "-h", "-t", "all", "-u", user_name(), "-o", "%i|%T|%r"});
  std::map<std::pair<std::string, size_t>, ElementState> out;
  if (r.exit_code != 0) {
    error = r.output.empty() ? "squeue could not be run" : r.output;
    return out;
  }
  error.clear();
  for (auto& s : parse_squeue(r.output)) out[{s.job, s.index}] = s;
  return out;
}

// sacct's state of one element, "" when the cluster keeps no accounting or has no record.
std::string accounted_state(const Element& e) {
  const auto r = base::run_process({"sacct", "-n", "-P", "-X", "-j", element_name(e), "-o", "JobID,State"});
  if (r.exit_code != 0) return "";
  for (const auto& s : parse_sacct(r.output))
    if (s.job == e.job && s.index == e.index) return s.state;
  return "";
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// The exit status the task script wrote, or "" when it wrote none (killed, never started).
std::string exit_status_of(const Task& t) {
  std::ifstream in(t.dir / kExitStatusFile);
  std::string s;
  std::getline(in, s);
  return s;
}

// Writes the scripts of `tasks` into a new submission folder; returns it.
fs::path write_submission(const ExecutorOptions& o, const std::vector<const Task*>& tasks, const fs::path& cwd,
                          const std::string& folder_name) {
  const fs::path dir = o.state_dir / folder_name;
  fs::create_directories(dir);
  for (size_t i = 0; i < tasks.size(); ++i) {
    const fs::path p = task_script_path(dir, i);
    std::ofstream(p) << task_script(*tasks[i], cwd);
    fs::permissions(p, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add);
  }
  const size_t throttle = o.jobs;
  std::ofstream(dir / "array.sh") << array_script(o.slurm, tasks.size(), throttle, dir, cwd);
  return dir;
}

std::string next_submission_name(const fs::path& state_dir) {
  for (size_t k = 1;; ++k) {
    const std::string name = "submission-" + std::to_string(k);
    if (!fs::exists(state_dir / name)) return name;
  }
}

}  // namespace

ExecutionSummary run_slurm(const ExecutorOptions& o, const std::vector<const Task*>& todo, const IsFinished& finished,
                           const OnTaskEnd& on_end) {
  ExecutionSummary s;
  auto log = [&](const std::string& line) {
    if (o.log) o.log(line);
  };
  // Tasks that end without running, all for one reason.
  auto fail_all = [&](const std::vector<const Task*>& tasks, const std::string& why) {
    for (const Task* t : tasks) {
      ++s.failed;
      on_end(*t, {false, why});
    }
  };
  const fs::path cwd = fs::current_path();
  fs::create_directories(o.state_dir);
  if (o.slurm.dry_run) {
    const fs::path dir = write_submission(o, todo, cwd, "dry-run");
    std::cout << "# " << (dir / "array.sh").string() << ": sbatch would be given this script for " << todo.size()
              << " task(s)\n"
              << array_script(o.slurm, todo.size(), o.jobs, dir, cwd);
    if (!todo.empty())
      std::cout << "# " << task_script_path(dir, 0).string() << ", the script of element 0 (the others differ only in "
                << "the task)\n"
                << task_script(*todo[0], cwd);
    return s;
  }

  const fs::path jobs_file = o.state_dir / "jobs.json";
  nlohmann::json jobs = load_jobs(jobs_file);
  std::vector<Element> tracked;
  std::vector<const Task*> to_submit;

  // Elements of earlier submissions still queued or running are waited for, not submitted again.
  std::map<std::string, Element> earlier;  // task name -> its newest element
  for (const auto& sub : jobs)
    try {
      const auto names = sub.at("tasks").get<std::vector<std::string>>();
      for (size_t i = 0; i < names.size(); ++i)
        earlier[names[i]] = Element{nullptr, sub.at("job").get<std::string>(), i, sub.at("dir").get<std::string>()};
    } catch (const std::exception&) {
    }
  std::string error;
  const auto states = earlier.empty() ? decltype(queue_states(error)){} : queue_states(error);
  if (!error.empty()) {
    // Without the queue it cannot be told which earlier tasks still run: submitting them again
    // could run a task twice at once in one folder.
    s.error = "squeue failed (" + trimmed(error) + "), so it cannot be told which tasks of the earlier submissions in " +
              jobs_file.string() + " still run; nothing was submitted: try again when squeue answers";
    fail_all(todo, s.error);
    return s;
  }
  std::set<std::string> adopted_jobs;
  for (const Task* t : todo) {
    const auto e = earlier.find(t->name);
    if (e != earlier.end()) {
      const auto st = states.find({e->second.job, e->second.index});
      if (st != states.end() && !is_terminal_state(st->second.state)) {
        Element el = e->second;
        el.task = t;
        el.last_state = st->second.state;
        tracked.push_back(el);
        adopted_jobs.insert(el.job);
        continue;
      }
    }
    to_submit.push_back(t);
  }
  if (!tracked.empty()) {
    std::string ids;
    for (const auto& j : adopted_jobs) ids += (ids.empty() ? "" : ", ") + j;
    log(std::to_string(tracked.size()) + " task(s) of earlier Slurm job(s) " + ids +
        " still queued or running: waiting for them, not submitting them again");
  }

  for (size_t start = 0; start < to_submit.size(); start += kMaxArray) {
    const std::vector<const Task*> chunk(to_submit.begin() + static_cast<std::ptrdiff_t>(start),
                                         to_submit.begin() + static_cast<std::ptrdiff_t>(std::min(to_submit.size(), start + kMaxArray)));
    const fs::path dir = write_submission(o, chunk, cwd, next_submission_name(o.state_dir));
    const auto r = base::run_process({"sbatch", "--parsable", (dir / "array.sh").string()});
    const std::string out = trimmed(r.output);
    const std::string job = out.substr(0, out.find(';'));  // "12" or "12;cluster"
    if (r.exit_code != 0 || job.empty() || job.find_first_not_of("0123456789") != std::string::npos) {
      s.error = "sbatch refused " + (dir / "array.sh").string() + ": " +
                (out.empty() ? "exit status " + std::to_string(r.exit_code) : out) +
                " (is a Slurm cluster reachable from here, SLURM_CONF set, the partition right?)";
      fail_all(chunk, s.error);
      continue;
    }
    nlohmann::json names = nlohmann::json::array();
    for (size_t i = 0; i < chunk.size(); ++i) {
      names.push_back(chunk[i]->name);
      tracked.push_back(Element{chunk[i], job, i, dir});
    }
    jobs.push_back({{"job", job}, {"dir", dir.string()}, {"tasks", names}});
    save_jobs(jobs_file, jobs);
    log("submitted Slurm job " + job + ": " + std::to_string(chunk.size()) + " task(s), scripts in " + dir.string() +
        "; they run on if this command stops: rerun it to wait for them again, or scancel " + job);
  }

  int squeue_failures = 0;
  std::string last_progress;
  size_t ended = 0;
  const size_t total = tracked.size();
  while (!tracked.empty()) {
    std::this_thread::sleep_for(std::chrono::duration<double>(o.slurm.poll_seconds));
    const auto now = queue_states(error);
    if (!error.empty()) {
      if (++squeue_failures < kSqueueFailures) continue;
      for (const auto& e : tracked) {
        ++s.failed;
        on_end(*e.task, {false, "squeue failed " + std::to_string(kSqueueFailures) + " times in a row (" + trimmed(error) +
                                   "); Slurm job " + element_name(e) + " may still run: rerun this command to wait for it"});
      }
      s.error = "squeue failed: " + trimmed(error);
      break;
    }
    squeue_failures = 0;
    std::vector<Element> still;
    size_t pending = 0, running = 0;
    std::set<std::string> reasons;
    for (auto& e : tracked) {
      std::string state;
      const auto st = now.find({e.job, e.index});
      if (st != now.end()) {
        e.missing = 0;
        if (is_terminal_state(st->second.state)) state = st->second.state;
        else {
          e.last_state = st->second.state;
          if (e.last_state == "PENDING") {
            ++pending;
            if (st->second.reason != "None") reasons.insert(st->second.reason);
          } else ++running;
          still.push_back(e);
          continue;
        }
      } else if (++e.missing >= kMissingPolls) {
        // Purged from squeue (MinJobAge): sacct's record, else the exit status the script wrote.
        state = accounted_state(e);
        if (state.empty()) {
          const std::string status = exit_status_of(*e.task);
          if (!status.empty()) state = status == "0" ? "COMPLETED" : "FAILED";
          // Slurm drops a pending element cancelled before it started from its array, with no record.
          else if (e.last_state == "PENDING") state = "CANCELLED before it started (no longer among the array's elements)";
          else state = "unknown: no longer listed by squeue, no accounting record, no exit status (last seen " + e.last_state + ")";
        }
      } else {
        still.push_back(e);
        continue;
      }
      ++s.ran;
      ++ended;
      TaskEnd end;
      end.finished = finished(*e.task);
      if (!end.finished) {
        ++s.failed;
        const std::string status = exit_status_of(*e.task);
        end.why = "Slurm state " + state + (status.empty() ? "" : ", exit status " + status) +
                  " (job " + element_name(e) + "), log " + (e.task->dir / "log.txt").string() + ", Slurm output " +
                  (e.submission_dir / ("slurm-" + element_name(e) + ".out")).string();
      }
      on_end(*e.task, end);
    }
    tracked = std::move(still);
    std::string why;
    for (const auto& r : reasons) why += (why.empty() ? "" : ", ") + r;
    const std::string progress = std::to_string(ended) + " of " + std::to_string(total) + " Slurm task(s) ended, " +
                                 std::to_string(running) + " running, " + std::to_string(pending) + " pending" +
                                 (why.empty() ? "" : " (" + why + ")");
    if (progress != last_progress && !tracked.empty()) log(progress);
    last_progress = progress;
  }
  return s;
}

}  // namespace aoc::cluster
