/*
 * ngcc_aes256.h -- AES-256 block encryption (FIPS 197), portable C99, for the
 * KAT DRBG only.  Byte-oriented and table-based: NOT constant-time, which is
 * fine for generating public test vectors and nothing else.
 */
#ifndef NGCC_AES256_H
#define NGCC_AES256_H

#include <stdint.h>

typedef struct {
    uint8_t rk[240]; /* 15 round keys of 16 bytes */
} ngcc_aes256_ctx;

void ngcc_aes256_init(ngcc_aes256_ctx *ctx, const uint8_t key[32]);
void ngcc_aes256_encrypt(const ngcc_aes256_ctx *ctx, const uint8_t in[16], uint8_t out[16]);

#endif
