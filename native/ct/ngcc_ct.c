/*
 * ngcc_ct.c -- the constant-time smoke test of the `constant-time` step, run under valgrind's memcheck.
 *
 *   valgrind --tool=memcheck --error-limit=no --track-origins=yes --xml=yes --xml-file=OUT \
 *       ngcc-ct --op OP [--keys K] [--msg-bytes B] [--seed S]
 *
 * Linked from the instance's own sources compiled with debug information (-g) at one optimisation level, with
 * the KAT generator's seeded AES-256 CTR_DRBG (native/katgen/ngcc_rng.c, compiled with its randombytes and
 * PQCLEAN_randombytes renamed to ngcc_ct_drbg_*) in place of the system randomness.  This file defines
 * randombytes and PQCLEAN_randombytes, the names the system randomness goes by (native/randombytes, the ICCS
 * stand-in's drng.c, PQClean's common/randombytes.c): they draw from that DRBG and, while the tested call runs,
 * mark what they return undefined (VALGRIND_MAKE_MEM_UNDEFINED).
 *
 * Memcheck tracks the definedness of every bit; a conditional jump, a memory address or a system call argument
 * computed from undefined bits is reported.  So, per operation, K calls (K key pairs, default 3):
 *   - the inputs are made beforehand with marking off (all defined);
 *   - the call's secret inputs are marked undefined: KEM dec the secret key; sign the secret key; key exchange
 *     the party's long-term secret key and session state (st_a / st_b); randomness drawn during the call;
 *   - the call runs;
 *   - its public outputs are declassified right after (VALGRIND_MAKE_MEM_DEFINED): the return value, pk, ct,
 *     sm and smlen, the key exchange's public keys and messages m1 / m2; shared secrets and secret keys are not.
 * Verify has no secret input: only randomness it would draw is marked (it says so in its output).
 * The harness never branches on, indexes by or prints secret data (shared secrets are not compared here; the
 * KAT step checks correctness): every error memcheck reports comes from the instance's code (or the library
 * code it calls).
 *
 * Outside valgrind the client requests are no-ops and the program simply makes the calls (a smoke test).
 * Stdout: one JSON line; diagnostics on stderr; exit 2 usage, 3 an API call returned non-zero.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <valgrind/memcheck.h>

#include "../common/ngcc_common.h"
#include "ngcc_api.h"

/* ------------------------------------------------------------ randomness */

/*
 * The DRBG's own entry points (ngcc_rng.c compiled with -Drandombytes=ngcc_ct_drbg_bytes
 * -DPQCLEAN_randombytes=ngcc_ct_drbg_pqclean) and the names the instance calls.  An instance's api.h may declare
 * randombytes too; keep -Wredundant-decls quiet about these.
 */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wredundant-decls"
#endif
int ngcc_ct_drbg_bytes(unsigned char *x, unsigned long long xlen);
void randombytes_init(unsigned char *entropy_input, unsigned char *personalization_string, int security_strength);
int randombytes(unsigned char *x, unsigned long long xlen);
int PQCLEAN_randombytes(uint8_t *output, size_t n);
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

static int ngcc_ct_marking;                      /* 1 while a tested call runs */
static unsigned long long ngcc_ct_marked_bytes; /* randomness marked undefined, over the whole run */

int randombytes(unsigned char *x, unsigned long long xlen) {
    int rc = ngcc_ct_drbg_bytes(x, xlen);
    if (ngcc_ct_marking) {
        (void)VALGRIND_MAKE_MEM_UNDEFINED(x, (size_t)xlen);
        ngcc_ct_marked_bytes += xlen;
    }
    return rc;
}

int PQCLEAN_randombytes(uint8_t *output, size_t n) {
    return randombytes(output, (unsigned long long)n);
}

/* ------------------------------------------------------------ crypto_declassify */

/*
 * The submission's own declassifications (native/declassify/crypto_declassify.h, compiled with -DNGCC_CT_CHECKER
 * into the instance's code): the bytes become defined, and while a tested call runs each call site is counted.
 * Sites are told apart by their __FILE__ string and line; the first NGCC_CT_SITES are listed, calls at further
 * sites are counted in ngcc_ct_sites_other.
 */
