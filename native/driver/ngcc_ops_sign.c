/*
 * ngcc_ops_sign.c -- signatures: keygen, sign, verify through the signing
 * pair crypto_sign / crypto_sign_open (every submission has them; PQClean's
 * crypto_sign_signature / crypto_sign_verify are not used): the round-3 NIST
 * API, or the FIPS 204 context API with -DNGCC_SIGN_API_FIPS204 (see
 * native/include/ngcc_sign_api.h).
 * Compiled in only with -DNGCC_CATEGORY_SIGN.
 */
#include "ngcc_ops.h"

#if defined(NGCC_CATEGORY_SIGN)

#include <stdio.h>
#include <string.h>

#include "ngcc_api.h"
#include "ngcc_buf.h"

#define NGCC_PK NGCC_NS(CRYPTO_PUBLICKEYBYTES)
#define NGCC_SK NGCC_NS(CRYPTO_SECRETKEYBYTES)
#define NGCC_SIG NGCC_NS(CRYPTO_BYTES)
#define ngcc_keypair NGCC_NS(crypto_sign_keypair)

/*
 * The signing pair (native/include/ngcc_sign_api.h): the round-3 NIST crypto_sign / crypto_sign_open, or with
 * -DNGCC_SIGN_API_FIPS204 the FIPS 204 context API (the context from -DNGCC_SIGN_CONTEXT, empty without it).
 * The type of smlen / mlen is read off the prototype (GCC, Clang); otherwise size_t for namespaced (PQClean)
 * builds and unsigned long long for the rest; -DNGCC_SIGN_LENGTH_TYPE=... overrides both.
 */
#define NGCC_SIGN_NAME(x) NGCC_NS(x)
#if defined(NGCC_NAMESPACE)
#define NGCC_SIGN_SIZE_T_DEFAULT
#endif
#include "../include/ngcc_sign_api.h" /* by its path: no -I needed */
#define ngcc_sign(sm_, smlen_, m_, mlen_, sk_) NGCC_SIGN_CALL(sm_, smlen_, m_, mlen_, sk_)
#define ngcc_open(m_, mlen_, sm_, smlen_, pk_) NGCC_OPEN_CALL(m_, mlen_, sm_, smlen_, pk_)

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

/* open of the current sm under public key `key` must accept and give `msg` back. */
static void ngcc_open_check_with(const char *what, const unsigned char *msg, const unsigned char *key) {
    int rc;
    ngcc_check_lengths(what);
    rc = ngcc_open(m_open, &mlen_open, sm, smlen, key);
    ngcc_buf_check_all(what);
    if (rc != 0) {
        ngcc_die(NGCC_EXIT_RESULT, "%s: crypto_sign_open rejected a valid signature (returned non-zero)", what);
    }
    if (mlen_open != mlen || memcmp(m_open, msg, (size_t)mlen) != 0) {
        ngcc_die(NGCC_EXIT_RESULT, "%s: crypto_sign_open did not return the signed message", what);
    }
}

