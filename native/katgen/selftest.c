/*
 * selftest.c -- checks of the KAT generator's AES-256 and CTR_DRBG.
 *   AES-256: FIPS 197 Appendix C.3.
 *   DRBG: seeded with 0x00..0x2F, the first 48 bytes are the first seed of
 *   every NIST KAT file (ML-KEM-512 entry 0, kat-format.md).
 *   HQC RNG: seeded the same way, the first 48 bytes are HQC-128's entry-0
 *   seed (SHAKE256(0x00..0x2F || 0x01), kat-format.md).
 * Prints "ok" and exits 0, or names the failure and exits 1.
 */
#include <stdio.h>
#include <string.h>

#include "ngcc_aes256.h"
#include "rng.h"

int main(void) {
    static const unsigned char aes_ct[16] = {0x8e, 0xa2, 0xb7, 0xca, 0x51, 0x67, 0x45, 0xbf,
                                             0xea, 0xfc, 0x49, 0x90, 0x4b, 0x49, 0x60, 0x89};
    static const unsigned char seed0[48] = {
        0x06, 0x15, 0x50, 0x23, 0x4D, 0x15, 0x8C, 0x5E, 0xC9, 0x55, 0x95, 0xFE, 0x04, 0xEF, 0x7A, 0x25,
        0x76, 0x7F, 0x2E, 0x24, 0xCC, 0x2B, 0xC4, 0x79, 0xD0, 0x9D, 0x86, 0xDC, 0x9A, 0xBC, 0xFD, 0xE7,
        0x05, 0x6A, 0x8C, 0x26, 0x6F, 0x9E, 0xF9, 0x7E, 0xD0, 0x85, 0x41, 0xDB, 0xD2, 0xE1, 0xFF, 0xA1};
    static const unsigned char hqc_seed0[48] = {
        0x42, 0xC6, 0x67, 0xA1, 0x86, 0x39, 0x0F, 0x26, 0xC8, 0xF0, 0x24, 0xD3, 0x1D, 0x5F, 0xE3, 0xD2,
        0x01, 0x45, 0xBC, 0x2F, 0xCC, 0xF2, 0x6C, 0x86, 0x5E, 0x20, 0xDF, 0x76, 0x26, 0xCE, 0xF0, 0x9E,
        0x4D, 0x9E, 0xAD, 0xD2, 0x63, 0xD9, 0x5E, 0xDE, 0x93, 0x4A, 0x74, 0xB3, 0x72, 0x1E, 0xAA, 0xB0};
    unsigned char key[32], pt[16], ct[16], entropy[48], out[48];
    ngcc_aes256_ctx aes;
    int i, ok = 1;

    for (i = 0; i < 32; i++) {
        key[i] = (unsigned char)i;
    }
    for (i = 0; i < 16; i++) {
        pt[i] = (unsigned char)(i * 0x11);
    }
    ngcc_aes256_init(&aes, key);
    ngcc_aes256_encrypt(&aes, pt, ct);
    if (memcmp(ct, aes_ct, 16) != 0) {
        printf("FAIL AES-256 FIPS 197 C.3\n");
        ok = 0;
    }
    for (i = 0; i < 48; i++) {
        entropy[i] = (unsigned char)i;
    }
    randombytes_init(entropy, NULL, 256);
    randombytes(out, 48);
    if (memcmp(out, seed0, 48) != 0) {
        printf("FAIL DRBG first seed\n");
        ok = 0;
    }
    ngcc_rng_select(NGCC_RNG_HQC);
    randombytes_init(entropy, NULL, 256);
    randombytes(out, 20); /* two calls continue one stream */
    randombytes(out + 20, 28);
    if (memcmp(out, hqc_seed0, 48) != 0) {
        printf("FAIL HQC KAT RNG first seed\n");
        ok = 0;
    }
    ngcc_rng_select(NGCC_RNG_NIST);
    if (ok) {
        printf("ok\n");
    }
    return ok ? 0 : 1;
}
