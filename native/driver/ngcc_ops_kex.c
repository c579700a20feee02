/*
 * ngcc_ops_kex.c -- key exchange through native/include/ngcc_kex.h:
 * init_a, init_b, pass1, pass2 (two-pass protocols only), derive_a,
 * derive_b, and exchange (the whole protocol, both secrets compared).
 * Compiled in only with -DNGCC_CATEGORY_KEX.  Names are never namespaced.
 */
#include "ngcc_ops.h"

#if defined(NGCC_CATEGORY_KEX)

#include <stdio.h>
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

/* ------------------------------------------------------------------ sample */

/*
 * A pool of P protocol runs, each from fresh set-ups (init_a, init_b): the states after the set-up
 * (st_a0, st_b0) and after the passes (st_a1 after pass1, st_b1 after pass2 -- st_b0 again for one pass),
 * the messages and the shared secret.  pass1 / pass2 update the state they are given, so each call gets a
 * copy of its entry's state, made in a per-call slot before the timed region.
 */
static ngcc_pool ngcc_x_pk_a, ngcc_x_sk_a, ngcc_x_st_a0, ngcc_x_st_a1, ngcc_x_pk_b, ngcc_x_sk_b, ngcc_x_st_b0,
    ngcc_x_st_b1, ngcc_x_m1, ngcc_x_m2, ngcc_x_ss, ngcc_x_slots_a;
#if CRYPTO_KEX_PASSES == 2
static ngcc_pool ngcc_x_slots_b;
#endif
static size_t ngcc_x_pool = 1, ngcc_x_slots = 1;

#define NGCC_X(pool, e) ngcc_pool_at(&ngcc_x_##pool, (e))
#define NGCC_KEX_LONG_TERM_BYTES                                                                               \
    (CRYPTO_KEX_PUBLICKEYBYTES_A + CRYPTO_KEX_SECRETKEYBYTES_A + CRYPTO_KEX_PUBLICKEYBYTES_B +                 \
     CRYPTO_KEX_SECRETKEYBYTES_B)

static void ngcc_kex_inputs(ngcc_sample_inputs *in, size_t pool, const char *what) {
    in->key_pairs = NGCC_KEX_LONG_TERM_BYTES > 0 ? pool : 0;
    in->pool = pool;
    in->messages = "none";
    snprintf(in->description, sizeof in->description, "a pool of %lu %s from fresh set-ups, in rotation%s",
             (unsigned long)pool, what,
             NGCC_KEX_LONG_TERM_BYTES > 0 ? " (each with its own long-term keys)" : "");
}

/* The pool of P protocol runs, each checked: both sides derive the same secret. */
static void ngcc_kex_make_runs(size_t pool) {
    size_t e;
    ngcc_x_pool = pool;
    ngcc_buf_pool(&ngcc_x_pk_a, "pk_a_pool", pool, CRYPTO_KEX_PUBLICKEYBYTES_A);
    ngcc_buf_pool(&ngcc_x_sk_a, "sk_a_pool", pool, CRYPTO_KEX_SECRETKEYBYTES_A);
    ngcc_buf_pool(&ngcc_x_st_a0, "st_a0_pool", pool, CRYPTO_KEX_STATEBYTES_A);
    ngcc_buf_pool(&ngcc_x_st_a1, "st_a1_pool", pool, CRYPTO_KEX_STATEBYTES_A);
    ngcc_buf_pool(&ngcc_x_pk_b, "pk_b_pool", pool, CRYPTO_KEX_PUBLICKEYBYTES_B);
    ngcc_buf_pool(&ngcc_x_sk_b, "sk_b_pool", pool, CRYPTO_KEX_SECRETKEYBYTES_B);
    ngcc_buf_pool(&ngcc_x_st_b0, "st_b0_pool", pool, CRYPTO_KEX_STATEBYTES_B);
    ngcc_buf_pool(&ngcc_x_st_b1, "st_b1_pool", pool, CRYPTO_KEX_STATEBYTES_B);
    ngcc_buf_pool(&ngcc_x_m1, "m1_pool", pool, CRYPTO_KEX_MSG1BYTES);
    ngcc_buf_pool(&ngcc_x_m2, "m2_pool", pool, CRYPTO_KEX_MSG2BYTES);
    ngcc_buf_pool(&ngcc_x_ss, "ss_pool", pool, CRYPTO_KEX_BYTES);
    for (e = 0; e < pool; e++) {
        ngcc_call(crypto_kex_init_a(NGCC_X(pk_a, e), NGCC_X(sk_a, e), NGCC_X(st_a0, e)), "crypto_kex_init_a");
        ngcc_call(crypto_kex_init_b(NGCC_X(pk_b, e), NGCC_X(sk_b, e), NGCC_X(st_b0, e)), "crypto_kex_init_b");
        memcpy(NGCC_X(st_a1, e), NGCC_X(st_a0, e), CRYPTO_KEX_STATEBYTES_A);
        ngcc_call(crypto_kex_pass1(NGCC_X(m1, e), NGCC_X(st_a1, e), NGCC_X(sk_a, e), NGCC_X(pk_b, e)),
                  "crypto_kex_pass1");
        memcpy(NGCC_X(st_b1, e), NGCC_X(st_b0, e), CRYPTO_KEX_STATEBYTES_B);
#if CRYPTO_KEX_PASSES == 2
        ngcc_call(crypto_kex_pass2(NGCC_X(m2, e), NGCC_X(st_b1, e), NGCC_X(m1, e), NGCC_X(sk_b, e), NGCC_X(pk_a, e)),
                  "crypto_kex_pass2");
#endif
        ngcc_call(crypto_kex_derive_a(NGCC_X(ss, e), NGCC_X(st_a1, e), NGCC_X(m2, e), NGCC_X(sk_a, e),
                                      NGCC_X(pk_b, e)),
                  "crypto_kex_derive_a");
        ngcc_call(crypto_kex_derive_b(ss_b, NGCC_X(st_b1, e), NGCC_X(m1, e), NGCC_X(sk_b, e), NGCC_X(pk_a, e)),
                  "crypto_kex_derive_b");
        ngcc_buf_check_all("making the pool of protocol runs");
        if (memcmp(NGCC_X(ss, e), ss_b, CRYPTO_KEX_BYTES) != 0) {
            ngcc_die(NGCC_EXIT_RESULT, "making the pool: the shared secrets of derive_a and derive_b differ (run %lu)",
                     (unsigned long)e);
        }
    }
}

