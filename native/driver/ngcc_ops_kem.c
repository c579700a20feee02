/*
 * ngcc_ops_kem.c -- key encapsulation: keygen, enc, dec (NIST KEM API).
 * Compiled in only with -DNGCC_CATEGORY_KEM.
 */
#include "ngcc_ops.h"

#if defined(NGCC_CATEGORY_KEM)

#include <stdio.h>
#include <string.h>

#include "ngcc_api.h"
#include "ngcc_buf.h"

#define NGCC_PK NGCC_NS(CRYPTO_PUBLICKEYBYTES)
#define NGCC_SK NGCC_NS(CRYPTO_SECRETKEYBYTES)
#define NGCC_CT NGCC_NS(CRYPTO_CIPHERTEXTBYTES)
#define NGCC_SS NGCC_NS(CRYPTO_BYTES)
#define ngcc_keypair NGCC_NS(crypto_kem_keypair)
#define ngcc_enc NGCC_NS(crypto_kem_enc)
#define ngcc_dec NGCC_NS(crypto_kem_dec)

const char ngcc_category[] = "kem";

static unsigned char *pk, *sk, *ct, *ss_enc, *ss_dec, *ct_tampered, *ss_tampered;
static uint64_t ngcc_seed_state;

static const ngcc_size ngcc_kem_sizes[] = {
    {"publicKeyBytes", NGCC_PK},
    {"secretKeyBytes", NGCC_SK},
    {"ciphertextBytes", NGCC_CT},
    {"sharedSecretBytes", NGCC_SS},
};

const char *ngcc_ops_algname(void) {
    return NGCC_ALGNAME;
}

const ngcc_size *ngcc_ops_sizes(size_t *n) {
    *n = sizeof ngcc_kem_sizes / sizeof ngcc_kem_sizes[0];
    return ngcc_kem_sizes;
}

const ngcc_length_stats *ngcc_ops_signature_lengths(void) {
    return NULL;
}

void ngcc_ops_init(size_t msg_bytes, uint64_t seed) {
    (void)msg_bytes;
    ngcc_seed_state = seed;
    pk = ngcc_buf_new("pk", NGCC_PK);
    sk = ngcc_buf_new("sk", NGCC_SK);
    ct = ngcc_buf_new("ct", NGCC_CT);
    ss_enc = ngcc_buf_new("ss_enc", NGCC_SS);
    ss_dec = ngcc_buf_new("ss_dec", NGCC_SS);
    ct_tampered = ngcc_buf_new("ct_tampered", NGCC_CT);
    ss_tampered = ngcc_buf_new("ss_tampered", NGCC_SS);
}

/* dec of the current ct must give the ss of enc. */
static void ngcc_kem_roundtrip_check(const char *what) {
    ngcc_call(ngcc_dec(ss_dec, ct, sk), "crypto_kem_dec");
    ngcc_buf_check_all(what);
    if (memcmp(ss_dec, ss_enc, NGCC_SS) != 0) {
        ngcc_die(NGCC_EXIT_RESULT, "%s: crypto_kem_dec did not recover the shared secret of crypto_kem_enc", what);
    }
}

static void ngcc_prepare_none(void) {
}

static const char *ngcc_run_keygen(unsigned long long n) {
    unsigned long long i;
    for (i = 0; i < n; i++) {
        if (NGCC_UNLIKELY(ngcc_keypair(pk, sk) != 0)) {
            return "crypto_kem_keypair returned non-zero";
        }
    }
    return NULL;
}

static void ngcc_verify_keygen(void) {
    ngcc_call(ngcc_enc(ct, ss_enc, pk), "crypto_kem_enc");
    ngcc_kem_roundtrip_check("keygen: the last key pair");
}

static void ngcc_prepare_enc(void) {
    ngcc_call(ngcc_keypair(pk, sk), "crypto_kem_keypair");
}

static const char *ngcc_run_enc(unsigned long long n) {
    unsigned long long i;
    for (i = 0; i < n; i++) {
        if (NGCC_UNLIKELY(ngcc_enc(ct, ss_enc, pk) != 0)) {
            return "crypto_kem_enc returned non-zero";
        }
    }
    return NULL;
}

