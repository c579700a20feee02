/*
 * rng.h -- NIST KAT DRBG interface (names and signatures of NIST's rng.h).
 *
 * !!! NOT RANDOM.  This is the deterministic AES-256 CTR_DRBG that NIST's
 * PQCgenKAT programs use to make known-answer tests reproducible.  Link it
 * only into KAT builds, never into anything that needs secrets.
 */
#ifndef NGCC_RNG_H
#define NGCC_RNG_H

#include <stddef.h>
#include <stdint.h>

#define RNG_SUCCESS 0
#define RNG_BAD_MAXLEN -1
#define RNG_BAD_OUTBUF -2
#define RNG_BAD_REQ_LEN -3

/* Seed the DRBG: entropy_input is 48 bytes; personalization_string is NULL
 * or 48 bytes; security_strength is ignored (as in NIST's rng.c). */
void randombytes_init(unsigned char *entropy_input, unsigned char *personalization_string, int security_strength);

/* Fill x[0..xlen-1] from the DRBG; returns RNG_SUCCESS. */
int randombytes(unsigned char *x, unsigned long long xlen);

/* The same generator under PQClean's name (common/randombytes.h maps
 * randombytes to PQCLEAN_randombytes), so PQClean schemes link unchanged. */
int PQCLEAN_randombytes(uint8_t *output, size_t n);

/* Save / restore the whole DRBG state (for drivers that must draw from an
 * outer generator between inner runs). */
typedef struct {
    unsigned char key[32];
    unsigned char v[16];
    int reseed_counter;
} ngcc_drbg_state;

void ngcc_drbg_save(ngcc_drbg_state *out);
void ngcc_drbg_restore(const ngcc_drbg_state *in);

#endif
