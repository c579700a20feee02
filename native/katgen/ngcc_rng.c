/*
 * ngcc_rng.c -- !!! DETERMINISTIC, NOT RANDOM !!!
 *
 * The generators behind known-answer-test files (docs/kat.md):
 *   - NGCC_RNG_NIST: AES-256 CTR_DRBG exactly as in NIST's PQC rng.c, the
 *     generator of every NIST KAT file (AES from ngcc_aes256.c);
 *   - NGCC_RNG_HQC: HQC's KAT RNG (PQClean nistkat-rng: hqc): a SHAKE256
 *     stream over entropy (48 bytes), the personalization (48 bytes, if any)
 *     and one domain byte 0x01; randombytes squeezes on from where the last
 *     call stopped.  Keccak-f[1600] and SHAKE256 are implemented below.
 * Links in place of the ICCS DRNG stand-in (fixtures/iccs/drng.c) and of
 * PQClean's common/randombytes.c in KAT builds only.
 */
#include <string.h>

#include "ngcc_aes256.h"
#include "rng.h"

static ngcc_drbg_state ngcc_drbg;
static ngcc_rng_kind ngcc_next_kind = NGCC_RNG_NIST;

/* ------------------------------------------------------------ AES-256 CTR_DRBG */

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

static void ngcc_nist_init(const unsigned char *entropy_input, const unsigned char *personalization_string) {
    unsigned char seed_material[48];
    int i;
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

static void ngcc_nist_bytes(unsigned char *x, unsigned long long xlen) {
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
}

/* ------------------------------------------------------------ Keccak / SHAKE256 */

#define NGCC_SHAKE256_RATE 136

static const uint64_t ngcc_keccak_rc[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL,
    0x000000000000808bULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008aULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL};

/* Rotation offsets r[x + 5y] of the rho step. */
static const unsigned ngcc_keccak_rho[25] = {0,  1,  62, 28, 27, 36, 44, 6,  55, 20, 3,  10, 43,
                                             25, 39, 41, 45, 15, 21, 8,  18, 2,  61, 56, 14};

static uint64_t ngcc_rol64(uint64_t v, unsigned n) {
    return n == 0 ? v : (uint64_t)((v << n) | (v >> (64 - n)));
}

/* Keccak-f[1600] (FIPS 202), lane a[x + 5y]. */
static void ngcc_keccak_f1600(uint64_t a[25]) {
    uint64_t b[25], c[5], d[5];
    unsigned round, x, y;
    for (round = 0; round < 24; round++) {
        for (x = 0; x < 5; x++) {
            c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
        }
        for (x = 0; x < 5; x++) {
            d[x] = c[(x + 4) % 5] ^ ngcc_rol64(c[(x + 1) % 5], 1);
        }
        for (y = 0; y < 5; y++) {
            for (x = 0; x < 5; x++) {
                a[x + 5 * y] ^= d[x];
            }
        }
        /* rho and pi: B[y, 2x + 3y] = rot(A[x, y], r[x, y]) */
        for (y = 0; y < 5; y++) {
            for (x = 0; x < 5; x++) {
                b[y + 5 * ((2 * x + 3 * y) % 5)] = ngcc_rol64(a[x + 5 * y], ngcc_keccak_rho[x + 5 * y]);
            }
        }
        /* chi */
        for (y = 0; y < 5; y++) {
            for (x = 0; x < 5; x++) {
                a[x + 5 * y] = b[x + 5 * y] ^ ((~b[(x + 1) % 5 + 5 * y]) & b[(x + 2) % 5 + 5 * y]);
            }
        }
        a[0] ^= ngcc_keccak_rc[round];
    }
}

static void ngcc_shake_xor_byte(uint64_t s[25], unsigned pos, unsigned char byte) {
    s[pos / 8] ^= (uint64_t)byte << (8 * (pos % 8));
}

static void ngcc_shake256_absorb(const unsigned char *in, size_t inlen) {
    while (inlen > 0) {
        if (ngcc_drbg.shake_pos == NGCC_SHAKE256_RATE) {
            ngcc_keccak_f1600(ngcc_drbg.shake);
            ngcc_drbg.shake_pos = 0;
        }
        ngcc_shake_xor_byte(ngcc_drbg.shake, ngcc_drbg.shake_pos++, *in++);
        inlen--;
    }
}

static void ngcc_shake256_finalize(void) {
    /* pos < rate here: absorb permutes only before writing the next byte */
    ngcc_shake_xor_byte(ngcc_drbg.shake, ngcc_drbg.shake_pos, 0x1f);
    ngcc_shake_xor_byte(ngcc_drbg.shake, NGCC_SHAKE256_RATE - 1, 0x80);
    ngcc_keccak_f1600(ngcc_drbg.shake);
    ngcc_drbg.shake_pos = 0;
}

static void ngcc_shake256_squeeze(unsigned char *out, unsigned long long outlen) {
    while (outlen > 0) {
        if (ngcc_drbg.shake_pos == NGCC_SHAKE256_RATE) {
            ngcc_keccak_f1600(ngcc_drbg.shake);
            ngcc_drbg.shake_pos = 0;
        }
        *out++ = (unsigned char)(ngcc_drbg.shake[ngcc_drbg.shake_pos / 8] >> (8 * (ngcc_drbg.shake_pos % 8)));
        ngcc_drbg.shake_pos++;
        outlen--;
    }
}

static void ngcc_hqc_init(const unsigned char *entropy_input, const unsigned char *personalization_string) {
    static const unsigned char domain = 0x01;
    memset(ngcc_drbg.shake, 0, sizeof ngcc_drbg.shake);
    ngcc_drbg.shake_pos = 0;
    ngcc_shake256_absorb(entropy_input, 48);
    if (personalization_string != NULL) {
        ngcc_shake256_absorb(personalization_string, 48);
    }
    ngcc_shake256_absorb(&domain, 1);
    ngcc_shake256_finalize();
}

/* ------------------------------------------------------------ the NIST names */

void ngcc_rng_select(ngcc_rng_kind kind) {
    ngcc_next_kind = kind;
}

ngcc_rng_kind ngcc_rng_selected(void) {
    return ngcc_next_kind;
}

void randombytes_init(unsigned char *entropy_input, unsigned char *personalization_string, int security_strength) {
    (void)security_strength;
    ngcc_drbg.kind = ngcc_next_kind;
    if (ngcc_drbg.kind == NGCC_RNG_HQC) {
        ngcc_hqc_init(entropy_input, personalization_string);
    } else {
        ngcc_nist_init(entropy_input, personalization_string);
    }
}

int randombytes(unsigned char *x, unsigned long long xlen) {
    if (ngcc_drbg.kind == NGCC_RNG_HQC) {
        ngcc_shake256_squeeze(x, xlen);
    } else {
        ngcc_nist_bytes(x, xlen);
    }
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
