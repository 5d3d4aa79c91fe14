#include "cluster/slurm_script.h"

namespace aoc::cluster {

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::filesystem::path task_script_path(const std::filesystem::path& submission_dir, size_t index) {
  return submission_dir / ("task-" + std::to_string(index) + ".sh");
}

std::string task_script(const Task& t, const std::filesystem::path& cwd) {
  std::string s = "#!/usr/bin/env bash\n# " + t.name + "\n";
  for (const auto& [name, value] : t.env) s += "export " + name + "=" + shell_quote(value) + "\n";
  const std::string dir = shell_quote(t.dir.string());
  s += "cd " + shell_quote(cwd.string()) + " || exit 1\n";
  s += "mkdir -p " + dir + " || exit 1\n";
  s += "rm -f " + shell_quote((t.dir / kExitStatusFile).string()) + "\n";
  std::string command;
  for (const auto& a : t.argv) command += (command.empty() ? "" : " ") + shell_quote(a);
  const std::string log = shell_quote((t.dir / "log.txt").string());
  if (t.stdout_file.empty()) {
    s += command + " > " + log + " 2>&1\n";
    s += "status=$?\n";
  } else {
    const std::string partial = shell_quote(partial_stdout(t).string());
    s += command + " > " + partial + " 2> " + log + "\n";
    s += "status=$?\n";
    s += "mv " + partial + " " + shell_quote(t.stdout_file.string()) + "\n";
  }
  s += "echo \"$status\" > " + shell_quote((t.dir / kExitStatusFile).string()) + "\n";
  s += "exit \"$status\"\n";
  return s;
}

std::string array_script(const SlurmOptions& o, size_t count, size_t throttle, const std::filesystem::path& submission_dir,
                         const std::filesystem::path& cwd) {
  std::string s = "#!/usr/bin/env bash\n";
  auto option = [&](const std::string& line) { s += "#SBATCH " + line + "\n"; };
  option("--job-name=" + o.job_name);
  option("--array=0-" + std::to_string(count == 0 ? 0 : count - 1) + (throttle ? "%" + std::to_string(throttle) : ""));
  option("--ntasks=1");
  option("--cpus-per-task=" + std::to_string(o.cpus_per_task));
  option("--chdir=" + cwd.string());
  option("--output=" + (submission_dir / "slurm-%A_%a.out").string());
  if (!o.partition.empty()) option("--partition=" + o.partition);
  if (!o.time_limit.empty()) option("--time=" + o.time_limit);
  for (const auto& a : o.sbatch_args) option(a);
  s += "exec bash " + shell_quote(submission_dir.string()) + "/task-\"$SLURM_ARRAY_TASK_ID\".sh\n";
  return s;
}

}  // namespace aoc::cluster
