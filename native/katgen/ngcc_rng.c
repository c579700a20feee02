/*
 * ngcc_rng.c -- !!! DETERMINISTIC, NOT RANDOM !!!
 *
 * AES-256 CTR_DRBG exactly as in NIST's PQC rng.c (see
 * /work/shared/reference/kat-format.md): the generator behind every NIST
 * known-answer-test file.  Links in place of the ICCS DRNG stand-in
 * (fixtures/iccs/drng.c) for KAT builds only.
 */
#include <string.h>

#include "ngcc_aes256.h"
#include "rng.h"

static ngcc_drbg_state ngcc_drbg;

static void ngcc_drbg_increment_v(unsigned char v[16]) {
    int j;
    for (j = 15; j >= 0; j--) {
        if (v[j] == 0xff) {
            v[j] = 0x00;
        } else {
            v[j]++;
            break;
        }
    }
}

static void ngcc_drbg_update(const unsigned char *provided_data, unsigned char key[32], unsigned char v[16]) {
    unsigned char temp[48];
    ngcc_aes256_ctx aes;
    int i;
    ngcc_aes256_init(&aes, key);
    for (i = 0; i < 3; i++) {
        ngcc_drbg_increment_v(v);
        ngcc_aes256_encrypt(&aes, v, temp + 16 * i);
    }
    if (provided_data != NULL) {
        for (i = 0; i < 48; i++) {
            temp[i] ^= provided_data[i];
        }
    }
    memcpy(key, temp, 32);
    memcpy(v, temp + 32, 16);
}

void randombytes_init(unsigned char *entropy_input, unsigned char *personalization_string, int security_strength) {
    unsigned char seed_material[48];
    int i;
    (void)security_strength;
    memcpy(seed_material, entropy_input, 48);
    if (personalization_string != NULL) {
        for (i = 0; i < 48; i++) {
            seed_material[i] ^= personalization_string[i];
        }
    }
    memset(ngcc_drbg.key, 0x00, 32);
    memset(ngcc_drbg.v, 0x00, 16);
    ngcc_drbg_update(seed_material, ngcc_drbg.key, ngcc_drbg.v);
    ngcc_drbg.reseed_counter = 1;
}

int randombytes(unsigned char *x, unsigned long long xlen) {
    unsigned char block[16];
    ngcc_aes256_ctx aes;
    ngcc_aes256_init(&aes, ngcc_drbg.key);
    while (xlen > 0) {
        ngcc_drbg_increment_v(ngcc_drbg.v);
        ngcc_aes256_encrypt(&aes, ngcc_drbg.v, block);
        if (xlen > 15) {
            memcpy(x, block, 16);
            x += 16;
            xlen -= 16;
        } else {
            memcpy(x, block, (size_t)xlen);
            xlen = 0;
        }
    }
    ngcc_drbg_update(NULL, ngcc_drbg.key, ngcc_drbg.v);
    ngcc_drbg.reseed_counter++;
    return RNG_SUCCESS;
}

int PQCLEAN_randombytes(uint8_t *output, size_t n) {
    return randombytes(output, (unsigned long long)n);
}

void ngcc_drbg_save(ngcc_drbg_state *out) {
    *out = ngcc_drbg;
}

void ngcc_drbg_restore(const ngcc_drbg_state *in) {
    ngcc_drbg = *in;
}
