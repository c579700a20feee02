/*
 * ngcc_common.h -- the helpers every native program of ngcc-perf shares (the timing driver, the instruction
 * counter, the constant-time test, the counter probe): fatal errors and exit codes, decimal option values, JSON
 * strings and numbers, a private copy of stdout, and the deterministic generator and length statistics of the
 * driver's category code (native/driver/ngcc_ops_*.c, which the driver and the instruction counter link).
 *
 * Each program defines ngcc_program, the name its messages start with ("ngcc-driver", "ngcc-icount", ...).
 *
 * Exit codes (see native/README.md):
 *   0  success (one JSON document on stdout)
 *   2  usage error, or the environment refused something (counter, memory)
 *   3  a result check failed, or the implementation returned non-zero
 *   4  a canary around an output buffer was overwritten
 */
#ifndef NGCC_COMMON_H
#define NGCC_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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

/* The program's name, defined by each program: the prefix of its messages on stderr. */
extern const char ngcc_program[];

/* Print "<ngcc_program>: <message>" on stderr and exit with code. */
NGCC_NORETURN void ngcc_die(int code, const char *fmt, ...) NGCC_PRINTF(2, 3);

/* Exit 3 naming the function when an API call returned non-zero. */
void ngcc_call(int rc, const char *function);

/*
 * An option's decimal value in [lo, hi], else exit 2 naming the option ("expected a non-negative integer" when it
 * is not one, "expected an integer in [lo, hi]" when it is out of range).
 */
unsigned long long ngcc_parse_u64(const char *opt, const char *s, unsigned long long lo, unsigned long long hi);

/* The value after option argv[i] (options take their value as the next argument), else exit 2. */
const char *ngcc_option_value(int argc, char **argv, int i);

/* A JSON string (escaped: '"', '\\' and control characters), or null for NULL. */
void ngcc_json_string(FILE *out, const char *s);

/* A JSON number (%.10g), or null when not finite. */
void ngcc_json_number(FILE *out, double v);

/*
 * A private copy of the original stdout for the JSON line; file descriptor 1 then points at stderr, so what the
 * implementation prints cannot mix with it.  Exit 2 when that cannot be set up.
 */
FILE *ngcc_private_stdout(void);

/* Deterministic generator for the driver's own choices (messages, tamper positions): splitmix64. */
uint64_t ngcc_rng_next(uint64_t *state);
void ngcc_rng_fill(uint64_t *state, unsigned char *out, size_t len);

/* Running min / max / sum / count of a length. */
typedef struct {
    unsigned long long min, max, sum, count;
} ngcc_length_stats;

void ngcc_length_add(ngcc_length_stats *s, unsigned long long value);

/* Per-call slots to start with for entries of entry_bytes: 64, fewer when that would pass 16 MiB (at least 1). */
size_t ngcc_initial_slots(size_t entry_bytes);

#endif /* NGCC_COMMON_H */
