#include "cluster/local_executor.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>

namespace aoc::cluster {

namespace {

// Starts the task with its stdout and stderr in <dir>/log.txt; -1 when fork fails.
pid_t start(const Task& t) {
  std::filesystem::create_directories(t.dir);
  std::vector<std::string> args = t.argv;
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  const int log = ::open((t.dir / "log.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log >= 0) {
    ::dup2(log, 1);
    ::dup2(log, 2);
  }
  if (!t.stdout_file.empty()) {
    const int out = ::open(partial_stdout(t).c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out >= 0) ::dup2(out, 1);
  }
  for (const auto& [name, value] : t.env) ::setenv(name.c_str(), value.c_str(), 1);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  ::execv(argv[0], argv.data());
  ::_exit(127);
}

std::string exit_text(int status) {
  if (WIFEXITED(status)) {
    const int code = WEXITSTATUS(status);
    return code == 127 ? "could not be started (exit status 127)" : "exit status " + std::to_string(code);
  }
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  return "ended";
}

}  // namespace

ExecutionSummary run_local(const ExecutorOptions& o, const std::vector<const Task*>& todo, const IsFinished& finished,
                           const OnTaskEnd& on_end) {
  ExecutionSummary s;
  std::map<pid_t, const Task*> running;
  size_t next = 0;
  while (next < todo.size() || !running.empty()) {
    while (next < todo.size() && running.size() < std::max<size_t>(1, o.jobs)) {
      const Task& t = *todo[next++];
      const pid_t pid = start(t);
      if (pid < 0) {
        ++s.failed;
        on_end(t, {false, std::string("cannot start a process: ") + std::strerror(errno)});
        continue;
      }
      running[pid] = &t;
    }
    if (running.empty()) break;
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      break;
    }
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    const Task& t = *it->second;
    running.erase(it);
    ++s.ran;
    if (!t.stdout_file.empty() && WIFEXITED(status)) {
      std::error_code ec;
      std::filesystem::rename(partial_stdout(t), t.stdout_file, ec);
    }
    TaskEnd end;
    end.finished = finished(t);
    if (!end.finished) {
      ++s.failed;
      end.why = exit_text(status) + ", see " + (t.dir / "log.txt").string();
    }
    on_end(t, end);
  }
  return s;
}

}  // namespace aoc::cluster
