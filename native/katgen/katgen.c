/*
 * katgen.c -- interim NIST-format KAT generator (ngcc-perf).
 *
 * Build it together with one instance (its api.h on the include path, its
 * sources, the hash placeholders) and with ngcc_rng.c + ngcc_aes256.c as the
 * randomness provider, selecting the category with one define:
 *
 *   -DNGCC_KAT_KEM    crypto_kem_keypair / enc / dec      -> PQCkemKAT_<sk>.rsp
 *   -DNGCC_KAT_SIGN   crypto_sign_keypair / sign / open   -> PQCsignKAT_<sk>.rsp
 *   -DNGCC_KAT_KEX    crypto_kex_* (native/include/ngcc_kex.h) -> PQCkexKAT_<sk_b>.rsp
 *
 * Namespaced APIs (PQClean): -DNGCC_API_PREFIX=PQCLEAN_MLKEM512_CLEAN_ makes
 * every CRYPTO_* macro and crypto_* function be looked up with that prefix.
 *
 * Usage: katgen [-o FILE] [--count N] [--single] [--filename]
 *   default      the full .rsp (header, 100 entries) on stdout or FILE
 *   --count N    only entries 0..N-1
 *   --single     entry 0 only, no header, no empty line (PQClean
 *                nistkat-sha256 / liboqs "single" input)
 *   --filename   print the NIST file name (e.g. PQCkemKAT_1632.rsp) and exit
 * Exit status: 0 ok, 1 an operation failed or a check (dec, open, both sides
 * of an exchange) did not agree, 2 usage or I/O error.
 *
 * Format and DRBG: /work/shared/reference/kat-format.md; key exchange:
 * docs/key-exchange.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
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

/* Length type of crypto_sign / crypto_sign_open: unsigned long long in the
 * NIST API, size_t in PQClean (-DNGCC_SIGN_LEN_T=size_t). */
#ifndef NGCC_SIGN_LEN_T
#define NGCC_SIGN_LEN_T unsigned long long
#endif

static void ngcc_print_hex(FILE *fp, const char *label, const unsigned char *a, unsigned long long len) {
    unsigned long long i;
    fprintf(fp, "%s", label);
    if (len == 0) {
        fprintf(fp, "00");
    }
    for (i = 0; i < len; i++) {
        fprintf(fp, "%02X", a[i]);
    }
    fprintf(fp, "\n");
}

static void *ngcc_xmalloc(size_t n) {
    void *p = malloc(n == 0 ? 1 : n);
    if (p == NULL) {
        fprintf(stderr, "katgen: out of memory\n");
        exit(2);
    }
    return p;
}

static int ngcc_fail(int count, const char *what, int rc) {
    fprintf(stderr, "katgen: count = %d: %s (returned %d)\n", count, what, rc);
    return 1;
}

#if defined(NGCC_KAT_KEM)
#define NGCC_SKBYTES NGCC_API(CRYPTO_SECRETKEYBYTES)
#define NGCC_FILE_STEM "PQCkemKAT_"

static int ngcc_entry(FILE *fp, int count, unsigned char *seed, const unsigned char *msg,
                      unsigned long long mlen) {
    unsigned char *pk = ngcc_xmalloc(NGCC_API(CRYPTO_PUBLICKEYBYTES));
    unsigned char *sk = ngcc_xmalloc(NGCC_API(CRYPTO_SECRETKEYBYTES));
    unsigned char *ct = ngcc_xmalloc(NGCC_API(CRYPTO_CIPHERTEXTBYTES));
    unsigned char *ss = ngcc_xmalloc(NGCC_API(CRYPTO_BYTES));
    unsigned char *ss1 = ngcc_xmalloc(NGCC_API(CRYPTO_BYTES));
    int rc, ret = 0;
    (void)msg;
    (void)mlen;

    fprintf(fp, "count = %d\n", count);
    ngcc_print_hex(fp, "seed = ", seed, 48);
    randombytes_init(seed, NULL, 256);
    if ((rc = NGCC_API(crypto_kem_keypair)(pk, sk)) != 0) {
        ret = ngcc_fail(count, "crypto_kem_keypair failed", rc);
        goto out;
    }
    ngcc_print_hex(fp, "pk = ", pk, NGCC_API(CRYPTO_PUBLICKEYBYTES));
    ngcc_print_hex(fp, "sk = ", sk, NGCC_API(CRYPTO_SECRETKEYBYTES));
    if ((rc = NGCC_API(crypto_kem_enc)(ct, ss, pk)) != 0) {
        ret = ngcc_fail(count, "crypto_kem_enc failed", rc);
        goto out;
    }
    ngcc_print_hex(fp, "ct = ", ct, NGCC_API(CRYPTO_CIPHERTEXTBYTES));
    ngcc_print_hex(fp, "ss = ", ss, NGCC_API(CRYPTO_BYTES));
    if ((rc = NGCC_API(crypto_kem_dec)(ss1, ct, sk)) != 0) {
        ret = ngcc_fail(count, "crypto_kem_dec failed", rc);
        goto out;
    }
    if (memcmp(ss, ss1, NGCC_API(CRYPTO_BYTES)) != 0) {
        ret = ngcc_fail(count, "crypto_kem_dec returned a different shared secret", 0);
    }
out:
    free(pk);
    free(sk);
    free(ct);
    free(ss);
    free(ss1);
    return ret;
}

