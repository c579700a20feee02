/*
 * katgen.c -- the NIST-format KAT generator of ngcc-perf (docs/kat.md).
 *
 * Build it together with one instance (its api.h on the include path, its
 * sources, the ICCS hash placeholders or PQClean's common/ without
 * randombytes.c) and with ngcc_rng.c + ngcc_aes256.c as the randomness
 * provider, selecting the category with one define:
 *
 *   -DNGCC_KAT_KEM    crypto_kem_keypair / enc / dec      -> PQCkemKAT_<sk>.rsp
 *   -DNGCC_KAT_SIGN   crypto_sign_keypair / sign / open   -> PQCsignKAT_<sk>.rsp
 *   -DNGCC_KAT_KEX    crypto_kex_* (native/include/ngcc_kex.h) -> PQCkexKAT_<sk_b>.rsp
 *
 * Namespaced APIs (PQClean): -DNGCC_API_PREFIX=PQCLEAN_MLKEM512_CLEAN_ makes
 * every CRYPTO_* macro and crypto_* function be looked up with that prefix.
 * The smlen/mlen type of crypto_sign is read off its prototype (GCC, Clang);
 * -DNGCC_SIGN_LEN_T=size_t overrides it.
 * Signatures: the round-3 NIST crypto_sign / crypto_sign_open by default;
 * -DNGCC_SIGN_API_FIPS204 calls the FIPS 204 context API instead
 * (crypto_sign(sm, smlen, m, mlen, ctx, ctxlen, sk), crypto_sign_open(m, mlen,
 * sm, smlen, ctx, ctxlen, pk); with -DNGCC_SIGN_API_CTX_NAMES their _ctx
 * names), the context from -DNGCC_SIGN_CONTEXT=0x..,0x.. (empty without it);
 * see native/include/ngcc_sign_api.h. The .rsp format is the same.
 *
 * One run produces every form at once (entries 0..N-1):
 *   --write-rsp FILE     the NIST .rsp: "# <name>", empty line, entries each followed by an empty line
 *   --write-single FILE  entry 0 without header or empty lines (PQClean nistkat-sha256, liboqs "single")
 *   --write-all FILE     entries 0..N-1, no header, one empty line between entries (liboqs "all")
 *   --write-info FILE    JSON: category, name, file name, generator, entries, output lengths, failure
 * Other options:
 *   --count N            entries (1..100, default 100)
 *   --rng nist|hqc       NIST's AES-256 CTR_DRBG (default) or HQC's SHAKE256 KAT RNG
 *   --algname NAME       header name when api.h defines no CRYPTO_ALGNAME
 *   --filename           print the NIST file name (e.g. PQCkemKAT_1632.rsp) and exit
 * Without --write-*: the .rsp on stdout (or -o FILE); --single prints the single form instead.
 * A FILE of "-" is standard output.
 *
 * Standard output is the generator's: before any constructor of the instance
 * runs (a constructor of priority 101, or at the start of main without GCC's
 * attributes), the original stdout is kept on a descriptor of its own and
 * descriptor 1 pointed at stderr, so whatever the instance prints goes to
 * stderr and never into the KAT output a caller reads from the pipe.
 *
 * Every buffer handed to the instance (outputs and inputs) has
 * NGCC_GUARD_BYTES of a fixed pattern before and after it, checked after each
 * call: a write past either end is reported on stderr ("katgen: canary
 * overwritten after buffer ct (768 bytes) by crypto_kem_enc at count = 0:
 * 4 bytes changed, bytes 768..771") and ends the run with status 3.
 *
 * Exit status: 0 ok; 1 an operation failed or a check (dec, open, both sides
 * of an exchange) disagreed; 2 usage or I/O error; 3 a canary was overwritten.
 * A fatal signal inside the
 * instance is reported on stderr ("katgen: SIGSEGV in crypto_kem_dec at
 * count = 0") and then re-raised, so the caller still sees the signal.
 */
#define _POSIX_C_SOURCE 200809L

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The instance's API header: api.h, or the file meta.json's apiHeader names (-DNGCC_API_HEADER="<path>"). */
#if defined(NGCC_API_HEADER)
#include NGCC_API_HEADER
#else
#include "api.h"
#endif
#include "rng.h"

#if defined(NGCC_KAT_KEX)
#include "ngcc_kex.h"
#endif

