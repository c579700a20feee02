/*
 * ngcc_driver.h -- shared declarations of the ngcc-perf timing driver.
 *
 * Exit codes (see native/README.md):
 *   0  success (one JSON document on stdout)
 *   2  usage error, or the environment refused something (counter, memory)
 *   3  a result check failed, or the implementation returned non-zero
 *   4  a canary around an output buffer was overwritten
 */
#ifndef NGCC_DRIVER_H
#define NGCC_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#define NGCC_EXIT_USAGE 2
#define NGCC_EXIT_RESULT 3
#define NGCC_EXIT_CANARY 4

#if defined(__GNUC__)
#define NGCC_NORETURN __attribute__((noreturn))
#define NGCC_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define NGCC_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define NGCC_NORETURN
#define NGCC_PRINTF(f, a)
#define NGCC_UNLIKELY(x) (x)
#endif

/* Print "ngcc-driver: <message>" on stderr and exit with code. */
NGCC_NORETURN void ngcc_die(int code, const char *fmt, ...) NGCC_PRINTF(2, 3);

/* Exit 3 naming the function when an API call returned non-zero. */
void ngcc_call(int rc, const char *function);

/* Deterministic generator for the driver's own choices (messages, tamper positions). */
uint64_t ngcc_rng_next(uint64_t *state);
void ngcc_rng_fill(uint64_t *state, unsigned char *out, size_t len);

/* Running min / max / sum / count of a length. */
typedef struct {
    unsigned long long min, max, sum, count;
} ngcc_length_stats;

void ngcc_length_add(ngcc_length_stats *s, unsigned long long value);

/* Per-call slots to start with for entries of entry_bytes: 64, fewer when that would pass 16 MiB (at least 1). */
size_t ngcc_initial_slots(size_t entry_bytes);

#endif /* NGCC_DRIVER_H */
