/* ngcc_buf.c -- canary-guarded buffers and pools (see ngcc_buf.h). */
#include "ngcc_buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ngcc_driver.h"

#define NGCC_MAX_BUFS 96
#define NGCC_POOL_ALIGN 16u

typedef struct {
    const char *name;
    unsigned char *base; /* canary | data (len) | canary [| data | canary ...] */
    size_t len;
    size_t count;  /* 1 for a plain buffer */
    size_t stride; /* data to data; the canary after an entry is stride - len bytes */
} ngcc_buf;

static ngcc_buf ngcc_bufs[NGCC_MAX_BUFS];
static size_t ngcc_nbufs;

/* The canary pattern: not a constant byte, so a memset-style overrun of any value is seen. */
static unsigned char ngcc_canary_byte(size_t i) {
    return (unsigned char)(0xA5u ^ (unsigned)(i * 29u));
}

/* Registers count entries of len bytes stride apart, with NGCC_CANARY_BYTES before the first. */
static unsigned char *ngcc_buf_alloc(const char *name, size_t count, size_t len, size_t stride) {
    ngcc_buf *b;
    size_t i, k, total;
    if (ngcc_nbufs == NGCC_MAX_BUFS) {
        ngcc_die(NGCC_EXIT_USAGE, "internal error: too many buffers");
    }
    if (count == 0 || stride < len || (size_t)-1 / count < stride ||
        count * stride > (size_t)-1 - NGCC_CANARY_BYTES) {
        ngcc_die(NGCC_EXIT_USAGE, "buffer %s: %lu x %lu bytes is too large", name, (unsigned long)count,
                 (unsigned long)len);
    }
    total = NGCC_CANARY_BYTES + count * stride;
    b = &ngcc_bufs[ngcc_nbufs];
    b->base = malloc(total);
    if (b->base == NULL) {
        ngcc_die(NGCC_EXIT_USAGE, "out of memory allocating buffer %s (%lu x %lu bytes)", name, (unsigned long)count,
                 (unsigned long)len);
    }
    b->name = name;
    b->len = len;
    b->count = count;
    b->stride = stride;
    for (i = 0; i < NGCC_CANARY_BYTES; i++) {
        b->base[i] = ngcc_canary_byte(i);
    }
    for (k = 0; k < count; k++) {
        unsigned char *data = b->base + NGCC_CANARY_BYTES + k * stride;
        memset(data, 0, len);
        for (i = 0; i < stride - len; i++) {
            data[len + i] = ngcc_canary_byte(i);
        }
    }
    ngcc_nbufs++;
    return b->base + NGCC_CANARY_BYTES;
}

unsigned char *ngcc_buf_new(const char *name, size_t len) {
    if (len > (size_t)-1 - 2 * NGCC_CANARY_BYTES) {
        ngcc_die(NGCC_EXIT_USAGE, "buffer %s: size %lu too large", name, (unsigned long)len);
    }
    return ngcc_buf_alloc(name, 1, len, len + NGCC_CANARY_BYTES);
}

void ngcc_buf_pool(ngcc_pool *p, const char *name, size_t count, size_t len) {
    size_t stride;
    if (len > (size_t)-1 - 2 * NGCC_CANARY_BYTES - NGCC_POOL_ALIGN) {
        ngcc_die(NGCC_EXIT_USAGE, "pool %s: entries of %lu bytes are too large", name, (unsigned long)len);
    }
    /* The canary after each entry fills the gap up to the next 16-byte boundary. */
    stride = (len + NGCC_CANARY_BYTES + NGCC_POOL_ALIGN - 1) / NGCC_POOL_ALIGN * NGCC_POOL_ALIGN;
    p->first = ngcc_buf_alloc(name, count, len, stride);
    p->stride = stride;
    p->count = count;
    p->len = len;
}

void ngcc_buf_check_all(const char *when) {
    size_t k, e, i;
    for (k = 0; k < ngcc_nbufs; k++) {
        const ngcc_buf *b = &ngcc_bufs[k];
        char entry[32] = "";
        for (i = 0; i < NGCC_CANARY_BYTES; i++) {
            if (b->base[i] != ngcc_canary_byte(i)) {
                if (b->count > 1) {
                    sprintf(entry, "[0]");
                }
                ngcc_die(NGCC_EXIT_CANARY,
                         "canary overwritten before buffer %s%s (%lu bytes): byte %ld changed (seen %s)", b->name,
                         entry, (unsigned long)b->len, (long)i - NGCC_CANARY_BYTES, when);
            }
        }
        for (e = 0; e < b->count; e++) {
            const unsigned char *after = b->base + NGCC_CANARY_BYTES + e * b->stride + b->len;
            for (i = 0; i < b->stride - b->len; i++) {
                if (after[i] != ngcc_canary_byte(i)) {
                    if (b->count > 1) {
                        sprintf(entry, "[%lu]", (unsigned long)e);
                    }
                    ngcc_die(NGCC_EXIT_CANARY,
                             "canary overwritten after buffer %s%s (%lu bytes): byte %lu changed (seen %s)", b->name,
                             entry, (unsigned long)b->len, (unsigned long)(b->len + i), when);
                }
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
