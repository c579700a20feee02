/*
 * ngcc_common.c -- the helpers every native program of ngcc-perf shares (see ngcc_common.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include "ngcc_common.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void ngcc_die(int code, const char *fmt, ...) {
    va_list ap;
    fflush(stdout);
    fprintf(stderr, "%s: ", ngcc_program);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(code);
}

void ngcc_call(int rc, const char *function) {
    if (rc != 0) {
        ngcc_die(NGCC_EXIT_RESULT, "%s returned non-zero (%d)", function, rc);
    }
}

unsigned long long ngcc_parse_u64(const char *opt, const char *s, unsigned long long lo, unsigned long long hi) {
    char *end = NULL;
    unsigned long long v;
    errno = 0;
    if (s == NULL || s[0] < '0' || s[0] > '9') {
        ngcc_die(NGCC_EXIT_USAGE, "%s: expected a non-negative integer, got \"%s\"", opt, s != NULL ? s : "");
    }
    v = strtoull(s, &end, 10);
    if (errno != 0 || end == NULL || *end != '\0') {
        ngcc_die(NGCC_EXIT_USAGE, "%s: expected a non-negative integer, got \"%s\"", opt, s);
    }
    if (v < lo || v > hi) {
        ngcc_die(NGCC_EXIT_USAGE, "%s: expected an integer in [%llu, %llu], got \"%s\"", opt, lo, hi, s);
    }
    return v;
}

const char *ngcc_option_value(int argc, char **argv, int i) {
    if (i + 1 >= argc) {
        ngcc_die(NGCC_EXIT_USAGE, "%s needs a value", argv[i]);
    }
    return argv[i + 1];
}

void ngcc_json_string(FILE *out, const char *s) {
    const unsigned char *p;
    if (s == NULL) {
        fputs("null", out);
        return;
    }
    fputc('"', out);
    for (p = (const unsigned char *)s; *p != '\0'; p++) {
        if (*p == '"' || *p == '\\') {
            fprintf(out, "\\%c", *p);
        } else if (*p < 0x20) {
            fprintf(out, "\\u%04x", *p);
        } else {
            fputc(*p, out);
        }
    }
    fputc('"', out);
}

void ngcc_json_number(FILE *out, double v) {
    if (isfinite(v)) {
        fprintf(out, "%.10g", v);
    } else {
        fputs("null", out);
    }
}

FILE *ngcc_private_stdout(void) {
    int fd = dup(STDOUT_FILENO);
    FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (out == NULL || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        ngcc_die(NGCC_EXIT_USAGE, "cannot set up stdout");
    }
    return out;
}

uint64_t ngcc_rng_next(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

void ngcc_rng_fill(uint64_t *state, unsigned char *out, size_t len) {
    size_t i;
    for (i = 0; i < len; i++) {
        if (i % 8 == 0) {
            uint64_t r = ngcc_rng_next(state);
            size_t k;
            for (k = 0; k < 8 && i + k < len; k++) {
                out[i + k] = (unsigned char)(r >> (8 * k));
            }
        }
    }
}

void ngcc_length_add(ngcc_length_stats *s, unsigned long long value) {
    if (s->count == 0 || value < s->min) {
        s->min = value;
    }
    if (s->count == 0 || value > s->max) {
        s->max = value;
    }
    s->sum += value;
    s->count++;
}

size_t ngcc_initial_slots(size_t entry_bytes) {
    size_t budget = (size_t)16 << 20, n = 64;
    if (entry_bytes > 0 && budget / entry_bytes < n) {
        n = budget / entry_bytes;
    }
    return n > 0 ? n : 1;
}