#define NGCC_CT_SITES 64
typedef struct {
    const char *file;
    long line;
    unsigned long long calls, bytes;
} ngcc_ct_site;
static ngcc_ct_site ngcc_ct_sites[NGCC_CT_SITES];
static size_t ngcc_ct_nsites;
static unsigned long long ngcc_ct_sites_other;

void ngcc_ct_declassify(const void *p, size_t n, const char *file, long line);

void ngcc_ct_declassify(const void *p, size_t n, const char *file, long line) {
    size_t i;
    if (p != NULL && n > 0) {
        (void)VALGRIND_MAKE_MEM_DEFINED(p, n);
    }
    if (!ngcc_ct_marking) {
        return;
    }
    if (file == NULL) {
        file = "";
    }
    for (i = 0; i < ngcc_ct_nsites; i++) {
        if (ngcc_ct_sites[i].line == line && strcmp(ngcc_ct_sites[i].file, file) == 0) {
            break;
        }
    }
    if (i == ngcc_ct_nsites) {
        if (ngcc_ct_nsites == NGCC_CT_SITES) {
            ngcc_ct_sites_other++;
            return;
        }
        ngcc_ct_sites[i].file = file;
        ngcc_ct_sites[i].line = line;
        ngcc_ct_nsites++;
    }
    ngcc_ct_sites[i].calls++;
    ngcc_ct_sites[i].bytes += (unsigned long long)n;
}

/* ------------------------------------------------------------ helpers */

const char ngcc_program[] = "ngcc-ct";

/* A secret input: undefined from here on (until the harness makes it again). */
static void ngcc_ct_secret(void *p, size_t n) {
    if (n > 0) {
        (void)VALGRIND_MAKE_MEM_UNDEFINED(p, n);
    }
}

/* A public output: defined from here on. */
static void ngcc_ct_public(const void *p, size_t n) {
    if (n > 0) {
        (void)VALGRIND_MAKE_MEM_DEFINED(p, n);
    }
}

/* The return value is public (success or failure); declassified before the harness looks at it. */
static void ngcc_ct_check(int rc, const char *function) {
    ngcc_ct_public(&rc, sizeof rc);
    if (rc != 0) {
        ngcc_die(NGCC_EXIT_RESULT, "%s returned non-zero (%d)", function, rc);
    }
}

static void ngcc_ct_begin(void) {
    ngcc_ct_marking = 1;
}

static void ngcc_ct_end(void) {
    ngcc_ct_marking = 0;
}

/* n bytes, never a NULL pointer (a size of 0 still gets a valid buffer). */
static unsigned char *ngcc_ct_alloc(size_t n) {
    unsigned char *p = calloc(n > 0 ? n : 1, 1);
    if (p == NULL) {
        ngcc_die(NGCC_EXIT_USAGE, "out of memory");
    }
    return p;
}

/* What the run says it marked: filled by the category code. */
typedef struct {
    const char *secret;       /* JSON array of strings */
    const char *declassified; /* JSON array of strings */
    const char *note;         /* or NULL */
} ngcc_ct_marks;

/* ------------------------------------------------------------ KEM */
#if defined(NGCC_CATEGORY_KEM)

#define NGCC_PK NGCC_NS(CRYPTO_PUBLICKEYBYTES)
#define NGCC_SK NGCC_NS(CRYPTO_SECRETKEYBYTES)
#define NGCC_CT NGCC_NS(CRYPTO_CIPHERTEXTBYTES)
#define NGCC_SS NGCC_NS(CRYPTO_BYTES)

static const char ngcc_ct_category[] = "kem";
static const char *const ngcc_ct_ops[] = {"keygen", "enc", "dec", NULL};