#elif defined(NGCC_KAT_SIGN)
#define NGCC_SKBYTES NGCC_API(CRYPTO_SECRETKEYBYTES)
#define NGCC_FILE_STEM "PQCsignKAT_"

static int ngcc_entry(FILE *fp, int count, unsigned char *seed, const unsigned char *msg,
                      unsigned long long mlen) {
    unsigned char *pk = ngcc_xmalloc(NGCC_API(CRYPTO_PUBLICKEYBYTES));
    unsigned char *sk = ngcc_xmalloc(NGCC_API(CRYPTO_SECRETKEYBYTES));
    unsigned char *m = ngcc_xmalloc((size_t)mlen);
    unsigned char *sm = ngcc_xmalloc((size_t)mlen + NGCC_API(CRYPTO_BYTES));
    unsigned char *m1 = ngcc_xmalloc((size_t)mlen + NGCC_API(CRYPTO_BYTES));
    NGCC_SIGN_LEN_T smlen = 0, mlen1 = 0;
    int rc, ret = 0;

    memcpy(m, msg, (size_t)mlen);
    fprintf(fp, "count = %d\n", count);
    ngcc_print_hex(fp, "seed = ", seed, 48);
    fprintf(fp, "mlen = %llu\n", mlen);
    ngcc_print_hex(fp, "msg = ", m, mlen);
    randombytes_init(seed, NULL, 256);
    if ((rc = NGCC_API(crypto_sign_keypair)(pk, sk)) != 0) {
        ret = ngcc_fail(count, "crypto_sign_keypair failed", rc);
        goto out;
    }
    ngcc_print_hex(fp, "pk = ", pk, NGCC_API(CRYPTO_PUBLICKEYBYTES));
    ngcc_print_hex(fp, "sk = ", sk, NGCC_API(CRYPTO_SECRETKEYBYTES));
    if ((rc = NGCC_API(crypto_sign)(sm, &smlen, m, (NGCC_SIGN_LEN_T)mlen, sk)) != 0) {
        ret = ngcc_fail(count, "crypto_sign failed", rc);
        goto out;
    }
    fprintf(fp, "smlen = %llu\n", (unsigned long long)smlen);
    ngcc_print_hex(fp, "sm = ", sm, smlen);
    if ((rc = NGCC_API(crypto_sign_open)(m1, &mlen1, sm, smlen, pk)) != 0) {
        ret = ngcc_fail(count, "crypto_sign_open rejected the signature", rc);
        goto out;
    }
    if ((unsigned long long)mlen1 != mlen || memcmp(m, m1, (size_t)mlen) != 0) {
        ret = ngcc_fail(count, "crypto_sign_open returned a different message", 0);
    }
out:
    free(pk);
    free(sk);
    free(m);
    free(sm);
    free(m1);
    return ret;
}

#else /* NGCC_KAT_KEX */
#define NGCC_SKBYTES CRYPTO_KEX_SECRETKEYBYTES_B
#define NGCC_FILE_STEM "PQCkexKAT_"

