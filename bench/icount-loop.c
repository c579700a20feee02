/*
 * icount-loop.c -- a plain loop of one PQClean KEM operation, for an instruction count independent of ngcc-perf
 * (bench/instructions-agreement.ts).  Nothing of native/ is linked: its own main, and a trivial deterministic
 * randombytes (a counter fill), so the count holds no DRBG.  Built by one gcc command with the profile's flags:
 *
 *   gcc -std=c99 -O3 -fomit-frame-pointer -DNS=PQCLEAN_MLKEM768_CLEAN_ -I<scheme>/clean -I<PQClean>/common \
 *       bench/icount-loop.c <scheme>/clean/\*.c <PQClean>/common/fips202.c -o icount-loop
 *
 *   icount-loop OP N     OP: keygen, enc, dec; N calls (0: only the set-up)
 *
 * Counted with `valgrind --tool=callgrind --collect-atstart=no --toggle-collect=<NS><API function>`: the inclusive
 * instructions of the N calls (the counter fill inside them, a few instructions per byte, included).  Inputs vary
 * as the instructions step's do, over more of them: key pair c mod 64, ciphertext c mod 64 for dec (ML-KEM's
 * matrix expansion squeezes one more SHAKE128 block for some seeds, ~3,000 instructions: an average over 4 keys
 * differs from another 4 keys' by ~0.5 %, over 64 by much less).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "randombytes.h"

#define ICL_PASTE2(a, b) a##b
#define ICL_PASTE(a, b) ICL_PASTE2(a, b)
#define ICL(name) ICL_PASTE(NS, name)

#define ICL_KEYS 64
#define ICL_POOL 64

static uint64_t icl_counter = 0;

/* The trivial generator: the little-endian bytes of a 64-bit counter, one count per 8 bytes (never repeats: a
 * byte-wise pattern of period 256 would give keygen only 256 / 64 = 4 different seeds). */
int randombytes(uint8_t *output, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) {
        output[i] = (uint8_t)(icl_counter >> (8 * (i % 8)));
        if (i % 8 == 7) {
            icl_counter++;
        }
    }
    icl_counter++;
    return 0;
}

static uint8_t icl_pk[ICL_KEYS][ICL(CRYPTO_PUBLICKEYBYTES)];
static uint8_t icl_sk[ICL_KEYS][ICL(CRYPTO_SECRETKEYBYTES)];
static uint8_t icl_ct[ICL_POOL][ICL(CRYPTO_CIPHERTEXTBYTES)];
static uint8_t icl_ss[ICL_POOL][ICL(CRYPTO_BYTES)];
static uint8_t icl_out_ct[ICL(CRYPTO_CIPHERTEXTBYTES)];
static uint8_t icl_out_ss[ICL(CRYPTO_BYTES)];

int main(int argc, char **argv) {
    unsigned long n, c;
    int k;
    if (argc != 3) {
        fprintf(stderr, "usage: icount-loop keygen|enc|dec N\n");
        return 2;
    }
    n = strtoul(argv[2], NULL, 10);
    for (k = 0; k < ICL_KEYS; k++) {
        if (ICL(crypto_kem_keypair)(icl_pk[k], icl_sk[k]) != 0) {
            return 3;
        }
    }
    for (k = 0; k < ICL_POOL; k++) {
        if (ICL(crypto_kem_enc)(icl_ct[k], icl_ss[k], icl_pk[k % ICL_KEYS]) != 0) {
            return 3;
        }
    }
    for (c = 0; c < n; c++) {
        int rc;
        if (strcmp(argv[1], "keygen") == 0) {
            rc = ICL(crypto_kem_keypair)(icl_pk[c % ICL_KEYS], icl_sk[c % ICL_KEYS]);
        } else if (strcmp(argv[1], "enc") == 0) {
            rc = ICL(crypto_kem_enc)(icl_out_ct, icl_out_ss, icl_pk[c % ICL_KEYS]);
        } else if (strcmp(argv[1], "dec") == 0) {
            rc = ICL(crypto_kem_dec)(icl_out_ss, icl_ct[c % ICL_POOL], icl_sk[(c % ICL_POOL) % ICL_KEYS]);
            if (rc == 0 && memcmp(icl_out_ss, icl_ss[c % ICL_POOL], sizeof icl_out_ss) != 0) {
                rc = 4;
            }
        } else {
            fprintf(stderr, "unknown OP %s\n", argv[1]);
            return 2;
        }
        if (rc != 0) {
            fprintf(stderr, "%s failed at call %lu\n", argv[1], c);
            return 3;
        }
    }
    printf("%lu\n", n);
    return 0;
}
