/*
 * stack-check.c -- an independent stack high-water of one PQClean KEM call, for checking the driver's figure
 * (packages/tests/src/memory-highwater.test.ts).  Not linked to the driver and not its technique: the call runs
 * on a pthread whose stack (pthread_attr_setstack, 4 MiB) is painted byte by byte with 0xA5; the depth is the
 * lowest byte no longer 0xA5, minus the same thread with a no-op (glibc keeps the thread's descriptor and TLS at
 * the top of the given stack; the baseline takes them out).  Prints one number of bytes.
 *
 *   gcc -std=c99 -O2 -DNS=PQCLEAN_MLKEM768_CLEAN_ -I<scheme>/clean -I<PQClean>/common \
 *       bench/stack-check.c <scheme>/clean/\*.c <PQClean>/common/fips202.c <PQClean>/common/randombytes.c \
 *       -o stack-check -lpthread
 *   ./stack-check keygen|enc|dec
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"

#define PASTE2(a, b) a##b
#define PASTE(a, b) PASTE2(a, b)
#define F(name) PASTE(NS, name)

#define STACK_BYTES ((size_t)4 << 20)

static unsigned char pk[F(CRYPTO_PUBLICKEYBYTES)], sk[F(CRYPTO_SECRETKEYBYTES)], ct[F(CRYPTO_CIPHERTEXTBYTES)];
static unsigned char ss[F(CRYPTO_BYTES)];
static int op;

static void *body(void *arg) {
    (void)arg;
    if (op == 1) {
        F(crypto_kem_keypair)(pk, sk);
    } else if (op == 2) {
        F(crypto_kem_enc)(ct, ss, pk);
    } else if (op == 3) {
        F(crypto_kem_dec)(ss, ct, sk);
    }
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
    free(stack);
    return STACK_BYTES - i;
}

int main(int argc, char **argv) {
    int which;
    size_t base, used;
    if (argc != 2) {
        return 2;
    }
    which = strcmp(argv[1], "keygen") == 0 ? 1 : strcmp(argv[1], "enc") == 0 ? 2 : strcmp(argv[1], "dec") == 0 ? 3 : 0;
    if (which == 0) {
        return 2;
    }
    F(crypto_kem_keypair)(pk, sk);
    F(crypto_kem_enc)(ct, ss, pk);
    base = depth(0);
    used = depth(which);
    printf("%lu\n", (unsigned long)(used - base));
    return 0;
}
