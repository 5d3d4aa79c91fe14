#include "eval/syscall_filter.h"

#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace aoc::eval {

namespace {

// Calls nothing in a kernel's business needs: processes, file-system changes, sockets,
// other processes, namespaces and mounts, kernel modules and keys, io_uring.
constexpr const char* kDenied[] = {
    "execve", "execveat", "fork", "vfork", "ptrace", "process_vm_readv", "process_vm_writev", "process_madvise",
    "pidfd_open", "pidfd_getfd", "pidfd_send_signal", "tkill", "socket", "socketpair", "creat", "rename",
    "renameat", "renameat2", "unlink", "unlinkat", "rmdir", "mkdir", "mkdirat", "link", "linkat", "symlink",
    "symlinkat", "truncate", "chmod", "fchmodat", "chown", "lchown", "fchownat", "mknod", "mknodat", "utime",
    "utimes", "utimensat", "futimesat", "setxattr", "lsetxattr", "removexattr", "lremovexattr", "mount",
    "umount2", "pivot_root", "chroot", "unshare", "setns", "open_by_handle_at", "name_to_handle_at",
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module", "bpf", "perf_event_open",
    "keyctl", "add_key", "request_key", "io_uring_setup", "io_uring_enter", "io_uring_register", "reboot",
    "swapon", "swapoff", "sethostname", "setdomainname", "acct", "quotactl", "iopl", "ioperm",
    "fsopen", "fsmount", "fsconfig", "move_mount", "open_tree", "mount_setattr",
};

// Names by number for the SIGSYS handler, which may not allocate.
struct NamedCall {
  int nr;
  const char* name;
};
NamedCall g_names[sizeof(kDenied) / sizeof(kDenied[0]) + 8];
size_t g_name_count = 0;

void remember(int nr, const char* name) {
  if (g_name_count < sizeof(g_names) / sizeof(g_names[0])) g_names[g_name_count++] = {nr, name};
}

void say(const char* s) { (void)!::write(STDERR_FILENO, s, std::strlen(s)); }

void on_sigsys(int, siginfo_t* info, void*) {
  const char* name = nullptr;
  for (size_t i = 0; i < g_name_count; ++i)
    if (g_names[i].nr == info->si_syscall) name = g_names[i].name;
  say("\n");
  say(kForbiddenSyscallMarker);
  if (name != nullptr) {
    say(name);
  } else {  // a call outside the table (another architecture's numbering): its number
    char num[24];
    int n = 0;
    for (unsigned v = static_cast<unsigned>(info->si_syscall); n == 0 || v != 0; v /= 10) num[n++] = static_cast<char>('0' + v % 10);
    say("number ");
    while (n > 0) (void)!::write(STDERR_FILENO, &num[--n], 1);
  }
  say("\n");
  _exit(kForbiddenSyscallExit);
}

void drop_capabilities() {
  // Held only in the child's own user namespace, but nothing needs them after this point.
  for (int cap = 0; cap <= CAP_LAST_CAP; ++cap) prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
  __user_cap_header_struct hdr{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2]{};
  syscall(SYS_capset, &hdr, data);
}

}  // namespace

std::string install_syscall_filter() {
  drop_capabilities();
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return std::string("no_new_privs: ") + std::strerror(errno);
  struct sigaction sa{};
  sa.sa_sigaction = on_sigsys;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGSYS, &sa, nullptr) != 0) return std::string("SIGSYS handler: ") + std::strerror(errno);

  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (ctx == nullptr) return "seccomp_init failed (is seccomp available in this kernel?)";
  int rc = 0;
  auto check = [&](int r, const char* what) {
    if (r != 0 && rc == 0) rc = r;
    (void)what;
  };
  for (const char* name : kDenied) {
    const int nr = seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR) continue;  // not a call of this architecture
    remember(nr, name);
    check(seccomp_rule_add(ctx, SCMP_ACT_TRAP, nr, 0), name);
  }
  // Threads only: a clone without CLONE_THREAD is a new process. clone3 passes its flags in
  // memory the filter cannot read, so it is refused softly (ENOSYS) and the C library falls
  // back to clone for its threads; openat2 likewise (its flags are in memory too).
  remember(SCMP_SYS(clone), "clone (a new process)");
  check(seccomp_rule_add(ctx, SCMP_ACT_TRAP, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0)), "clone");
  check(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0), "clone3");
  check(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(openat2), 0), "openat2");
  // Opening for writing, anywhere.
  remember(SCMP_SYS(open), "open (for writing)");
  remember(SCMP_SYS(openat), "openat (for writing)");
  for (const unsigned long bit : {O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND}) {
    check(seccomp_rule_add(ctx, SCMP_ACT_TRAP, SCMP_SYS(open), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, bit, bit)), "open");
    check(seccomp_rule_add(ctx, SCMP_ACT_TRAP, SCMP_SYS(openat), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, bit, bit)), "openat");
  }
  // Signals to itself only (raise and abort use tgkill on their own process).
  const auto self = static_cast<scmp_datum_t>(::getpid());
  remember(SCMP_SYS(kill), "kill (another process)");
  remember(SCMP_SYS(tgkill), "tgkill (another process)");
  remember(SCMP_SYS(prlimit64), "prlimit64 (another process)");
  check(seccomp_rule_add(ctx, SCMP_ACT_TRAP, SCMP_SYS(kill), 1, SCMP_A0(SCMP_CMP_NE, self)), "kill");
  check(seccomp_rule_add(ctx, SCMP_ACT_TRAP, SCMP_SYS(tgkill), 1, SCMP_A0(SCMP_CMP_NE, self)), "tgkill");
  check(seccomp_rule_add(ctx, SCMP_ACT_TRAP, SCMP_SYS(prlimit64), 1, SCMP_A0(SCMP_CMP_NE, 0)), "prlimit64");
  if (rc == 0) rc = seccomp_load(ctx);
  seccomp_release(ctx);
  if (rc != 0) return std::string("seccomp: ") + std::strerror(-rc);
  return "";
}

}  // namespace aoc::eval