static int ngcc_entry(FILE *fp, int count, unsigned char *seed, const unsigned char *msg,
                      unsigned long long mlen) {
    unsigned char *pk_a = ngcc_xmalloc(CRYPTO_KEX_PUBLICKEYBYTES_A);
    unsigned char *sk_a = ngcc_xmalloc(CRYPTO_KEX_SECRETKEYBYTES_A);
    unsigned char *pk_b = ngcc_xmalloc(CRYPTO_KEX_PUBLICKEYBYTES_B);
    unsigned char *sk_b = ngcc_xmalloc(CRYPTO_KEX_SECRETKEYBYTES_B);
    unsigned char *st_a = ngcc_xmalloc(CRYPTO_KEX_STATEBYTES_A);
    unsigned char *st_b = ngcc_xmalloc(CRYPTO_KEX_STATEBYTES_B);
    unsigned char *m1 = ngcc_xmalloc(CRYPTO_KEX_MSG1BYTES);
    unsigned char *m2 = ngcc_xmalloc(CRYPTO_KEX_MSG2BYTES);
    unsigned char *ss_a = ngcc_xmalloc(CRYPTO_KEX_BYTES);
    unsigned char *ss_b = ngcc_xmalloc(CRYPTO_KEX_BYTES);
    int rc, ret = 0;
    (void)msg;
    (void)mlen;

    fprintf(fp, "count = %d\n", count);
    ngcc_print_hex(fp, "seed = ", seed, 48);
    randombytes_init(seed, NULL, 256);
    if ((rc = crypto_kex_init_a(pk_a, sk_a, st_a)) != 0) {
        ret = ngcc_fail(count, "crypto_kex_init_a failed", rc);
        goto out;
    }
    if ((rc = crypto_kex_init_b(pk_b, sk_b, st_b)) != 0) {
        ret = ngcc_fail(count, "crypto_kex_init_b failed", rc);
        goto out;
    }
    if ((rc = crypto_kex_pass1(m1, st_a, sk_a, pk_b)) != 0) {
        ret = ngcc_fail(count, "crypto_kex_pass1 failed", rc);
        goto out;
    }
#if CRYPTO_KEX_PASSES >= 2
    if ((rc = crypto_kex_pass2(m2, st_b, m1, sk_b, pk_a)) != 0) {
        ret = ngcc_fail(count, "crypto_kex_pass2 failed", rc);
        goto out;
    }
#endif
    if ((rc = crypto_kex_derive_a(ss_a, st_a, m2, sk_a, pk_b)) != 0) {
        ret = ngcc_fail(count, "crypto_kex_derive_a failed", rc);
        goto out;
    }
    if ((rc = crypto_kex_derive_b(ss_b, st_b, m1, sk_b, pk_a)) != 0) {
        ret = ngcc_fail(count, "crypto_kex_derive_b failed", rc);
        goto out;
    }
#if CRYPTO_KEX_PUBLICKEYBYTES_A > 0
    ngcc_print_hex(fp, "pk_a = ", pk_a, CRYPTO_KEX_PUBLICKEYBYTES_A);
#endif
#if CRYPTO_KEX_SECRETKEYBYTES_A > 0
    ngcc_print_hex(fp, "sk_a = ", sk_a, CRYPTO_KEX_SECRETKEYBYTES_A);
#endif
    ngcc_print_hex(fp, "pk_b = ", pk_b, CRYPTO_KEX_PUBLICKEYBYTES_B);
    ngcc_print_hex(fp, "sk_b = ", sk_b, CRYPTO_KEX_SECRETKEYBYTES_B);
    ngcc_print_hex(fp, "m1 = ", m1, CRYPTO_KEX_MSG1BYTES);
#if CRYPTO_KEX_PASSES >= 2
    ngcc_print_hex(fp, "m2 = ", m2, CRYPTO_KEX_MSG2BYTES);
#endif
    ngcc_print_hex(fp, "ss = ", ss_a, CRYPTO_KEX_BYTES);
    if (memcmp(ss_a, ss_b, CRYPTO_KEX_BYTES) != 0) {
        ret = ngcc_fail(count, "the two sides derived different shared secrets", 0);
    }
out:
    free(pk_a);
    free(sk_a);
    free(pk_b);
    free(sk_b);
    free(st_a);
    free(st_b);
    free(m1);
    free(m2);
    free(ss_a);
    free(ss_b);
    return ret;
}
#endif

#if defined(NGCC_API_PREFIX)
#define NGCC_ALGNAME NGCC_API(CRYPTO_ALGNAME)
#else
#define NGCC_ALGNAME CRYPTO_ALGNAME
#endif

static int ngcc_usage(void) {
    fprintf(stderr, "usage: katgen [-o FILE] [--count N] [--single] [--filename]\n");
    return 2;
}

int main(int argc, char **argv) {
    unsigned char entropy[48];
    unsigned char seeds[NGCC_KAT_ENTRIES][48];
    unsigned char *msgs[NGCC_KAT_ENTRIES];
    unsigned long long mlens[NGCC_KAT_ENTRIES];
    const char *outpath = NULL;
    int count = NGCC_KAT_ENTRIES, single = 0, i, ret = 0;
    FILE *fp = stdout;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            outpath = argv[++i];
        } else if (strcmp(argv[i], "--count") == 0 && i + 1 < argc) {
            char *end = NULL;
            long n = strtol(argv[++i], &end, 10);
            if (end == NULL || *end != '\0' || n < 1 || n > NGCC_KAT_ENTRIES) {
                return ngcc_usage();
            }
            count = (int)n;
        } else if (strcmp(argv[i], "--single") == 0) {
            single = 1;
            count = 1;
        } else if (strcmp(argv[i], "--filename") == 0) {
            printf("%s%lu.rsp\n", NGCC_FILE_STEM, (unsigned long)(NGCC_SKBYTES));
            return 0;
        } else {
            return ngcc_usage();
        }
    }

    /* The outer DRBG: seeded with 0x00..0x2F, yields every seed (and, for
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

    if (outpath != NULL) {
        fp = fopen(outpath, "wb");
        if (fp == NULL) {
            fprintf(stderr, "katgen: cannot write %s\n", outpath);
            return 2;
        }
    }
    if (!single) {
        fprintf(fp, "# %s\n\n", NGCC_ALGNAME);
    }
    for (i = 0; i < count; i++) {
        if (ngcc_entry(fp, i, seeds[i], msgs[i], mlens[i]) != 0) {
            ret = 1;
            break;
        }
        if (!single) {
            fprintf(fp, "\n");
        }
    }
    for (i = 0; i < count; i++) {
        free(msgs[i]);
    }
    if (fflush(fp) != 0 || ferror(fp)) {
        ret = 2;
    }
    if (outpath != NULL && fclose(fp) != 0) {
        ret = 2;
    }
    return ret;
}