#if (defined(NGCC_KAT_KEM) + defined(NGCC_KAT_SIGN) + defined(NGCC_KAT_KEX)) != 1
#error "define exactly one of NGCC_KAT_KEM, NGCC_KAT_SIGN, NGCC_KAT_KEX"
#endif

#ifdef NGCC_API_PREFIX
#define NGCC_PASTE2(a, b) a##b
#define NGCC_PASTE(a, b) NGCC_PASTE2(a, b)
#define NGCC_API(x) NGCC_PASTE(NGCC_API_PREFIX, x)
#else
#define NGCC_API(x) x
#endif

#define NGCC_KAT_ENTRIES 100

/* ------------------------------------------------------------ standard output */

/* The original stdout (-1 when there was none), whether it was claimed, and the stream over it. */
static int ngcc_out_fd = -1;
static int ngcc_out_claimed;
static FILE *ngcc_out;

/* Keeps stdout on a descriptor of its own for the generator and points descriptor 1 at stderr. */
static void ngcc_claim_stdout(void) {
    if (ngcc_out_claimed) {
        return;
    }
    ngcc_out_claimed = 1;
    fflush(stdout);
    ngcc_out_fd = dup(STDOUT_FILENO);
    if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        fprintf(stderr, "katgen: cannot send the instance's stdout to stderr\n");
    }
}

#if defined(__GNUC__)
/* Priority 101 runs before every constructor without a priority (the instance's own). */
__attribute__((constructor(101))) static void ngcc_claim_stdout_early(void) {
    ngcc_claim_stdout();
}
#endif

/* The generator's stdout as a stream; NULL (with a message) when there is none. */
static FILE *ngcc_stdout(void) {
    ngcc_claim_stdout();
    if (ngcc_out == NULL && (ngcc_out_fd < 0 || (ngcc_out = fdopen(ngcc_out_fd, "wb")) == NULL)) {
        fprintf(stderr, "katgen: cannot write to stdout\n");
    }
    return ngcc_out;
}

/* ------------------------------------------------------------ output buffer */

typedef struct {
    char *p;
    size_t len, cap;
} ngcc_buf;

static void ngcc_die_oom(void) {
    fprintf(stderr, "katgen: out of memory\n");
    exit(2);
}

static void ngcc_reserve(ngcc_buf *b, size_t more) {
    if (b->len + more + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        char *p;
        while (cap < b->len + more + 1) {
            cap *= 2;
        }
        p = realloc(b->p, cap);
        if (p == NULL) {
            ngcc_die_oom();
        }
        b->p = p;
        b->cap = cap;
    }
}

static void ngcc_puts(ngcc_buf *b, const char *s) {
    size_t n = strlen(s);
    ngcc_reserve(b, n);
    memcpy(b->p + b->len, s, n);
    b->len += n;
}

static void ngcc_putu(ngcc_buf *b, const char *label, unsigned long long v) {
    char tmp[64];
    sprintf(tmp, "%s%llu\n", label, v);
    ngcc_puts(b, tmp);
}

/* "label" then upper-case hex ("00" for zero length) and a newline. */
static void ngcc_puthex(ngcc_buf *b, const char *label, const unsigned char *a, unsigned long long len) {
    static const char hex[] = "0123456789ABCDEF";
    unsigned long long i;
    char *o;
    ngcc_puts(b, label);
    if (len == 0) {
        ngcc_puts(b, "00\n");
        return;
    }
    ngcc_reserve(b, (size_t)(2 * len + 1));
    o = b->p + b->len;
    for (i = 0; i < len; i++) {
        *o++ = hex[a[i] >> 4];
        *o++ = hex[a[i] & 15];
    }
    *o++ = '\n';
    b->len = (size_t)(o - b->p);
}

#if defined(NGCC_KAT_SIGN)
/* The messages of a signature KAT (made before any entry, never handed out unguarded). */
static void *ngcc_xmalloc(size_t n) {
    void *p = malloc(n == 0 ? 1 : n);
    if (p == NULL) {
        ngcc_die_oom();
    }
    return p;
}
#endif

/* ------------------------------------------------------------ guarded buffers */

/* Every buffer the instance sees lies between two guards of NGCC_GUARD_BYTES;
 * ngcc_guard_check runs after each call and names the buffer and the function
 * that wrote past it. */
