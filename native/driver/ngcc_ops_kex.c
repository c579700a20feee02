/*
 * ngcc_ops_kex.c -- key exchange through native/include/ngcc_kex.h:
 * init_a, init_b, pass1, pass2 (two-pass protocols only), derive_a,
 * derive_b, and exchange (the whole protocol, both secrets compared).
 * Compiled in only with -DNGCC_CATEGORY_KEX.  Names are never namespaced.
 */
#include "ngcc_ops.h"

#if defined(NGCC_CATEGORY_KEX)

#include <string.h>

#include "ngcc_api.h"
#include "ngcc_buf.h"

const char ngcc_category[] = "kex";

static unsigned char *pk_a, *sk_a, *st_a, *pk_b, *sk_b, *st_b, *m1, *m2, *ss_a, *ss_b;
static unsigned char *st_a_saved, *st_b_saved, *m_tampered, *ss_tampered;
static uint64_t ngcc_seed_state;

static const ngcc_size ngcc_kex_sizes[] = {
    {"passes", CRYPTO_KEX_PASSES},
    {"msg1Bytes", CRYPTO_KEX_MSG1BYTES},
    {"msg2Bytes", CRYPTO_KEX_MSG2BYTES},
    {"publicKeyABytes", CRYPTO_KEX_PUBLICKEYBYTES_A},
    {"secretKeyABytes", CRYPTO_KEX_SECRETKEYBYTES_A},
    {"publicKeyBBytes", CRYPTO_KEX_PUBLICKEYBYTES_B},
    {"secretKeyBBytes", CRYPTO_KEX_SECRETKEYBYTES_B},
    {"stateABytes", CRYPTO_KEX_STATEBYTES_A},
    {"stateBBytes", CRYPTO_KEX_STATEBYTES_B},
    {"sharedSecretBytes", CRYPTO_KEX_BYTES},
    {"bandwidthBytes", NGCC_KEX_BANDWIDTH_BYTES},
};

const char *ngcc_ops_algname(void) {
    return NGCC_ALGNAME;
}

const ngcc_size *ngcc_ops_sizes(size_t *n) {
    *n = sizeof ngcc_kex_sizes / sizeof ngcc_kex_sizes[0];
    return ngcc_kex_sizes;
}

const ngcc_length_stats *ngcc_ops_signature_lengths(void) {
    return NULL;
}

void ngcc_ops_init(size_t msg_bytes, uint64_t seed) {
    size_t mmax = CRYPTO_KEX_MSG1BYTES > CRYPTO_KEX_MSG2BYTES ? CRYPTO_KEX_MSG1BYTES : CRYPTO_KEX_MSG2BYTES;
    (void)msg_bytes;
    ngcc_seed_state = seed;
    pk_a = ngcc_buf_new("pk_a", CRYPTO_KEX_PUBLICKEYBYTES_A);
    sk_a = ngcc_buf_new("sk_a", CRYPTO_KEX_SECRETKEYBYTES_A);
    st_a = ngcc_buf_new("st_a", CRYPTO_KEX_STATEBYTES_A);
    pk_b = ngcc_buf_new("pk_b", CRYPTO_KEX_PUBLICKEYBYTES_B);
    sk_b = ngcc_buf_new("sk_b", CRYPTO_KEX_SECRETKEYBYTES_B);
    st_b = ngcc_buf_new("st_b", CRYPTO_KEX_STATEBYTES_B);
    m1 = ngcc_buf_new("m1", CRYPTO_KEX_MSG1BYTES);
    m2 = ngcc_buf_new("m2", CRYPTO_KEX_MSG2BYTES);
    ss_a = ngcc_buf_new("ss_a", CRYPTO_KEX_BYTES);
    ss_b = ngcc_buf_new("ss_b", CRYPTO_KEX_BYTES);
    st_a_saved = ngcc_buf_new("st_a_saved", CRYPTO_KEX_STATEBYTES_A);
    st_b_saved = ngcc_buf_new("st_b_saved", CRYPTO_KEX_STATEBYTES_B);
    m_tampered = ngcc_buf_new("m_tampered", mmax);
    ss_tampered = ngcc_buf_new("ss_tampered", CRYPTO_KEX_BYTES);
}

/* The protocol steps, each exiting 3 when the implementation fails. */
static void ngcc_step_init_a(void) {
    ngcc_call(crypto_kex_init_a(pk_a, sk_a, st_a), "crypto_kex_init_a");
}

static void ngcc_step_init_b(void) {
    ngcc_call(crypto_kex_init_b(pk_b, sk_b, st_b), "crypto_kex_init_b");
}

static void ngcc_step_pass1(void) {
    ngcc_call(crypto_kex_pass1(m1, st_a, sk_a, pk_b), "crypto_kex_pass1");
}

static void ngcc_step_pass2(void) {
#if CRYPTO_KEX_PASSES == 2
    ngcc_call(crypto_kex_pass2(m2, st_b, m1, sk_b, pk_a), "crypto_kex_pass2");
#endif
}

