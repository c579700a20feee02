/*
 * ngcc_prof.h -- the runtime of ngcc-perf's link-time wrappers (hash/DRNG profiler).
 *
 * A profiling build links the instance's objects with -Wl,--wrap=<symbol> for every symbol of the
 * campaign's profiler groups.  The wrappers (generated per instance by @ngcc-perf/hashprof from the
 * real prototypes) forward their arguments and return value to __real_<symbol> unchanged, one call
 * for one call, and around it call ngcc_prof_enter / ngcc_prof_leave:
 *
 *   - every call is counted for its symbol: as "outer" when no other wrapped call of the same group
 *     is running, else as "nested";
 *   - only the outermost call of each group is timed (a per-group depth counter), so time spent in
 *     nested wrapped calls of that group is counted once.
 *
 * The clock is the cheapest one available: plain rdtsc on x86-64 (no fences: the figures are sums over
 * many calls), cntvct_el0 on aarch64, else CLOCK_MONOTONIC.  The driver (native/driver built with
 * -DNGCC_PROFILE) reads the same clock around every trial, so a group's share of an operation is a
 * ratio of two sums in one unit, taken in the same run.
 *
 * Single-threaded: submissions call the placeholders from one thread.
 */
#ifndef NGCC_PROF_H
#define NGCC_PROF_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#if defined(__GNUC__)
#define NGCC_PROF_HIDDEN __attribute__((visibility("hidden")))
#else
#define NGCC_PROF_HIDDEN
#endif

typedef struct {
    const char *name;   /* group name from the campaign, e.g. hash */
    unsigned depth;     /* wrapped calls of this group currently running */
    uint64_t ticks;     /* time inside outermost calls, in ngcc_prof_now() units */
    unsigned long long outer; /* outermost calls */
} ngcc_prof_group;

typedef struct {
    const char *name;          /* linker symbol, e.g. pseudoXOF */
    unsigned group;            /* index into ngcc_prof_groups */
    unsigned long long outer;  /* calls made while no other call of the group was running */
    unsigned long long nested; /* calls made from inside another wrapped call of the group */
    uint64_t ticks;            /* time inside this symbol's outermost calls */
} ngcc_prof_symbol;

/* Defined by the generated table (ngcc_prof_table.c). */
extern NGCC_PROF_HIDDEN ngcc_prof_group ngcc_prof_groups[];
extern NGCC_PROF_HIDDEN ngcc_prof_symbol ngcc_prof_symbols[];
extern NGCC_PROF_HIDDEN const unsigned ngcc_prof_ngroups;
extern NGCC_PROF_HIDDEN const unsigned ngcc_prof_nsymbols;

static inline uint64_t ngcc_prof_now(void) {
#if defined(__x86_64__)
    uint32_t lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
#elif defined(__aarch64__)
    uint64_t v;
    __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(v));
    return v;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

/* Called by a wrapper before forwarding; returns the start time (0 for a nested call). */
static inline uint64_t ngcc_prof_enter(unsigned g, unsigned s) {
    ngcc_prof_group *gr = &ngcc_prof_groups[g];
    if (gr->depth++ == 0) {
        ngcc_prof_symbols[s].outer++;
        gr->outer++;
        return ngcc_prof_now();
    }
    ngcc_prof_symbols[s].nested++;
    return 0;
}

/* Called by a wrapper after the real function returned. */
static inline void ngcc_prof_leave(unsigned g, unsigned s, uint64_t t0) {
    ngcc_prof_group *gr = &ngcc_prof_groups[g];
    if (--gr->depth == 0) {
        uint64_t d = ngcc_prof_now() - t0;
        gr->ticks += d;
        ngcc_prof_symbols[s].ticks += d;
    }
}

/* Name of the clock behind ngcc_prof_now(): rdtsc, cntvct or clock_gettime. */
const char *ngcc_prof_clock(void);

/* Zero every count and time (before the first trial). */
void ngcc_prof_reset(void);

/* Around each trial: accumulates the trials' total time in the wrappers' clock. */
void ngcc_prof_trial_begin(void);
void ngcc_prof_trial_end(void);

/*
 * After each operation of a trial (the profiling driver runs the trial's operations one at a time): the
 * outermost calls each symbol received during that operation join the symbol's distribution of calls per
 * operation (min, max, median, sum and a histogram of value -> number of operations).
 */
void ngcc_prof_op_end(void);

/* Freeze the figures (after the last trial; calls made later, e.g. when verifying, are not reported). */
void ngcc_prof_freeze(void);

/*
 * The frozen figures as one JSON object:
 * {"clock":"rdtsc","totalTicks":N,"groups":[{"name","ticks","outer"}],
 *  "symbols":[{"name","group","outer","nested","ticks",
 *               "perOperation":{"operations","min","max","median","sum","distinct","histogram"?:[[calls,ops],...]}}]}
 * perOperation counts outermost calls, operation by operation (sum == outer); the histogram, in increasing
 * calls, is printed when it has at most NGCC_PROF_HIST_PRINT distinct values; median is the lower median.
 */
#define NGCC_PROF_HIST_PRINT 64
void ngcc_prof_json(FILE *out);

#endif /* NGCC_PROF_H */
