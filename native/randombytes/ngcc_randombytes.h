/*
 * ngcc_randombytes.h -- the plain NIST randombytes that ngcc-perf links into
 * the timing builds of a submission that calls no ICCS function.
 *
 * The submitter's own randombytes.c (or NIST's rng.c) is left out of every
 * build; this file takes its place for timing, and the KAT generator's
 * AES-256 CTR_DRBG (native/katgen/ngcc_rng.c) takes its place for KATs.
 */
#ifndef NGCC_RANDOMBYTES_H
#define NGCC_RANDOMBYTES_H

#include <stddef.h>

/* Fills x[0..xlen-1] from the system RNG (getrandom, else /dev/urandom); returns 0, aborts on failure. */
int randombytes(unsigned char *x, unsigned long long xlen);

/* The same RNG under PQClean's name (its randombytes.h maps randombytes to PQCLEAN_randombytes), so PQClean code
 * laid out as a submission links unchanged, as the KAT DRBG offers it for KATs. */
int PQCLEAN_randombytes(unsigned char *output, size_t n);

#endif /* NGCC_RANDOMBYTES_H */
