/*
 * ngcc_buf.h -- heap buffers with canary bytes before and after.
 *
 * Every buffer the driver hands to the implementation is allocated here,
 * sized from the API macros, with NGCC_CANARY_BYTES of a fixed pattern on
 * each side.  A buffer of length 0 still gets a valid, non-NULL pointer (the
 * first byte of its trailing canary: any write to it is caught).
 */
#ifndef NGCC_BUF_H
#define NGCC_BUF_H

#include <stddef.h>

#define NGCC_CANARY_BYTES 32

/* Allocate a zeroed buffer of len bytes, registered under name; exits 2 when out of memory. */
unsigned char *ngcc_buf_new(const char *name, size_t len);

/* Check the canaries of every registered buffer; on damage print the buffer and side, exit 4. */
void ngcc_buf_check_all(const char *when);

/* Free every registered buffer. */
void ngcc_buf_free_all(void);

#endif /* NGCC_BUF_H */