static void ngcc_verify_enc(void) {
    ngcc_kem_roundtrip_check("enc: the last ciphertext");
}

static void ngcc_prepare_dec(void) {
    ngcc_call(ngcc_keypair(pk, sk), "crypto_kem_keypair");
    ngcc_call(ngcc_enc(ct, ss_enc, pk), "crypto_kem_enc");
}

static const char *ngcc_run_dec(unsigned long long n) {
    unsigned long long i;
    for (i = 0; i < n; i++) {
        if (NGCC_UNLIKELY(ngcc_dec(ss_dec, ct, sk) != 0)) {
            return "crypto_kem_dec returned non-zero";
        }
    }
    return NULL;
}

static void ngcc_verify_dec(void) {
    if (memcmp(ss_dec, ss_enc, NGCC_SS) != 0) {
        ngcc_die(NGCC_EXIT_RESULT, "dec: crypto_kem_dec did not recover the shared secret of crypto_kem_enc");
    }
}

const ngcc_op ngcc_ops[] = {
    {"keygen", ngcc_prepare_none, ngcc_run_keygen, ngcc_verify_keygen},
    {"enc", ngcc_prepare_enc, ngcc_run_enc, ngcc_verify_enc},
    {"dec", ngcc_prepare_dec, ngcc_run_dec, ngcc_verify_dec},
    {NULL, NULL, NULL, NULL},
};

/* ------------------------------------------------------------------ sample */

/* K key pairs in rotation; a pool of P ciphertexts (ciphertext j under key pair j mod K) with their secrets. */
static ngcc_pool ngcc_s_pk, ngcc_s_sk, ngcc_s_ct, ngcc_s_ss;
static size_t ngcc_s_keys = 1, ngcc_s_pool = 1;

static void ngcc_sample_keys(size_t keys) {
    size_t k;
    ngcc_s_keys = keys;
    ngcc_buf_pool(&ngcc_s_pk, "pk_pool", keys, NGCC_PK);
    ngcc_buf_pool(&ngcc_s_sk, "sk_pool", keys, NGCC_SK);
    for (k = 0; k < keys; k++) {
        ngcc_call(ngcc_keypair(ngcc_pool_at(&ngcc_s_pk, k), ngcc_pool_at(&ngcc_s_sk, k)), "crypto_kem_keypair");
    }
}

static void ngcc_inputs(ngcc_sample_inputs *in, size_t keys, size_t pool) {
    in->key_pairs = keys;
    in->pool = pool;
    in->messages = "none";
}

