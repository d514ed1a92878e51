"""Writes the notebook sandbox's seccomp filter, as BPF, to the file named by the first argument.

Built with libseccomp (Debian's python3-seccomp), which knows each architecture's system call
numbers and argument layout. Everything is allowed except what a notebook never needs and what
widens the kernel surface it can reach, refused with EPERM (clone3 with ENOSYS, so that the C
library falls back to clone, whose flags the filter can see). System calls of another
architecture (32-bit calls on a 64-bit host) are killed: libseccomp's default for a foreign
architecture.
"""
import errno
import sys

import seccomp

CLONE_NEWUSER = 0x10000000

# Kernel keyrings: per user, a channel between notebooks that share one.
KEYRING = ["add_key", "request_key", "keyctl"]
# Namespaces: joining another, or making a user namespace (in which the user is root).
NAMESPACES = ["setns"]
# Kernel surface a notebook has no use for, most of which needs a capability it lacks anyway.
KERNEL = [
    "bpf", "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
    "mount", "umount2", "pivot_root", "move_mount", "open_tree", "fsopen", "fsmount", "fspick",
    "swapon", "swapoff", "reboot", "acct", "quotactl", "lookup_dcookie", "open_by_handle_at",
    "syslog", "vhangup", "iopl", "ioperm", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
]


def main(target: str) -> None:
    rules = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    for name in KEYRING + NAMESPACES + KERNEL:
        try:
            rules.add_rule(seccomp.ERRNO(errno.EPERM), name)
        except (RuntimeError, ValueError):
            # Not a system call of this architecture.
            pass
    for name in ("unshare", "clone"):
        # clone's flags are its first argument on x86_64 and arm64 alike.
        rules.add_rule(seccomp.ERRNO(errno.EPERM), name, seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER))
    try:
        rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    except (RuntimeError, ValueError):
        pass
    with open(target, "wb") as out:
        rules.export_bpf(out)


if __name__ == "__main__":
    main(sys.argv[1])