/* init_a, init_b, exchange: nothing but fresh randomness varies. */
static size_t ngcc_sample_prepare_fresh(size_t keys, size_t pool, ngcc_sample_inputs *in) {
    (void)keys;
    (void)pool;
    in->key_pairs = 0;
    in->pool = 0;
    in->messages = "none";
    snprintf(in->description, sizeof in->description, "fresh randomness per call (randombytes); no other input");
    return 0;
}

static size_t ngcc_sample_prepare_exchange(size_t keys, size_t pool, ngcc_sample_inputs *in) {
    ngcc_sample_prepare_fresh(keys, pool, in);
    snprintf(in->description, sizeof in->description,
             "the whole protocol per call from fresh set-ups (randombytes); no other input");
    return 0;
}

static const char *ngcc_sample_run_init_a(unsigned long long first, size_t n) {
    (void)first;
    return ngcc_run_init_a(n);
}

static void ngcc_sample_verify_init_a(unsigned long long last) {
    (void)last;
    ngcc_verify_init_a();
}

static const char *ngcc_sample_run_init_b(unsigned long long first, size_t n) {
    (void)first;
    return ngcc_run_init_b(n);
}

static void ngcc_sample_verify_init_b(unsigned long long last) {
    (void)last;
    ngcc_verify_init_b();
}

static const char *ngcc_sample_run_exchange(unsigned long long first, size_t n) {
    (void)first;
    return ngcc_run_exchange(n);
}

static void ngcc_sample_verify_exchange(unsigned long long last) {
    (void)last;
    ngcc_verify_exchange();
}

/* pass1: A's state after the set-up, copied into slot c mod slots for call c. */
static size_t ngcc_sample_reserve_pass1(size_t n) {
    if (n > ngcc_x_slots) {
        ngcc_buf_pool(&ngcc_x_slots_a, "st_a_slots", n, CRYPTO_KEX_STATEBYTES_A);
        ngcc_x_slots = n;
    }
    return ngcc_x_slots;
}

static size_t ngcc_sample_prepare_pass1(size_t keys, size_t pool, ngcc_sample_inputs *in) {
    (void)keys;
    ngcc_kex_make_runs(pool);
    ngcc_x_slots = ngcc_initial_slots(CRYPTO_KEX_STATEBYTES_A);
    ngcc_buf_pool(&ngcc_x_slots_a, "st_a_slots", ngcc_x_slots, CRYPTO_KEX_STATEBYTES_A);
    ngcc_kex_inputs(in, pool, "initiator states");
    return ngcc_x_slots;
}