static void ngcc_ct_run(const char *op, size_t keys, size_t msg_bytes, uint64_t *seed, ngcc_ct_marks *marks) {
    unsigned char *pk = ngcc_ct_alloc(keys * NGCC_PK), *sk = ngcc_ct_alloc(keys * NGCC_SK);
    unsigned char *ct = ngcc_ct_alloc(keys * NGCC_CT), *ss = ngcc_ct_alloc(keys * NGCC_SS);
    size_t i;
    int tested_keygen = strcmp(op, "keygen") == 0, tested_enc = strcmp(op, "enc") == 0;
    (void)msg_bytes;
    (void)seed;
    for (i = 0; i < keys; i++) {
        unsigned char *pki = pk + i * NGCC_PK, *ski = sk + i * NGCC_SK, *cti = ct + i * NGCC_CT;
        unsigned char *ssi = ss + i * NGCC_SS;
        if (tested_keygen) {
            ngcc_ct_begin();
        }
        ngcc_ct_check(NGCC_NS(crypto_kem_keypair)(pki, ski), "crypto_kem_keypair");
        ngcc_ct_end();
        ngcc_ct_public(pki, NGCC_PK);
        if (tested_keygen) {
            continue;
        }
        if (tested_enc) {
            ngcc_ct_begin();
        }
        ngcc_ct_check(NGCC_NS(crypto_kem_enc)(cti, ssi, pki), "crypto_kem_enc");
        ngcc_ct_end();
        ngcc_ct_public(cti, NGCC_CT);
        if (tested_enc) {
            continue;
        }
        /* dec */
        ngcc_ct_secret(ski, NGCC_SK);
        ngcc_ct_begin();
        ngcc_ct_check(NGCC_NS(crypto_kem_dec)(ssi, cti, ski), "crypto_kem_dec");
        ngcc_ct_end();
    }
    if (tested_keygen) {
        marks->secret = "[\"randomness drawn during the call (hence the secret key made from it)\"]";
        marks->declassified = "[\"return value\",\"pk\"]";
    } else if (tested_enc) {
        marks->secret = "[\"randomness drawn during the call\"]";
        marks->declassified = "[\"return value\",\"ct\"]";
    } else {
        marks->secret = "[\"sk\",\"randomness drawn during the call\"]";
        marks->declassified = "[\"return value\"]";
    }
    marks->note = NULL;
    free(pk);
    free(sk);
    free(ct);
    free(ss);
}

/* ------------------------------------------------------------ signatures */
#elif defined(NGCC_CATEGORY_SIGN)

#define NGCC_PK NGCC_NS(CRYPTO_PUBLICKEYBYTES)
#define NGCC_SK NGCC_NS(CRYPTO_SECRETKEYBYTES)
#define NGCC_SIG NGCC_NS(CRYPTO_BYTES)
#define NGCC_SIGN_NAME(x) NGCC_NS(x)
#if defined(NGCC_NAMESPACE)
#define NGCC_SIGN_SIZE_T_DEFAULT
#endif
#include "ngcc_sign_api.h"

static const char ngcc_ct_category[] = "sign";
static const char *const ngcc_ct_ops[] = {"keygen", "sign", "verify", NULL};

static void ngcc_ct_run(const char *op, size_t keys, size_t msg_bytes, uint64_t *seed, ngcc_ct_marks *marks) {
    size_t smcap = NGCC_SIG + msg_bytes;
    unsigned char *pk = ngcc_ct_alloc(keys * NGCC_PK), *sk = ngcc_ct_alloc(keys * NGCC_SK);
    unsigned char *m = ngcc_ct_alloc(msg_bytes), *sm = ngcc_ct_alloc(smcap), *mo = ngcc_ct_alloc(smcap);
    size_t i;
    int tested_keygen = strcmp(op, "keygen") == 0, tested_sign = strcmp(op, "sign") == 0;
    for (i = 0; i < keys; i++) {
        unsigned char *pki = pk + i * NGCC_PK, *ski = sk + i * NGCC_SK;
        ngcc_sign_len smlen = 0, mlen = 0;
        if (tested_keygen) {
            ngcc_ct_begin();
        }
        ngcc_ct_check(NGCC_NS(crypto_sign_keypair)(pki, ski), "crypto_sign_keypair");
        ngcc_ct_end();
        ngcc_ct_public(pki, NGCC_PK);
        if (tested_keygen) {
            continue;
        }
        ngcc_rng_fill(seed, m, msg_bytes);
        if (tested_sign) {
            ngcc_ct_secret(ski, NGCC_SK);
            ngcc_ct_begin();
        }
        ngcc_ct_check(NGCC_SIGN_CALL(sm, &smlen, m, (ngcc_sign_len)msg_bytes, ski), "crypto_sign");
        ngcc_ct_end();
        ngcc_ct_public(&smlen, sizeof smlen);
        if ((size_t)smlen > smcap) {
            ngcc_die(NGCC_EXIT_RESULT, "crypto_sign: smlen %llu beyond mlen + CRYPTO_BYTES",
                        (unsigned long long)smlen);
        }
        ngcc_ct_public(sm, (size_t)smlen);
        if (tested_sign) {
            continue;
        }
        /* verify: nothing secret goes in */
        ngcc_ct_begin();
        ngcc_ct_check(NGCC_OPEN_CALL(mo, &mlen, sm, smlen, pki), "crypto_sign_open");
        ngcc_ct_end();
        ngcc_ct_public(&mlen, sizeof mlen);
    }
    if (tested_keygen) {
        marks->secret = "[\"randomness drawn during the call (hence the secret key made from it)\"]";
        marks->declassified = "[\"return value\",\"pk\"]";
        marks->note = NULL;
    } else if (tested_sign) {
        marks->secret = "[\"sk\",\"randomness drawn during the call\"]";
        marks->declassified = "[\"return value\",\"sm\",\"smlen\"]";
        marks->note = NULL;
    } else {
        marks->secret = "[\"randomness drawn during the call\"]";
        marks->declassified = "[\"return value\",\"mlen\"]";
        marks->note = "verify takes no secret input (pk, sm and the message are public): only randomness it "
                      "would draw is marked";
    }
    free(pk);
    free(sk);
    free(m);
    free(sm);
    free(mo);
}

