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
 *   stack-check --inputs N OP        (built with -DPQ_KAT_RNG) the stack figure of OP over the inputs of KAT
 *   stack-check --heap --inputs N OP counts 0 .. N-1: before input i, randombytes is seeded with KAT count i's
 *                           seed and the inputs of OP are made as the KAT is (keypair; keypair, enc; ...); prints
 *                           one line per input (its bytes; with --heap "PEAK ALLOCS"), input 0 first.
 *   stack-check --kat-single (built with -DPQ_KAT_RNG) prints KAT count 0 in the form PQClean's nistkat-sha256
 *                           hashes ("count = 0", seed, pk, sk, ct, ss; hex in capitals), so that its SHA-256 can be
 *                           checked against PQClean's published one: the inputs are the KAT's.
 *
 * -DPQ_KAT_RNG: randombytes is the NIST AES-256 CTR_DRBG of the KAT files written here (NIST's rng.c algorithm,
 * AES-256 from PQClean's common/aes.c), in place of PQClean's randombytes.c, and the outer generator seeded with
 * 0x00..0x2F yields count i's 48-byte seed as NIST's PQCgenKAT does.  None of ngcc-perf's native code (its KAT
 * DRBG, AES, driver) is used.  With --heap, the DRBG's own allocations (PQClean's AES key schedule) are not
 * counted: it stands for the system randomness, as ngcc-perf's harness does.
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
 * compiles them) in place of randombytes.c; for --inputs and --kat-single put -DPQ_KAT_RNG and <PQClean>/common/aes.c
 * in its place.  bench/memory-check.ts builds these programs.
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
#ifdef PQ_KAT_RNG
#include "aes.h"
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

#ifdef PQ_KAT_RNG
/* ------------------------------------------------------ the KAT files' AES-256 CTR_DRBG (NIST's rng.c algorithm) */
static unsigned char drbg_key[32], drbg_v[16];

static void drbg_aes(const unsigned char in[16], unsigned char out[16]) {
    aes256ctx ctx;
    aes256_ecb_keyexp(&ctx, drbg_key);
    aes256_ecb(out, in, 1, &ctx);
    aes256_ctx_release(&ctx);
}

static void drbg_next_v(void) {
    int j = 15;
    while (j >= 0 && ++drbg_v[j] == 0) {
        j--;
    }
}

static void drbg_update(const unsigned char *provided) {
    unsigned char temp[48];
    int i;
    for (i = 0; i < 3; i++) {
        drbg_next_v();
        drbg_aes(drbg_v, temp + 16 * i);
    }
    for (i = 0; provided != NULL && i < 48; i++) {
        temp[i] ^= provided[i];
    }
    memcpy(drbg_key, temp, 32);
    memcpy(drbg_v, temp + 32, 16);
}

static void drbg_seed(const unsigned char entropy[48]) {
    memset(drbg_key, 0, sizeof drbg_key);
    memset(drbg_v, 0, sizeof drbg_v);
    drbg_update(entropy);
}

static void drbg_bytes(unsigned char *out, size_t n) {
    unsigned char block[16];
    while (n > 0) {
        size_t k = n < 16 ? n : 16;
        drbg_next_v();
        drbg_aes(drbg_v, block);
        memcpy(out, block, k);
        out += k;
        n -= k;
    }
    drbg_update(NULL);
}

int PQCLEAN_randombytes(uint8_t *output, size_t n);
int PQCLEAN_randombytes(uint8_t *output, size_t n) {
#ifdef HEAP_WRAP
    int was = counting;
    counting = 0; /* the DRBG's key schedules are the randomness source's, not the scheme's */
    drbg_bytes(output, n);
    counting = was;
#else
    drbg_bytes(output, n);
#endif
    return 0;
}

#define KAT_COUNTS 100
static unsigned char kat_seeds[KAT_COUNTS][48];

static void kat_make_seeds(void) {
    unsigned char entropy[48];
    int i;
    for (i = 0; i < 48; i++) {
        entropy[i] = (unsigned char)i;
    }
    drbg_seed(entropy);
    for (i = 0; i < KAT_COUNTS; i++) {
        drbg_bytes(kat_seeds[i], 48);
    }
}

static void print_hex(const char *label, const unsigned char *b, size_t n) {
    size_t i;
    fputs(label, stdout);
    for (i = 0; i < n; i++) {
        printf("%02X", b[i]);
    }
    putchar('\n');
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

#ifdef PQ_KAT_RNG
/* Input i: KAT count i's seed behind randombytes, then OP's inputs made as the KAT makes them. */
static void kat_input(int which, int i) {
    drbg_seed(kat_seeds[i]);
    if (which >= 2) {
        F(crypto_kem_keypair)(pk, sk);
    }
    if (which == 3) {
        F(crypto_kem_enc)(ct, ss, pk);
    }
}

static int over_inputs(int which, int heap, unsigned long inputs) {
    unsigned long i;
    size_t base = 0;
    kat_make_seeds();
    /* One call of OP first, discarded (on a painted thread for the stack figure): whatever a first call does once
     * in the process (the C library's first use of a function; in dec, seen 48 bytes deeper on the first thread
     * only, whichever input it gets) is not the operation's. */
    kat_input(which, 0);
    if (heap) {
        call(which);
    } else {
        (void)depth(which);
        base = depth(0);
    }
    for (i = 0; i < inputs; i++) {
        kat_input(which, (int)i);
        if (heap) {
#ifdef HEAP_WRAP
            live = peak = 0;
            allocations = 0;
            counting = 1;
            call(which);
            counting = 0;
            printf("%lu %lu\n", (unsigned long)peak, allocations);
#else
            fputs("stack-check: --heap needs a build with -DHEAP_WRAP and -Wl,--wrap=malloc,...\n", stderr);
            return 2;
#endif
        } else {
            printf("%lu\n", (unsigned long)(depth(which) - base));
        }
    }
    return 0;
}

static int kat_single(void) {
    unsigned char ss1[F(CRYPTO_BYTES)];
    kat_make_seeds();
    drbg_seed(kat_seeds[0]);
    printf("count = 0\n");
    print_hex("seed = ", kat_seeds[0], 48);
    if (F(crypto_kem_keypair)(pk, sk) != 0 || F(crypto_kem_enc)(ct, ss, pk) != 0 ||
        F(crypto_kem_dec)(ss1, ct, sk) != 0 || memcmp(ss, ss1, sizeof ss) != 0) {
        return 1;
    }
    print_hex("pk = ", pk, sizeof pk);
    print_hex("sk = ", sk, sizeof sk);
    print_hex("ct = ", ct, sizeof ct);
    print_hex("ss = ", ss, sizeof ss);
    return 0;
}
#endif

int main(int argc, char **argv) {
    int which, mode = 0; /* 0: stack, 1: heap, 2: loop */
    unsigned long calls = 0, i;
    size_t base, used;
#ifdef PQ_KAT_RNG
    if (argc == 2 && strcmp(argv[1], "--kat-single") == 0) {
        return kat_single();
    }
    if ((argc == 4 && strcmp(argv[1], "--inputs") == 0) ||
        (argc == 5 && strcmp(argv[1], "--heap") == 0 && strcmp(argv[2], "--inputs") == 0)) {
        unsigned long inputs = strtoul(argv[argc - 2], NULL, 10);
        which = operation(argv[argc - 1]);
        if (which == 0 || inputs < 1 || inputs > KAT_COUNTS) {
            return 2;
        }
        return over_inputs(which, argc == 5, inputs);
    }
#endif
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