#define NGCC_GUARD_BYTES 32
#define NGCC_MAX_GUARDED 16
#define NGCC_EXIT_CANARY 3

typedef struct {
    const char *name;
    unsigned char *base; /* guard | data (len) | guard */
    size_t len;
} ngcc_guarded;

static ngcc_guarded ngcc_guarded_bufs[NGCC_MAX_GUARDED];
static size_t ngcc_nguarded;

/* Not a constant byte, so an overrun of any value is seen. */
static unsigned char ngcc_guard_byte(size_t i) {
    return (unsigned char)(0xA5u ^ (unsigned)(i * 29u));
}

static unsigned char *ngcc_galloc(const char *name, size_t len) {
    ngcc_guarded *g;
    size_t i;
    if (ngcc_nguarded == NGCC_MAX_GUARDED || len > (size_t)-1 - 2 * NGCC_GUARD_BYTES) {
        ngcc_die_oom();
    }
    g = &ngcc_guarded_bufs[ngcc_nguarded++];
    g->name = name;
    g->len = len;
    g->base = malloc(len + 2 * NGCC_GUARD_BYTES);
    if (g->base == NULL) {
        ngcc_die_oom();
    }
    for (i = 0; i < NGCC_GUARD_BYTES; i++) {
        g->base[i] = ngcc_guard_byte(i);
        g->base[NGCC_GUARD_BYTES + len + i] = ngcc_guard_byte(i);
    }
    memset(g->base + NGCC_GUARD_BYTES, 0, len);
    return g->base + NGCC_GUARD_BYTES;
}

/* 0 when every guard is intact; else reports the first changed one and returns NGCC_EXIT_CANARY. */
static int ngcc_guard_check(const char *fn, int count) {
    size_t k, i;
    for (k = 0; k < ngcc_nguarded; k++) {
        const ngcc_guarded *g = &ngcc_guarded_bufs[k];
        const unsigned char *after = g->base + NGCC_GUARD_BYTES + g->len;
        size_t first = NGCC_GUARD_BYTES, last = 0, changed = 0;
        for (i = 0; i < NGCC_GUARD_BYTES; i++) {
            if (after[i] != ngcc_guard_byte(i)) {
                first = first < i ? first : i;
                last = i;
                changed++;
            }
        }
        if (changed > 0) {
            fprintf(stderr,
                    "katgen: canary overwritten after buffer %s (%lu bytes) by %s at count = %d: %lu byte%s changed, "
                    "bytes %lu..%lu\n",
                    g->name, (unsigned long)g->len, fn, count, (unsigned long)changed, changed == 1 ? "" : "s",
                    (unsigned long)(g->len + first), (unsigned long)(g->len + last));
            return NGCC_EXIT_CANARY;
        }
        for (i = 0; i < NGCC_GUARD_BYTES; i++) {
            if (g->base[i] != ngcc_guard_byte(i)) {
                fprintf(stderr,
                        "katgen: canary overwritten before buffer %s (%lu bytes) by %s at count = %d: byte %ld "
                        "changed\n",
                        g->name, (unsigned long)g->len, fn, count, (long)i - (long)NGCC_GUARD_BYTES);
                return NGCC_EXIT_CANARY;
            }
        }
    }
    return 0;
}

static void ngcc_gfree_all(void) {
    size_t k;
    for (k = 0; k < ngcc_nguarded; k++) {
        free(ngcc_guarded_bufs[k].base);
    }
    ngcc_nguarded = 0;
}

/* ------------------------------------------------------------ stage and signals */

static char ngcc_stage_msg[160];
static const char *ngcc_stage_op = "setup";
static int ngcc_stage_count = -1;

static void ngcc_stage(const char *op, int count) {
    ngcc_stage_op = op;
    ngcc_stage_count = count;
    ngcc_stage_msg[0] = '\0';
    if (count >= 0) {
        sprintf(ngcc_stage_msg, " in %s at count = %d\n", op, count);
    } else {
        sprintf(ngcc_stage_msg, " in %s\n", op);
    }
}

static void ngcc_on_signal(int sig) {
    const char *name = sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : sig == SIGILL ? "SIGILL"
                                                  : sig == SIGFPE   ? "SIGFPE"
                                                                    : "SIGABRT";
    ssize_t w;
    w = write(2, "katgen: ", 8);
    w = write(2, name, strlen(name));
    w = write(2, ngcc_stage_msg, strlen(ngcc_stage_msg));
    (void)w;
    signal(sig, SIG_DFL);
    raise(sig);
}

