/*
 * ngcc_counter.h -- the counters a trial is timed with.
 *
 *   rdtsc          x86-64 time-stamp counter: start "lfence; rdtsc", stop
 *                  "rdtscp; lfence" ("lfence; rdtsc; lfence" when the CPU
 *                  has no rdtscp).  Constant reference rate, NOT core cycles
 *                  (unit tsc-ticks); the rate is measured against
 *                  CLOCK_MONOTONIC over ~20 ms.
 *   perf-instructions  PERF_COUNT_HW_INSTRUCTIONS of this thread (user mode) via
 *                  perf_event_open and read(); unit instructions (retired).
 *   perf-cycles    PERF_COUNT_HW_CPU_CYCLES of this thread (user mode) via
 *                  perf_event_open and read(); unit core-cycles.
 *   cntvct         aarch64 generic timer cntvct_el0, "isb; mrs" at start and
 *                  "isb; mrs; isb" at stop; rate from cntfrq_el0; unit timer-ticks.
 *   clock_gettime  CLOCK_MONOTONIC in ns.
 *   fixed-clock    CLOCK_MONOTONIC ns x --fixed-clock-hz / 1e9; unit core-cycles
 *                  (valid only when the core really runs at that fixed clock).
 */
#ifndef NGCC_COUNTER_H
#define NGCC_COUNTER_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <stdint.h>
#include <time.h>

typedef enum {
    NGCC_COUNTER_RDTSC,
    NGCC_COUNTER_PERF_CYCLES,
    NGCC_COUNTER_CNTVCT,
    NGCC_COUNTER_CLOCK_GETTIME,
    NGCC_COUNTER_FIXED_CLOCK,
    NGCC_COUNTER_PERF_INSTRUCTIONS,
    NGCC_COUNTER_KINDS
} ngcc_counter_kind;

typedef struct {
    ngcc_counter_kind kind;
    const char *name;          /* "rdtsc", ... as on the command line */
    const char *unit;          /* tsc-ticks, core-cycles, timer-ticks, ns */
    const char *serialization; /* how reads are ordered */
    const char *description;
    double rate_hz;            /* counter increments per second */
    double overhead;           /* interquartile mean of back-to-back read differences, in unit */
    double fixed_hz;           /* fixed-clock only */
    int perf_fd;               /* perf-cycles and perf-instructions only */
    int has_rdtscp;            /* rdtsc only */
} ngcc_counter;

/* The kind named on the command line; returns -1 for an unknown name. */
int ngcc_counter_parse(const char *name, ngcc_counter_kind *kind);
const char *ngcc_counter_name(ngcc_counter_kind kind);

/* The default counter of this architecture: rdtsc, cntvct, else clock_gettime. */
ngcc_counter_kind ngcc_counter_default(void);

/*
 * Open a counter, measure its rate and overhead.  Exits 2 with a message
 * naming errno when the counter cannot be used here (perf-cycles in most VMs,
 * rdtsc off x86-64, fixed-clock without a frequency).
 */
void ngcc_counter_open(ngcc_counter *c, ngcc_counter_kind kind, double fixed_hz);

/* Whether the kind can be opened here (tries perf_event_open and closes it). */
int ngcc_counter_usable(ngcc_counter_kind kind);

/* Counter difference b - a in the counter's unit. */
double ngcc_counter_delta(const ngcc_counter *c, uint64_t a, uint64_t b);

uint64_t ngcc_perf_read(const ngcc_counter *c);

/*
 * The core-clock probe: a dependent chain of `adds` one-cycle integer adds (8 per loop pass, so `adds` is
 * rounded down to a multiple of 8), timed with the counter.  Its delta over `adds` is the counter's units per
 * core cycle at that moment, so a sample's delta times adds / (probe delta - overhead) estimates the sample's
 * core cycles even when the core clock changes (boost, a VM's host).  Returns -1 where no chain is written for
 * the architecture or the counter already counts core cycles or instructions (perf-*, fixed-clock).
 */
#define NGCC_CLOCK_CHAIN_DEFAULT 16384u
int ngcc_clock_chain_supported(const ngcc_counter *c);
double ngcc_clock_chain(const ngcc_counter *c, unsigned long adds);

/*
 * The contention probe, beside the core-clock probe: the same one-cycle adds spread over
 * NGCC_THROUGHPUT_CHAINS independent chains, interleaved (32 adds per loop pass, so `adds` is rounded down to
 * a multiple of 32, and up to 32), timed with the counter.  A core that issues that many adds per cycle runs
 * it in adds / chains cycles; a thread on the core's sibling hyperthread takes issue slots from it, so it runs
 * longer, while the dependent chain (one add per cycle whatever the sibling does) does not.  (chain delta -
 * overhead) / chain adds over (this delta - overhead) / these adds is the adds per core cycle, with no rate
 * needed.  Returns -1 where ngcc_clock_chain does.
 */
#define NGCC_THROUGHPUT_CHAINS 4u
unsigned long ngcc_throughput_adds(unsigned long adds);
double ngcc_throughput_chain(const ngcc_counter *c, unsigned long adds);

static inline uint64_t ngcc_clock_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#if defined(__x86_64__)
static inline uint64_t ngcc_rdtsc_start(void) {
    uint32_t lo, hi;
    __asm__ __volatile__("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t ngcc_rdtsc_stop(int has_rdtscp) {
    uint32_t lo, hi, aux;
    if (has_rdtscp) {
        __asm__ __volatile__("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
        (void)aux;
    } else {
        __asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
    }
    return ((uint64_t)hi << 32) | lo;
}
#endif

#if defined(__aarch64__)
static inline uint64_t ngcc_cntvct_start(void) {
    uint64_t v;
    __asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
    return v;
}

static inline uint64_t ngcc_cntvct_stop(void) {
    uint64_t v;
    __asm__ __volatile__("isb\n\tmrs %0, cntvct_el0\n\tisb" : "=r"(v) : : "memory");
    return v;
}
#endif

/* Read at the start of a timed interval. */
static inline uint64_t ngcc_counter_start(const ngcc_counter *c) {
    switch (c->kind) {
#if defined(__x86_64__)
    case NGCC_COUNTER_RDTSC:
        return ngcc_rdtsc_start();
#endif
#if defined(__aarch64__)
    case NGCC_COUNTER_CNTVCT:
        return ngcc_cntvct_start();
#endif
    case NGCC_COUNTER_PERF_CYCLES:
    case NGCC_COUNTER_PERF_INSTRUCTIONS:
        return ngcc_perf_read(c);
    default:
        return ngcc_clock_ns();
    }
}

/* Read at the end of a timed interval. */
static inline uint64_t ngcc_counter_stop(const ngcc_counter *c) {
    switch (c->kind) {
#if defined(__x86_64__)
    case NGCC_COUNTER_RDTSC:
        return ngcc_rdtsc_stop(c->has_rdtscp);
#endif
#if defined(__aarch64__)
    case NGCC_COUNTER_CNTVCT:
        return ngcc_cntvct_stop();
#endif
    case NGCC_COUNTER_PERF_CYCLES:
    case NGCC_COUNTER_PERF_INSTRUCTIONS:
        return ngcc_perf_read(c);
    default:
        return ngcc_clock_ns();
    }
}

#endif /* NGCC_COUNTER_H */