/* ------------------------------------------------------------ key exchange */
#else

#define NGCC_KEX_N(x) ((size_t)(x))

static const char ngcc_ct_category[] = "kex";
#if CRYPTO_KEX_PASSES >= 2
static const char *const ngcc_ct_ops[] = {"exchange", "init_a", "init_b", "pass1", "pass2", "derive_a", "derive_b",
                                          NULL};
#else
static const char *const ngcc_ct_ops[] = {"exchange", "init_a", "init_b", "pass1", "derive_a", "derive_b", NULL};
#endif

static void ngcc_ct_run(const char *op, size_t keys, size_t msg_bytes, uint64_t *seed, ngcc_ct_marks *marks) {
    unsigned char *pk_a = ngcc_ct_alloc(NGCC_KEX_N(CRYPTO_KEX_PUBLICKEYBYTES_A));
    unsigned char *sk_a = ngcc_ct_alloc(NGCC_KEX_N(CRYPTO_KEX_SECRETKEYBYTES_A));
    unsigned char *st_a = ngcc_ct_alloc(NGCC_KEX_N(CRYPTO_KEX_STATEBYTES_A));
    unsigned char *pk_b = ngcc_ct_alloc(NGCC_KEX_N(CRYPTO_KEX_PUBLICKEYBYTES_B));
    unsigned char *sk_b = ngcc_ct_alloc(NGCC_KEX_N(CRYPTO_KEX_SECRETKEYBYTES_B));
    unsigned char *st_b = ngcc_ct_alloc(NGCC_KEX_N(CRYPTO_KEX_STATEBYTES_B));
    unsigned char *m1 = ngcc_ct_alloc(NGCC_KEX_N(CRYPTO_KEX_MSG1BYTES));
    unsigned char *m2 = ngcc_ct_alloc(NGCC_KEX_N(CRYPTO_KEX_MSG2BYTES));
    unsigned char *ss_a = ngcc_ct_alloc(NGCC_KEX_N(CRYPTO_KEX_BYTES));
    unsigned char *ss_b = ngcc_ct_alloc(NGCC_KEX_N(CRYPTO_KEX_BYTES));
    int all = strcmp(op, "exchange") == 0;
    size_t i;
    (void)msg_bytes;
    (void)seed;
    for (i = 0; i < keys; i++) {
        /* Each step is tested (marking on, secrets marked) when it is the op, or for exchange; else made plainly. */
        int t = all || strcmp(op, "init_a") == 0;
        if (t) {
            ngcc_ct_begin();
        }
        ngcc_ct_check(crypto_kex_init_a(pk_a, sk_a, st_a), "crypto_kex_init_a");
        ngcc_ct_end();
        ngcc_ct_public(pk_a, NGCC_KEX_N(CRYPTO_KEX_PUBLICKEYBYTES_A));
        if (!all && t) {
            continue;
        }
        t = all || strcmp(op, "init_b") == 0;
        if (t) {
            ngcc_ct_begin();
        }
        ngcc_ct_check(crypto_kex_init_b(pk_b, sk_b, st_b), "crypto_kex_init_b");
        ngcc_ct_end();
        ngcc_ct_public(pk_b, NGCC_KEX_N(CRYPTO_KEX_PUBLICKEYBYTES_B));
        if (!all && t) {
            continue;
        }
        t = all || strcmp(op, "pass1") == 0;
        if (t) {
            ngcc_ct_secret(sk_a, NGCC_KEX_N(CRYPTO_KEX_SECRETKEYBYTES_A));
            ngcc_ct_secret(st_a, NGCC_KEX_N(CRYPTO_KEX_STATEBYTES_A));
            ngcc_ct_begin();
        }
        ngcc_ct_check(crypto_kex_pass1(m1, st_a, sk_a, pk_b), "crypto_kex_pass1");
        ngcc_ct_end();
        ngcc_ct_public(m1, NGCC_KEX_N(CRYPTO_KEX_MSG1BYTES));
        if (!all && t) {
            continue;
        }
#if CRYPTO_KEX_PASSES >= 2
        t = all || strcmp(op, "pass2") == 0;
        if (t) {
            ngcc_ct_secret(sk_b, NGCC_KEX_N(CRYPTO_KEX_SECRETKEYBYTES_B));
            ngcc_ct_secret(st_b, NGCC_KEX_N(CRYPTO_KEX_STATEBYTES_B));
            ngcc_ct_begin();
        }
        ngcc_ct_check(crypto_kex_pass2(m2, st_b, m1, sk_b, pk_a), "crypto_kex_pass2");
        ngcc_ct_end();
        ngcc_ct_public(m2, NGCC_KEX_N(CRYPTO_KEX_MSG2BYTES));
        if (!all && t) {
            continue;
        }
#endif
        t = all || strcmp(op, "derive_a") == 0;
        if (t) {
            ngcc_ct_secret(sk_a, NGCC_KEX_N(CRYPTO_KEX_SECRETKEYBYTES_A));
            ngcc_ct_secret(st_a, NGCC_KEX_N(CRYPTO_KEX_STATEBYTES_A));
            ngcc_ct_begin();
        }
        ngcc_ct_check(crypto_kex_derive_a(ss_a, st_a, m2, sk_a, pk_b), "crypto_kex_derive_a");
        ngcc_ct_end();
        t = all || strcmp(op, "derive_b") == 0;
        if (t) {
            ngcc_ct_secret(sk_b, NGCC_KEX_N(CRYPTO_KEX_SECRETKEYBYTES_B));
            ngcc_ct_secret(st_b, NGCC_KEX_N(CRYPTO_KEX_STATEBYTES_B));
            ngcc_ct_begin();
        }
        ngcc_ct_check(crypto_kex_derive_b(ss_b, st_b, m1, sk_b, pk_a), "crypto_kex_derive_b");
        ngcc_ct_end();
    }
    if (all) {
        marks->secret = "[\"randomness drawn during the calls\",\"sk_a\",\"st_a\",\"sk_b\",\"st_b\"]";
        marks->declassified = "[\"return values\",\"pk_a\",\"pk_b\",\"m1\",\"m2\"]";
    } else if (strcmp(op, "init_a") == 0) {
        marks->secret = "[\"randomness drawn during the call (hence sk_a and st_a)\"]";
        marks->declassified = "[\"return value\",\"pk_a\"]";
    } else if (strcmp(op, "init_b") == 0) {
        marks->secret = "[\"randomness drawn during the call (hence sk_b and st_b)\"]";
        marks->declassified = "[\"return value\",\"pk_b\"]";
    } else if (strcmp(op, "pass1") == 0) {
        marks->secret = "[\"sk_a\",\"st_a\",\"randomness drawn during the call\"]";
        marks->declassified = "[\"return value\",\"m1\"]";
    } else if (strcmp(op, "pass2") == 0) {
        marks->secret = "[\"sk_b\",\"st_b\",\"randomness drawn during the call\"]";
        marks->declassified = "[\"return value\",\"m2\"]";
    } else if (strcmp(op, "derive_a") == 0) {
        marks->secret = "[\"sk_a\",\"st_a\",\"randomness drawn during the call\"]";
        marks->declassified = "[\"return value\"]";
    } else {
        marks->secret = "[\"sk_b\",\"st_b\",\"randomness drawn during the call\"]";
        marks->declassified = "[\"return value\"]";
    }
    marks->note = NULL;
    free(pk_a);
    free(sk_a);
    free(st_a);
    free(pk_b);
    free(sk_b);
    free(st_b);
    free(m1);
    free(m2);
    free(ss_a);
    free(ss_b);
}

