/*
 * ngcc_ops_sign.c -- signatures: keygen, sign, verify through the NIST pair
 * crypto_sign / crypto_sign_open (every submission has them; PQClean's
 * crypto_sign_signature / crypto_sign_verify are not used).
 * Compiled in only with -DNGCC_CATEGORY_SIGN.
 */
#include "ngcc_ops.h"

#if defined(NGCC_CATEGORY_SIGN)

#include <string.h>

#include "ngcc_api.h"
#include "ngcc_buf.h"

#define NGCC_PK NGCC_NS(CRYPTO_PUBLICKEYBYTES)
#define NGCC_SK NGCC_NS(CRYPTO_SECRETKEYBYTES)
#define NGCC_SIG NGCC_NS(CRYPTO_BYTES)
#define ngcc_keypair NGCC_NS(crypto_sign_keypair)
#define ngcc_sign NGCC_NS(crypto_sign)
#define ngcc_open NGCC_NS(crypto_sign_open)

/*
 * The type of smlen / mlen: NIST says unsigned long long, PQClean uses size_t.
 * With GCC or Clang it is read off the prototype in api.h; otherwise size_t
 * for namespaced (PQClean) builds and unsigned long long for the rest.
 * -DNGCC_SIGN_LENGTH_TYPE=... overrides both.
 */
#if !defined(NGCC_SIGN_LENGTH_TYPE)
#if defined(__GNUC__)
typedef int (*ngcc_nist_sign_fn)(unsigned char *, unsigned long long *, const unsigned char *, unsigned long long,
                                 const unsigned char *);
typedef int (*ngcc_mixed_sign_fn)(unsigned char *, unsigned long long *, const unsigned char *, size_t,
                                  const unsigned char *);
#define NGCC_SIGN_LENGTH_TYPE                                                                                    \
    __typeof__(__builtin_choose_expr(__builtin_types_compatible_p(__typeof__(&ngcc_sign), ngcc_nist_sign_fn) || \
                                         __builtin_types_compatible_p(__typeof__(&ngcc_sign), ngcc_mixed_sign_fn), \
                                     (unsigned long long)0, (size_t)0))
#elif defined(NGCC_NAMESPACE)
#define NGCC_SIGN_LENGTH_TYPE size_t
#else
#define NGCC_SIGN_LENGTH_TYPE unsigned long long
#endif
#endif
typedef NGCC_SIGN_LENGTH_TYPE ngcc_sign_len;

const char ngcc_category[] = "sign";

static unsigned char *pk, *sk, *m, *sm, *m_open, *sm_tampered, *m_tampered;
static ngcc_sign_len mlen, smlen, mlen_open;
static ngcc_length_stats ngcc_siglen; /* smlen - mlen of every sign call */
static uint64_t ngcc_seed_state;

static const ngcc_size ngcc_sign_sizes[] = {
    {"publicKeyBytes", NGCC_PK},
    {"secretKeyBytes", NGCC_SK},
    {"signatureBytes", NGCC_SIG},
};

const char *ngcc_ops_algname(void) {
    return NGCC_ALGNAME;
}

const ngcc_size *ngcc_ops_sizes(size_t *n) {
    *n = sizeof ngcc_sign_sizes / sizeof ngcc_sign_sizes[0];
    return ngcc_sign_sizes;
}

const ngcc_length_stats *ngcc_ops_signature_lengths(void) {
    return &ngcc_siglen;
}

void ngcc_ops_init(size_t msg_bytes, uint64_t seed) {
    ngcc_seed_state = seed;
    mlen = (ngcc_sign_len)msg_bytes;
    pk = ngcc_buf_new("pk", NGCC_PK);
    sk = ngcc_buf_new("sk", NGCC_SK);
    m = ngcc_buf_new("m", msg_bytes);
    /* NIST: sm holds up to mlen + CRYPTO_BYTES bytes; open may use all of smlen bytes of m. */
    sm = ngcc_buf_new("sm", msg_bytes + NGCC_SIG);
    m_open = ngcc_buf_new("m_open", msg_bytes + NGCC_SIG);
    sm_tampered = ngcc_buf_new("sm_tampered", msg_bytes + NGCC_SIG);
    m_tampered = ngcc_buf_new("m_tampered", msg_bytes + NGCC_SIG);
    ngcc_rng_fill(&ngcc_seed_state, m, msg_bytes);
}

/* One sign call outside a timed loop, with its length checked. */
static void ngcc_sign_once(void) {
    ngcc_call(ngcc_sign(sm, &smlen, m, mlen, sk), "crypto_sign");
    ngcc_length_add(&ngcc_siglen, (unsigned long long)(smlen - mlen));
}