static void ngcc_sample_stage_pass1(unsigned long long first, size_t n) {
    size_t i, w = (size_t)(first % ngcc_x_slots), e = (size_t)(first % ngcc_x_pool);
    for (i = 0; i < n; i++) {
        memcpy(NGCC_X(slots_a, w), NGCC_X(st_a0, e), CRYPTO_KEX_STATEBYTES_A);
        if (++w == ngcc_x_slots) {
            w = 0;
        }
        if (++e == ngcc_x_pool) {
            e = 0;
        }
    }
}

static const char *ngcc_sample_run_pass1(unsigned long long first, size_t n) {
    size_t i, w = (size_t)(first % ngcc_x_slots), e = (size_t)(first % ngcc_x_pool);
    for (i = 0; i < n; i++) {
        if (NGCC_UNLIKELY(crypto_kex_pass1(m1, NGCC_X(slots_a, w), NGCC_X(sk_a, e), NGCC_X(pk_b, e)) != 0)) {
            return "crypto_kex_pass1 returned non-zero";
        }
        if (++w == ngcc_x_slots) {
            w = 0;
        }
        if (++e == ngcc_x_pool) {
            e = 0;
        }
    }
    return NULL;
}

/* The last m1 must complete the protocol of its entry: B answers (two passes), both sides derive the same secret. */
static void ngcc_sample_verify_pass1(unsigned long long last) {
    size_t w = (size_t)(last % ngcc_x_slots), e = (size_t)(last % ngcc_x_pool);
    memcpy(st_b, NGCC_X(st_b0, e), CRYPTO_KEX_STATEBYTES_B);
#if CRYPTO_KEX_PASSES == 2
    ngcc_call(crypto_kex_pass2(m2, st_b, m1, NGCC_X(sk_b, e), NGCC_X(pk_a, e)), "crypto_kex_pass2");
#endif
    ngcc_call(crypto_kex_derive_a(ss_a, NGCC_X(slots_a, w), m2, NGCC_X(sk_a, e), NGCC_X(pk_b, e)),
              "crypto_kex_derive_a");
    ngcc_call(crypto_kex_derive_b(ss_b, st_b, m1, NGCC_X(sk_b, e), NGCC_X(pk_a, e)), "crypto_kex_derive_b");
    ngcc_expect_agree("pass1: the last message");
}

#if CRYPTO_KEX_PASSES == 2
/* pass2: B's state after the set-up, copied into slot c mod slots for call c. */
static size_t ngcc_sample_reserve_pass2(size_t n) {
    if (n > ngcc_x_slots) {
        ngcc_buf_pool(&ngcc_x_slots_b, "st_b_slots", n, CRYPTO_KEX_STATEBYTES_B);
        ngcc_x_slots = n;
    }
    return ngcc_x_slots;
}

static size_t ngcc_sample_prepare_pass2(size_t keys, size_t pool, ngcc_sample_inputs *in) {
    (void)keys;
    ngcc_kex_make_runs(pool);
    ngcc_x_slots = ngcc_initial_slots(CRYPTO_KEX_STATEBYTES_B);
    ngcc_buf_pool(&ngcc_x_slots_b, "st_b_slots", ngcc_x_slots, CRYPTO_KEX_STATEBYTES_B);
    ngcc_kex_inputs(in, pool, "responder states with their pass-1 messages");
    return ngcc_x_slots;
}

static void ngcc_sample_stage_pass2(unsigned long long first, size_t n) {
    size_t i, w = (size_t)(first % ngcc_x_slots), e = (size_t)(first % ngcc_x_pool);
    for (i = 0; i < n; i++) {
        memcpy(NGCC_X(slots_b, w), NGCC_X(st_b0, e), CRYPTO_KEX_STATEBYTES_B);
        if (++w == ngcc_x_slots) {
            w = 0;
        }
        if (++e == ngcc_x_pool) {
            e = 0;
        }
    }
}

static const char *ngcc_sample_run_pass2(unsigned long long first, size_t n) {
    size_t i, w = (size_t)(first % ngcc_x_slots), e = (size_t)(first % ngcc_x_pool);
    for (i = 0; i < n; i++) {
        if (NGCC_UNLIKELY(crypto_kex_pass2(m2, NGCC_X(slots_b, w), NGCC_X(m1, e), NGCC_X(sk_b, e), NGCC_X(pk_a, e)) !=
                          0)) {
            return "crypto_kex_pass2 returned non-zero";
        }
        if (++w == ngcc_x_slots) {
            w = 0;
        }
        if (++e == ngcc_x_pool) {
            e = 0;
        }
    }
    return NULL;
}

