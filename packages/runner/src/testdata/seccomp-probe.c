/* The seccomp test of sandbox.test.ts: each refused system call of the filter (seccomp.ts), and what stays allowed. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

static void say(const char *what, long r) {
    printf("%s %s\n", what, r < 0 ? (errno == EPERM ? "EPERM" : errno == EACCES ? "EACCES" : strerror(errno)) : "ok");
}

static long perf(pid_t pid) {
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_SOFTWARE;
    a.config = PERF_COUNT_SW_TASK_CLOCK;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    return syscall(SYS_perf_event_open, &a, pid, -1, -1, 0);
}

int main(int argc, char **argv) {
    char buf[8];
    struct iovec local = {buf, sizeof buf}, remote = {(void *)0x400000, sizeof buf};
    say("ptrace", ptrace(PTRACE_ATTACH, 1, NULL, NULL));
    say("process_vm_readv", syscall(SYS_process_vm_readv, 1, &local, 1, &remote, 1, 0));
    say("keyctl", syscall(SYS_keyctl, 0 /* KEYCTL_GET_KEYRING_ID */, -3, 0));
    say("bpf", syscall(SYS_bpf, 0, NULL, 0));
    say("perf-other", perf(1));
    say("perf-self", perf(0));
    say("socket-unix", socket(AF_UNIX, SOCK_STREAM, 0));
    say("socket-inet", socket(AF_INET, SOCK_STREAM, 0));
    fflush(stdout);
#if defined(__x86_64__)
    if (argc > 1 && strcmp(argv[1], "int80") == 0) {
        long r;
        __asm__ volatile("int $0x80" : "=a"(r) : "a"(20L) : "memory"); /* i386 getpid: another syscall table */
        printf("int80 returned %ld\n", r);
    }
#else
    (void)argc;
    (void)argv;
#endif
    return 0;
}
