/*
 * ngcc_icount.c -- instruction counts per operation under valgrind's callgrind (the `instructions` step).
 *
 *   valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file=OUT \
 *       ngcc-icount --op OP [--calls N] [--keys K] [--pool P] [--msg-bytes B] [--seed S] [--drbg-in-count 1]
 *
 * Linked like the timing driver (the instance's objects and the driver's category code, ngcc_ops_*.o and
 * ngcc_buf.o, as static objects), but with the KAT generator's seeded DRBG (native/katgen/ngcc_rng.c, seeded
 * with the bytes 0x00..0x2F as katgen's outer generator is) in place of the system randomness, so every run
 * makes the same keys, ciphertexts and signatures, and takes the same rejection paths.
 *
 * The calls are the driver's sampled form (`sample`): call c uses key pair c mod K and pool entry c mod P, a
 * fresh message per sign call.  Calls 0..N are staged outside collection in chunks of at most the per-call slots,
 * and each call is run on its own between two CALLGRIND_TOGGLE_COLLECT client requests; call 0 is the warm-up (a
 * lazily built table is built there; its counts are zeroed, not dumped), calls 1..N are dumped one by one
 * (CALLGRIND_DUMP_STATS_AT, which also zeroes the counts), so the runner reads one count per call.  Dumps:
 *   "ngcc-call-<c>":    call c (1..N);
 *   "ngcc-baseline":    N toggle pairs around nothing (what N pairs of the requests themselves count);
 *   "ngcc-randombytes": the randombytes requests of the N calls replayed, lengths in order, with collection on.
 *
 * The randomness source is not the algorithm's: the KAT DRBG is linked under another name (ngcc_rng.c compiled
 * with -Drandombytes=ngcc_icount_drbg -DPQCLEAN_randombytes=ngcc_icount_drbg_pqclean) and this file's
 * randombytes / PQCLEAN_randombytes wrap it.  While a counted call runs (a flag main sets around the call only:
 * calls from staging, the warm-up and the checks never toggle), the wrapper turns collection off for the DRBG and
 * on again after it, and counts the calls and bytes asked for and keeps each request's length.  The DRBG's own
 * cost (AES-256 CTR_DRBG: its instructions depend on the request lengths, not on the data) is then measured by
 * replaying the same sequence of lengths with collection on (the "ngcc-randombytes" dump).  The runner takes out
 * of call c's dump one toggle pair per request pair (the call's own, and one per randombytes call inside it).
 *
 * --drbg-in-count 1 leaves collection on inside randombytes (the DRBG counted as part of each call, as records
 * made before the exclusion were): a check of the exclusion (packages/tests/src/instructions.test.ts), never the
 * step's.
 *
 * Outside valgrind the client requests are no-ops and the program simply runs the calls (a smoke test).
 * Stdout: one JSON line; diagnostics on stderr; exit codes as the driver's (native/common/ngcc_common.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <valgrind/callgrind.h>

#include "ngcc_driver.h"
#include "ngcc_ops.h"
#include "../katgen/rng.h"

/* The KAT DRBG under its icount name (ngcc_rng.c compiled with -Drandombytes=ngcc_icount_drbg). */
int ngcc_icount_drbg(unsigned char *x, unsigned long long xlen);

/* ------------------------------------------------ randombytes, collection off inside it while a call is counted */

static volatile int ngcc_icount_counting = 0; /* 1 only while a counted call runs */
static unsigned long long ngcc_icount_rb_calls = 0, ngcc_icount_rb_bytes = 0;
static unsigned long long *ngcc_icount_rb_lengths = NULL; /* every counted request's length, in order */
static size_t ngcc_icount_rb_n = 0, ngcc_icount_rb_cap = 0;

static int ngcc_icount_randombytes(unsigned char *x, unsigned long long xlen) {
    int rc;
    if (!ngcc_icount_counting) {
        return ngcc_icount_drbg(x, xlen);
    }
    CALLGRIND_TOGGLE_COLLECT;
    if (ngcc_icount_rb_n == ngcc_icount_rb_cap) {
        size_t cap = ngcc_icount_rb_cap ? 2 * ngcc_icount_rb_cap : 256;
        unsigned long long *p = realloc(ngcc_icount_rb_lengths, cap * sizeof *p);
        if (p == NULL) {
            ngcc_die(NGCC_EXIT_USAGE, "out of memory (randombytes lengths)");
        }
        ngcc_icount_rb_lengths = p;
        ngcc_icount_rb_cap = cap;
    }
    ngcc_icount_rb_lengths[ngcc_icount_rb_n++] = xlen;
    ngcc_icount_rb_calls++;
    ngcc_icount_rb_bytes += xlen;
    rc = ngcc_icount_drbg(x, xlen);
    CALLGRIND_TOGGLE_COLLECT;
    return rc;
}

