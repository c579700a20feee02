/*
 * ngcc_printparams.c -- an instance's API sizes as one JSON document on stdout.
 *
 * The sizes are read by the compiler from the instance's api.h, never by
 * parsing text: a macro that is an expression, or that depends on a define,
 * is evaluated exactly as the implementation sees it.  Nothing is linked
 * against the instance.
 *
 * Build (one category macro; see native/README.md):
 *   cc -std=c99 -DNGCC_CATEGORY_KEM|-DNGCC_CATEGORY_SIGN|-DNGCC_CATEGORY_KEX
 *      [-DNGCC_NAMESPACE=PQCLEAN_MLKEM512_CLEAN_] <instance defines>
 *      -I <api.h folder> -I native/include native/printparams/ngcc_printparams.c
 *
 * With -DNGCC_NAMESPACE=P every macro name is P pasted in front of the NIST
 * name (P##CRYPTO_PUBLICKEYBYTES), as PQClean's api.h files define them.  Key
 * exchange (ngcc_kex.h) is never namespaced.
 *
 * Output, one line:
 *   kem:  {"category":"kem","algname":..,"sizes":{"publicKeyBytes":..,"secretKeyBytes":..,
 *          "ciphertextBytes":..,"sharedSecretBytes":..}}
 *   sign: {"category":"sign","algname":..,"sizes":{"publicKeyBytes":..,"secretKeyBytes":..,
 *          "signatureBytes":..}}            (signatureBytes = CRYPTO_BYTES, the cap)
 *   kex:  {"category":"kex","algname":..,"sizes":{"passes":..,"msg1Bytes":..,"msg2Bytes":..,
 *          "publicKeyABytes":..,"secretKeyABytes":..,"publicKeyBBytes":..,"secretKeyBBytes":..,
 *          "stateABytes":..,"stateBBytes":..,"sharedSecretBytes":..,"bandwidthBytes":..}}
 * algname is CRYPTO_ALGNAME as a JSON string, or null when a plain api.h does
 * not define it.  A size macro that is missing is a compile error naming it.
 * Exit 0, or 1 when writing stdout fails.
 */
#include <stdio.h>

#if (defined(NGCC_CATEGORY_KEM) + defined(NGCC_CATEGORY_SIGN) + defined(NGCC_CATEGORY_KEX)) != 1
#error "define exactly one of NGCC_CATEGORY_KEM, NGCC_CATEGORY_SIGN, NGCC_CATEGORY_KEX"
#endif

/* The instance's API header: api.h, or the file meta.json's apiHeader names (-DNGCC_API_HEADER="<path>"). */
#if defined(NGCC_API_HEADER)
#include NGCC_API_HEADER
#else
#include "api.h"
#endif

#if defined(NGCC_CATEGORY_KEX)
#if defined(NGCC_NAMESPACE)
#error "NGCC_NAMESPACE does not apply to key exchange (ngcc_kex.h names are never prefixed)"
#endif
#include "ngcc_kex.h"
#endif

#define NGCC_PP_PASTE_(a, b) a##b
#define NGCC_PP_PASTE(a, b) NGCC_PP_PASTE_(a, b)

#if defined(NGCC_NAMESPACE)
#define NGCC_PP_NS(name) NGCC_PP_PASTE(NGCC_NAMESPACE, name)
#define NGCC_PP_ALGNAME NGCC_PP_NS(CRYPTO_ALGNAME)
#else
#define NGCC_PP_NS(name) name
#if defined(CRYPTO_ALGNAME)
#define NGCC_PP_ALGNAME CRYPTO_ALGNAME
#endif
#endif

/* Prints a size: the macro's value converted to long long, so that a negative
 * value (a broken api.h) shows as negative instead of wrapping around.  The
 * same value converted to double tells whether that was exact: a fraction
 * (800.5) or a value beyond long long (18446744073709551615u) is printed as
 * the double instead, and a value that is not finite as null, so that the
 * caller refuses it; a macro that is not a number (a string) does not
 * compile. */