/* smlen of every sign call so far must lie in [mlen, mlen + CRYPTO_BYTES]. */
static void ngcc_check_lengths(const char *what) {
    if (ngcc_siglen.count > 0 &&
        (ngcc_siglen.min > (unsigned long long)NGCC_SIG || ngcc_siglen.max > (unsigned long long)NGCC_SIG)) {
        ngcc_die(NGCC_EXIT_RESULT, "%s: crypto_sign returned smlen - mlen = %llu, outside [0, CRYPTO_BYTES = %llu]",
                 what, ngcc_siglen.min > (unsigned long long)NGCC_SIG ? ngcc_siglen.min : ngcc_siglen.max,
                 (unsigned long long)NGCC_SIG);
    }
}

/* open of the current sm must accept and give m back. */
static void ngcc_open_check(const char *what) {
    int rc;
    ngcc_check_lengths(what);
    rc = ngcc_open(m_open, &mlen_open, sm, smlen, pk);
    ngcc_buf_check_all(what);
    if (rc != 0) {
        ngcc_die(NGCC_EXIT_RESULT, "%s: crypto_sign_open rejected a valid signature (returned non-zero)", what);
    }
    if (mlen_open != mlen || memcmp(m_open, m, (size_t)mlen) != 0) {
        ngcc_die(NGCC_EXIT_RESULT, "%s: crypto_sign_open did not return the signed message", what);
    }
}

static void ngcc_prepare_none(void) {
}

static const char *ngcc_run_keygen(unsigned long long n) {
    unsigned long long i;
    for (i = 0; i < n; i++) {
        if (NGCC_UNLIKELY(ngcc_keypair(pk, sk) != 0)) {
            return "crypto_sign_keypair returned non-zero";
        }
    }
    return NULL;
}

static void ngcc_verify_keygen(void) {
    ngcc_sign_once();
    ngcc_open_check("keygen: the last key pair");
}

static void ngcc_prepare_sign(void) {
    ngcc_call(ngcc_keypair(pk, sk), "crypto_sign_keypair");
}

static const char *ngcc_run_sign(unsigned long long n) {
    unsigned long long i;
    for (i = 0; i < n; i++) {
        if (NGCC_UNLIKELY(ngcc_sign(sm, &smlen, m, mlen, sk) != 0)) {
            return "crypto_sign returned non-zero";
        }
        ngcc_length_add(&ngcc_siglen, (unsigned long long)(smlen - mlen));
    }
    return NULL;
}

static void ngcc_verify_sign(void) {
    ngcc_open_check("sign: the last signature");
}

static void ngcc_prepare_verify(void) {
    ngcc_call(ngcc_keypair(pk, sk), "crypto_sign_keypair");
    ngcc_sign_once();
    ngcc_check_lengths("verify");
}

static const char *ngcc_run_verify(unsigned long long n) {
    unsigned long long i;
    for (i = 0; i < n; i++) {
        if (NGCC_UNLIKELY(ngcc_open(m_open, &mlen_open, sm, smlen, pk) != 0)) {
            return "crypto_sign_open returned non-zero (rejected a valid signature)";
        }
    }
    return NULL;
}

static void ngcc_verify_verify(void) {
    if (mlen_open != mlen || memcmp(m_open, m, (size_t)mlen) != 0) {
        ngcc_die(NGCC_EXIT_RESULT, "verify: crypto_sign_open did not return the signed message");
    }
}

const ngcc_op ngcc_ops[] = {
    {"keygen", ngcc_prepare_none, ngcc_run_keygen, ngcc_verify_keygen},
    {"sign", ngcc_prepare_sign, ngcc_run_sign, ngcc_verify_sign},
    {"verify", ngcc_prepare_verify, ngcc_run_verify, ngcc_verify_verify},
    {NULL, NULL, NULL, NULL},
};

void ngcc_ops_check(unsigned long long iterations) {
    unsigned long long i;
    for (i = 0; i < iterations; i++) {
        size_t pos;
        ngcc_sign_len mlen_tampered = 0;
        int rc;
        ngcc_rng_fill(&ngcc_seed_state, m, (size_t)mlen);
        ngcc_call(ngcc_keypair(pk, sk), "crypto_sign_keypair");
        ngcc_sign_once();
        ngcc_buf_check_all("in check");
        ngcc_open_check("in check");
        /* Tampered signed message: open must reject it. */
        if (smlen == 0) {
            ngcc_die(NGCC_EXIT_RESULT, "check: crypto_sign returned smlen = 0");
        }
        memcpy(sm_tampered, sm, (size_t)smlen);
        pos = (size_t)(ngcc_rng_next(&ngcc_seed_state) % (uint64_t)smlen);
        sm_tampered[pos] ^= 0xFF;
        rc = ngcc_open(m_tampered, &mlen_tampered, sm_tampered, smlen, pk);
        ngcc_buf_check_all("in check");
        if (rc == 0) {
            ngcc_die(NGCC_EXIT_RESULT,
                     "check: crypto_sign_open accepted a tampered signed message (byte %lu of %lu flipped)",
                     (unsigned long)pos, (unsigned long)smlen);
        }
    }
}

#endif /* NGCC_CATEGORY_SIGN */
