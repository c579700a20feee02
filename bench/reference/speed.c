/*
 * speed.c -- an independent per-call speed test, written the way a submitter writes test_speed.c.
 *
 * It is the reference of bench/precision.ts and shares nothing with ngcc-perf: it is compiled and linked in one gcc
 * command together with the scheme's own sources (no shared object, no ngcc-perf object), with the campaign's build
 * flags, e.g.
 *
 *   gcc -std=c99 -Wall -Wextra -Wpedantic -Werror -Wmissing-prototypes -Wredundant-decls -O3 -fomit-frame-pointer \
 *       -DSPEED_KEM -DSPEED_NAMESPACE=PQCLEAN_MLKEM768_CLEAN_ -DSPEED_LEN_T=size_t \
 *       -I<scheme> -I<PQClean>/common speed.c <the .c files of scheme and common> -o speed
 *
 *   -DSPEED_KEM or -DSPEED_SIGN        the API category (crypto_kem_* or crypto_sign_*)
 *   -DSPEED_NAMESPACE=PREFIX_          the prefix of a namespaced API (PQClean); leave it out for a plain NIST API
 *   -DSPEED_LEN_T=size_t               the type of smlen/mlen (PQClean: size_t; NIST: unsigned long long, the default)
 *   -DSPEED_PAD=N                      code layout (N in 0..63): this file's code section starts with `.p2align 6`
 *                                      and `.skip N`, so everything linked after speed.c (the scheme's code, as
 *                                      speed.c comes first on the link line) starts N bytes later modulo 64; leave
 *                                      it out for no padding (the plain build)
 *
 * Every call is timed alone with rdtsc (lfence; rdtsc; lfence before, rdtscp; lfence after), after a warm-up of the
 * same operation, with its inputs varied as in issue 13's design (§2):
 *   keygen   fresh randomness through the scheme's randombytes; nothing else varies;
 *   enc      K key pairs in rotation (public key i mod K);
 *   dec      a pool of P ciphertexts over the K keys (ciphertext j under key j mod K);
 *   sign     a fresh message per call from this program's own PRNG, K key pairs in rotation;
 *   verify   a pool of P (message, signature) pairs over the K keys.
 * Results are checked outside the timed region. The TSC rate is measured against CLOCK_MONOTONIC over the whole run
 * (or given with -t HZ). The counter overhead is printed, not subtracted (ngcc-perf does not subtract it either).
 *
 * Core clock: after every call (warm-up and timed, outside the timed region) a probe times a dependent chain that
 * takes ADDS core cycles (-c ADDS, default 16384; -c 0: no probe) with the same counter: on x86-64 ADDS / 3
 * multiplies (`imul reg, reg`, 3 cycles each), on aarch64 ADDS register adds — on x86-64 not the driver's
 * instruction, so the two estimates share no assumption about one instruction. Per operation, the core clock is
 * ADDS / (median probe - counter overhead) x the counter rate, and a call's estimated core cycles are its ticks x
 * ADDS / (median probe - counter overhead). It corrects for the core clock moving (boost, a VM host) between runs,
 * nothing else. x86-64 and aarch64 only; elsewhere no cycles are printed.
 *
 * Code layout: the time of the same code depends on where the linker puts it (loop and branch alignment; a few per
 * cent for ML-DSA-44 verify between paddings of 16 and 32 bytes), so a single binary's figure carries a layout
 * accident. Builds with -DSPEED_PAD=0, 16, 32, 48 move the scheme's code over those offsets past a 64-byte boundary;
 * the output says which pad it was built with and where the keygen function landed (its address modulo 64).
 *
 * Usage: speed [-n CALLS] [-w WARMUP_MS] [-k KEYS] [-p POOL] [-m MSG_BYTES] [-s SEED] [-t TSC_HZ] [-c ADDS] [OP...]
 * Output: '#' lines for people, then one line per operation of key=value pairs (times in ns and counter ticks, the
 * pad (-1: none) and the keygen function's offset modulo 64, estimated core cycles and the core clock in Hz where
 * the probe ran).
 */