typedef struct {
    unsigned long long min, max, sum, count;
} ngcc_len_stat;

static void ngcc_len_add(ngcc_len_stat *s, unsigned long long v) {
    if (s->count == 0 || v < s->min) {
        s->min = v;
    }
    if (s->count == 0 || v > s->max) {
        s->max = v;
    }
    s->sum += v;
    s->count++;
}

static ngcc_len_stat ngcc_len_pk, ngcc_len_ct, ngcc_len_sig;

static int ngcc_fail(int count, const char *what, int rc) {
    fprintf(stderr, "katgen: count = %d: %s (returned %d)\n", count, what, rc);
    return 1;
}

/* One call into the instance: the stage for the signal handler, then the
 * guards (a write past a buffer outranks the return code), then the result. */
#define NGCC_RUN(fn, call, what)                                                                             \
    do {                                                                                                     \
        ngcc_stage(fn, count);                                                                               \
        rc = (call);                                                                                         \
        if ((ret = ngcc_guard_check(fn, count)) != 0) {                                                      \
            goto out;                                                                                        \
        }                                                                                                    \
        if (rc != 0) {                                                                                       \
            ret = ngcc_fail(count, what, rc);                                                                \
            goto out;                                                                                        \
        }                                                                                                    \
    } while (0)

/* ------------------------------------------------------------ categories */

#if defined(NGCC_KAT_KEM)
#define NGCC_SKBYTES NGCC_API(CRYPTO_SECRETKEYBYTES)
#define NGCC_FILE_STEM "PQCkemKAT_"
#define NGCC_CATEGORY "kem"

static int ngcc_entry(ngcc_buf *b, int count, unsigned char *seed, const unsigned char *msg,
                      unsigned long long mlen) {
    unsigned char *pk = ngcc_galloc("pk", NGCC_API(CRYPTO_PUBLICKEYBYTES));
    unsigned char *sk = ngcc_galloc("sk", NGCC_API(CRYPTO_SECRETKEYBYTES));
    unsigned char *ct = ngcc_galloc("ct", NGCC_API(CRYPTO_CIPHERTEXTBYTES));
    unsigned char *ss = ngcc_galloc("ss", NGCC_API(CRYPTO_BYTES));
    unsigned char *ss1 = ngcc_galloc("ss1", NGCC_API(CRYPTO_BYTES));
    int rc, ret = 0;
    (void)msg;
    (void)mlen;

    ngcc_putu(b, "count = ", (unsigned long long)count);
    ngcc_puthex(b, "seed = ", seed, 48);
    randombytes_init(seed, NULL, 256);
    NGCC_RUN("crypto_kem_keypair", NGCC_API(crypto_kem_keypair)(pk, sk), "crypto_kem_keypair failed");
    ngcc_puthex(b, "pk = ", pk, NGCC_API(CRYPTO_PUBLICKEYBYTES));
    ngcc_puthex(b, "sk = ", sk, NGCC_API(CRYPTO_SECRETKEYBYTES));
    NGCC_RUN("crypto_kem_enc", NGCC_API(crypto_kem_enc)(ct, ss, pk), "crypto_kem_enc failed");
    ngcc_puthex(b, "ct = ", ct, NGCC_API(CRYPTO_CIPHERTEXTBYTES));
    ngcc_puthex(b, "ss = ", ss, NGCC_API(CRYPTO_BYTES));
    ngcc_len_add(&ngcc_len_pk, NGCC_API(CRYPTO_PUBLICKEYBYTES));
    ngcc_len_add(&ngcc_len_ct, NGCC_API(CRYPTO_CIPHERTEXTBYTES));
    NGCC_RUN("crypto_kem_dec", NGCC_API(crypto_kem_dec)(ss1, ct, sk), "crypto_kem_dec failed");
    if (memcmp(ss, ss1, NGCC_API(CRYPTO_BYTES)) != 0) {
        ret = ngcc_fail(count, "crypto_kem_dec returned a different shared secret", 0);
    }
out:
    ngcc_gfree_all();
    return ret;
}

#elif defined(NGCC_KAT_SIGN)
#define NGCC_SKBYTES NGCC_API(CRYPTO_SECRETKEYBYTES)
#define NGCC_FILE_STEM "PQCsignKAT_"
#define NGCC_CATEGORY "sign"

