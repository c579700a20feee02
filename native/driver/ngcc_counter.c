/* ngcc_counter.c -- counter set-up, rate and overhead (see ngcc_counter.h). */
#include "ngcc_counter.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__linux__)
#include <linux/perf_event.h>
#include <sys/syscall.h>
#endif
#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "ngcc_driver.h"

#define NGCC_RATE_WINDOW_NS 20000000u /* the TSC / PMU rate is measured over ~20 ms */
#define NGCC_OVERHEAD_SAMPLES 1024

static const char *const ngcc_counter_names[NGCC_COUNTER_KINDS] = {
    "rdtsc", "perf-cycles", "cntvct", "clock_gettime", "fixed-clock", "perf-instructions"};

int ngcc_counter_parse(const char *name, ngcc_counter_kind *kind) {
    int k;
    for (k = 0; k < NGCC_COUNTER_KINDS; k++) {
        if (strcmp(name, ngcc_counter_names[k]) == 0) {
            *kind = (ngcc_counter_kind)k;
            return 0;
        }
    }
    return -1;
}

const char *ngcc_counter_name(ngcc_counter_kind kind) {
    return ngcc_counter_names[kind];
}

ngcc_counter_kind ngcc_counter_default(void) {
#if defined(__x86_64__)
    return NGCC_COUNTER_RDTSC;
#elif defined(__aarch64__)
    return NGCC_COUNTER_CNTVCT;
#else
    return NGCC_COUNTER_CLOCK_GETTIME;
#endif
}