#endif

/* ------------------------------------------------------------ main */

int main(int argc, char **argv) {
    const char *op_name = NULL;
    unsigned long long keys = 3, msg_bytes = 32, seed = 1;
    unsigned char entropy[48];
    ngcc_ct_marks marks;
    uint64_t state;
    FILE *out;
    int i, known = 0;

    for (i = 1; i < argc; i += 2) {
        const char *v = ngcc_option_value(argc, argv, i);
        if (strcmp(argv[i], "--op") == 0) {
            op_name = v;
        } else if (strcmp(argv[i], "--keys") == 0) {
            keys = ngcc_parse_u64(argv[i], v, 1, 64);
        } else if (strcmp(argv[i], "--msg-bytes") == 0) {
            msg_bytes = ngcc_parse_u64(argv[i], v, 0, 1u << 20);
        } else if (strcmp(argv[i], "--seed") == 0) {
            seed = ngcc_parse_u64(argv[i], v, 0, ~0ULL);
        } else {
            ngcc_die(NGCC_EXIT_USAGE, "unknown option %s", argv[i]);
        }
    }
    if (op_name == NULL) {
        ngcc_die(NGCC_EXIT_USAGE, "--op is required");
    }
    for (i = 0; ngcc_ct_ops[i] != NULL; i++) {
        known |= strcmp(ngcc_ct_ops[i], op_name) == 0;
    }
    if (!known) {
        ngcc_die(NGCC_EXIT_USAGE, "unknown --op %s for a %s instance", op_name, ngcc_ct_category);
    }

    /* The JSON goes to a private copy of stdout; fd 1 then points at stderr (an implementation may print). */
    out = ngcc_private_stdout();

    for (i = 0; i < 48; i++) {
        entropy[i] = (unsigned char)i;
    }
    randombytes_init(entropy, NULL, 256);
    state = (uint64_t)seed;
    ngcc_ct_run(op_name, (size_t)keys, (size_t)msg_bytes, &state, &marks);

    fputs("{\"op\":", out);
    ngcc_json_string(out, op_name);
    fputs(",\"category\":", out);
    ngcc_json_string(out, ngcc_ct_category);
    fprintf(out, ",\"calls\":%llu,\"keyPairs\":%llu,\"messageBytes\":%llu", keys, keys, msg_bytes);
    fprintf(out, ",\"secret\":%s,\"declassified\":%s,\"randomBytesMarked\":%llu", marks.secret, marks.declassified,
            ngcc_ct_marked_bytes);
    if (marks.note != NULL) {
        fputs(",\"note\":", out);
        ngcc_json_string(out, marks.note);
    }
    fputs(",\"declassifySites\":[", out);
    for (i = 0; (size_t)i < ngcc_ct_nsites; i++) {
        fputs(i > 0 ? ",{\"file\":" : "{\"file\":", out);
        ngcc_json_string(out, ngcc_ct_sites[i].file);
        fprintf(out, ",\"line\":%ld,\"calls\":%llu,\"bytes\":%llu}", ngcc_ct_sites[i].line, ngcc_ct_sites[i].calls,
                ngcc_ct_sites[i].bytes);
    }
    fprintf(out, "],\"declassifyOtherCalls\":%llu", ngcc_ct_sites_other);
    fprintf(out, ",\"onValgrind\":%s}\n", RUNNING_ON_VALGRIND ? "true" : "false");
    if (fclose(out) != 0) {
        ngcc_die(NGCC_EXIT_USAGE, "cannot write the result");
    }
    return 0;
}
