/* ngcc_hw.c -- stack and heap high-water of one operation (see ngcc_hw.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include "ngcc_hw.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "ngcc_driver.h"

#ifndef NGCC_HEAP_INTERPOSED
#define NGCC_HEAP_INTERPOSED 0
#endif

/* AddressSanitizer does not support swapcontext (it warns on stderr at the first switch): no stack figure there. */
#if defined(__SANITIZE_ADDRESS__)
#define NGCC_HW_STACK 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NGCC_HW_STACK 0
#endif
#endif
#ifndef NGCC_HW_STACK
#define NGCC_HW_STACK 1
#endif

int ngcc_hw_stack_supported(void) {
    return NGCC_HW_STACK;
}

static ucontext_t ngcc_hw_caller, ngcc_hw_callee;
static void (*ngcc_hw_fn)(void);

static void ngcc_hw_entry(void) {
    ngcc_hw_fn();
}

size_t ngcc_hw_stack_bytes(void (*fn)(void)) {
    long page = sysconf(_SC_PAGESIZE);
    size_t guard = page > 0 ? (size_t)page : 4096, words = NGCC_HW_STACK_BYTES / 8, i;
    unsigned char *map;
    uint64_t *stack;
    map = mmap(NULL, guard + NGCC_HW_STACK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) {
        ngcc_die(NGCC_EXIT_USAGE, "memory: cannot map a stack of %lu bytes", (unsigned long)NGCC_HW_STACK_BYTES);
    }
    if (mprotect(map, guard, PROT_NONE) != 0) {
        ngcc_die(NGCC_EXIT_USAGE, "memory: cannot protect the stack's guard page");
    }
    stack = (uint64_t *)(void *)(map + guard);
    for (i = 0; i < words; i++) {
        stack[i] = NGCC_HW_PAINT;
    }
    if (getcontext(&ngcc_hw_callee) != 0) {
        ngcc_die(NGCC_EXIT_USAGE, "memory: getcontext failed");
    }
    ngcc_hw_callee.uc_stack.ss_sp = stack;
    ngcc_hw_callee.uc_stack.ss_size = NGCC_HW_STACK_BYTES;
    ngcc_hw_callee.uc_link = &ngcc_hw_caller;
    ngcc_hw_fn = fn;
    makecontext(&ngcc_hw_callee, ngcc_hw_entry, 0);
    if (swapcontext(&ngcc_hw_caller, &ngcc_hw_callee) != 0) {
        ngcc_die(NGCC_EXIT_USAGE, "memory: swapcontext failed");
    }
    for (i = 0; i < words && stack[i] == NGCC_HW_PAINT; i++) {
    }
    munmap(map, guard + NGCC_HW_STACK_BYTES);
    return (words - i) * 8;
}

/* Live blocks allocated while counting: open addressing on the pointer, size 0 marks a deleted entry. */
#define NGCC_HEAP_SLOTS 65536u
typedef struct {
    void *p;
    size_t n;
} ngcc_heap_block;
static ngcc_heap_block ngcc_heap_table[NGCC_HEAP_SLOTS];
static int ngcc_heap_on, ngcc_heap_full;
static size_t ngcc_heap_live, ngcc_heap_peak, ngcc_heap_used;
static unsigned long long ngcc_heap_count;

int ngcc_heap_interposed(void) {
    return NGCC_HEAP_INTERPOSED;
}

void ngcc_heap_start(void) {
    memset(ngcc_heap_table, 0, sizeof ngcc_heap_table);
    ngcc_heap_live = ngcc_heap_peak = ngcc_heap_used = 0;
    ngcc_heap_count = 0;
    ngcc_heap_full = 0;
    ngcc_heap_on = 1;
}

void ngcc_heap_stop(void) {
    ngcc_heap_on = 0;
}

size_t ngcc_heap_peak_bytes(void) {
    return ngcc_heap_peak;
}