#ifdef SPEED_PAD
/* The code-layout pad (see above), before anything else in this file's code section; GNU top-level asm (GAS syntax,
 * x86-64 and aarch64 alike). The assembler checks that N is a number. */
#if SPEED_PAD < 0 || SPEED_PAD > 63
#error "SPEED_PAD: expected 0..63"
#endif
#define SPEED_PAD_STR_(x) #x
#define SPEED_PAD_STR(x) SPEED_PAD_STR_(x)
#if SPEED_PAD > 0
__asm__(".pushsection .text\n\t.p2align 6\n\t.skip " SPEED_PAD_STR(SPEED_PAD) ", 0\n\t.popsection");
#else /* no .skip 0, which the assembler warns about */
__asm__(".pushsection .text\n\t.p2align 6\n\t.popsection");
#endif
#define SPEED_PAD_BYTES SPEED_PAD
#else
#define SPEED_PAD_BYTES (-1)
#endif

#define _POSIX_C_SOURCE 199309L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api.h"

#ifndef SPEED_NAMESPACE
#define SPEED_NAMESPACE
#endif
#ifndef SPEED_LEN_T
#define SPEED_LEN_T unsigned long long
#endif
#define SPEED_CAT_(a, b) a##b
#define SPEED_CAT(a, b) SPEED_CAT_(a, b)
#define NS(x) SPEED_CAT(SPEED_NAMESPACE, x)
#define SPEED_STR_(x) #x
#define SPEED_STR(x) SPEED_STR_(x)

#if !defined(SPEED_KEM) && !defined(SPEED_SIGN)
#error "define SPEED_KEM or SPEED_SIGN"
#endif

/* ------------------------------------------------------------------ counter */