static void ngcc_pp_size(const char *key, long long value, double exact, int last) {
    printf("\"%s\":", key);
    if (!(exact == exact) || exact > 1e300 || exact < -1e300) {
        fputs("null", stdout);
    } else if ((double)value == exact) {
        printf("%lld", value);
    } else {
        printf("%.17g", exact);
    }
    fputs(last ? "" : ",", stdout);
}

#define NGCC_PP_SIZE(key, macro, last) ngcc_pp_size(key, (long long)(macro), (double)(macro), last)

/* Prints s as a JSON string (quotes, backslashes and control bytes escaped). */
static void ngcc_pp_string(const char *s) {
    const unsigned char *p;
    putchar('"');
    for (p = (const unsigned char *)s; *p != '\0'; p++) {
        if (*p == '"' || *p == '\\') {
            putchar('\\');
            putchar(*p);
        } else if (*p < 0x20) {
            printf("\\u%04x", (unsigned)*p);
        } else {
            putchar(*p);
        }
    }
    putchar('"');
}

int main(void) {
#if defined(NGCC_CATEGORY_KEM)
    const char *category = "kem";
#elif defined(NGCC_CATEGORY_SIGN)
    const char *category = "sign";
#else
    const char *category = "kex";
#endif
    printf("{\"category\":\"%s\",\"algname\":", category);
#if defined(NGCC_PP_ALGNAME)
    ngcc_pp_string(NGCC_PP_ALGNAME);
#else
    fputs("null", stdout);
#endif
    fputs(",\"sizes\":{", stdout);
#if defined(NGCC_CATEGORY_KEM)
    NGCC_PP_SIZE("publicKeyBytes", NGCC_PP_NS(CRYPTO_PUBLICKEYBYTES), 0);
    NGCC_PP_SIZE("secretKeyBytes", NGCC_PP_NS(CRYPTO_SECRETKEYBYTES), 0);
    NGCC_PP_SIZE("ciphertextBytes", NGCC_PP_NS(CRYPTO_CIPHERTEXTBYTES), 0);
    NGCC_PP_SIZE("sharedSecretBytes", NGCC_PP_NS(CRYPTO_BYTES), 1);
#elif defined(NGCC_CATEGORY_SIGN)
    NGCC_PP_SIZE("publicKeyBytes", NGCC_PP_NS(CRYPTO_PUBLICKEYBYTES), 0);
    NGCC_PP_SIZE("secretKeyBytes", NGCC_PP_NS(CRYPTO_SECRETKEYBYTES), 0);
    NGCC_PP_SIZE("signatureBytes", NGCC_PP_NS(CRYPTO_BYTES), 1);
#else
    NGCC_PP_SIZE("passes", CRYPTO_KEX_PASSES, 0);
    NGCC_PP_SIZE("msg1Bytes", CRYPTO_KEX_MSG1BYTES, 0);
    NGCC_PP_SIZE("msg2Bytes", CRYPTO_KEX_MSG2BYTES, 0);
    NGCC_PP_SIZE("publicKeyABytes", CRYPTO_KEX_PUBLICKEYBYTES_A, 0);
    NGCC_PP_SIZE("secretKeyABytes", CRYPTO_KEX_SECRETKEYBYTES_A, 0);
    NGCC_PP_SIZE("publicKeyBBytes", CRYPTO_KEX_PUBLICKEYBYTES_B, 0);
    NGCC_PP_SIZE("secretKeyBBytes", CRYPTO_KEX_SECRETKEYBYTES_B, 0);
    NGCC_PP_SIZE("stateABytes", CRYPTO_KEX_STATEBYTES_A, 0);
    NGCC_PP_SIZE("stateBBytes", CRYPTO_KEX_STATEBYTES_B, 0);
    NGCC_PP_SIZE("sharedSecretBytes", CRYPTO_KEX_BYTES, 0);
    NGCC_PP_SIZE("bandwidthBytes", NGCC_KEX_BANDWIDTH_BYTES, 1);
#endif
    fputs("}}\n", stdout);
    return (fflush(stdout) == 0 && !ferror(stdout)) ? 0 : 1;
}