static void ngcc_step_derive_a(void) {
    ngcc_call(crypto_kex_derive_a(ss_a, st_a, m2, sk_a, pk_b), "crypto_kex_derive_a");
}

static void ngcc_step_derive_b(void) {
    ngcc_call(crypto_kex_derive_b(ss_b, st_b, m1, sk_b, pk_a), "crypto_kex_derive_b");
}

static void ngcc_expect_agree(const char *what) {
    ngcc_buf_check_all(what);
    if (memcmp(ss_a, ss_b, CRYPTO_KEX_BYTES) != 0) {
        ngcc_die(NGCC_EXIT_RESULT, "%s: the shared secrets of derive_a and derive_b differ", what);
    }
}

static void ngcc_prepare_none(void) {
}

/* init_a / init_b: time the set-up; then finish the protocol with its output. */
static const char *ngcc_run_init_a(unsigned long long n) {
    unsigned long long i;
    for (i = 0; i < n; i++) {
        if (NGCC_UNLIKELY(crypto_kex_init_a(pk_a, sk_a, st_a) != 0)) {
            return "crypto_kex_init_a returned non-zero";
        }
    }
    return NULL;
}

static void ngcc_verify_init_a(void) {
    ngcc_step_init_b();
    ngcc_step_pass1();
    ngcc_step_pass2();
    ngcc_step_derive_a();
    ngcc_step_derive_b();
    ngcc_expect_agree("init_a: the last set-up");
}

static const char *ngcc_run_init_b(unsigned long long n) {
    unsigned long long i;
    for (i = 0; i < n; i++) {
        if (NGCC_UNLIKELY(crypto_kex_init_b(pk_b, sk_b, st_b) != 0)) {
            return "crypto_kex_init_b returned non-zero";
        }
    }
    return NULL;
}

static void ngcc_verify_init_b(void) {
    ngcc_step_init_a();
    ngcc_step_pass1();
    ngcc_step_pass2();
    ngcc_step_derive_a();
    ngcc_step_derive_b();
    ngcc_expect_agree("init_b: the last set-up");
}

/*
 * pass1 / pass2 update the caller's state: each iteration starts from the
 * state saved after the set-up (a memcpy of CRYPTO_KEX_STATEBYTES_* bytes
 * inside the timed loop), so every call sees the same valid input.
 */
static void ngcc_prepare_pass1(void) {
    ngcc_step_init_a();
    ngcc_step_init_b();
    memcpy(st_a_saved, st_a, CRYPTO_KEX_STATEBYTES_A);
}

static const char *ngcc_run_pass1(unsigned long long n) {
    unsigned long long i;
    for (i = 0; i < n; i++) {
        memcpy(st_a, st_a_saved, CRYPTO_KEX_STATEBYTES_A);
        if (NGCC_UNLIKELY(crypto_kex_pass1(m1, st_a, sk_a, pk_b) != 0)) {
            return "crypto_kex_pass1 returned non-zero";
        }
    }
    return NULL;
}

static void ngcc_verify_pass1(void) {
    ngcc_step_pass2();
    ngcc_step_derive_a();
    ngcc_step_derive_b();
    ngcc_expect_agree("pass1: the last message");
}

#if CRYPTO_KEX_PASSES == 2
static void ngcc_prepare_pass2(void) {
    ngcc_step_init_a();
    ngcc_step_init_b();
    ngcc_step_pass1();
    memcpy(st_b_saved, st_b, CRYPTO_KEX_STATEBYTES_B);
}

static const char *ngcc_run_pass2(unsigned long long n) {
    unsigned long long i;
    for (i = 0; i < n; i++) {
        memcpy(st_b, st_b_saved, CRYPTO_KEX_STATEBYTES_B);
        if (NGCC_UNLIKELY(crypto_kex_pass2(m2, st_b, m1, sk_b, pk_a) != 0)) {
            return "crypto_kex_pass2 returned non-zero";
        }
    }
    return NULL;
}

static void ngcc_verify_pass2(void) {
    ngcc_step_derive_a();
    ngcc_step_derive_b();
    ngcc_expect_agree("pass2: the last message");
}
#endif

/* derive_a / derive_b: both inputs made once by a complete protocol run. */
static void ngcc_prepare_derive(void) {
    ngcc_step_init_a();
    ngcc_step_init_b();
    ngcc_step_pass1();
    ngcc_step_pass2();
    ngcc_step_derive_a();
    ngcc_step_derive_b();
    ngcc_expect_agree("preparing derive");
}

static const char *ngcc_run_derive_a(unsigned long long n) {
    unsigned long long i;
    for (i = 0; i < n; i++) {
        if (NGCC_UNLIKELY(crypto_kex_derive_a(ss_a, st_a, m2, sk_a, pk_b) != 0)) {
            return "crypto_kex_derive_a returned non-zero";
        }
    }
    return NULL;
}