static size_t ngcc_sample_prepare_keygen(size_t keys, size_t pool, ngcc_sample_inputs *in) {
    (void)keys;
    (void)pool;
    ngcc_inputs(in, 0, 0);
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

static size_t ngcc_sample_prepare_enc(size_t keys, size_t pool, ngcc_sample_inputs *in) {
    (void)pool;
    ngcc_sample_keys(keys);
    ngcc_inputs(in, keys, 0);
    snprintf(in->description, sizeof in->description, "%lu key pair%s in rotation (call i uses public key i mod %lu)",
             (unsigned long)keys, keys == 1 ? "" : "s", (unsigned long)keys);
    return 0;
}

static const char *ngcc_sample_run_enc(unsigned long long first, size_t n) {
    size_t i, k = (size_t)(first % ngcc_s_keys);
    for (i = 0; i < n; i++) {
        if (NGCC_UNLIKELY(ngcc_enc(ct, ss_enc, ngcc_pool_at(&ngcc_s_pk, k)) != 0)) {
            return "crypto_kem_enc returned non-zero";
        }
        if (++k == ngcc_s_keys) {
            k = 0;
        }
    }
    return NULL;
}

static void ngcc_sample_verify_enc(unsigned long long last) {
    size_t k = (size_t)(last % ngcc_s_keys);
    ngcc_call(ngcc_dec(ss_dec, ct, ngcc_pool_at(&ngcc_s_sk, k)), "crypto_kem_dec");
    ngcc_buf_check_all("enc: the last ciphertext");
    if (memcmp(ss_dec, ss_enc, NGCC_SS) != 0) {
        ngcc_die(NGCC_EXIT_RESULT, "enc: the last ciphertext: crypto_kem_dec did not recover the shared secret of "
                                   "crypto_kem_enc");
    }
}

static size_t ngcc_sample_prepare_dec(size_t keys, size_t pool, ngcc_sample_inputs *in) {
    size_t j;
    if (keys > pool) {
        keys = pool; /* ciphertext j is under key pair j mod K: only the first P are used */
    }
    ngcc_sample_keys(keys);
    ngcc_s_pool = pool;
    ngcc_buf_pool(&ngcc_s_ct, "ct_pool", pool, NGCC_CT);
    ngcc_buf_pool(&ngcc_s_ss, "ss_pool", pool, NGCC_SS);
    for (j = 0; j < pool; j++) {
        ngcc_call(ngcc_enc(ngcc_pool_at(&ngcc_s_ct, j), ngcc_pool_at(&ngcc_s_ss, j), ngcc_pool_at(&ngcc_s_pk, j % keys)),
                  "crypto_kem_enc");
    }
    ngcc_inputs(in, keys, pool);
    snprintf(in->description, sizeof in->description,
             "a pool of %lu ciphertext%s over %lu key pair%s (ciphertext j under key pair j mod %lu), in rotation",
             (unsigned long)pool, pool == 1 ? "" : "s", (unsigned long)keys, keys == 1 ? "" : "s",
             (unsigned long)keys);
    return 0;
}

static const char *ngcc_sample_run_dec(unsigned long long first, size_t n) {
    size_t i, e = (size_t)(first % ngcc_s_pool), k = e % ngcc_s_keys;
    for (i = 0; i < n; i++) {
        if (NGCC_UNLIKELY(ngcc_dec(ss_dec, ngcc_pool_at(&ngcc_s_ct, e), ngcc_pool_at(&ngcc_s_sk, k)) != 0)) {
            return "crypto_kem_dec returned non-zero";
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

static void ngcc_sample_verify_dec(unsigned long long last) {
    size_t e = (size_t)(last % ngcc_s_pool);
    if (memcmp(ss_dec, ngcc_pool_at(&ngcc_s_ss, e), NGCC_SS) != 0) {
        ngcc_die(NGCC_EXIT_RESULT, "dec: crypto_kem_dec did not recover the shared secret of crypto_kem_enc "
                                   "(pool ciphertext %lu)",
                 (unsigned long)e);
    }
}

const ngcc_sample_op ngcc_sample_ops[] = {
    {"keygen", ngcc_sample_prepare_keygen, NULL, NULL, ngcc_sample_run_keygen, ngcc_sample_verify_keygen},
    {"enc", ngcc_sample_prepare_enc, NULL, NULL, ngcc_sample_run_enc, ngcc_sample_verify_enc},
    {"dec", ngcc_sample_prepare_dec, NULL, NULL, ngcc_sample_run_dec, ngcc_sample_verify_dec},
    {NULL, NULL, NULL, NULL, NULL, NULL},
};

/* ------------------------------------------------------------------- check */

void ngcc_ops_check(unsigned long long iterations) {
    unsigned long long i;
    for (i = 0; i < iterations; i++) {
        size_t pos;
        int rc;
        ngcc_call(ngcc_keypair(pk, sk), "crypto_kem_keypair");
        ngcc_call(ngcc_enc(ct, ss_enc, pk), "crypto_kem_enc");
        ngcc_buf_check_all("in check");
        ngcc_kem_roundtrip_check("in check");
        /* Tampered ciphertext: dec must fail or (implicit rejection) give another key. */
        memcpy(ct_tampered, ct, NGCC_CT);
        pos = (size_t)(ngcc_rng_next(&ngcc_seed_state) % NGCC_CT);
        ct_tampered[pos] ^= 0xFF;
        rc = ngcc_dec(ss_tampered, ct_tampered, sk);
        ngcc_buf_check_all("in check");
        if (rc == 0 && memcmp(ss_tampered, ss_enc, NGCC_SS) == 0) {
            ngcc_die(NGCC_EXIT_RESULT,
                     "check: crypto_kem_dec of a tampered ciphertext (byte %lu flipped) gave the original "
                     "shared secret",
                     (unsigned long)pos);
        }
    }
}

#endif /* NGCC_CATEGORY_KEM */