/* The signing pair, the context and the type of smlen / mlen, as native/driver/ngcc_ops_sign.c calls them
 * (native/include/ngcc_sign_api.h): the round-3 NIST API, or the FIPS 204 context API with
 * -DNGCC_SIGN_API_FIPS204 [-DNGCC_SIGN_CONTEXT=0x..,0x..]. -DNGCC_SIGN_LEN_T=T overrides the length type. */
#define NGCC_SIGN_NAME(x) NGCC_API(x)
#if defined(NGCC_SIGN_LEN_T)
#define NGCC_SIGN_LENGTH_TYPE NGCC_SIGN_LEN_T
#endif
#if defined(NGCC_API_PREFIX)
#define NGCC_SIGN_SIZE_T_DEFAULT
#endif
#include "../include/ngcc_sign_api.h" /* by its path: no -I needed */

static int ngcc_entry(ngcc_buf *b, int count, unsigned char *seed, const unsigned char *msg,
                      unsigned long long mlen) {
    unsigned char *pk = ngcc_galloc("pk", NGCC_API(CRYPTO_PUBLICKEYBYTES));
    unsigned char *sk = ngcc_galloc("sk", NGCC_API(CRYPTO_SECRETKEYBYTES));
    unsigned char *m = ngcc_galloc("m", (size_t)mlen);
    unsigned char *sm = ngcc_galloc("sm", (size_t)mlen + NGCC_API(CRYPTO_BYTES));
    unsigned char *m1 = ngcc_galloc("m1", (size_t)mlen + NGCC_API(CRYPTO_BYTES));
    ngcc_sign_len smlen = 0, mlen1 = 0;
    int rc, ret = 0;

    memcpy(m, msg, (size_t)mlen);
    ngcc_putu(b, "count = ", (unsigned long long)count);
    ngcc_puthex(b, "seed = ", seed, 48);
    ngcc_putu(b, "mlen = ", mlen);
    ngcc_puthex(b, "msg = ", m, mlen);
    randombytes_init(seed, NULL, 256);
    NGCC_RUN("crypto_sign_keypair", NGCC_API(crypto_sign_keypair)(pk, sk), "crypto_sign_keypair failed");
    ngcc_puthex(b, "pk = ", pk, NGCC_API(CRYPTO_PUBLICKEYBYTES));
    ngcc_puthex(b, "sk = ", sk, NGCC_API(CRYPTO_SECRETKEYBYTES));
    NGCC_RUN("crypto_sign", NGCC_SIGN_CALL(sm, &smlen, m, (ngcc_sign_len)mlen, sk), "crypto_sign failed");
    if ((unsigned long long)smlen < mlen ||
        (unsigned long long)smlen > mlen + (unsigned long long)NGCC_API(CRYPTO_BYTES)) {
        ret = ngcc_fail(count, "crypto_sign returned a signed-message length outside [mlen, mlen + CRYPTO_BYTES]", 0);
        goto out;
    }
    ngcc_putu(b, "smlen = ", (unsigned long long)smlen);
    ngcc_puthex(b, "sm = ", sm, (unsigned long long)smlen);
    ngcc_len_add(&ngcc_len_pk, NGCC_API(CRYPTO_PUBLICKEYBYTES));
    ngcc_len_add(&ngcc_len_sig, (unsigned long long)smlen - mlen);
    NGCC_RUN("crypto_sign_open", NGCC_OPEN_CALL(m1, &mlen1, sm, smlen, pk), "crypto_sign_open rejected the signature");
    if ((unsigned long long)mlen1 != mlen || memcmp(m, m1, (size_t)mlen) != 0) {
        ret = ngcc_fail(count, "crypto_sign_open returned a different message", 0);
    }
out:
    ngcc_gfree_all();
    return ret;
}

#else /* NGCC_KAT_KEX */
#define NGCC_SKBYTES CRYPTO_KEX_SECRETKEYBYTES_B
#define NGCC_FILE_STEM "PQCkexKAT_"
#define NGCC_CATEGORY "kex"

/* docs/key-exchange.md: init_a, init_b, pass1, [pass2,] derive_a, derive_b
 * with all randomness from the entry's seed; states are not printed. */