static const char *ngcc_run_derive_b(unsigned long long n) {
    unsigned long long i;
    for (i = 0; i < n; i++) {
        if (NGCC_UNLIKELY(crypto_kex_derive_b(ss_b, st_b, m1, sk_b, pk_a) != 0)) {
            return "crypto_kex_derive_b returned non-zero";
        }
    }
    return NULL;
}

static void ngcc_verify_derive_a(void) {
    ngcc_expect_agree("derive_a: the last shared secret");
}

static void ngcc_verify_derive_b(void) {
    ngcc_expect_agree("derive_b: the last shared secret");
}

/* exchange: the whole protocol per iteration, the two secrets compared. */
static const char *ngcc_run_exchange(unsigned long long n) {
    unsigned long long i;
    for (i = 0; i < n; i++) {
        if (NGCC_UNLIKELY(crypto_kex_init_a(pk_a, sk_a, st_a) != 0)) {
            return "crypto_kex_init_a returned non-zero";
        }
        if (NGCC_UNLIKELY(crypto_kex_init_b(pk_b, sk_b, st_b) != 0)) {
            return "crypto_kex_init_b returned non-zero";
        }
        if (NGCC_UNLIKELY(crypto_kex_pass1(m1, st_a, sk_a, pk_b) != 0)) {
            return "crypto_kex_pass1 returned non-zero";
        }
#if CRYPTO_KEX_PASSES == 2
        if (NGCC_UNLIKELY(crypto_kex_pass2(m2, st_b, m1, sk_b, pk_a) != 0)) {
            return "crypto_kex_pass2 returned non-zero";
        }
#endif
        if (NGCC_UNLIKELY(crypto_kex_derive_a(ss_a, st_a, m2, sk_a, pk_b) != 0)) {
            return "crypto_kex_derive_a returned non-zero";
        }
        if (NGCC_UNLIKELY(crypto_kex_derive_b(ss_b, st_b, m1, sk_b, pk_a) != 0)) {
            return "crypto_kex_derive_b returned non-zero";
        }
        if (NGCC_UNLIKELY(memcmp(ss_a, ss_b, CRYPTO_KEX_BYTES) != 0)) {
            return "exchange: the shared secrets of derive_a and derive_b differ";
        }
    }
    return NULL;
}

static void ngcc_verify_exchange(void) {
    ngcc_expect_agree("exchange: the last run");
}

const ngcc_op ngcc_ops[] = {
    {"init_a", ngcc_prepare_none, ngcc_run_init_a, ngcc_verify_init_a},
    {"init_b", ngcc_prepare_none, ngcc_run_init_b, ngcc_verify_init_b},
    {"pass1", ngcc_prepare_pass1, ngcc_run_pass1, ngcc_verify_pass1},
#if CRYPTO_KEX_PASSES == 2
    {"pass2", ngcc_prepare_pass2, ngcc_run_pass2, ngcc_verify_pass2},
#endif
    {"derive_a", ngcc_prepare_derive, ngcc_run_derive_a, ngcc_verify_derive_a},
    {"derive_b", ngcc_prepare_derive, ngcc_run_derive_b, ngcc_verify_derive_b},
    {"exchange", ngcc_prepare_none, ngcc_run_exchange, ngcc_verify_exchange},
    {NULL, NULL, NULL, NULL},
};

/* A message with one byte flipped must make the receiving side fail or derive another secret. */
static void ngcc_tamper_check(const unsigned char *msg, size_t len, int side_a) {
    size_t pos;
    int rc;
    if (len == 0) {
        return;
    }
    pos = (size_t)(ngcc_rng_next(&ngcc_seed_state) % len);
    memcpy(m_tampered, msg, len);
    m_tampered[pos] ^= 0xFF;
    if (side_a) {
        rc = crypto_kex_derive_a(ss_tampered, st_a, m_tampered, sk_a, pk_b);
    } else {
        rc = crypto_kex_derive_b(ss_tampered, st_b, m_tampered, sk_b, pk_a);
    }
    ngcc_buf_check_all("in check");
    if (rc == 0 && memcmp(ss_tampered, side_a ? ss_a : ss_b, CRYPTO_KEX_BYTES) == 0) {
        ngcc_die(NGCC_EXIT_RESULT,
                 "check: crypto_kex_derive_%s of a tampered m%d (byte %lu flipped) gave the same secret",
                 side_a ? "a" : "b", side_a ? 2 : 1, (unsigned long)pos);
    }
}

void ngcc_ops_check(unsigned long long iterations) {
    unsigned long long i;
    for (i = 0; i < iterations; i++) {
        ngcc_step_init_a();
        ngcc_step_init_b();
        ngcc_step_pass1();
        ngcc_step_pass2();
        ngcc_step_derive_a();
        ngcc_step_derive_b();
        ngcc_expect_agree("in check");
        ngcc_tamper_check(m1, CRYPTO_KEX_MSG1BYTES, 0);
#if CRYPTO_KEX_PASSES == 2
        ngcc_tamper_check(m2, CRYPTO_KEX_MSG2BYTES, 1);
#endif
    }
}

#endif /* NGCC_CATEGORY_KEX */
