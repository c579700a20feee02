/*
 * ngcc_leak.c -- the measurements of the fixed-vs-random timing test (dudect's method) of the `constant-time` step.
 *
 *   ngcc-leak --op OP --measurements N [--seed S] [--pin CPU] [--counter KIND] [--msg-bytes B]
 *
 * Linked from the instance's own sources compiled with the build profile's flags (as timed), with the KAT
 * generator's AES-256 CTR_DRBG (native/katgen/ngcc_rng.c, its entry points renamed to ngcc_leak_drbg_*) behind
 * randombytes and PQCLEAN_randombytes, the names the system randomness goes by: so the randomness a call draws is
 * an input the program chooses, by seeding that DRBG before the call.
 *
 * N measurements, each of one call of OP, of one of two classes chosen by a fair coin (the program's splitmix64,
 * seeded by --seed), so the classes are interleaved in random order:
 *   class 0 (fixed):  the same inputs at every call of this class;
 *   class 1 (random): inputs that differ from call to call.
 * What the classes are, per operation (one key pair, made once, for every operation that takes one):
 *   KEM keygen   the randomness drawn: the DRBG seeded with a fixed seed / a fresh seed before the call;
 *   KEM enc      the randomness drawn (as keygen), under the one public key;
 *   KEM dec      the ciphertext: one fixed invalid ciphertext (a valid one with its first byte flipped, so
 *                decapsulation takes its implicit-rejection path) / a fresh valid ciphertext of the one key;
 *   sign         the message and the randomness drawn: one fixed message and seed / a fresh message and seed;
 * verify and every key-exchange operation have no classes here (verify has no secret input); the program refuses
 * them (exit 2, "no input classes"). Each call's inputs are made before it, outside the timed interval, and copied
 * into the same buffers for both classes (the call sees the same addresses); every input of the random class is
 * made whatever the coin says, so both classes do the same untimed work. The call's result is checked after the
 * timed interval (dec's shared secret against the encapsulated one for a valid ciphertext, sign's length).
 *
 * Stdout: one JSON line {"op","category","measurements","seed","pinnedCpu","counter":{…},"classes":{"fixed","random"},
 * "times":[…],"class":"0110…"}: the counter deltas in the counter's unit, in call order, and the class of each as a
 * string of digits. Diagnostics on stderr; exit 2 usage, 3 an API call failed or returned a wrong result.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/ngcc_common.h"
#include "ngcc_api.h"
#include "ngcc_counter.h"

/* ------------------------------------------------------------ randomness */

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wredundant-decls"
#endif
int ngcc_leak_drbg_bytes(unsigned char *x, unsigned long long xlen);
void randombytes_init(unsigned char *entropy_input, unsigned char *personalization_string, int security_strength);
int randombytes(unsigned char *x, unsigned long long xlen);
int PQCLEAN_randombytes(uint8_t *output, size_t n);
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

int randombytes(unsigned char *x, unsigned long long xlen) {
    return ngcc_leak_drbg_bytes(x, xlen);
}

int PQCLEAN_randombytes(uint8_t *output, size_t n) {
    return ngcc_leak_drbg_bytes(output, (unsigned long long)n);
}

const char ngcc_program[] = "ngcc-leak";

/* The DRBG seeded with 48 bytes: the fixed seed (all 0x5a) or 48 fresh bytes of the program's generator. */
static void ngcc_leak_seed_drbg(int fixed, uint64_t *state) {
    unsigned char entropy[48];
    if (fixed) {
        memset(entropy, 0x5a, sizeof entropy);
    } else {
        ngcc_rng_fill(state, entropy, sizeof entropy);
    }
    randombytes_init(entropy, NULL, 256);
}

static unsigned char *ngcc_leak_alloc(size_t n) {
    unsigned char *p = calloc(n > 0 ? n : 1, 1);
    if (p == NULL) {
        ngcc_die(NGCC_EXIT_USAGE, "out of memory");
    }
    return p;
}

static void ngcc_leak_ok(int rc, const char *function) {
    if (rc != 0) {
        ngcc_die(NGCC_EXIT_RESULT, "%s returned non-zero (%d)", function, rc);
    }
}

/* What one category does per measurement: make the inputs of class `cls` (untimed), run the call (timed). */
typedef struct {
    const char *fixed;  /* the classes in words */
    const char *random;
} ngcc_leak_classes;

static ngcc_counter ngcc_leak_counter;

