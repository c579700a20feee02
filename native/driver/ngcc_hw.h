/*
 * ngcc_hw.h -- stack and heap high-water of one operation (the memory command).
 *
 * Stack: the operation runs on a stack of its own (NGCC_HW_STACK_BYTES, mmap'ed, a PROT_NONE guard page below
 * it), entered with makecontext / swapcontext; every 8-byte word of it is painted with NGCC_HW_PAINT before the
 * switch, and after it the lowest word that no longer holds the pattern is the deepest the call wrote.  The same
 * switch with a no-op call gives the harness's own baseline (the entry frame, the call), which is subtracted.
 *
 * Heap: the memory executable's copies of the instance's objects have their references to malloc, calloc,
 * realloc, free, posix_memalign and aligned_alloc renamed (objcopy --redefine-sym) to ngcc_heap_malloc and the
 * others below; these count the live bytes (as requested), their peak and the number of allocations while
 * counting is on (during the operation only), then call the C library.  ngcc_hw.c compiled with
 * -DNGCC_HEAP_INTERPOSED=1 says the renaming was done (ngcc_heap_interposed()); without it the driver reports no
 * heap figures.
 *
 * Inputs: ngcc_hw.c compiled with -DNGCC_HW_KAT=1 (and -I native/katgen, the KAT DRBG native/katgen/ngcc_rng.c
 * linked in place of the system randomness: the memory executable) reseeds randombytes with the seed of KAT count
 * i (ngcc_hw_kat_seed), so that the operation's inputs made after it are those of the KAT file's count i; the
 * memory command runs the operation once per input and reports every input's figures.  The painted stack is
 * mapped once and only the part a call wrote is painted again before the next.
 */
#ifndef NGCC_HW_H
#define NGCC_HW_H

#include <stddef.h>

#define NGCC_HW_STACK_BYTES ((size_t)8 << 20)
#define NGCC_HW_PAINT 0x6e6763635f73746bULL /* "ngcc_stk" */

/* 1 when the stack figure can be had (not under AddressSanitizer, which does not support swapcontext). */
int ngcc_hw_stack_supported(void);

/* Bytes of the painted stack written by fn (from the top to the deepest overwritten word, a multiple of 8). */
size_t ngcc_hw_stack_bytes(void (*fn)(void));

/* The KAT counts the memory command can use (100, the KAT generator's), 0 in a build without the KAT DRBG. */
#define NGCC_HW_KAT_INPUTS 100u
int ngcc_hw_kat_inputs(void);

/* Seed randombytes with KAT count index's 48-byte seed (NIST AES-256 CTR_DRBG, as native/katgen does). */
void ngcc_hw_kat_seed(unsigned index);

/* 1 when the instance's allocation calls reach the counters below (the memory executable), else 0. */
int ngcc_heap_interposed(void);

/* Counting on (the counters reset) / off. */
void ngcc_heap_start(void);
void ngcc_heap_stop(void);

/* While counting was on: peak live bytes, allocations made; 1 when the table of live blocks overflowed. */
size_t ngcc_heap_peak_bytes(void);
unsigned long long ngcc_heap_allocations(void);
int ngcc_heap_overflowed(void);

void *ngcc_heap_malloc(size_t n);
void *ngcc_heap_calloc(size_t count, size_t n);
void *ngcc_heap_realloc(void *p, size_t n);
void ngcc_heap_free(void *p);
int ngcc_heap_posix_memalign(void **out, size_t alignment, size_t n);
void *ngcc_heap_aligned_alloc(size_t alignment, size_t n);

#endif /* NGCC_HW_H */