unsigned long long ngcc_heap_allocations(void) {
    return ngcc_heap_count;
}

int ngcc_heap_overflowed(void) {
    return ngcc_heap_full;
}

static size_t ngcc_heap_slot(const void *p) {
    uintptr_t h = (uintptr_t)p;
    h ^= h >> 17;
    h *= (uintptr_t)0x9e3779b97f4a7c15ULL;
    return (size_t)(h >> 7) % NGCC_HEAP_SLOTS;
}

static void ngcc_heap_restore(void *p, size_t n);

static void ngcc_heap_add(void *p, size_t n) {
    if (!ngcc_heap_on || p == NULL) {
        return;
    }
    ngcc_heap_count++;
    ngcc_heap_live += n;
    if (ngcc_heap_live > ngcc_heap_peak) {
        ngcc_heap_peak = ngcc_heap_live;
    }
    ngcc_heap_restore(p, n);
}

/* Enter a live block in the table (its bytes already counted). */
static void ngcc_heap_restore(void *p, size_t n) {
    size_t i, k;
    if (ngcc_heap_used >= NGCC_HEAP_SLOTS / 2) {
        ngcc_heap_full = 1;
        return;
    }
    for (k = 0, i = ngcc_heap_slot(p); k < NGCC_HEAP_SLOTS; k++, i = (i + 1) % NGCC_HEAP_SLOTS) {
        if (ngcc_heap_table[i].p == NULL || ngcc_heap_table[i].p == p) {
            if (ngcc_heap_table[i].p == NULL) {
                ngcc_heap_used++;
            }
            ngcc_heap_table[i].p = p;
            ngcc_heap_table[i].n = n;
            return;
        }
    }
}

/* A block freed (or moved by realloc): its bytes leave the live count if it was allocated while counting. */
static int ngcc_heap_remove(const void *p, size_t *n) {
    size_t i, k;
    if (!ngcc_heap_on || p == NULL) {
        return 0;
    }
    for (k = 0, i = ngcc_heap_slot(p); k < NGCC_HEAP_SLOTS && ngcc_heap_table[i].p != NULL;
         k++, i = (i + 1) % NGCC_HEAP_SLOTS) {
        if (ngcc_heap_table[i].p == p) {
            ngcc_heap_live -= ngcc_heap_table[i].n;
            *n = ngcc_heap_table[i].n;
            ngcc_heap_table[i].n = 0;
            ngcc_heap_table[i].p = (void *)(uintptr_t)1; /* deleted: keeps the probe chain */
            return 1;
        }
    }
    return 0;
}

void *ngcc_heap_malloc(size_t n) {
    void *p = malloc(n);
    ngcc_heap_add(p, n);
    return p;
}

void *ngcc_heap_calloc(size_t count, size_t n) {
    void *p = calloc(count, n);
    ngcc_heap_add(p, count * n);
    return p;
}

void *ngcc_heap_realloc(void *p, size_t n) {
    /* The old block leaves the count before the call (its address is not to be used after it). */
    size_t was = 0;
    int counted = ngcc_heap_remove(p, &was);
    void *q = realloc(p, n);
    if (q != NULL) {
        ngcc_heap_add(q, n);
    } else if (n != 0 && counted) {
        ngcc_heap_live += was; /* the call failed: the old block is still there (not a new allocation) */
        ngcc_heap_restore(p, was);
    }
    return q;
}

void ngcc_heap_free(void *p) {
    size_t was;
    ngcc_heap_remove(p, &was);
    free(p);
}

int ngcc_heap_posix_memalign(void **out, size_t alignment, size_t n) {
    int rc = posix_memalign(out, alignment, n);
    if (rc == 0) {
        ngcc_heap_add(*out, n);
    }
    return rc;
}

void *ngcc_heap_aligned_alloc(size_t alignment, size_t n) {
    void *p = aligned_alloc(alignment, n);
    ngcc_heap_add(p, n);
    return p;
}