static int ngcc_entry(ngcc_buf *b, int count, unsigned char *seed, const unsigned char *msg,
                      unsigned long long mlen) {
    unsigned char *pk_a = ngcc_galloc("pk_a", CRYPTO_KEX_PUBLICKEYBYTES_A);
    unsigned char *sk_a = ngcc_galloc("sk_a", CRYPTO_KEX_SECRETKEYBYTES_A);
    unsigned char *pk_b = ngcc_galloc("pk_b", CRYPTO_KEX_PUBLICKEYBYTES_B);
    unsigned char *sk_b = ngcc_galloc("sk_b", CRYPTO_KEX_SECRETKEYBYTES_B);
    unsigned char *st_a = ngcc_galloc("st_a", CRYPTO_KEX_STATEBYTES_A);
    unsigned char *st_b = ngcc_galloc("st_b", CRYPTO_KEX_STATEBYTES_B);
    unsigned char *m1 = ngcc_galloc("m1", CRYPTO_KEX_MSG1BYTES);
    unsigned char *m2 = ngcc_galloc("m2", CRYPTO_KEX_MSG2BYTES);
    unsigned char *ss_a = ngcc_galloc("ss_a", CRYPTO_KEX_BYTES);
    unsigned char *ss_b = ngcc_galloc("ss_b", CRYPTO_KEX_BYTES);
    int rc, ret = 0;
    (void)msg;
    (void)mlen;

    ngcc_putu(b, "count = ", (unsigned long long)count);
    ngcc_puthex(b, "seed = ", seed, 48);
    randombytes_init(seed, NULL, 256);
    NGCC_RUN("crypto_kex_init_a", crypto_kex_init_a(pk_a, sk_a, st_a), "crypto_kex_init_a failed");
    NGCC_RUN("crypto_kex_init_b", crypto_kex_init_b(pk_b, sk_b, st_b), "crypto_kex_init_b failed");
    NGCC_RUN("crypto_kex_pass1", crypto_kex_pass1(m1, st_a, sk_a, pk_b), "crypto_kex_pass1 failed");
#if CRYPTO_KEX_PASSES >= 2
    NGCC_RUN("crypto_kex_pass2", crypto_kex_pass2(m2, st_b, m1, sk_b, pk_a), "crypto_kex_pass2 failed");
#endif
    NGCC_RUN("crypto_kex_derive_a", crypto_kex_derive_a(ss_a, st_a, m2, sk_a, pk_b), "crypto_kex_derive_a failed");
    NGCC_RUN("crypto_kex_derive_b", crypto_kex_derive_b(ss_b, st_b, m1, sk_b, pk_a), "crypto_kex_derive_b failed");
#if CRYPTO_KEX_PUBLICKEYBYTES_A > 0
    ngcc_puthex(b, "pk_a = ", pk_a, CRYPTO_KEX_PUBLICKEYBYTES_A);
#endif
#if CRYPTO_KEX_SECRETKEYBYTES_A > 0
    ngcc_puthex(b, "sk_a = ", sk_a, CRYPTO_KEX_SECRETKEYBYTES_A);
#endif
    ngcc_puthex(b, "pk_b = ", pk_b, CRYPTO_KEX_PUBLICKEYBYTES_B);
    ngcc_puthex(b, "sk_b = ", sk_b, CRYPTO_KEX_SECRETKEYBYTES_B);
    ngcc_puthex(b, "m1 = ", m1, CRYPTO_KEX_MSG1BYTES);
#if CRYPTO_KEX_PASSES >= 2
    ngcc_puthex(b, "m2 = ", m2, CRYPTO_KEX_MSG2BYTES);
#endif
    ngcc_puthex(b, "ss = ", ss_a, CRYPTO_KEX_BYTES);
    ngcc_len_add(&ngcc_len_pk, CRYPTO_KEX_PUBLICKEYBYTES_B);
    if (memcmp(ss_a, ss_b, CRYPTO_KEX_BYTES) != 0) {
        ret = ngcc_fail(count, "the two sides derived different shared secrets", 0);
    }
out:
    ngcc_gfree_all();
    return ret;
}
#endif

#if defined(NGCC_API_PREFIX)
#define NGCC_ALGNAME NGCC_API(CRYPTO_ALGNAME)
#elif defined(CRYPTO_ALGNAME)
#define NGCC_ALGNAME CRYPTO_ALGNAME
#else
#define NGCC_ALGNAME NULL
#endif

/* ------------------------------------------------------------ main */

