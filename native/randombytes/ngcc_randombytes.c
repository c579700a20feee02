/*
 * ngcc_randombytes.c -- randombytes over the system RNG, with NIST's
 * signature: int randombytes(unsigned char *x, unsigned long long xlen).
 *
 * Linked into the timing builds of a submission without ICCS (meta.json
 * without "iccs"). KAT builds leave it out and link the KAT DRBG instead.
 * Never returns an error: a system RNG that fails aborts the process, as a
 * measurement with broken randomness means nothing.
 */
#if defined(__linux__)
#define _DEFAULT_SOURCE
#include <errno.h>
#include <sys/random.h>
#include <sys/types.h>
#endif
#include <stdio.h>
#include <stdlib.h>

#include "ngcc_randombytes.h"

int randombytes(unsigned char *x, unsigned long long xlen) {
#if defined(__linux__)
    while (xlen > 0) {
        size_t chunk = xlen > 33554431ull ? (size_t)33554431u : (size_t)xlen;
        ssize_t got = getrandom(x, chunk, 0);
        if (got < 0) {
            if (errno == EINTR) {
                continue;
            }
            abort();
        }
        x += got;
        xlen -= (unsigned long long)got;
    }
    return 0;
#else
    static FILE *ngcc_urandom = NULL;
    if (ngcc_urandom == NULL) {
        ngcc_urandom = fopen("/dev/urandom", "rb");
        if (ngcc_urandom == NULL) {
            abort();
        }
        setvbuf(ngcc_urandom, NULL, _IONBF, 0);
    }
    while (xlen > 0) {
        size_t chunk = xlen > 65536ull ? (size_t)65536u : (size_t)xlen;
        size_t got = fread(x, 1, chunk, ngcc_urandom);
        if (got == 0) {
            abort();
        }
        x += got;
        xlen -= got;
    }
    return 0;
#endif
}

int PQCLEAN_randombytes(unsigned char *output, size_t n) {
    return randombytes(output, (unsigned long long)n);
}