#if defined(__x86_64__) || defined(__i386__)
#define SPEED_COUNTER "rdtsc (lfence; rdtsc; lfence / rdtscp; lfence)"
static inline uint64_t counter_start(void) {
    uint32_t lo, hi;
    __asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
}
static inline uint64_t counter_stop(void) {
    uint32_t lo, hi;
    __asm__ __volatile__("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi) : : "rcx", "memory");
    return ((uint64_t)hi << 32) | lo;
}
#define SPEED_HAVE_TSC 1
#else
#define SPEED_COUNTER "clock_gettime(CLOCK_MONOTONIC)"
static inline uint64_t counter_start(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}
#define counter_stop counter_start
#define SPEED_HAVE_TSC 0
#endif

/* ------------------------------------------------------------ clock probe */

#if defined(__x86_64__) || defined(__aarch64__)
#define SPEED_HAVE_CHAIN 1
/* A dependent chain that takes `adds` core cycles, timed with the counter; 0 if it did not run as written. Not the
   instruction ngcc-perf's driver times (its dependent `add reg, reg`), so that a core which runs one of the two
   faster than its documented latency does not fool both: on x86-64 a chain of `imul reg, reg` (3 cycles on every
   x86-64 core since Intel Sandy Bridge and AMD Zen; x times 1 keeps x), 8 per pass, adds / 24 passes, the delta
   scaled to `adds` cycles; on aarch64 a chain of `add x, x, one` (one register holding 1, never an immediate). */
static uint64_t clock_chain(unsigned long adds) {
    volatile unsigned long one_source = 1;
    unsigned long x = 1, one = one_source, i;
    uint64_t t0, t1;
#if defined(__x86_64__)
    unsigned long passes = adds / 24, cycles = 24 * passes;
#else
    unsigned long passes = adds / 8, cycles = 8 * passes;
#endif
    if (passes == 0) return 0;
    t0 = counter_start();
    for (i = 0; i < passes; i++) {
#if defined(__x86_64__)
        __asm__ __volatile__("imul %1, %0\n\timul %1, %0\n\timul %1, %0\n\timul %1, %0\n\t"
                             "imul %1, %0\n\timul %1, %0\n\timul %1, %0\n\timul %1, %0"
                             : "+r"(x)
                             : "r"(one));
#else
        __asm__ __volatile__("add %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1\n\t"
                             "add %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1"
                             : "+r"(x)
                             : "r"(one));
#endif
    }
    t1 = counter_stop();
#if defined(__x86_64__)
    if (x != 1) return 0;
#else
    if (x != 1 + 8 * passes) return 0;
#endif
    return (t1 - t0) * adds / cycles;
}
#else
#define SPEED_HAVE_CHAIN 0
static uint64_t clock_chain(unsigned long adds) {
    (void)adds;
    return 0;
}
#endif

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* -------------------------------------------------------------------- PRNG */

#ifdef SPEED_SIGN
/* splitmix64: this program's own message generator, seeded by -s; independent of the scheme's randombytes. */
static uint64_t prng_state;
static uint64_t prng_next(void) {
    uint64_t z = (prng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static void prng_fill(unsigned char *out, size_t len) {
    size_t i;
    uint64_t v = 0;
    for (i = 0; i < len; i++) {
        if (i % 8 == 0) v = prng_next();
        out[i] = (unsigned char)(v >> (8 * (i % 8)));
    }
}
#endif

/* ------------------------------------------------------------------ helpers */

static void die(const char *what) {
    fprintf(stderr, "speed: %s\n", what);
    exit(3);
}

static void *xmalloc(size_t n) {
    void *p = malloc(n == 0 ? 1 : n);
    if (p == NULL) die("out of memory");
    return p;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y ? 1 : 0;
}

/* Type-7 quantile of sorted values. */
static double quantile(const uint64_t *sorted, unsigned long n, double q) {
    double h = (double)(n - 1) * q;
    unsigned long lo = (unsigned long)h;
    double frac = h - (double)lo;
    if (lo + 1 >= n) return (double)sorted[n - 1];
    return (double)sorted[lo] + frac * ((double)sorted[lo + 1] - (double)sorted[lo]);
}

static unsigned long keys = 4, pool = 64, msg_bytes = 32;

/* ------------------------------------------------------------- operations */

#ifdef SPEED_KEM
#define PKB NS(CRYPTO_PUBLICKEYBYTES)
#define SKB NS(CRYPTO_SECRETKEYBYTES)
#define CTB NS(CRYPTO_CIPHERTEXTBYTES)
#define SSB NS(CRYPTO_BYTES)
#define KEYPAIR_FN NS(crypto_kem_keypair)
#define NOPS 3
static const char *const op_names[NOPS] = {"keygen", "enc", "dec"};
static const char *const op_inputs[NOPS] = {"none", "keys", "pool"};

static unsigned char *pk, *sk, *pool_ct, *pool_ss;
static unsigned char out_pk[PKB], out_sk[SKB], out_ct[CTB], out_ss[SSB];

static void setup(void) {
    unsigned long i;
    pk = xmalloc(keys * PKB);
    sk = xmalloc(keys * SKB);
    pool_ct = xmalloc(pool * CTB);
    pool_ss = xmalloc(pool * SSB);
    for (i = 0; i < keys; i++) {
        if (NS(crypto_kem_keypair)(pk + i * PKB, sk + i * SKB) != 0) die("crypto_kem_keypair failed");
    }
    for (i = 0; i < pool; i++) {
        if (NS(crypto_kem_enc)(pool_ct + i * CTB, pool_ss + i * SSB, pk + (i % keys) * PKB) != 0) {
            die("crypto_kem_enc failed");
        }
    }
}

/* One call of op on input i, timed alone; the result is checked after the counter stops. */
static uint64_t timed_call(int op, unsigned long i) {
    uint64_t t0, t1;
    int rc;
    if (op == 0) {
        t0 = counter_start();
        rc = NS(crypto_kem_keypair)(out_pk, out_sk);
        t1 = counter_stop();
    } else if (op == 1) {
        const unsigned char *key = pk + (i % keys) * PKB;
        t0 = counter_start();
        rc = NS(crypto_kem_enc)(out_ct, out_ss, key);
        t1 = counter_stop();
    } else {
        unsigned long j = i % pool;
        const unsigned char *ct = pool_ct + j * CTB, *key = sk + (j % keys) * SKB;
        t0 = counter_start();
        rc = NS(crypto_kem_dec)(out_ss, ct, key);
        t1 = counter_stop();
        if (rc == 0 && memcmp(out_ss, pool_ss + j * SSB, SSB) != 0) die("dec did not recover the shared secret");
    }
    if (rc != 0) die("a call returned non-zero");
    return t1 - t0;
}

/* After an operation's calls: its last outputs must work. */
static void check_after(int op) {
    unsigned char ss2[SSB];
    if (op == 0) {
        if (NS(crypto_kem_enc)(out_ct, out_ss, out_pk) != 0 || NS(crypto_kem_dec)(ss2, out_ct, out_sk) != 0 ||
            memcmp(out_ss, ss2, SSB) != 0) {
            die("keygen: the last key pair does not round-trip");
        }
    } else if (op == 1) {
        unsigned long k;
        for (k = 0; k < keys; k++) {
            if (NS(crypto_kem_enc)(out_ct, out_ss, pk + k * PKB) != 0 ||
                NS(crypto_kem_dec)(ss2, out_ct, sk + k * SKB) != 0 || memcmp(out_ss, ss2, SSB) != 0) {
                die("enc: a ciphertext does not decapsulate to its shared secret");
            }
        }
    }
}
#else /* SPEED_SIGN */
#define PKB NS(CRYPTO_PUBLICKEYBYTES)
#define SKB NS(CRYPTO_SECRETKEYBYTES)
#define SIGB NS(CRYPTO_BYTES)
#define KEYPAIR_FN NS(crypto_sign_keypair)
#define NOPS 3
static const char *const op_names[NOPS] = {"keygen", "sign", "verify"};
static const char *const op_inputs[NOPS] = {"none", "fresh", "pool"};

static unsigned char *pk, *sk, *msg, *sm, *out_m, *pool_sm;
static SPEED_LEN_T *pool_smlen, last_smlen;
static unsigned long last_key;
static unsigned char out_pk[PKB], out_sk[SKB];

static void setup(void) {
    unsigned long i;
    pk = xmalloc(keys * PKB);
    sk = xmalloc(keys * SKB);
    msg = xmalloc(msg_bytes);
    sm = xmalloc(msg_bytes + SIGB);
    out_m = xmalloc(msg_bytes + SIGB);
    pool_sm = xmalloc(pool * (msg_bytes + SIGB));
    pool_smlen = xmalloc(pool * sizeof *pool_smlen);
    for (i = 0; i < keys; i++) {
        if (NS(crypto_sign_keypair)(pk + i * PKB, sk + i * SKB) != 0) die("crypto_sign_keypair failed");
    }
    for (i = 0; i < pool; i++) {
        prng_fill(msg, msg_bytes);
        if (NS(crypto_sign)(pool_sm + i * (msg_bytes + SIGB), &pool_smlen[i], msg, msg_bytes, sk + (i % keys) * SKB) !=
            0) {
            die("crypto_sign failed");
        }
    }
}

static uint64_t timed_call(int op, unsigned long i) {
    uint64_t t0, t1;
    int rc;
    SPEED_LEN_T len = 0;
    if (op == 0) {
        t0 = counter_start();
        rc = NS(crypto_sign_keypair)(out_pk, out_sk);
        t1 = counter_stop();
    } else if (op == 1) {
        const unsigned char *key = sk + (i % keys) * SKB;
        prng_fill(msg, msg_bytes); /* a fresh message, made before the counter starts */
        t0 = counter_start();
        rc = NS(crypto_sign)(sm, &len, msg, msg_bytes, key);
        t1 = counter_stop();
        if (rc == 0 && (len < msg_bytes || len > msg_bytes + SIGB)) die("sign: signed message of a wrong length");
        last_smlen = len;
        last_key = i % keys;
    } else {
        unsigned long j = i % pool;
        const unsigned char *s = pool_sm + j * (msg_bytes + SIGB), *key = pk + (j % keys) * PKB;
        t0 = counter_start();
        rc = NS(crypto_sign_open)(out_m, &len, s, pool_smlen[j], key);
        t1 = counter_stop();
        if (rc == 0 && len != msg_bytes) die("verify: crypto_sign_open returned a message of a wrong length");
    }
    if (rc != 0) die("a call returned non-zero");
    return t1 - t0;
}

static void check_after(int op) {
    SPEED_LEN_T smlen = 0, mlen = 0;
    if (op == 0) {
        prng_fill(msg, msg_bytes);
        if (NS(crypto_sign)(sm, &smlen, msg, msg_bytes, out_sk) != 0 ||
            NS(crypto_sign_open)(out_m, &mlen, sm, smlen, out_pk) != 0 || mlen != msg_bytes ||
            memcmp(out_m, msg, msg_bytes) != 0) {
            die("keygen: the last key pair does not sign and verify");
        }
    } else if (op == 1) {
        /* the last timed signature must verify under its key, and every key must sign and verify */
        unsigned long k;
        if (NS(crypto_sign_open)(out_m, &mlen, sm, last_smlen, pk + last_key * PKB) != 0 || mlen != msg_bytes ||
            memcmp(out_m, msg, msg_bytes) != 0) {
            die("sign: the last signature does not verify");
        }
        for (k = 0; k < keys; k++) {
            prng_fill(msg, msg_bytes);
            if (NS(crypto_sign)(sm, &smlen, msg, msg_bytes, sk + k * SKB) != 0 ||
                NS(crypto_sign_open)(out_m, &mlen, sm, smlen, pk + k * PKB) != 0 || mlen != msg_bytes ||
                memcmp(out_m, msg, msg_bytes) != 0) {
                die("sign: a signature does not verify");
            }
        }
    }
}
#endif

/* ------------------------------------------------------------------- main */

struct result {
    unsigned long calls, warmup_calls;
    double warmup_ms, sampling_ms;
    double mean, median, min, max, p1, p5, p25, p75, p95, p99;
    double probe_median;     /* median probe, counter ticks (overhead not subtracted); 0: no probe */
    double cycles_per_tick;  /* adds / (probe_median - overhead); 0: no estimate */
};

static void usage(void) {
    fprintf(stderr, "usage: speed [-n CALLS] [-w WARMUP_MS] [-k KEYS] [-p POOL] [-m MSG_BYTES] [-s SEED] [-t TSC_HZ] "
                    "[-c ADDS] [OP...]\n");
    exit(2);
}

int main(int argc, char **argv) {
    unsigned long calls = 2001, adds = 16384, i, next = 0;
    double warmup_ms = 50, tsc_hz = 0;
    int ops[NOPS], nops = 0, a, o;
    uint64_t *samples, *probes, ovh[1001];
    struct result res[NOPS];
    double begin_ns, end_ns, overhead;
    uint64_t begin_tsc, end_tsc;
    /* where the scheme's code landed: the keygen function's address modulo 64 (the same at run time as at link time,
     * as the executable is loaded at a page boundary) */
    unsigned code_offset = (unsigned)((uintptr_t)KEYPAIR_FN % 64u);

#ifdef SPEED_SIGN
    prng_state = 1;
#endif
    for (a = 1; a < argc; a++) {
        const char *arg = argv[a];
        if (arg[0] == '-' && arg[1] != '\0' && arg[2] == '\0') {
            if (a + 1 >= argc) usage();
            switch (arg[1]) {
            case 'n': calls = strtoul(argv[++a], NULL, 10); break;
            case 'w': warmup_ms = strtod(argv[++a], NULL); break;
            case 'k': keys = strtoul(argv[++a], NULL, 10); break;
            case 'p': pool = strtoul(argv[++a], NULL, 10); break;
            case 'm': msg_bytes = strtoul(argv[++a], NULL, 10); break;
            case 's':
#ifdef SPEED_SIGN
                prng_state = strtoull(argv[++a], NULL, 10);
#else
                ++a;
#endif
                break;
            case 't': tsc_hz = strtod(argv[++a], NULL); break;
            case 'c': adds = strtoul(argv[++a], NULL, 10); break;
            default: usage();
            }
        } else {
            for (o = 0; o < NOPS && strcmp(arg, op_names[o]) != 0; o++) {
            }
            if (o == NOPS) usage();
            ops[nops++] = o;
        }
    }
    if (calls < 1 || keys < 1 || pool < 1) usage();
    adds -= adds % 8; /* whole passes of 8 */
    if (!SPEED_HAVE_CHAIN) adds = 0;
    if (nops == 0) {
        for (o = 0; o < NOPS; o++) ops[nops++] = o;
    }

    begin_ns = now_ns();
    begin_tsc = counter_start();
    setup();
    samples = xmalloc(calls * sizeof *samples);
    probes = xmalloc(calls * sizeof *probes);

    /* counter overhead: median of back-to-back start/stop pairs */
    for (i = 0; i < 1001; i++) {
        uint64_t t0 = counter_start();
        ovh[i] = counter_stop() - t0;
    }
    qsort(ovh, 1001, sizeof ovh[0], cmp_u64);
    overhead = (double)ovh[500];

    for (a = 0; a < nops; a++) {
        struct result *r = &res[a];
        double w0 = now_ns(), s0, s1;
        double sum = 0;
        o = ops[a];
        r->warmup_calls = 0;
        do { /* warm-up: the same loop as the timed one (call, then probe) on the same rotation of inputs */
            (void)timed_call(o, next++);
            if (adds > 0) (void)clock_chain(adds);
            r->warmup_calls++;
        } while (r->warmup_calls < 8 || now_ns() - w0 < warmup_ms * 1e6);
        s0 = now_ns();
        for (i = 0; i < calls; i++) {
            samples[i] = timed_call(o, next++);
            if (adds > 0) probes[i] = clock_chain(adds); /* after the counter stopped: outside the timed region */
        }
        s1 = now_ns();
        check_after(o);
        r->calls = calls;
        r->warmup_ms = (s0 - w0) / 1e6;
        r->sampling_ms = (s1 - w0) / 1e6;
        for (i = 0; i < calls; i++) sum += (double)samples[i];
        r->mean = sum / (double)calls;
        qsort(samples, calls, sizeof samples[0], cmp_u64);
        r->median = quantile(samples, calls, 0.5);
        r->min = (double)samples[0];
        r->max = (double)samples[calls - 1];
        r->p1 = quantile(samples, calls, 0.01);
        r->p5 = quantile(samples, calls, 0.05);
        r->p25 = quantile(samples, calls, 0.25);
        r->p75 = quantile(samples, calls, 0.75);
        r->p95 = quantile(samples, calls, 0.95);
        r->p99 = quantile(samples, calls, 0.99);
        r->probe_median = 0;
        r->cycles_per_tick = 0;
        if (adds > 0) {
            qsort(probes, calls, sizeof probes[0], cmp_u64);
            if (probes[0] == 0) die("the clock probe did not run as written");
            r->probe_median = quantile(probes, calls, 0.5);
            if (r->probe_median > overhead) r->cycles_per_tick = (double)adds / (r->probe_median - overhead);
        }
    }

    /* the TSC rate over the whole run (at least 200 ms), unless given */
    while (now_ns() - begin_ns < 2e8) {
    }
    end_tsc = counter_stop();
    end_ns = now_ns();
    if (tsc_hz <= 0) tsc_hz = SPEED_HAVE_TSC ? (double)(end_tsc - begin_tsc) / ((end_ns - begin_ns) / 1e9) : 1e9;

    printf("# speed: %s (namespace '%s'), %s, counter rate %.0f Hz%s, overhead %.1f ticks (not subtracted)\n",
           NS(CRYPTO_ALGNAME), SPEED_STR(SPEED_NAMESPACE), SPEED_COUNTER, tsc_hz,
           SPEED_HAVE_TSC ? " (measured against CLOCK_MONOTONIC unless -t)" : "", overhead);
    if (SPEED_PAD_BYTES >= 0) {
        printf("# code layout: -DSPEED_PAD=%d (.p2align 6, .skip %d before the scheme's code); keygen function at %u "
               "mod 64\n",
               SPEED_PAD_BYTES, SPEED_PAD_BYTES, code_offset);
    } else {
        printf("# code layout: no pad (plain build); keygen function at %u mod 64\n", code_offset);
    }
    printf("# inputs: %lu key pairs in rotation, a pool of %lu, %lu-byte messages; every call timed alone\n", keys, pool,
           msg_bytes);
    if (adds > 0) {
        printf("# core clock: a dependent chain of %lu cycles after every call; cycles = ticks x adds / (median probe - "
               "overhead)\n",
               adds);
    } else {
        printf("# core clock: not probed (%s)\n", SPEED_HAVE_CHAIN ? "-c 0" : "no add chain on this architecture");
    }
    for (a = 0; a < nops; a++) {
        const struct result *r = &res[a];
        double k = 1e9 / tsc_hz;
        printf("# %-7s median %12.1f ns  mean %12.1f ns", op_names[ops[a]], r->median * k, r->mean * k);
        if (r->cycles_per_tick > 0) {
            printf("  median %12.0f cycles  mean %12.0f cycles  core %.4f GHz", r->median * r->cycles_per_tick,
                   r->mean * r->cycles_per_tick, r->cycles_per_tick * tsc_hz / 1e9);
        }
        printf("  (%lu calls)\n", r->calls);
    }
    for (a = 0; a < nops; a++) {
        const struct result *r = &res[a];
        double k = 1e9 / tsc_hz;
        printf("op=%s inputs=%s calls=%lu median_ns=%.1f mean_ns=%.1f min_ns=%.1f p1_ns=%.1f p5_ns=%.1f p25_ns=%.1f "
               "p75_ns=%.1f p95_ns=%.1f p99_ns=%.1f max_ns=%.1f median_ticks=%.1f mean_ticks=%.1f warmup_calls=%lu "
               "warmup_ms=%.3f sampling_ms=%.3f counter_hz=%.0f overhead_ticks=%.1f keys=%lu pool=%lu msg_bytes=%lu",
               op_names[ops[a]], op_inputs[ops[a]], r->calls, r->median * k, r->mean * k, r->min * k, r->p1 * k,
               r->p5 * k, r->p25 * k, r->p75 * k, r->p95 * k, r->p99 * k, r->max * k, r->median, r->mean,
               r->warmup_calls, r->warmup_ms, r->sampling_ms, tsc_hz, overhead, keys, pool, msg_bytes);
        /* the same line goes on: the probe and, where it gives one, the core clock and the cycles */
        printf(" clock_adds=%lu pad_bytes=%d code_offset=%u", adds, SPEED_PAD_BYTES, code_offset);
        if (adds > 0) printf(" probe_median_ticks=%.1f", r->probe_median);
        if (r->cycles_per_tick > 0) {
            printf(" median_cycles=%.1f mean_cycles=%.1f core_hz=%.0f", r->median * r->cycles_per_tick,
                   r->mean * r->cycles_per_tick, r->cycles_per_tick * tsc_hz);
        }
        printf("\n");
    }
    free(probes);
    free(samples);
    return 0;
}
