/* ngcc_buf.c -- canary-guarded buffers (see ngcc_buf.h). */
#include "ngcc_buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ngcc_driver.h"

#define NGCC_MAX_BUFS 32

typedef struct {
    const char *name;
    unsigned char *base; /* canary | data (len) | canary */
    size_t len;
} ngcc_buf;

static ngcc_buf ngcc_bufs[NGCC_MAX_BUFS];
static size_t ngcc_nbufs;

/* The canary pattern: not a constant byte, so a memset-style overrun of any value is seen. */
static unsigned char ngcc_canary_byte(size_t i) {
    return (unsigned char)(0xA5u ^ (unsigned)(i * 29u));
}

unsigned char *ngcc_buf_new(const char *name, size_t len) {
    ngcc_buf *b;
    size_t i;
    if (ngcc_nbufs == NGCC_MAX_BUFS) {
        ngcc_die(NGCC_EXIT_USAGE, "internal error: too many buffers");
    }
    if (len > (size_t)-1 - 2 * NGCC_CANARY_BYTES) {
        ngcc_die(NGCC_EXIT_USAGE, "buffer %s: size %lu too large", name, (unsigned long)len);
    }
    b = &ngcc_bufs[ngcc_nbufs];
    b->base = malloc(len + 2 * NGCC_CANARY_BYTES);
    if (b->base == NULL) {
        ngcc_die(NGCC_EXIT_USAGE, "out of memory allocating buffer %s (%lu bytes)", name, (unsigned long)len);
    }
    b->name = name;
    b->len = len;
    for (i = 0; i < NGCC_CANARY_BYTES; i++) {
        b->base[i] = ngcc_canary_byte(i);
        b->base[NGCC_CANARY_BYTES + len + i] = ngcc_canary_byte(i);
    }
    memset(b->base + NGCC_CANARY_BYTES, 0, len);
    ngcc_nbufs++;
    return b->base + NGCC_CANARY_BYTES;
}

void ngcc_buf_check_all(const char *when) {
    size_t k, i;
    for (k = 0; k < ngcc_nbufs; k++) {
        const ngcc_buf *b = &ngcc_bufs[k];
        const unsigned char *after = b->base + NGCC_CANARY_BYTES + b->len;
        for (i = 0; i < NGCC_CANARY_BYTES; i++) {
            if (b->base[i] != ngcc_canary_byte(i)) {
                ngcc_die(NGCC_EXIT_CANARY,
                         "canary overwritten before buffer %s (%lu bytes): byte %ld changed (seen %s)", b->name,
                         (unsigned long)b->len, (long)i - NGCC_CANARY_BYTES, when);
            }
        }
        for (i = 0; i < NGCC_CANARY_BYTES; i++) {
            if (after[i] != ngcc_canary_byte(i)) {
                ngcc_die(NGCC_EXIT_CANARY,
                         "canary overwritten after buffer %s (%lu bytes): byte %lu changed (seen %s)", b->name,
                         (unsigned long)b->len, (unsigned long)(b->len + i), when);
            }
        }
    }
}

void ngcc_buf_free_all(void) {
    size_t k;
    for (k = 0; k < ngcc_nbufs; k++) {
        free(ngcc_bufs[k].base);
        ngcc_bufs[k].base = NULL;
    }
    ngcc_nbufs = 0;
}