/* The timed interval around one call. */
#define NGCC_LEAK_TIMED(delta, call)                                                                               \
    do {                                                                                                           \
        uint64_t ngcc_t0_ = ngcc_counter_start(&ngcc_leak_counter);                                               \
        int ngcc_rc_ = (call);                                                                                     \
        uint64_t ngcc_t1_ = ngcc_counter_stop(&ngcc_leak_counter);                                                \
        (delta) = ngcc_counter_delta(&ngcc_leak_counter, ngcc_t0_, ngcc_t1_);                                     \
        ngcc_leak_ok(ngcc_rc_, #call);                                                                             \
    } while (0)

/* ------------------------------------------------------------ KEM */
#if defined(NGCC_CATEGORY_KEM)

#define NGCC_PK NGCC_NS(CRYPTO_PUBLICKEYBYTES)
#define NGCC_SK NGCC_NS(CRYPTO_SECRETKEYBYTES)
#define NGCC_CT NGCC_NS(CRYPTO_CIPHERTEXTBYTES)
#define NGCC_SS NGCC_NS(CRYPTO_BYTES)

static const char ngcc_leak_category[] = "kem";

static int ngcc_leak_known(const char *op) {
    return strcmp(op, "keygen") == 0 || strcmp(op, "enc") == 0 || strcmp(op, "dec") == 0;
}

static void ngcc_leak_run(const char *op, unsigned long long n, size_t msg_bytes, uint64_t *state, double *times,
                          char *classes, ngcc_leak_classes *words) {
    unsigned char *pk = ngcc_leak_alloc(NGCC_PK), *sk = ngcc_leak_alloc(NGCC_SK);
    unsigned char *pk2 = ngcc_leak_alloc(NGCC_PK), *sk2 = ngcc_leak_alloc(NGCC_SK);
    unsigned char *ct = ngcc_leak_alloc(NGCC_CT), *ct_fixed = ngcc_leak_alloc(NGCC_CT);
    unsigned char *ct_fresh = ngcc_leak_alloc(NGCC_CT);
    unsigned char *ss = ngcc_leak_alloc(NGCC_SS), *ss_fresh = ngcc_leak_alloc(NGCC_SS);
    unsigned long long i;
    (void)msg_bytes;
    ngcc_leak_seed_drbg(1, state);
    ngcc_leak_ok(NGCC_NS(crypto_kem_keypair)(pk, sk), "crypto_kem_keypair");
    ngcc_leak_ok(NGCC_NS(crypto_kem_enc)(ct_fixed, ss, pk), "crypto_kem_enc");
    ct_fixed[0] ^= 0x01; /* invalid: decapsulation's implicit-rejection path */
    if (strcmp(op, "keygen") == 0) {
        words->fixed = "the randomness drawn: the generator seeded with one fixed seed before each call";
        words->random = "the randomness drawn: the generator seeded with a fresh seed before each call";
    } else if (strcmp(op, "enc") == 0) {
        words->fixed = "one public key; the randomness drawn from one fixed seed";
        words->random = "the same public key; the randomness drawn from a fresh seed";
    } else {
        words->fixed = "one secret key; one fixed invalid ciphertext (a valid one with its first byte flipped: the "
                       "implicit-rejection path)";
        words->random = "the same secret key; a fresh valid ciphertext of it at each call";
    }
    for (i = 0; i < n; i++) {
        int cls = (int)(ngcc_rng_next(state) & 1u);
        classes[i] = (char)('0' + cls);
        if (strcmp(op, "keygen") == 0) {
            ngcc_leak_seed_drbg(cls == 0, state);
            NGCC_LEAK_TIMED(times[i], NGCC_NS(crypto_kem_keypair)(pk2, sk2));
        } else if (strcmp(op, "enc") == 0) {
            ngcc_leak_seed_drbg(cls == 0, state);
            NGCC_LEAK_TIMED(times[i], NGCC_NS(crypto_kem_enc)(ct, ss, pk));
        } else {
            /* A fresh valid ciphertext whatever the class (the same untimed work), then the class's one. */
            ngcc_leak_seed_drbg(0, state);
            ngcc_leak_ok(NGCC_NS(crypto_kem_enc)(ct_fresh, ss_fresh, pk), "crypto_kem_enc");
            memcpy(ct, cls == 0 ? ct_fixed : ct_fresh, NGCC_CT);
            NGCC_LEAK_TIMED(times[i], NGCC_NS(crypto_kem_dec)(ss, ct, sk));
            if (cls == 1 && memcmp(ss, ss_fresh, NGCC_SS) != 0) {
                ngcc_die(NGCC_EXIT_RESULT, "crypto_kem_dec: the shared secret differs from the encapsulated one");
            }
        }
    }
    free(pk);
    free(sk);
    free(pk2);
    free(sk2);
    free(ct);
    free(ct_fixed);
    free(ct_fresh);
    free(ss);
    free(ss_fresh);
}

/* ------------------------------------------------------------ signatures */
#elif defined(NGCC_CATEGORY_SIGN)

#define NGCC_PK NGCC_NS(CRYPTO_PUBLICKEYBYTES)
#define NGCC_SK NGCC_NS(CRYPTO_SECRETKEYBYTES)
#define NGCC_SIG NGCC_NS(CRYPTO_BYTES)
#define NGCC_SIGN_NAME(x) NGCC_NS(x)
#if defined(NGCC_NAMESPACE)
#define NGCC_SIGN_SIZE_T_DEFAULT
#endif
#include "ngcc_sign_api.h"

static const char ngcc_leak_category[] = "sign";

static int ngcc_leak_known(const char *op) {
    return strcmp(op, "keygen") == 0 || strcmp(op, "sign") == 0;
}

static void ngcc_leak_run(const char *op, unsigned long long n, size_t msg_bytes, uint64_t *state, double *times,
                          char *classes, ngcc_leak_classes *words) {
    size_t smcap = NGCC_SIG + msg_bytes;
    unsigned char *pk = ngcc_leak_alloc(NGCC_PK), *sk = ngcc_leak_alloc(NGCC_SK);
    unsigned char *pk2 = ngcc_leak_alloc(NGCC_PK), *sk2 = ngcc_leak_alloc(NGCC_SK);
    unsigned char *m = ngcc_leak_alloc(msg_bytes), *m_fixed = ngcc_leak_alloc(msg_bytes);
    unsigned char *m_fresh = ngcc_leak_alloc(msg_bytes), *sm = ngcc_leak_alloc(smcap);
    unsigned long long i;
    ngcc_sign_len smlen = 0;
    ngcc_leak_seed_drbg(1, state);
    ngcc_leak_ok(NGCC_NS(crypto_sign_keypair)(pk, sk), "crypto_sign_keypair");
    ngcc_rng_fill(state, m_fixed, msg_bytes);
    if (strcmp(op, "keygen") == 0) {
        words->fixed = "the randomness drawn: the generator seeded with one fixed seed before each call";
        words->random = "the randomness drawn: the generator seeded with a fresh seed before each call";
    } else {
        words->fixed = "one secret key; one fixed message, the randomness drawn from one fixed seed";
        words->random = "the same secret key; a fresh message and a fresh seed at each call";
    }
    for (i = 0; i < n; i++) {
        int cls = (int)(ngcc_rng_next(state) & 1u);
        classes[i] = (char)('0' + cls);
        ngcc_leak_seed_drbg(cls == 0, state);
        if (strcmp(op, "keygen") == 0) {
            NGCC_LEAK_TIMED(times[i], NGCC_NS(crypto_sign_keypair)(pk2, sk2));
        } else {
            ngcc_rng_fill(state, m_fresh, msg_bytes);
            memcpy(m, cls == 0 ? m_fixed : m_fresh, msg_bytes);
            NGCC_LEAK_TIMED(times[i], NGCC_SIGN_CALL(sm, &smlen, m, (ngcc_sign_len)msg_bytes, sk));
            if ((size_t)smlen > smcap || (size_t)smlen < msg_bytes) {
                ngcc_die(NGCC_EXIT_RESULT, "crypto_sign: smlen %llu outside mlen .. mlen + CRYPTO_BYTES",
                         (unsigned long long)smlen);
            }
        }
    }
    free(pk);
    free(sk);
    free(pk2);
    free(sk2);
    free(m);
    free(m_fixed);
    free(m_fresh);
    free(sm);
}

/* ------------------------------------------------------------ key exchange */
#else

static const char ngcc_leak_category[] = "kex";

static int ngcc_leak_known(const char *op) {
    (void)op;
    return 0;
}

static void ngcc_leak_run(const char *op, unsigned long long n, size_t msg_bytes, uint64_t *state, double *times,
                          char *classes, ngcc_leak_classes *words) {
    (void)op;
    (void)n;
    (void)msg_bytes;
    (void)state;
    (void)times;
    (void)classes;
    (void)words;
}

#endif

/* ------------------------------------------------------------ main */

int main(int argc, char **argv) {
    const char *op_name = NULL, *counter_name = NULL;
    unsigned long long n = 0, msg_bytes = 32, seed = 1;
    long pin = -1;
    ngcc_counter_kind kind = ngcc_counter_default();
    ngcc_leak_classes words = {NULL, NULL};
    double *times;
    char *classes;
    uint64_t state;
    FILE *out;
    unsigned long long i;
    int a;

    for (a = 1; a < argc; a += 2) {
        const char *v = ngcc_option_value(argc, argv, a);
        if (strcmp(argv[a], "--op") == 0) {
            op_name = v;
        } else if (strcmp(argv[a], "--measurements") == 0) {
            n = ngcc_parse_u64(argv[a], v, 1, 10000000ULL);
        } else if (strcmp(argv[a], "--msg-bytes") == 0) {
            msg_bytes = ngcc_parse_u64(argv[a], v, 0, 1u << 20);
        } else if (strcmp(argv[a], "--seed") == 0) {
            seed = ngcc_parse_u64(argv[a], v, 0, ~0ULL);
        } else if (strcmp(argv[a], "--pin") == 0) {
            pin = (long)ngcc_parse_u64(argv[a], v, 0, 1023);
        } else if (strcmp(argv[a], "--counter") == 0) {
            counter_name = v;
        } else {
            ngcc_die(NGCC_EXIT_USAGE, "unknown option %s", argv[a]);
        }
    }
    if (op_name == NULL || n == 0) {
        ngcc_die(NGCC_EXIT_USAGE, "--op and --measurements are required");
    }
    if (!ngcc_leak_known(op_name)) {
        ngcc_die(NGCC_EXIT_USAGE, "no input classes for --op %s of a %s instance", op_name, ngcc_leak_category);
    }
    if (counter_name != NULL && ngcc_counter_parse(counter_name, &kind) != 0) {
        ngcc_die(NGCC_EXIT_USAGE, "unknown --counter \"%s\"", counter_name);
    }
    if (pin >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET((int)pin, &set);
        if (sched_setaffinity(0, sizeof set, &set) != 0) {
            ngcc_die(NGCC_EXIT_USAGE, "--pin %ld: sched_setaffinity failed: errno %d (%s)", pin, errno,
                     strerror(errno));
        }
    }

    /* The JSON goes to a private copy of stdout; fd 1 then points at stderr (an implementation may print). */
    out = ngcc_private_stdout();
    ngcc_counter_open(&ngcc_leak_counter, kind, 0);
    times = calloc((size_t)n, sizeof *times);
    classes = calloc((size_t)n + 1, 1);
    if (times == NULL || classes == NULL) {
        ngcc_die(NGCC_EXIT_USAGE, "out of memory for %llu measurements", n);
    }
    state = (uint64_t)seed;
    ngcc_leak_run(op_name, n, (size_t)msg_bytes, &state, times, classes, &words);

    fputs("{\"op\":", out);
    ngcc_json_string(out, op_name);
    fputs(",\"category\":", out);
    ngcc_json_string(out, ngcc_leak_category);
    fprintf(out, ",\"measurements\":%llu,\"seed\":%llu,\"messageBytes\":%llu", n, seed, msg_bytes);
    if (pin >= 0) {
        fprintf(out, ",\"pinnedCpu\":%ld", pin);
    } else {
        fputs(",\"pinnedCpu\":null", out);
    }
    fputs(",\"counter\":{\"kind\":", out);
    ngcc_json_string(out, ngcc_leak_counter.name);
    fputs(",\"unit\":", out);
    ngcc_json_string(out, ngcc_leak_counter.unit);
    fputs(",\"rateHz\":", out);
    ngcc_json_number(out, ngcc_leak_counter.rate_hz);
    fputs("},\"classes\":{\"fixed\":", out);
    ngcc_json_string(out, words.fixed);
    fputs(",\"random\":", out);
    ngcc_json_string(out, words.random);
    fputs("},\"times\":[", out);
    for (i = 0; i < n; i++) {
        if (i > 0) {
            fputc(',', out);
        }
        ngcc_json_number(out, times[i]);
    }
    fputs("],\"class\":\"", out);
    fputs(classes, out);
    fputs("\"}\n", out);
    if (fclose(out) != 0) {
        ngcc_die(NGCC_EXIT_USAGE, "cannot write the result");
    }
    free(times);
    free(classes);
    return 0;
}
