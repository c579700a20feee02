/*
 * ngcc_ops.h -- what one category (KEM, signature, key exchange) provides to
 * the driver.  Exactly one of ngcc_ops_kem.c, ngcc_ops_sign.c, ngcc_ops_kex.c
 * is compiled in (each is guarded by its NGCC_CATEGORY_* macro), so all the
 * driver's files can always be passed to the compiler.
 */
#ifndef NGCC_OPS_H
#define NGCC_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "ngcc_driver.h"

typedef struct {
    const char *key;          /* JSON key in "sizes", e.g. publicKeyBytes */
    unsigned long long value; /* from the API macros */
} ngcc_size;

typedef struct {
    const char *name; /* keygen, enc, ... as on the command line */
    /* Make the op's inputs (keys, a valid ciphertext, ...), outside any timed region. */
    void (*prepare)(void);
    /* Run the operation n times back to back; NULL, or a message naming what failed. */
    const char *(*run)(unsigned long long n);
    /* Check the results of the last run (exits 3 when they are wrong). */
    void (*verify)(void);
} ngcc_op;

extern const char ngcc_category[]; /* "kem", "sign", "kex" */

/* The parameter set's name (CRYPTO_ALGNAME), or NULL when api.h has none. */
const char *ngcc_ops_algname(void);

/* Sizes from the API macros; *n receives their number. */
const ngcc_size *ngcc_ops_sizes(size_t *n);

/* Allocate the buffers; msg_bytes is the signature message length, seed drives the driver's own choices. */
void ngcc_ops_init(size_t msg_bytes, uint64_t seed);

/* The operations of this category, NULL-name terminated. */
extern const ngcc_op ngcc_ops[];

/* Round trips with fresh keys plus a tampered case each; exits 3 / 4 on failure. */
void ngcc_ops_check(unsigned long long iterations);

/* Signature lengths (smlen - mlen) over every sign call so far; NULL outside the signature category. */
const ngcc_length_stats *ngcc_ops_signature_lengths(void);

/*
 * Per-call sampling (`sample`): the same operations, with inputs that vary from call to call.  Calls are
 * numbered from 0 over the whole process (warm-up and samples); call c uses key pair c mod K and pool entry
 * c mod P.  What a call reads but must not find used (a fresh message, a protocol state the call updates) is
 * made for it beforehand in one of `slots` per-call slots (slot c mod slots), outside the timed region.
 */
typedef struct {
    unsigned long long key_pairs; /* key pairs in rotation; 0 when the operation takes none */
    unsigned long long pool;      /* inputs in the pool; 0 when none */
    const char *messages;         /* "fresh", "pool" or "none" */
    char description[200];        /* the same in words */
} ngcc_sample_inputs;

typedef struct {
    const char *name; /* as in ngcc_ops */
    /*
     * Make the key pairs and pools (outside any timed region) and describe them; returns the per-call slots,
     * 0 when the operation has none (then any number of calls can be run at once).
     */
    size_t (*prepare)(size_t keys, size_t pool, ngcc_sample_inputs *inputs);
    /* Make at least n per-call slots (n consecutive calls staged at once); returns the slots. NULL without slots. */
    size_t (*reserve)(size_t n);
    /* Untimed: make the inputs of calls first .. first + n - 1 (n <= slots); NULL when nothing is made per call. */
    void (*stage)(unsigned long long first, size_t n);
    /* Timed: calls first .. first + n - 1 back to back; NULL, or a message naming what failed. */
    const char *(*run)(unsigned long long first, size_t n);
    /* Check the result of call `last`, the last one run (exits 3 when it is wrong). */
    void (*verify)(unsigned long long last);
} ngcc_sample_op;

/* The sampled operations of this category, NULL-name terminated (the names of ngcc_ops). */
extern const ngcc_sample_op ngcc_sample_ops[];

#endif /* NGCC_OPS_H */
