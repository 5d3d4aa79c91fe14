#include "base/sandbox.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>

#include "base/fd_write.h"

extern char** environ;

namespace aoc::base {

std::string signal_description(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  const char* desc = sigdescr_np(sig);
  std::string s = abbrev != nullptr ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
  if (desc != nullptr) s += std::string(" (") + desc + ")";
  return s;
}

namespace {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Everything the children need, prepared before the fork: after it they make system calls only.
struct Launch {
  std::vector<std::string> arg_store, env_store;
  std::vector<char*> argv, envp;
  std::string workdir;
  SandboxLimits limits;
};

Launch make_launch(const std::vector<std::string>& argv, const fs::path& workdir, const SandboxLimits& limits) {
  Launch l;
  l.arg_store = argv;
  l.workdir = workdir.string();
  l.limits = limits;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e)
    if (std::strncmp(*e, "TMPDIR=", 7) != 0) l.env_store.emplace_back(*e);
  l.env_store.push_back("TMPDIR=" + l.workdir);  // the one writable folder
  for (auto& a : l.arg_store) l.argv.push_back(a.data());
  l.argv.push_back(nullptr);
  for (auto& e : l.env_store) l.envp.push_back(e.data());
  l.envp.push_back(nullptr);
  return l;
}

// The child's root file system, assembled in a tmpfs mounted on a folder inside its working
// folder (the one place known to exist and to be ours), then made its root with pivot_root.
struct MountStep {
  enum Kind { Bind, Symlink, Proc } kind = Bind;
  std::string source, target, link;
  unsigned long remount = 0;  // flags of the read-only (or nosuid) remount after the bind; 0: none
};

struct View {
  std::string root;
  std::vector<std::string> dirs;   // created in order (parents first)
  std::vector<std::string> files;  // empty files, mount points of bound files
  std::vector<MountStep> steps;
};

// Flags a remount must keep (a user namespace may not clear them) plus the ones we add.
unsigned long kept_flags(const std::string& path) {
  struct statvfs sv{};
  unsigned long f = MS_NOSUID;
  if (statvfs(path.c_str(), &sv) != 0) return f;
  if (sv.f_flag & ST_NODEV) f |= MS_NODEV;
  if (sv.f_flag & ST_NOEXEC) f |= MS_NOEXEC;
  if (sv.f_flag & ST_NOATIME) f |= MS_NOATIME;
  if (sv.f_flag & ST_NODIRATIME) f |= MS_NODIRATIME;
  if (sv.f_flag & ST_RELATIME) f |= MS_RELATIME;
  return f;
}

void add_dir_chain(View& v, const fs::path& inside) {
  fs::path acc = v.root;
  for (const auto& part : inside.relative_path()) {
    acc /= part;
    if (std::find(v.dirs.begin(), v.dirs.end(), acc.string()) == v.dirs.end()) v.dirs.push_back(acc.string());
  }
}

bool covered(const std::vector<std::string>& shown, const fs::path& p) {
  const std::string s = p.string();
  for (const auto& d : shown)
    if (s == d || (s.size() > d.size() && s.compare(0, d.size(), d) == 0 && s[d.size()] == '/')) return true;
  return false;
}

constexpr const char* kSystemPaths[] = {"/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32",
                                        "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d"};
constexpr const char* kDevices[] = {"/dev/null", "/dev/zero", "/dev/random", "/dev/urandom"};

View make_view(const Launch& l) {
  View v;
  v.root = (fs::path(l.workdir) / ".sandbox-root").string();
  std::vector<std::string> shown;  // folders already bound: nothing inside them is bound again
  std::vector<fs::path> readable(std::begin(kSystemPaths), std::end(kSystemPaths));
  // The others by their real paths: a symlink such as /bin/sh would otherwise need its
  // folder made in the view, hiding the system folder's own link.
  std::vector<fs::path> given = l.limits.readable;
  if (!l.arg_store.empty() && fs::path(l.arg_store[0]).is_absolute()) given.emplace_back(l.arg_store[0]);
  // A folder named through a symbolic link (a cache under a linked home) is also shown under
  // that name, since that is how the command line names it; not where the link is inside a
  // system folder, whose own links the view keeps.
  const std::vector<std::string> system(std::begin(kSystemPaths), std::end(kSystemPaths));
  std::vector<std::pair<fs::path, fs::path>> aliases;  // (real path, path as given)
  for (const auto& p : given) {
    std::error_code ec;
    const fs::path real = fs::canonical(p, ec);
    if (ec) continue;
    readable.push_back(real);
    const fs::path named = fs::absolute(p, ec).lexically_normal();
    if (!ec && named != real && !covered(system, named)) aliases.emplace_back(real, named);
  }
  for (const auto& p : readable) {
    struct stat st{};
    if (lstat(p.c_str(), &st) != 0 || covered(shown, p) || covered({l.workdir}, p)) continue;
    const std::string target = v.root + p.string();
    add_dir_chain(v, p.parent_path());
    if (S_ISLNK(st.st_mode)) {
      std::error_code ec;
      const fs::path link = fs::read_symlink(p, ec);
      if (!ec) v.steps.push_back({MountStep::Symlink, "", target, link.string(), 0});
      continue;
    }
    if (S_ISDIR(st.st_mode)) {
      add_dir_chain(v, p);
      shown.push_back(p.string());
    } else {
      v.files.push_back(target);
    }
    v.steps.push_back({MountStep::Bind, p.string(), target, "", MS_REMOUNT | MS_BIND | MS_RDONLY | kept_flags(p)});
  }
  for (const auto& [real, named] : aliases) {
    struct stat st{};
    if (covered(shown, named) || covered({l.workdir}, named) || stat(real.c_str(), &st) != 0) continue;
    add_dir_chain(v, named.parent_path());
    if (S_ISDIR(st.st_mode)) {
      add_dir_chain(v, named);
      shown.push_back(named.string());
    } else {
      v.files.push_back(v.root + named.string());
    }
    v.steps.push_back({MountStep::Bind, real.string(), v.root + named.string(), "",
                       MS_REMOUNT | MS_BIND | MS_RDONLY | kept_flags(real)});
  }
  for (const char* d : kDevices) {
    if (::access(d, F_OK) != 0) continue;
    add_dir_chain(v, fs::path(d).parent_path());
    v.files.push_back(v.root + d);
    v.steps.push_back({MountStep::Bind, d, v.root + d, "", 0});
  }
  add_dir_chain(v, l.workdir);
  v.steps.push_back({MountStep::Bind, l.workdir, v.root + l.workdir, "", MS_REMOUNT | MS_BIND | kept_flags(l.workdir) | MS_NODEV});
  add_dir_chain(v, "/proc");
  add_dir_chain(v, "/tmp");
  v.steps.push_back({MountStep::Proc, "proc", v.root + "/proc", "", 0});
  return v;
}

// ---- in the children: system calls only ----

// A lost status byte shows as a setup failure in the parent; nothing more can be done here.
void put(int fd, const char* s, size_t n) { (void)write_fully(fd, s, n); }
void put(int fd, const char* s) { put(fd, s, std::strlen(s)); }

bool write_file(const char* path, const char* text) {
  const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::write(fd, text, std::strlen(text)) == static_cast<ssize_t>(std::strlen(text));
  ::close(fd);
  return ok;
}

// Closes every descriptor but the two given (which must be >= 3), so a long-lived child holds
// no other worker's pipe open.
void close_other_fds(int a, int b) {
  const int lo = std::min(a, b), hi = std::max(a, b);
  if (syscall(SYS_close_range, 3u, static_cast<unsigned>(lo - 1), 0u) == 0 &&
      syscall(SYS_close_range, static_cast<unsigned>(lo + 1), static_cast<unsigned>(hi - 1), 0u) == 0 &&
      syscall(SYS_close_range, static_cast<unsigned>(hi + 1), ~0u, 0u) == 0)
    return;
  for (int fd = 3; fd < 65536; ++fd)
    if (fd != a && fd != b) ::close(fd);
}

// The harness itself, after fork or vfork: limits, descriptors, working folder, exec.
[[noreturn]] void exec_child(const Launch& l, int out_fd) {
  setpgid(0, 0);
  const int devnull = ::open("/dev/null", O_RDONLY);
  if (devnull >= 0) dup2(devnull, STDIN_FILENO);
  dup2(out_fd, STDOUT_FILENO);
  dup2(out_fd, STDERR_FILENO);
  const SandboxLimits& lim = l.limits;
  const rlimit as{lim.address_space_bytes, lim.address_space_bytes};
  const rlimit cpu{lim.cpu_seconds, lim.cpu_seconds + 1};
  const rlimit fsz{lim.file_size_bytes, lim.file_size_bytes};
  const rlimit core{0, 0};
  setrlimit(RLIMIT_AS, &as);
  setrlimit(RLIMIT_CPU, &cpu);
  setrlimit(RLIMIT_FSIZE, &fsz);
  setrlimit(RLIMIT_CORE, &core);
  if (chdir(l.workdir.c_str()) != 0) _exit(126);
  execve(l.argv[0], l.argv.data(), l.envp.data());
  _exit(127);
}

[[noreturn]] void setup_failed(int status_fd, const char* step) {
  const int e = errno;
  put(status_fd, "E");
  put(status_fd, step);
  put(status_fd, ": ");
  put(status_fd, strerrordesc_np(e) != nullptr ? strerrordesc_np(e) : "error");
  _exit(1);
}

struct IdMaps {
  std::string uid, gid;
};

// PID 1 of the new namespaces: builds the root file system, starts the harness, waits for it
// and reports its wait status. Its exit takes every process left in the namespace with it.
[[noreturn]] void namespace_init(const Launch& l, const View& v, const IdMaps* maps, int out_fd, int status_fd,
                                 bool dry_run) {
  close_other_fds(out_fd, status_fd);
  if (maps != nullptr) {
    if (!write_file("/proc/self/setgroups", "deny") && errno != ENOENT) setup_failed(status_fd, "setgroups");
    if (!write_file("/proc/self/uid_map", maps->uid.c_str())) setup_failed(status_fd, "uid_map");
    if (!write_file("/proc/self/gid_map", maps->gid.c_str())) setup_failed(status_fd, "gid_map");
  }
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) setup_failed(status_fd, "private mounts");
  if (mount("tmpfs", v.root.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m") != 0)
    setup_failed(status_fd, "tmpfs root");
  for (const auto& d : v.dirs)
    if (mkdir(d.c_str(), 0755) != 0 && errno != EEXIST) setup_failed(status_fd, "mount point folder");
  for (const auto& f : v.files) {
    const int fd = ::open(f.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) setup_failed(status_fd, "mount point file");
    ::close(fd);
  }
  for (const auto& s : v.steps) {
    if (s.kind == MountStep::Symlink) {
      if (symlink(s.link.c_str(), s.target.c_str()) != 0 && errno != EEXIST) setup_failed(status_fd, "symlink");
    } else if (s.kind == MountStep::Proc) {
      // A fresh /proc shows this PID namespace only; where mounting one is refused there is none.
      mount("proc", s.target.c_str(), "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr);
    } else {
      if (mount(s.source.c_str(), s.target.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0)
        setup_failed(status_fd, "bind mount");
      if (s.remount != 0 && mount(nullptr, s.target.c_str(), nullptr, s.remount, nullptr) != 0)
        setup_failed(status_fd, "read-only remount");
    }
  }
  if (mount(nullptr, v.root.c_str(), nullptr, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, nullptr) != 0)
    setup_failed(status_fd, "read-only root");
  if (chdir(v.root.c_str()) != 0 || syscall(SYS_pivot_root, ".", ".") != 0) setup_failed(status_fd, "pivot_root");
  if (umount2(".", MNT_DETACH) != 0) setup_failed(status_fd, "detaching the old root");
  if (chdir("/") != 0) setup_failed(status_fd, "chdir");
  put(status_fd, "R");
  if (dry_run) _exit(0);
  const pid_t h = vfork();
  if (h == 0) exec_child(l, out_fd);
  ::close(out_fd);
  int st = 0;
  if (h > 0)
    while (waitpid(h, &st, 0) < 0 && errno == EINTR) {}
  else
    st = 127 << 8;
  char msg[1 + sizeof(st)];
  msg[0] = 'S';
  std::memcpy(msg + 1, &st, sizeof(st));
  put(status_fd, msg, sizeof(msg));
  _exit(0);
}

// ---- in the parent ----

struct Child {
  pid_t pid = -1;
  int out = -1, status = -1;
  bool namespaced = false;
  std::string error;  // why it could not start
};

// Reads the one-byte readiness report (or the setup error) of a namespace init.
std::string read_setup_report(int fd, double seconds) {
  std::string got;
  const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
  char c[256];
  while (Clock::now() < deadline) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    const ssize_t n = ::read(fd, c, got.empty() ? 1 : sizeof(c));
    if (n <= 0) break;
    got.append(c, static_cast<size_t>(n));
    if (got[0] == 'R') return "";
  }
  if (got.empty()) return "no report from the namespace setup";
  return got.substr(1);
}

Child start_namespaced(const Launch& l, const View& v, unsigned long flags, bool dry_run) {
  Child c;
  int out[2], status[2];
  if (pipe2(out, O_CLOEXEC) != 0 || pipe2(status, O_CLOEXEC) != 0) {
    c.error = std::string("pipe: ") + std::strerror(errno);
    return c;
  }
  IdMaps maps{"0 " + std::to_string(geteuid()) + " 1\n", "0 " + std::to_string(getegid()) + " 1\n"};
  if (mkdir(v.root.c_str(), 0700) != 0 && errno != EEXIST) {
    c.error = "cannot create " + v.root + ": " + std::strerror(errno);
    for (int fd : {out[0], out[1], status[0], status[1]}) ::close(fd);
    return c;
  }
  // A raw clone: the child continues on a copy of this stack, like fork, but as PID 1 of new namespaces.
  const long pid = syscall(SYS_clone, flags | SIGCHLD, nullptr, nullptr, nullptr, nullptr);
  if (pid == 0) namespace_init(l, v, (flags & CLONE_NEWUSER) ? &maps : nullptr, out[1], status[1], dry_run);
  ::close(out[1]);
  ::close(status[1]);
  if (pid < 0) {
    c.error = std::string("clone: ") + std::strerror(errno);
    ::close(out[0]);
    ::close(status[0]);
    return c;
  }
  c.pid = static_cast<pid_t>(pid);
  c.out = out[0];
  c.status = status[0];
  c.namespaced = true;
  c.error = read_setup_report(c.status, 10);
  if (!c.error.empty() || dry_run) {
    kill(c.pid, SIGKILL);
    while (waitpid(c.pid, nullptr, 0) < 0 && errno == EINTR) {}
    ::close(c.out);
    ::close(c.status);
    c.pid = -1;
  }
  return c;
}

Child start_process_group(const Launch& l) {
  Child c;
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) {
    c.error = std::string("pipe: ") + std::strerror(errno);
    return c;
  }
  const pid_t pid = fork();
  if (pid == 0) exec_child(l, out[1]);
  ::close(out[1]);
  if (pid < 0) {
    c.error = std::string("fork: ") + std::strerror(errno);
    ::close(out[0]);
    return c;
  }
  setpgid(pid, pid);  // also here, so the group exists before we might need to kill it
  c.pid = pid;
  c.out = out[0];
  return c;
}

// How this system runs sandboxes, decided by one dry run of the namespace setup.
struct Mode {
  bool namespaces = false;
  unsigned long flags = 0;
  std::string reason;  // why not, in the process-group mode
};

Mode probe(const Launch& l, const View& v) {
  const unsigned long base = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWNET;
  Mode m;
  std::string why;
  for (unsigned long flags : {base | CLONE_NEWUSER, base}) {
    if (!(flags & CLONE_NEWUSER) && geteuid() != 0) continue;
    const Child c = start_namespaced(l, v, flags, true);
    if (c.error.empty()) {
      m.namespaces = true;
      m.flags = flags;
      return m;
    }
    why += (why.empty() ? "" : "; ") + std::string((flags & CLONE_NEWUSER) ? "with" : "without") +
           " a user namespace: " + c.error;
  }
  m.reason = why;
  return m;
}

const Mode& mode_for(const Launch& l, const View& v) {
  static std::once_flag once;
  static Mode mode;
  std::call_once(once, [&] { mode = probe(l, v); });
  return mode;
}

void kill_child(const Child& c) {
  if (c.namespaced) kill(c.pid, SIGKILL);  // PID 1: the namespace and everything in it goes
  else kill(-c.pid, SIGKILL);              // the process group
}

// Supervises a started child: output, the wall-clock deadline, the final status.
void supervise(Child& c, const SandboxLimits& limits, Clock::time_point t0, SandboxResult& r) {
  const auto deadline = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limits.wall_seconds));
  char buf[8192];
  for (bool open_pipe = true; open_pipe;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      r.timed_out = true;
      kill_child(c);
      break;
    }
    pollfd p{c.out, POLLIN, 0};
    const int n = poll(&p, 1, static_cast<int>(std::min<int64_t>(left.count(), 1000)));
    if (n < 0 && errno != EINTR) break;
    if (n <= 0) continue;
    const ssize_t got = ::read(c.out, buf, sizeof(buf));
    if (got > 0) {
      const size_t room = limits.output_bytes > r.output.size() ? limits.output_bytes - r.output.size() : 0;
      r.output.append(buf, std::min(room, static_cast<size_t>(got)));
      if (static_cast<size_t>(got) > room) r.output_truncated = true;
    } else if (got == 0 || errno != EINTR) {
      open_pipe = false;
    }
  }
  ::close(c.out);
  // The output is closed (or time is up): wait for the child within the deadline.
  int st = 0;
  for (;;) {
    const pid_t w = waitpid(c.pid, &st, WNOHANG);
    if (w == c.pid) break;
    if (w < 0 && errno != EINTR) break;
    if (Clock::now() > deadline) {
      r.timed_out = true;
      kill_child(c);
      while (waitpid(c.pid, &st, 0) < 0 && errno == EINTR) {}
      break;
    }
    usleep(1000);
  }
  if (!c.namespaced) kill(-c.pid, SIGKILL);  // anything left in its group goes too
  if (c.namespaced) {
    // The harness's own status, reported by PID 1 before it ended.
    st = 0;
    char msg[1 + sizeof(int)];
    size_t have = 0;
    while (have < sizeof(msg)) {
      const ssize_t n = ::read(c.status, msg + have, sizeof(msg) - have);
      if (n <= 0) break;
      have += static_cast<size_t>(n);
    }
    ::close(c.status);
    if (have == sizeof(msg) && msg[0] == 'S') std::memcpy(&st, msg + 1, sizeof(st));
    else if (!r.timed_out) st = SIGKILL;  // init was killed from outside
  }
  if (WIFEXITED(st)) {
    r.exited = true;
    r.exit_code = WEXITSTATUS(st);
  } else if (WIFSIGNALED(st)) {
    r.signal = WTERMSIG(st);
    r.cpu_limit = r.signal == SIGXCPU;
  }
}

}  // namespace

SandboxResult run_sandboxed(const std::vector<std::string>& argv, const fs::path& workdir, const SandboxLimits& limits) {
  SandboxResult r;
  const auto t0 = Clock::now();
  const Launch l = make_launch(argv, workdir, limits);
  Child c;
  if (limits.namespaces) {
    const View v = make_view(l);
    const Mode& m = mode_for(l, v);
    if (m.namespaces) {
      c = start_namespaced(l, v, m.flags, false);
      r.isolation = "namespaces";
      r.network_isolated = true;
    } else {
      r.isolation = "process group (namespaces unavailable: " + m.reason + ")";
    }
  } else {
    r.isolation = "process group (namespaces turned off)";
  }
  if (!c.namespaced && c.error.empty()) c = start_process_group(l);
  if (!c.error.empty()) {
    r.start_error = c.error;
    return r;
  }
  r.started = true;
  supervise(c, limits, t0, r);
  r.wall_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return r;
}

}  // namespace aoc::base