int randombytes(unsigned char *x, unsigned long long xlen) {
    return ngcc_icount_randombytes(x, xlen);
}

int PQCLEAN_randombytes(uint8_t *output, size_t n) {
    return ngcc_icount_randombytes(output, (unsigned long long)n);
}

const char ngcc_program[] = "ngcc-icount";

/* ------------------------------------------------------------------- main */

static const ngcc_sample_op *ngcc_icount_find(const char *name) {
    const ngcc_sample_op *op;
    for (op = ngcc_sample_ops; op->name != NULL; op++) {
        if (strcmp(op->name, name) == 0) {
            return op;
        }
    }
    ngcc_die(NGCC_EXIT_USAGE, "unknown --op %s", name);
}

int main(int argc, char **argv) {
    const char *op_name = NULL;
    unsigned long long calls = 16, keys = 4, pool = 16, msg_bytes = 32, seed = 1, first, left, chunks = 0, k;
    unsigned long long *rb_calls, *rb_bytes, longest, drbg_in_count = 0;
    unsigned char *replay;
    unsigned char entropy[48];
    const ngcc_sample_op *op;
    ngcc_sample_inputs inputs;
    size_t slots;
    FILE *out;
    int i;

    for (i = 1; i < argc; i += 2) {
        const char *v = ngcc_option_value(argc, argv, i);
        if (strcmp(argv[i], "--op") == 0) {
            op_name = v;
        } else if (strcmp(argv[i], "--calls") == 0) {
            calls = ngcc_parse_u64(argv[i], v, 1, 100000);
        } else if (strcmp(argv[i], "--keys") == 0) {
            keys = ngcc_parse_u64(argv[i], v, 1, 4096);
        } else if (strcmp(argv[i], "--pool") == 0) {
            pool = ngcc_parse_u64(argv[i], v, 1, 65536);
        } else if (strcmp(argv[i], "--msg-bytes") == 0) {
            msg_bytes = ngcc_parse_u64(argv[i], v, 0, 1u << 20);
        } else if (strcmp(argv[i], "--drbg-in-count") == 0) {
            drbg_in_count = ngcc_parse_u64(argv[i], v, 0, 1);
        } else if (strcmp(argv[i], "--seed") == 0) {
            seed = ngcc_parse_u64(argv[i], v, 0, ~0ULL);
        } else {
            ngcc_die(NGCC_EXIT_USAGE, "unknown option %s", argv[i]);
        }
    }
    if (op_name == NULL) {
        ngcc_die(NGCC_EXIT_USAGE, "--op is required");
    }
    op = ngcc_icount_find(op_name);

    /* The JSON goes to a private copy of stdout; fd 1 then points at stderr (an implementation may print). */
    out = ngcc_private_stdout();

    for (i = 0; i < 48; i++) {
        entropy[i] = (unsigned char)i;
    }
    randombytes_init(entropy, NULL, 256);
    ngcc_ops_init((size_t)msg_bytes, (uint64_t)seed);
    slots = op->prepare((size_t)keys, (size_t)pool, &inputs);
    if (slots > 0 && op->reserve != NULL && slots < calls) {
        slots = op->reserve((size_t)calls);
    }

    /*
     * Calls 0..N, staged chunk by chunk, each run alone between two toggles.  Call 0 is the warm-up: it runs the
     * same code with the same requests (valgrind counts a few more instructions the first time a toggle's code
     * runs, which would otherwise be call 1's), and its counts are zeroed, not dumped; calls 1..N are dumped.
     */
    rb_calls = malloc((size_t)calls * sizeof *rb_calls);
    rb_bytes = malloc((size_t)calls * sizeof *rb_bytes);
    if (rb_calls == NULL || rb_bytes == NULL) {
        ngcc_die(NGCC_EXIT_USAGE, "out of memory (per-call counts)");
    }
    CALLGRIND_ZERO_STATS;
    for (first = 0, left = calls + 1; left > 0; chunks++) {
        size_t chunk = slots > 0 && left > slots ? slots : (size_t)left, j;
        if (op->stage != NULL) {
            op->stage(first, chunk);
        }
        for (j = 0; j < chunk; j++) {
            unsigned long long c = first + j, calls0 = ngcc_icount_rb_calls, bytes0 = ngcc_icount_rb_bytes;
            const char *err;
            char name[48];
            ngcc_icount_counting = drbg_in_count ? 0 : 1;
            CALLGRIND_TOGGLE_COLLECT;
            err = op->run(c, 1);
            CALLGRIND_TOGGLE_COLLECT;
            ngcc_icount_counting = 0;
            if (err != NULL) {
                ngcc_die(NGCC_EXIT_RESULT, "--op %s (call %llu%s): %s", op_name, c, c == 0 ? ", the warm-up" : "", err);
            }
            if (c == 0) {
                /* The warm-up: neither its counts nor its randombytes requests are the calls'. */
                CALLGRIND_ZERO_STATS;
                ngcc_icount_rb_calls = ngcc_icount_rb_bytes = 0;
                ngcc_icount_rb_n = 0;
                continue;
            }
            rb_calls[c - 1] = ngcc_icount_rb_calls - calls0;
            rb_bytes[c - 1] = ngcc_icount_rb_bytes - bytes0;
            snprintf(name, sizeof name, "ngcc-call-%llu", c);
            CALLGRIND_DUMP_STATS_AT(name);
        }
        first += chunk;
        left -= chunk;
    }
    /* The baseline: one toggle pair around nothing per call, after one pair not counted (as call 0 above). */
    for (k = 0; k <= calls; k++) {
        CALLGRIND_TOGGLE_COLLECT;
        CALLGRIND_TOGGLE_COLLECT;
        if (k == 0) {
            CALLGRIND_ZERO_STATS;
        }
    }
    CALLGRIND_DUMP_STATS_AT("ngcc-baseline");
    op->verify(calls);
    /* The DRBG's own cost: the counted calls' requests replayed in order, collection on (one toggle pair). */
    for (k = 0, longest = 0; k < ngcc_icount_rb_n; k++) {
        longest = ngcc_icount_rb_lengths[k] > longest ? ngcc_icount_rb_lengths[k] : longest;
    }
    replay = malloc(longest > 0 ? (size_t)longest : 1);
    if (replay == NULL) {
        ngcc_die(NGCC_EXIT_USAGE, "out of memory (randombytes replay)");
    }
    CALLGRIND_TOGGLE_COLLECT;
    for (k = 0; k < ngcc_icount_rb_n; k++) {
        (void)ngcc_icount_drbg(replay, ngcc_icount_rb_lengths[k]);
    }
    CALLGRIND_TOGGLE_COLLECT;
    CALLGRIND_DUMP_STATS_AT("ngcc-randombytes");
    free(replay);

    fprintf(out, "{\"op\":");
    ngcc_json_string(out, op_name);
    fprintf(out, ",\"calls\":%llu,\"warmupCalls\":1,\"chunks\":%llu,\"messageBytes\":%llu,\"seed\":%llu", calls,
            chunks, msg_bytes, seed);
    fprintf(out, ",\"inputs\":{\"keyPairs\":%llu,\"pool\":%llu,\"messages\":", inputs.key_pairs, inputs.pool);
    ngcc_json_string(out, inputs.messages != NULL ? inputs.messages : "none");
    fprintf(out, ",\"description\":");
    ngcc_json_string(out, inputs.description);
    fprintf(out, "},\"randombytes\":{\"calls\":[");
    for (k = 0; k < calls; k++) {
        fprintf(out, "%s%llu", k ? "," : "", rb_calls[k]);
    }
    fprintf(out, "],\"bytes\":[");
    for (k = 0; k < calls; k++) {
        fprintf(out, "%s%llu", k ? "," : "", rb_bytes[k]);
    }
    fprintf(out, "]},\"onValgrind\":%s}\n", RUNNING_ON_VALGRIND ? "true" : "false");
    free(rb_calls);
    free(rb_bytes);
    if (fclose(out) != 0) {
        ngcc_die(NGCC_EXIT_USAGE, "cannot write the result");
    }
    return 0;
}