static int ngcc_usage(void) {
    fprintf(stderr, "usage: katgen [--count N] [--rng nist|hqc] [--algname NAME] [--write-rsp FILE]\n"
                    "              [--write-single FILE] [--write-all FILE] [--write-info FILE]\n"
                    "       katgen [-o FILE] [--count N] [--single] [--rng nist|hqc]\n"
                    "       katgen --filename\n");
    return 2;
}

static FILE *ngcc_open(const char *path) {
    FILE *fp = strcmp(path, "-") == 0 ? ngcc_stdout() : fopen(path, "wb");
    if (fp == NULL) {
        fprintf(stderr, "katgen: cannot write %s\n", path);
    }
    return fp;
}

static int ngcc_close(FILE *fp, const char *path) {
    int bad = fflush(fp) != 0 || ferror(fp);
    if (fp != ngcc_out && fclose(fp) != 0) {
        bad = 1;
    }
    if (bad) {
        fprintf(stderr, "katgen: error writing %s\n", path);
    }
    return bad;
}

static void ngcc_json_string(FILE *fp, const char *s) {
    fputc('"', fp);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            fprintf(fp, "\\%c", c);
        } else if (c < 0x20) {
            fprintf(fp, "\\u%04x", c);
        } else {
            fputc(c, fp);
        }
    }
    fputc('"', fp);
}

static void ngcc_json_len(FILE *fp, const char *name, const ngcc_len_stat *s, int *first) {
    if (s->count == 0) {
        return;
    }
    fprintf(fp, "%s\"%s\":{\"min\":%llu,\"max\":%llu,\"sum\":%llu,\"count\":%llu}", *first ? "" : ",", name, s->min,
            s->max, s->sum, s->count);
    *first = 0;
}

static int ngcc_write_info(const char *path, const char *algname, const char *rng, int entries, int failed) {
    FILE *fp = ngcc_open(path);
    int first = 1;
    if (fp == NULL) {
        return 1;
    }
    fprintf(fp, "{\"category\":\"%s\",\"algname\":", NGCC_CATEGORY);
    ngcc_json_string(fp, algname);
    fprintf(fp, ",\"fileName\":\"%s%lu.rsp\",\"rng\":\"%s\",\"entries\":%d,\"lengths\":{", NGCC_FILE_STEM,
            (unsigned long)(NGCC_SKBYTES), rng, entries);
    ngcc_json_len(fp, "publicKeyBytes", &ngcc_len_pk, &first);
    ngcc_json_len(fp, "ciphertextBytes", &ngcc_len_ct, &first);
    ngcc_json_len(fp, "signatureBytes", &ngcc_len_sig, &first);
    fprintf(fp, "}");
    if (failed) {
        fprintf(fp, ",\"failed\":{\"operation\":");
        ngcc_json_string(fp, ngcc_stage_op);
        fprintf(fp, ",\"count\":%d}", ngcc_stage_count);
    }
    fprintf(fp, "}\n");
    return ngcc_close(fp, path);
}