#if defined(__linux__) && defined(SYS_perf_event_open)
/* perf_event_open of a hardware event (cycles, instructions) for this thread in user mode; -1 with errno set on failure. */
static int ngcc_perf_open(unsigned long long config) {
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.type = PERF_TYPE_HARDWARE;
    attr.size = sizeof attr;
    attr.config = config;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    return (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
}
#define NGCC_PERF_CYCLES PERF_COUNT_HW_CPU_CYCLES
#define NGCC_PERF_INSTRUCTIONS PERF_COUNT_HW_INSTRUCTIONS
#else
static int ngcc_perf_open(unsigned long long config) {
    (void)config;
    errno = ENOSYS;
    return -1;
}
#define NGCC_PERF_CYCLES 0u
#define NGCC_PERF_INSTRUCTIONS 1u
#endif

/* Opens a perf_event counter or exits 2 naming errno and kernel.perf_event_paranoid. */
static int ngcc_perf_open_or_die(const char *name, const char *event, unsigned long long config) {
    int fd = ngcc_perf_open(config);
    if (fd < 0) {
        int e = errno;
        long paranoid = -9;
        FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
        if (f != NULL) {
            if (fscanf(f, "%ld", &paranoid) != 1) {
                paranoid = -9;
            }
            fclose(f);
        }
        if (paranoid == -9) {
            ngcc_die(NGCC_EXIT_USAGE, "counter %s: perf_event_open(%s) failed: errno %d (%s)", name, event, e,
                     strerror(e));
        }
        ngcc_die(NGCC_EXIT_USAGE, "counter %s: perf_event_open(%s) failed: errno %d (%s); kernel.perf_event_paranoid = %ld",
                 name, event, e, strerror(e), paranoid);
    }
    return fd;
}

uint64_t ngcc_perf_read(const ngcc_counter *c) {
    uint64_t v = 0;
    if (read(c->perf_fd, &v, sizeof v) != (ssize_t)sizeof v) {
        ngcc_die(NGCC_EXIT_USAGE, "read() of the perf_event counter failed: errno %d (%s)", errno, strerror(errno));
    }
    return v;
}

int ngcc_counter_usable(ngcc_counter_kind kind) {
    switch (kind) {
    case NGCC_COUNTER_RDTSC:
#if defined(__x86_64__)
        return 1;
#else
        return 0;
#endif
    case NGCC_COUNTER_CNTVCT:
#if defined(__aarch64__)
        return 1;
#else
        return 0;
#endif
    case NGCC_COUNTER_PERF_CYCLES:
    case NGCC_COUNTER_PERF_INSTRUCTIONS: {
        int fd = ngcc_perf_open(kind == NGCC_COUNTER_PERF_CYCLES ? NGCC_PERF_CYCLES : NGCC_PERF_INSTRUCTIONS);
        if (fd < 0) {
            return 0;
        }
        close(fd);
        return 1;
    }
    default:
        return 1;
    }
}

double ngcc_counter_delta(const ngcc_counter *c, uint64_t a, uint64_t b) {
    double d = (double)(b - a);
    if (c->kind == NGCC_COUNTER_FIXED_CLOCK) {
        d = d * c->fixed_hz / 1e9;
    }
    return d;
}

int ngcc_clock_chain_supported(const ngcc_counter *c) {
#if defined(__x86_64__) || defined(__aarch64__)
    return c->kind == NGCC_COUNTER_RDTSC || c->kind == NGCC_COUNTER_CNTVCT || c->kind == NGCC_COUNTER_CLOCK_GETTIME;
#else
    (void)c;
    return 0;
#endif
}

double ngcc_clock_chain(const ngcc_counter *c, unsigned long adds) {
    uint64_t x = 1, a, b;
    /* The increment is a register, never an immediate: Intel cores since Golden Cove fold an add of a small
       immediate at register rename, so a dependent chain of `add $1` retires about five adds a cycle there (this
       project's Xeon VM: 19-21 adds per ns against 3.7-3.9 for `add reg, reg`), which read the clock five times
       too fast. */
    volatile uint64_t one_source = 1;
    uint64_t one = one_source;
    unsigned long i, passes = adds / 8;
    if (!ngcc_clock_chain_supported(c) || passes == 0) {
        return -1;
    }
    a = ngcc_counter_start(c);
    for (i = 0; i < passes; i++) {
#if defined(__x86_64__)
        __asm__ __volatile__("add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
                             "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0"
                             : "+r"(x)
                             : "r"(one));
#elif defined(__aarch64__)
        __asm__ __volatile__("add %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1\n\t"
                             "add %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1"
                             : "+r"(x)
                             : "r"(one));
#endif
    }
    b = ngcc_counter_stop(c);
    if (x != 1 + 8 * (uint64_t)passes) { /* the chain ran as written */
        return -1;
    }
    return ngcc_counter_delta(c, a, b);
}

unsigned long ngcc_throughput_adds(unsigned long adds) {
    return adds < 32 ? 32 : adds - adds % 32;
}

double ngcc_throughput_chain(const ngcc_counter *c, unsigned long adds) {
    uint64_t x0 = 1, x1 = 2, x2 = 3, x3 = 4, a, b, want;
    volatile uint64_t one_source = 1; /* a register increment, as in ngcc_clock_chain */
    uint64_t one = one_source;
    unsigned long i, passes = ngcc_throughput_adds(adds) / 32;
    if (!ngcc_clock_chain_supported(c)) {
        return -1;
    }
    a = ngcc_counter_start(c);
    for (i = 0; i < passes; i++) {
        /* 8 adds on each of the 4 chains, interleaved so that no add waits for the one before it. */
#if defined(__x86_64__)
        __asm__ __volatile__("add %4, %0\n\tadd %4, %1\n\tadd %4, %2\n\tadd %4, %3\n\t"
                             "add %4, %0\n\tadd %4, %1\n\tadd %4, %2\n\tadd %4, %3\n\t"
                             "add %4, %0\n\tadd %4, %1\n\tadd %4, %2\n\tadd %4, %3\n\t"
                             "add %4, %0\n\tadd %4, %1\n\tadd %4, %2\n\tadd %4, %3\n\t"
                             "add %4, %0\n\tadd %4, %1\n\tadd %4, %2\n\tadd %4, %3\n\t"
                             "add %4, %0\n\tadd %4, %1\n\tadd %4, %2\n\tadd %4, %3\n\t"
                             "add %4, %0\n\tadd %4, %1\n\tadd %4, %2\n\tadd %4, %3\n\t"
                             "add %4, %0\n\tadd %4, %1\n\tadd %4, %2\n\tadd %4, %3"
                             : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3)
                             : "r"(one));
#elif defined(__aarch64__)
        __asm__ __volatile__("add %0, %0, %4\n\tadd %1, %1, %4\n\tadd %2, %2, %4\n\tadd %3, %3, %4\n\t"
                             "add %0, %0, %4\n\tadd %1, %1, %4\n\tadd %2, %2, %4\n\tadd %3, %3, %4\n\t"
                             "add %0, %0, %4\n\tadd %1, %1, %4\n\tadd %2, %2, %4\n\tadd %3, %3, %4\n\t"
                             "add %0, %0, %4\n\tadd %1, %1, %4\n\tadd %2, %2, %4\n\tadd %3, %3, %4\n\t"
                             "add %0, %0, %4\n\tadd %1, %1, %4\n\tadd %2, %2, %4\n\tadd %3, %3, %4\n\t"
                             "add %0, %0, %4\n\tadd %1, %1, %4\n\tadd %2, %2, %4\n\tadd %3, %3, %4\n\t"
                             "add %0, %0, %4\n\tadd %1, %1, %4\n\tadd %2, %2, %4\n\tadd %3, %3, %4\n\t"
                             "add %0, %0, %4\n\tadd %1, %1, %4\n\tadd %2, %2, %4\n\tadd %3, %3, %4"
                             : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3)
                             : "r"(one));
#endif
    }
    b = ngcc_counter_stop(c);
    want = 8 * (uint64_t)passes;
    if (x0 != 1 + want || x1 != 2 + want || x2 != 3 + want || x3 != 4 + want) { /* the chains ran as written */
        return -1;
    }
    return ngcc_counter_delta(c, a, b);
}

