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
/* -DNGCC_HW_KAT=1: the KAT DRBG (native/katgen/ngcc_rng.c) is linked in, inputs from the KAT seeds. */
#ifndef NGCC_HW_KAT
#define NGCC_HW_KAT 0
#endif
#if NGCC_HW_KAT
#include "../katgen/rng.h" /* by path: a submission may ship an rng.h of its own on the include path */
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

/* The painted stack: mapped once, then reused; before each call only the words the previous call wrote (from the
 * deepest word it changed up to the top) are painted again, the rest still holds the pattern. */
static unsigned char *ngcc_hw_map;
static uint64_t *ngcc_hw_stack;
static size_t ngcc_hw_dirty; /* words [ngcc_hw_dirty, words) need painting */

size_t ngcc_hw_stack_bytes(void (*fn)(void)) {
    long page = sysconf(_SC_PAGESIZE);
    size_t guard = page > 0 ? (size_t)page : 4096, words = NGCC_HW_STACK_BYTES / 8, i;
    uint64_t *stack;
    if (ngcc_hw_map == NULL) {
        unsigned char *map =
            mmap(NULL, guard + NGCC_HW_STACK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (map == MAP_FAILED) {
            ngcc_die(NGCC_EXIT_USAGE, "memory: cannot map a stack of %lu bytes", (unsigned long)NGCC_HW_STACK_BYTES);
        }
        if (mprotect(map, guard, PROT_NONE) != 0) {
            ngcc_die(NGCC_EXIT_USAGE, "memory: cannot protect the stack's guard page");
        }
        ngcc_hw_map = map;
        ngcc_hw_stack = (uint64_t *)(void *)(map + guard);
        ngcc_hw_dirty = 0;
    }
    stack = ngcc_hw_stack;
    for (i = ngcc_hw_dirty; i < words; i++) {
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
    ngcc_hw_dirty = i;
    return (words - i) * 8;
}

/* ---------------------------------------------------------------- KAT-seed inputs */

#if NGCC_HW_KAT
/* The KAT generator's outer loop (native/katgen/katgen.c): the CTR_DRBG seeded with 0x00..0x2F yields count i's
 * 48-byte seed, then (signatures) count i's message of 33 (i + 1) bytes, for i = 0, 1, ... */
static unsigned char ngcc_hw_seeds[NGCC_HW_KAT_INPUTS][48];
static int ngcc_hw_seeded;

static void ngcc_hw_kat_seeds(void) {
    unsigned char entropy[48];
#if defined(NGCC_CATEGORY_SIGN)
    static unsigned char msg[33 * NGCC_HW_KAT_INPUTS];
#endif
    unsigned i;
    for (i = 0; i < 48; i++) {
        entropy[i] = (unsigned char)i;
    }
    randombytes_init(entropy, NULL, 256);
    for (i = 0; i < NGCC_HW_KAT_INPUTS; i++) {
        randombytes(ngcc_hw_seeds[i], 48);
#if defined(NGCC_CATEGORY_SIGN)
        randombytes(msg, 33ull * (i + 1));
#endif
    }
    ngcc_hw_seeded = 1;
}

int ngcc_hw_kat_inputs(void) {
    return NGCC_HW_KAT_INPUTS;
}

void ngcc_hw_kat_seed(unsigned index) {
    if (!ngcc_hw_seeded) {
        ngcc_hw_kat_seeds();
    }
    if (index >= NGCC_HW_KAT_INPUTS) {
        ngcc_die(NGCC_EXIT_USAGE, "memory: no KAT count %u (there are %u)", index, (unsigned)NGCC_HW_KAT_INPUTS);
    }
    ngcc_rng_select(NGCC_RNG_NIST);
    randombytes_init(ngcc_hw_seeds[index], NULL, 256);
}
#else
int ngcc_hw_kat_inputs(void) {
    return 0;
}

void ngcc_hw_kat_seed(unsigned index) {
    (void)index;
    ngcc_die(NGCC_EXIT_USAGE, "memory: this build has no KAT DRBG (only the memory executable has)");
}
#endif

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
