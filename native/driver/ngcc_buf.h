/*
 * ngcc_buf.h -- heap buffers with canary bytes before and after.
 *
 * Every buffer the driver hands to the implementation is allocated here,
 * sized from the API macros, with NGCC_CANARY_BYTES of a fixed pattern on
 * each side.  A buffer of length 0 still gets a valid, non-NULL pointer (the
 * first byte of its trailing canary: any write to it is caught).
 *
 * A pool (the inputs `sample` rotates over: ciphertexts, key pairs, messages,
 * protocol states) is one allocation of `count` entries of `len` bytes, each
 * entry 16-byte aligned and separated from the next by at least
 * NGCC_CANARY_BYTES of canary, so an overrun of any entry is caught.
 */
#ifndef NGCC_BUF_H
#define NGCC_BUF_H

#include <stddef.h>

#define NGCC_CANARY_BYTES 32

/* Allocate a zeroed buffer of len bytes, registered under name; exits 2 when out of memory. */
unsigned char *ngcc_buf_new(const char *name, size_t len);

typedef struct {
    unsigned char *first; /* entry 0 */
    size_t stride;        /* bytes from one entry to the next */
    size_t count, len;
} ngcc_pool;

/* Allocate a zeroed pool of count (>= 1) entries of len bytes, registered under name; exits 2 when out of memory. */
void ngcc_buf_pool(ngcc_pool *p, const char *name, size_t count, size_t len);

/* Entry i of a pool. */
static inline unsigned char *ngcc_pool_at(const ngcc_pool *p, size_t i) {
    return p->first + i * p->stride;
}

/* Check the canaries of every registered buffer; on damage print the buffer and side, exit 4. */
void ngcc_buf_check_all(const char *when);

/* Free every registered buffer. */
void ngcc_buf_free_all(void);

#endif /* NGCC_BUF_H */