int main(int argc, char **argv) {
    static unsigned char seeds[NGCC_KAT_ENTRIES][48];
    unsigned char entropy[48];
    unsigned char *msgs[NGCC_KAT_ENTRIES];
    unsigned long long mlens[NGCC_KAT_ENTRIES];
    const char *legacy_out = NULL, *rsp_path = NULL, *single_path = NULL, *all_path = NULL, *info_path = NULL;
    const char *algname = NGCC_ALGNAME, *rng = "nist";
    int count = NGCC_KAT_ENTRIES, single = 0, i, ret = 0, done = 0;
    FILE *rsp = NULL, *one = NULL, *all = NULL;
    ngcc_buf entry = {NULL, 0, 0};

    ngcc_claim_stdout();
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--filename") == 0) {
            FILE *fp = ngcc_stdout();
            if (fp == NULL) {
                return 2;
            }
            fprintf(fp, "%s%lu.rsp\n", NGCC_FILE_STEM, (unsigned long)(NGCC_SKBYTES));
            return ngcc_close(fp, "stdout") ? 2 : 0;
        } else if (strcmp(a, "--single") == 0) {
            single = 1;
            count = 1;
        } else if (v == NULL) {
            return ngcc_usage();
        } else if (strcmp(a, "--count") == 0) {
            char *end = NULL;
            long n = strtol(v, &end, 10);
            if (end == NULL || *end != '\0' || n < 1 || n > NGCC_KAT_ENTRIES) {
                return ngcc_usage();
            }
            count = (int)n;
            i++;
        } else if (strcmp(a, "--rng") == 0) {
            if (strcmp(v, "nist") == 0) {
                ngcc_rng_select(NGCC_RNG_NIST);
            } else if (strcmp(v, "hqc") == 0) {
                ngcc_rng_select(NGCC_RNG_HQC);
            } else {
                return ngcc_usage();
            }
            rng = v;
            i++;
        } else if (strcmp(a, "--algname") == 0) {
            if (algname == NULL) {
                algname = v;
            }
            i++;
        } else if (strcmp(a, "-o") == 0) {
            legacy_out = v;
            i++;
        } else if (strcmp(a, "--write-rsp") == 0) {
            rsp_path = v;
            i++;
        } else if (strcmp(a, "--write-single") == 0) {
            single_path = v;
            i++;
        } else if (strcmp(a, "--write-all") == 0) {
            all_path = v;
            i++;
        } else if (strcmp(a, "--write-info") == 0) {
            info_path = v;
            i++;
        } else {
            return ngcc_usage();
        }
    }
    if (algname == NULL) {
        algname = "unnamed";
    }
    if (single && single_path == NULL && rsp_path == NULL && all_path == NULL) {
        single_path = legacy_out != NULL ? legacy_out : "-";
    } else if (rsp_path == NULL && single_path == NULL && all_path == NULL) {
        rsp_path = legacy_out != NULL ? legacy_out : "-";
    }
    if (rsp_path != NULL && (rsp = ngcc_open(rsp_path)) == NULL) {
        return 2;
    }
    if (single_path != NULL && (one = ngcc_open(single_path)) == NULL) {
        return 2;
    }
    if (all_path != NULL && (all = ngcc_open(all_path)) == NULL) {
        return 2;
    }
    signal(SIGSEGV, ngcc_on_signal);
    signal(SIGBUS, ngcc_on_signal);
    signal(SIGILL, ngcc_on_signal);
    signal(SIGFPE, ngcc_on_signal);
    signal(SIGABRT, ngcc_on_signal);

    /* The outer generator: seeded with 0x00..0x2F, yields every seed (and, for
     * signatures, every message) one after another, as NIST's PQCgenKAT. */
    for (i = 0; i < 48; i++) {
        entropy[i] = (unsigned char)i;
    }
    randombytes_init(entropy, NULL, 256);
    for (i = 0; i < count; i++) {
        randombytes(seeds[i], 48);
#if defined(NGCC_KAT_SIGN)
        mlens[i] = 33ull * (unsigned long long)(i + 1);
        msgs[i] = ngcc_xmalloc((size_t)mlens[i]);
        randombytes(msgs[i], mlens[i]);
#else
        mlens[i] = 0;
        msgs[i] = NULL;
#endif
    }

    if (rsp != NULL) {
        fprintf(rsp, "# %s\n\n", algname);
    }
    for (i = 0; i < count; i++) {
        entry.len = 0;
        if ((ret = ngcc_entry(&entry, i, seeds[i], msgs[i], mlens[i])) != 0) {
            break;
        }
        done++;
        if (rsp != NULL) {
            fwrite(entry.p, 1, entry.len, rsp);
            fputc('\n', rsp);
        }
        if (one != NULL && i == 0) {
            fwrite(entry.p, 1, entry.len, one);
        }
        if (all != NULL) {
            if (i > 0) {
                fputc('\n', all);
            }
            fwrite(entry.p, 1, entry.len, all);
        }
    }
    if (ret == 0) {
        ngcc_stage("output", -1);
    }
    for (i = 0; i < count; i++) {
        free(msgs[i]);
    }
    free(entry.p);
    if (rsp != NULL && ngcc_close(rsp, rsp_path)) {
        ret = 2;
    }
    if (one != NULL && one != rsp && ngcc_close(one, single_path)) {
        ret = 2;
    }
    if (all != NULL && all != rsp && all != one && ngcc_close(all, all_path)) {
        ret = 2;
    }
    if (info_path != NULL && ngcc_write_info(info_path, algname, rng, done, ret == 1 || ret == NGCC_EXIT_CANARY)) {
        ret = 2;
    }
    return ret;
}