/* The last m2 must let A derive the secret B derives from its updated state. */
static void ngcc_sample_verify_pass2(unsigned long long last) {
    size_t w = (size_t)(last % ngcc_x_slots), e = (size_t)(last % ngcc_x_pool);
    memcpy(st_a, NGCC_X(st_a1, e), CRYPTO_KEX_STATEBYTES_A);
    ngcc_call(crypto_kex_derive_a(ss_a, st_a, m2, NGCC_X(sk_a, e), NGCC_X(pk_b, e)), "crypto_kex_derive_a");
    ngcc_call(crypto_kex_derive_b(ss_b, NGCC_X(slots_b, w), NGCC_X(m1, e), NGCC_X(sk_b, e), NGCC_X(pk_a, e)),
              "crypto_kex_derive_b");
    ngcc_expect_agree("pass2: the last message");
}
#endif

/* derive_a / derive_b: the completed runs of the pool (derive modifies no state). */
static size_t ngcc_sample_prepare_derive(size_t keys, size_t pool, ngcc_sample_inputs *in) {
    (void)keys;
    ngcc_kex_make_runs(pool);
    ngcc_kex_inputs(in, pool, "completed protocol runs");
    return 0;
}

static const char *ngcc_sample_run_derive_a(unsigned long long first, size_t n) {
    size_t i, e = (size_t)(first % ngcc_x_pool);
    for (i = 0; i < n; i++) {
        if (NGCC_UNLIKELY(crypto_kex_derive_a(ss_a, NGCC_X(st_a1, e), NGCC_X(m2, e), NGCC_X(sk_a, e), NGCC_X(pk_b, e)) !=
                          0)) {
            return "crypto_kex_derive_a returned non-zero";
        }
        if (++e == ngcc_x_pool) {
            e = 0;
        }
    }
    return NULL;
}

static const char *ngcc_sample_run_derive_b(unsigned long long first, size_t n) {
    size_t i, e = (size_t)(first % ngcc_x_pool);
    for (i = 0; i < n; i++) {
        if (NGCC_UNLIKELY(crypto_kex_derive_b(ss_b, NGCC_X(st_b1, e), NGCC_X(m1, e), NGCC_X(sk_b, e), NGCC_X(pk_a, e)) !=
                          0)) {
            return "crypto_kex_derive_b returned non-zero";
        }
        if (++e == ngcc_x_pool) {
            e = 0;
        }
    }
    return NULL;
}

static void ngcc_kex_expect_pool_secret(const unsigned char *ss, unsigned long long last, const char *what) {
    size_t e = (size_t)(last % ngcc_x_pool);
    ngcc_buf_check_all(what);
    if (memcmp(ss, NGCC_X(ss, e), CRYPTO_KEX_BYTES) != 0) {
        ngcc_die(NGCC_EXIT_RESULT, "%s: the shared secret differs from the one its protocol run derived (run %lu)",
                 what, (unsigned long)e);
    }
}

static void ngcc_sample_verify_derive_a(unsigned long long last) {
    ngcc_kex_expect_pool_secret(ss_a, last, "derive_a: the last shared secret");
}

static void ngcc_sample_verify_derive_b(unsigned long long last) {
    ngcc_kex_expect_pool_secret(ss_b, last, "derive_b: the last shared secret");
}

const ngcc_sample_op ngcc_sample_ops[] = {
    {"init_a", ngcc_sample_prepare_fresh, NULL, NULL, ngcc_sample_run_init_a, ngcc_sample_verify_init_a},
    {"init_b", ngcc_sample_prepare_fresh, NULL, NULL, ngcc_sample_run_init_b, ngcc_sample_verify_init_b},
    {"pass1", ngcc_sample_prepare_pass1, ngcc_sample_reserve_pass1, ngcc_sample_stage_pass1, ngcc_sample_run_pass1,
     ngcc_sample_verify_pass1},
#if CRYPTO_KEX_PASSES == 2
    {"pass2", ngcc_sample_prepare_pass2, ngcc_sample_reserve_pass2, ngcc_sample_stage_pass2, ngcc_sample_run_pass2,
     ngcc_sample_verify_pass2},
#endif
    {"derive_a", ngcc_sample_prepare_derive, NULL, NULL, ngcc_sample_run_derive_a, ngcc_sample_verify_derive_a},
    {"derive_b", ngcc_sample_prepare_derive, NULL, NULL, ngcc_sample_run_derive_b, ngcc_sample_verify_derive_b},
    {"exchange", ngcc_sample_prepare_exchange, NULL, NULL, ngcc_sample_run_exchange, ngcc_sample_verify_exchange},
    {NULL, NULL, NULL, NULL, NULL, NULL},
};

/* ------------------------------------------------------------------- check */

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