static int ngcc_cmp_double(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Interquartile mean of back-to-back start/stop differences, in the counter's unit. */
static double ngcc_measure_overhead(const ngcc_counter *c) {
    static double d[NGCC_OVERHEAD_SAMPLES];
    double sum = 0;
    size_t i, lo = NGCC_OVERHEAD_SAMPLES / 4, hi = NGCC_OVERHEAD_SAMPLES - NGCC_OVERHEAD_SAMPLES / 4;
    for (i = 0; i < 64; i++) { /* warm the code path */
        uint64_t a = ngcc_counter_start(c);
        uint64_t b = ngcc_counter_stop(c);
        (void)a;
        (void)b;
    }
    for (i = 0; i < NGCC_OVERHEAD_SAMPLES; i++) {
        uint64_t a = ngcc_counter_start(c);
        uint64_t b = ngcc_counter_stop(c);
        d[i] = ngcc_counter_delta(c, a, b);
    }
    qsort(d, NGCC_OVERHEAD_SAMPLES, sizeof d[0], ngcc_cmp_double);
    for (i = lo; i < hi; i++) {
        sum += d[i];
    }
    return sum / (double)(hi - lo);
}

/* Counter increments per second, measured against CLOCK_MONOTONIC over ~20 ms of busy waiting. */
static double ngcc_measure_rate(const ngcc_counter *c) {
    uint64_t t0, t1, c0, c1;
    t0 = ngcc_clock_ns();
    c0 = ngcc_counter_start(c);
    do {
        t1 = ngcc_clock_ns();
    } while (t1 - t0 < NGCC_RATE_WINDOW_NS);
    c1 = ngcc_counter_stop(c);
    t1 = ngcc_clock_ns();
    return (double)(c1 - c0) * 1e9 / (double)(t1 - t0);
}

void ngcc_counter_open(ngcc_counter *c, ngcc_counter_kind kind, double fixed_hz) {
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->name = ngcc_counter_names[kind];
    c->perf_fd = -1;
    switch (kind) {
    case NGCC_COUNTER_RDTSC:
#if defined(__x86_64__)
    {
        unsigned int a, b, cx, d;
        c->has_rdtscp = __get_cpuid(0x80000001u, &a, &b, &cx, &d) && (d & (1u << 27)) != 0;
        c->unit = "tsc-ticks";
        c->serialization = c->has_rdtscp ? "lfence; rdtsc / rdtscp; lfence"
                                         : "lfence; rdtsc / lfence; rdtsc; lfence (no rdtscp on this CPU)";
        c->description = "x86-64 time-stamp counter: constant reference rate, not core cycles";
        c->rate_hz = ngcc_measure_rate(c);
        break;
    }
#else
        ngcc_die(NGCC_EXIT_USAGE, "counter rdtsc: only available on x86-64");
#endif
    case NGCC_COUNTER_CNTVCT:
#if defined(__aarch64__)
    {
        uint64_t f;
        __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(f));
        c->unit = "timer-ticks";
        c->serialization = "isb; mrs cntvct_el0 / isb; mrs cntvct_el0; isb";
        c->description = "aarch64 generic timer cntvct_el0, rate from cntfrq_el0";
        c->rate_hz = (double)f;
        break;
    }
#else
        ngcc_die(NGCC_EXIT_USAGE, "counter cntvct: only available on aarch64");
#endif
    case NGCC_COUNTER_PERF_CYCLES:
        c->perf_fd = ngcc_perf_open_or_die(c->name, "PERF_COUNT_HW_CPU_CYCLES", NGCC_PERF_CYCLES);
        c->unit = "core-cycles";
        c->serialization = "read() of a perf_event file descriptor (system call; not serialising)";
        c->description = "core cycles of this thread in user mode (perf_event PERF_COUNT_HW_CPU_CYCLES); "
                         "rateHz is the measured effective core clock";
        c->rate_hz = ngcc_measure_rate(c);
        break;
    case NGCC_COUNTER_PERF_INSTRUCTIONS:
        c->perf_fd = ngcc_perf_open_or_die(c->name, "PERF_COUNT_HW_INSTRUCTIONS", NGCC_PERF_INSTRUCTIONS);
        c->unit = "instructions";
        c->serialization = "read() of a perf_event file descriptor (system call; not serialising)";
        c->description = "instructions retired by this thread in user mode (perf_event PERF_COUNT_HW_INSTRUCTIONS); "
                         "rateHz is the instruction rate of the busy-wait used to measure it";
        c->rate_hz = ngcc_measure_rate(c);
        break;
    case NGCC_COUNTER_FIXED_CLOCK:
        if (!(fixed_hz > 0)) {
            ngcc_die(NGCC_EXIT_USAGE, "counter fixed-clock needs --fixed-clock-hz HZ (> 0)");
        }
        c->fixed_hz = fixed_hz;
        c->unit = "core-cycles";
        c->serialization = "clock_gettime(CLOCK_MONOTONIC) (vDSO call; not serialising)";
        c->description = "core cycles computed as CLOCK_MONOTONIC time x a fixed, configured clock frequency";
        c->rate_hz = fixed_hz;
        break;
    default:
        c->unit = "ns";
        c->serialization = "clock_gettime(CLOCK_MONOTONIC) (vDSO call; not serialising)";
        c->description = "CLOCK_MONOTONIC nanoseconds";
        c->rate_hz = 1e9;
        break;
    }
    c->overhead = ngcc_measure_overhead(c);
}
