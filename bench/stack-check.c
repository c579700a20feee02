/*
 * stack-check.c -- independent stack, heap and instruction-count checks of one PQClean KEM call, for checking
 * the memory and instructions steps (packages/tests/src/memory-highwater.test.ts, bench/memory-check.ts).  Not
 * linked to the driver and none of its techniques:
 *
 *   stack-check OP          the call runs on a pthread whose stack (pthread_attr_setstack, 4 MiB) is painted byte
 *                           by byte with 0xA5; the depth is the lowest byte no longer 0xA5, minus the same thread
 *                           with a no-op (glibc keeps the thread's descriptor and TLS at the top of the given stack;
 *                           the baseline takes them out).  Prints one number of bytes.
 *   stack-check --heap OP   built with -DHEAP_WRAP and the linker's -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,
 *                           --wrap=free (the linker redirects the scheme's calls; no LD_PRELOAD, no objcopy): each
 *                           block carries its requested size in a 16-byte header of its own; prints the peak of
 *                           live bytes requested during the call and the number of allocations, "PEAK ALLOCS".
 *   stack-check --loop N OP N calls of OP on the main stack after the setup and nothing else (for valgrind:
 *                           callgrind --toggle-collect=<the API function> gives the instructions of the N calls,
 *                           memcheck's "total heap usage" with N = 1 minus N = 0 the allocations of one call).
 *
 * Randomness: with -DKAT_RNG (and native/katgen/ngcc_rng.c, ngcc_aes256.c in place of PQClean's randombytes.c)
 * the KAT AES-256 CTR_DRBG seeded with 0x00..0x2F, so the rejection paths repeat from run to run.  OP: keygen,
 * enc, dec.
 *
 *   gcc -std=c99 -O3 -fomit-frame-pointer -DNS=PQCLEAN_MLKEM768_CLEAN_ -I<scheme>/clean -I<PQClean>/common \
 *       bench/stack-check.c <scheme>/clean/\*.c <PQClean>/common/fips202.c <PQClean>/common/randombytes.c \
 *       -o stack-check -lpthread
 *
 * For --heap add -DHEAP_WRAP and -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free; for the KAT DRBG put
 * -DKAT_RNG -I native/katgen and ngcc_rng.o ngcc_aes256.o (compiled at -O2, as the instructions step's counter
 * compiles them) in place of randombytes.c.  bench/memory-check.ts builds all three programs.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"

#ifdef KAT_RNG
#include "rng.h"
#endif

#define PASTE2(a, b) a##b
#define PASTE(a, b) PASTE2(a, b)
#define F(name) PASTE(NS, name)

#define STACK_BYTES ((size_t)4 << 20)

static unsigned char pk[F(CRYPTO_PUBLICKEYBYTES)], sk[F(CRYPTO_SECRETKEYBYTES)], ct[F(CRYPTO_CIPHERTEXTBYTES)];
static unsigned char ss[F(CRYPTO_BYTES)];
static int op;

#ifdef HEAP_WRAP
/* The linker's --wrap: the scheme's malloc is __wrap_malloc, the C library's is __real_malloc. */
void *__real_malloc(size_t n);
void *__real_calloc(size_t count, size_t n);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t count, size_t n);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);

#define HEADER 16 /* keeps the block 16-byte aligned */
static int counting;
static size_t live, peak;
static unsigned long allocations;

static void *track(unsigned char *block, size_t n) {
    if (block == NULL) {
        return NULL;
    }
    memcpy(block, &n, sizeof n);
    block[sizeof n] = (unsigned char)counting;
    if (counting) {
        allocations++;
        live += n;
        if (live > peak) {
            peak = live;
        }
    }
    return block + HEADER;
}

static unsigned char *untrack(void *p) {
    unsigned char *block = (unsigned char *)p - HEADER;
    size_t n;
    memcpy(&n, block, sizeof n);
    if (block[sizeof n] && counting) {
        live -= n;
    }
    return block;
}

void *__wrap_malloc(size_t n) {
    return track(__real_malloc(n + HEADER), n);
}

void *__wrap_calloc(size_t count, size_t n) {
    unsigned char *block;
    if (n != 0 && count > ((size_t)-1 - HEADER) / n) {
        return NULL;
    }
    block = __real_calloc(1, count * n + HEADER);
    return track(block, count * n);
}

void *__wrap_realloc(void *p, size_t n) {
    unsigned char *block;
    if (p == NULL) {
        return __wrap_malloc(n);
    }
    block = untrack(p);
    return track(__real_realloc(block, n + HEADER), n);
}

void __wrap_free(void *p) {
    if (p != NULL) {
        __real_free(untrack(p));
    }
}
#endif

static void call(int which) {
    if (which == 1) {
        F(crypto_kem_keypair)(pk, sk);
    } else if (which == 2) {
        F(crypto_kem_enc)(ct, ss, pk);
    } else if (which == 3) {
        F(crypto_kem_dec)(ss, ct, sk);
    }
}

static void *body(void *arg) {
    (void)arg;
    call(op);
    return NULL;
}

static size_t depth(int which) {
    unsigned char *stack = aligned_alloc(4096, STACK_BYTES);
    pthread_attr_t attr;
    pthread_t t;
    size_t i;
    if (stack == NULL) {
        exit(2);
    }
    memset(stack, 0xA5, STACK_BYTES);
    op = which;
    pthread_attr_init(&attr);
    if (pthread_attr_setstack(&attr, stack, STACK_BYTES) != 0 || pthread_create(&t, &attr, body, NULL) != 0) {
        exit(2);
    }
    pthread_join(t, NULL);
    for (i = 0; i < STACK_BYTES && stack[i] == 0xA5; i++) {
    }
#ifdef HEAP_WRAP
    __real_free(stack); /* not from __wrap_malloc: no header */
#else
    free(stack);
#endif
    return STACK_BYTES - i;
}

static int operation(const char *name) {
    return strcmp(name, "keygen") == 0 ? 1 : strcmp(name, "enc") == 0 ? 2 : strcmp(name, "dec") == 0 ? 3 : 0;
}

int main(int argc, char **argv) {
    int which, mode = 0; /* 0: stack, 1: heap, 2: loop */
    unsigned long calls = 0, i;
    size_t base, used;
#ifdef KAT_RNG
    unsigned char seed[48];
    for (i = 0; i < sizeof seed; i++) {
        seed[i] = (unsigned char)i;
    }
    randombytes_init(seed, NULL, 256);
#endif
    if (argc == 3 && strcmp(argv[1], "--heap") == 0) {
        mode = 1;
    } else if (argc == 4 && strcmp(argv[1], "--loop") == 0) {
        mode = 2;
        calls = strtoul(argv[2], NULL, 10);
    } else if (argc != 2) {
        return 2;
    }
    which = operation(argv[argc - 1]);
    if (which == 0) {
        return 2;
    }
    F(crypto_kem_keypair)(pk, sk);
    F(crypto_kem_enc)(ct, ss, pk);
    if (mode == 2) {
        for (i = 0; i < calls; i++) {
            call(which);
        }
        return 0;
    }
    if (mode == 1) {
#ifdef HEAP_WRAP
        counting = 1;
        call(which);
        counting = 0;
        printf("%lu %lu\n", (unsigned long)peak, allocations);
        return 0;
#else
        fputs("stack-check: --heap needs a build with -DHEAP_WRAP and -Wl,--wrap=malloc,...\n", stderr);
        return 2;
#endif
    }
    base = depth(0);
    used = depth(which);
    printf("%lu\n", (unsigned long)(used - base));
    return 0;
}
