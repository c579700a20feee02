/*
 * ngcc_kex.h -- the C interface a key exchange implements for ngcc-perf.
 *
 * There is no NIST API for key exchange.  This is ngcc-perf's, modelled on
 * the NIST KEM API: a submission's api.h defines the size macros below and
 * declares the functions below; a driver includes api.h first and then this
 * header, which checks that every macro is there and redeclares every
 * function (a prototype in api.h that disagrees is a compile error).
 * Semantics, the order of calls, the KAT format and the bandwidth rule:
 * docs/key-exchange.md.
 *
 * Parties: A, the initiator, sends pass 1; B, the responder, answers with
 * pass 2 in a two-pass protocol.  A long-term key pair may belong to either
 * party; a size of 0 means that party has none (e.g. only the responder
 * holds a long-term public key, as in MAMBA-NIKE).
 *
 * Size macros (all integer constant expressions, in bytes unless noted):
 *   CRYPTO_ALGNAME               string: the parameter set's name
 *   CRYPTO_KEX_PASSES            number of protocol messages: 1 or 2
 *   CRYPTO_KEX_MSG1BYTES         pass-1 message, A -> B
 *   CRYPTO_KEX_MSG2BYTES         pass-2 message, B -> A (0 when PASSES = 1)
 *   CRYPTO_KEX_PUBLICKEYBYTES_A  A's long-term public key (may be 0)
 *   CRYPTO_KEX_SECRETKEYBYTES_A  A's long-term secret key (may be 0)
 *   CRYPTO_KEX_PUBLICKEYBYTES_B  B's long-term public key (may be 0)
 *   CRYPTO_KEX_SECRETKEYBYTES_B  B's long-term secret key (may be 0)
 *   CRYPTO_KEX_STATEBYTES_A      A's session state between calls (may be 0)
 *   CRYPTO_KEX_STATEBYTES_B      B's session state between calls (may be 0)
 *   CRYPTO_KEX_BYTES             the shared secret
 * A buffer of size 0 is still passed as a valid, non-NULL pointer (a driver
 * allocates at least one byte); the implementation must not touch it.
 *
 * Functions: all return 0 on success and non-zero on failure (for example a
 * malformed or tampered message).  Randomness comes only from randombytes()
 * (iccs.h).  The state buffers belong to the caller; st_a / st_b are opaque.
 *
 *   init_a    A's set-up: A's long-term key pair (if any) and its session
 *             state st_a (ephemeral secrets, ...).
 *   init_b    B's set-up: B's long-term key pair (if any) and st_b.
 *   pass1     A computes m1 from st_a, its keys and B's public key; st_a is
 *             updated.
 *   pass2     (PASSES = 2 only) B computes m2 from m1, its keys and A's
 *             public key; st_b is updated.
 *   derive_a  A's shared secret from st_a and m2 (m2 unused when
 *             PASSES = 1); st_a is not modified.
 *   derive_b  B's shared secret from st_b, m1, its keys and A's public key;
 *             st_b is not modified.
 *   exchange  is not a function: a driver composes init_a, init_b, pass1,
 *             [pass2,] derive_a, derive_b in that order, and both secrets
 *             must be equal.
 */
#ifndef NGCC_KEX_H
#define NGCC_KEX_H

#if !defined(CRYPTO_ALGNAME) || !defined(CRYPTO_KEX_PASSES) || !defined(CRYPTO_KEX_MSG1BYTES) ||      \
    !defined(CRYPTO_KEX_MSG2BYTES) || !defined(CRYPTO_KEX_PUBLICKEYBYTES_A) ||                          \
    !defined(CRYPTO_KEX_SECRETKEYBYTES_A) || !defined(CRYPTO_KEX_PUBLICKEYBYTES_B) ||                   \
    !defined(CRYPTO_KEX_SECRETKEYBYTES_B) || !defined(CRYPTO_KEX_STATEBYTES_A) ||                       \
    !defined(CRYPTO_KEX_STATEBYTES_B) || !defined(CRYPTO_KEX_BYTES)
#error "ngcc_kex.h: include the instance's api.h first; it must define every CRYPTO_KEX_* size macro"
#endif

#if CRYPTO_KEX_PASSES != 1 && CRYPTO_KEX_PASSES != 2
#error "ngcc_kex.h: CRYPTO_KEX_PASSES must be 1 or 2"
#endif

#if CRYPTO_KEX_PASSES == 1 && CRYPTO_KEX_MSG2BYTES != 0
#error "ngcc_kex.h: a one-pass exchange has CRYPTO_KEX_MSG2BYTES 0"
#endif

#if CRYPTO_KEX_BYTES <= 0 || CRYPTO_KEX_MSG1BYTES <= 0
#error "ngcc_kex.h: CRYPTO_KEX_BYTES and CRYPTO_KEX_MSG1BYTES must be positive"
#endif

/* Bandwidth as ngcc-perf reports it: every protocol message plus each
 * required long-term public key once (certificates and framing excluded). */
#define NGCC_KEX_BANDWIDTH_BYTES                                                                           \
    (CRYPTO_KEX_MSG1BYTES + CRYPTO_KEX_MSG2BYTES + CRYPTO_KEX_PUBLICKEYBYTES_A + CRYPTO_KEX_PUBLICKEYBYTES_B)

#ifdef __cplusplus
extern "C" {
#endif

/* These repeat api.h's prototypes on purpose (a disagreeing api.h fails to
 * compile); keep -Wredundant-decls quiet about it. */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wredundant-decls"
#endif

int crypto_kex_init_a(unsigned char *pk_a, unsigned char *sk_a, unsigned char *st_a);
int crypto_kex_init_b(unsigned char *pk_b, unsigned char *sk_b, unsigned char *st_b);
int crypto_kex_pass1(unsigned char *m1, unsigned char *st_a, const unsigned char *sk_a, const unsigned char *pk_b);
#if CRYPTO_KEX_PASSES >= 2
int crypto_kex_pass2(unsigned char *m2, unsigned char *st_b, const unsigned char *m1, const unsigned char *sk_b,
                     const unsigned char *pk_a);
#endif
int crypto_kex_derive_a(unsigned char *ss, const unsigned char *st_a, const unsigned char *m2,
                        const unsigned char *sk_a, const unsigned char *pk_b);
int crypto_kex_derive_b(unsigned char *ss, const unsigned char *st_b, const unsigned char *m1,
                        const unsigned char *sk_b, const unsigned char *pk_a);

#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#ifdef __cplusplus
}
#endif

#endif /* NGCC_KEX_H */