/* open of the current sm must accept and give m back. */
static void ngcc_open_check(const char *what) {
    ngcc_open_check_with(what, m, pk);
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

/* ------------------------------------------------------------------ sample */

/*
 * K key pairs in rotation; sign: a fresh message per call, written by the driver's generator into a per-call
 * slot before the timed region; verify: a pool of P (message, signed message) pairs, pair j under key pair
 * j mod K.
 */
static ngcc_pool ngcc_s_pk, ngcc_s_sk, ngcc_s_msg, ngcc_s_m, ngcc_s_sm, ngcc_s_smlen;
static size_t ngcc_s_keys = 1, ngcc_s_pool = 1, ngcc_s_slots = 1;

static void ngcc_sample_keys(size_t keys) {
    size_t k;
    ngcc_s_keys = keys;
    ngcc_buf_pool(&ngcc_s_pk, "pk_pool", keys, NGCC_PK);
    ngcc_buf_pool(&ngcc_s_sk, "sk_pool", keys, NGCC_SK);
    for (k = 0; k < keys; k++) {
        ngcc_call(ngcc_keypair(ngcc_pool_at(&ngcc_s_pk, k), ngcc_pool_at(&ngcc_s_sk, k)), "crypto_sign_keypair");
    }
}

static size_t ngcc_sample_prepare_keygen(size_t keys, size_t pool, ngcc_sample_inputs *in) {
    (void)keys;
    (void)pool;
    in->key_pairs = 0;
    in->pool = 0;
    in->messages = "none";
    snprintf(in->description, sizeof in->description, "fresh randomness per call (randombytes); no other input");
    return 0;
}

static const char *ngcc_sample_run_keygen(unsigned long long first, size_t n) {
    (void)first;
    return ngcc_run_keygen(n);
}

static void ngcc_sample_verify_keygen(unsigned long long last) {
    (void)last;
    ngcc_verify_keygen();
}

static size_t ngcc_sample_reserve_sign(size_t n) {
    if (n > ngcc_s_slots) {
        ngcc_buf_pool(&ngcc_s_msg, "m_slots", n, (size_t)mlen);
        ngcc_s_slots = n;
    }
    return ngcc_s_slots;
}

static size_t ngcc_sample_prepare_sign(size_t keys, size_t pool, ngcc_sample_inputs *in) {
    (void)pool;
    ngcc_sample_keys(keys);
    ngcc_s_slots = ngcc_initial_slots((size_t)mlen);
    ngcc_buf_pool(&ngcc_s_msg, "m_slots", ngcc_s_slots, (size_t)mlen);
    in->key_pairs = keys;
    in->pool = 0;
    in->messages = "fresh";
    snprintf(in->description, sizeof in->description, "a fresh %lu-byte message per call, %lu key pair%s in rotation",
             (unsigned long)mlen, (unsigned long)keys, keys == 1 ? "" : "s");
    return ngcc_s_slots;
}

static void ngcc_sample_stage_sign(unsigned long long first, size_t n) {
    size_t i, w = (size_t)(first % ngcc_s_slots);
    for (i = 0; i < n; i++) {
        ngcc_rng_fill(&ngcc_seed_state, ngcc_pool_at(&ngcc_s_msg, w), (size_t)mlen);
        if (++w == ngcc_s_slots) {
            w = 0;
        }
    }
}

static const char *ngcc_sample_run_sign(unsigned long long first, size_t n) {
    size_t i, w = (size_t)(first % ngcc_s_slots), k = (size_t)(first % ngcc_s_keys);
    for (i = 0; i < n; i++) {
        if (NGCC_UNLIKELY(ngcc_sign(sm, &smlen, ngcc_pool_at(&ngcc_s_msg, w), mlen, ngcc_pool_at(&ngcc_s_sk, k)) !=
                          0)) {
            return "crypto_sign returned non-zero";
        }
        ngcc_length_add(&ngcc_siglen, (unsigned long long)(smlen - mlen));
        if (++w == ngcc_s_slots) {
            w = 0;
        }
        if (++k == ngcc_s_keys) {
            k = 0;
        }
    }
    return NULL;
}

static void ngcc_sample_verify_sign(unsigned long long last) {
    ngcc_open_check_with("sign: the last signature", ngcc_pool_at(&ngcc_s_msg, (size_t)(last % ngcc_s_slots)),
                         ngcc_pool_at(&ngcc_s_pk, (size_t)(last % ngcc_s_keys)));
}

static ngcc_sign_len *ngcc_smlen_at(size_t j) {
    return (ngcc_sign_len *)(void *)ngcc_pool_at(&ngcc_s_smlen, j);
}

static size_t ngcc_sample_prepare_verify(size_t keys, size_t pool, ngcc_sample_inputs *in) {
    size_t j;
    if (keys > pool) {
        keys = pool; /* pair j is under key pair j mod K: only the first P are used */
    }
    ngcc_sample_keys(keys);
    ngcc_s_pool = pool;
    ngcc_buf_pool(&ngcc_s_m, "m_pool", pool, (size_t)mlen);
    ngcc_buf_pool(&ngcc_s_sm, "sm_pool", pool, (size_t)mlen + NGCC_SIG);
    ngcc_buf_pool(&ngcc_s_smlen, "smlen_pool", pool, sizeof(ngcc_sign_len));
    for (j = 0; j < pool; j++) {
        ngcc_sign_len *len = ngcc_smlen_at(j);
        ngcc_rng_fill(&ngcc_seed_state, ngcc_pool_at(&ngcc_s_m, j), (size_t)mlen);
        ngcc_call(ngcc_sign(ngcc_pool_at(&ngcc_s_sm, j), len, ngcc_pool_at(&ngcc_s_m, j), mlen,
                            ngcc_pool_at(&ngcc_s_sk, j % keys)),
                  "crypto_sign");
        ngcc_length_add(&ngcc_siglen, (unsigned long long)(*len - mlen));
    }
    ngcc_check_lengths("verify: making the pool");
    in->key_pairs = keys;
    in->pool = pool;
    in->messages = "pool";
    snprintf(in->description, sizeof in->description,
             "a pool of %lu (message, signature) pair%s over %lu key pair%s (%lu-byte messages, pair j under key "
             "pair j mod %lu), in rotation",
             (unsigned long)pool, pool == 1 ? "" : "s", (unsigned long)keys, keys == 1 ? "" : "s",
             (unsigned long)mlen, (unsigned long)keys);
    return 0;
}

static const char *ngcc_sample_run_verify(unsigned long long first, size_t n) {
    size_t i, e = (size_t)(first % ngcc_s_pool), k = e % ngcc_s_keys;
    for (i = 0; i < n; i++) {
        if (NGCC_UNLIKELY(ngcc_open(m_open, &mlen_open, ngcc_pool_at(&ngcc_s_sm, e), *ngcc_smlen_at(e),
                                    ngcc_pool_at(&ngcc_s_pk, k)) != 0)) {
            return "crypto_sign_open returned non-zero (rejected a valid signature)";
        }
        if (++k == ngcc_s_keys) {
            k = 0;
        }
        if (++e == ngcc_s_pool) {
            e = 0;
            k = 0;
        }
    }
    return NULL;
}

static void ngcc_sample_verify_verify(unsigned long long last) {
    size_t e = (size_t)(last % ngcc_s_pool);
    if (mlen_open != mlen || memcmp(m_open, ngcc_pool_at(&ngcc_s_m, e), (size_t)mlen) != 0) {
        ngcc_die(NGCC_EXIT_RESULT, "verify: crypto_sign_open did not return the signed message (pool pair %lu)",
                 (unsigned long)e);
    }
}

const ngcc_sample_op ngcc_sample_ops[] = {
    {"keygen", ngcc_sample_prepare_keygen, NULL, NULL, ngcc_sample_run_keygen, ngcc_sample_verify_keygen},
    {"sign", ngcc_sample_prepare_sign, ngcc_sample_reserve_sign, ngcc_sample_stage_sign, ngcc_sample_run_sign,
     ngcc_sample_verify_sign},
    {"verify", ngcc_sample_prepare_verify, NULL, NULL, ngcc_sample_run_verify, ngcc_sample_verify_verify},
    {NULL, NULL, NULL, NULL, NULL, NULL},
};

/* ------------------------------------------------------------------- check */

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
#if defined(NGCC_SIGN_API_FIPS204)
        /* Another context (this one with one byte more): open must reject the valid signed message under it. */
        {
            unsigned char other[256];
            size_t other_len = NGCC_SIGN_CTXLEN < 255 ? NGCC_SIGN_CTXLEN + 1 : NGCC_SIGN_CTXLEN;
            memcpy(other, NGCC_SIGN_CTX, NGCC_SIGN_CTXLEN);
            other[other_len - 1] ^= 0x5A;
            rc = NGCC_OPEN_FN(m_tampered, &mlen_tampered, sm, smlen, other, other_len, pk);
            ngcc_buf_check_all("in check");
            if (rc == 0) {
                ngcc_die(NGCC_EXIT_RESULT,
                         "check: crypto_sign_open accepted a signed message under another context (%lu bytes)",
                         (unsigned long)other_len);
            }
        }
#endif
    }
}

#endif /* NGCC_CATEGORY_SIGN */
