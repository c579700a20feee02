/*
 * rng.h -- KAT randomness (names and signatures of NIST's rng.h).
 *
 * !!! NOT RANDOM.  These are the deterministic generators that known-answer
 * tests are made with: the AES-256 CTR_DRBG of NIST's PQCgenKAT programs
 * (the default) and HQC's SHAKE256-based KAT RNG.  Link them only into KAT
 * builds, never into anything that needs secrets.
 */
#ifndef NGCC_RNG_H
#define NGCC_RNG_H

#include <stddef.h>
#include <stdint.h>

#define RNG_SUCCESS 0
#define RNG_BAD_MAXLEN -1
#define RNG_BAD_OUTBUF -2
#define RNG_BAD_REQ_LEN -3

/* Which generator randombytes_init / randombytes drive. */
typedef enum {
    NGCC_RNG_NIST = 0, /* AES-256 CTR_DRBG of NIST's rng.c (default) */
    NGCC_RNG_HQC = 1   /* SHAKE256(entropy || [personalization] || 0x01), squeezed on */
} ngcc_rng_kind;

/* Select the generator; takes effect at the next randombytes_init. */
void ngcc_rng_select(ngcc_rng_kind kind);
ngcc_rng_kind ngcc_rng_selected(void);

/* Seed the generator: entropy_input is 48 bytes; personalization_string is
 * NULL or 48 bytes; security_strength is ignored (as in NIST's rng.c). */
void randombytes_init(unsigned char *entropy_input, unsigned char *personalization_string, int security_strength);

/* Fill x[0..xlen-1] from the generator; returns RNG_SUCCESS. */
int randombytes(unsigned char *x, unsigned long long xlen);

/* The same generator under PQClean's name (common/randombytes.h maps
 * randombytes to PQCLEAN_randombytes), so PQClean schemes link unchanged. */
int PQCLEAN_randombytes(uint8_t *output, size_t n);

/* Save / restore the whole generator state (for drivers that must draw from
 * an outer generator between inner runs). */
typedef struct {
    ngcc_rng_kind kind;
    unsigned char key[32];
    unsigned char v[16];
    int reseed_counter;
    uint64_t shake[25];
    unsigned shake_pos;
} ngcc_drbg_state;

void ngcc_drbg_save(ngcc_drbg_state *out);
void ngcc_drbg_restore(const ngcc_drbg_state *in);

#endif
