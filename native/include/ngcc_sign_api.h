/*
 * ngcc_sign_api.h -- which signature API ngcc-perf calls: the round-3 NIST pair or the FIPS 204 context API.
 *
 * Included by every native part that calls a signature instance (native/driver/ngcc_ops_sign.c,
 * native/katgen/katgen.c) after api.h, with NGCC_SIGN_NAME(x) defined by the includer as the instance's name of
 * x (the namespace prefix pasted in front, or x itself).  It defines
 *
 *   NGCC_SIGN_FN         the signing function     (crypto_sign, or crypto_sign_ctx, see below)
 *   NGCC_OPEN_FN         the opening function     (crypto_sign_open, or crypto_sign_open_ctx)
 *   NGCC_SIGN_CALL(sm, smlen, m, mlen, sk)        one call of NGCC_SIGN_FN
 *   NGCC_OPEN_CALL(m, mlen, sm, smlen, pk)        one call of NGCC_OPEN_FN
 *   NGCC_SIGN_API_NAME   "nist" or "fips204"
 *   ngcc_sign_len        the type of smlen / mlen
 *
 * Selected by defines:
 *   (none)                    the round-3 NIST API: crypto_sign(sm, smlen, m, mlen, sk),
 *                             crypto_sign_open(m, mlen, sm, smlen, pk)
 *   -DNGCC_SIGN_API_FIPS204   the FIPS 204 context API: crypto_sign(sm, smlen, m, mlen, ctx, ctxlen, sk),
 *                             crypto_sign_open(m, mlen, sm, smlen, ctx, ctxlen, pk)
 *   -DNGCC_SIGN_API_CTX_NAMES with NGCC_SIGN_API_FIPS204: the context functions are named crypto_sign_ctx /
 *                             crypto_sign_open_ctx (PQClean's ML-DSA, whose crypto_sign is the round-3 pair)
 *   -DNGCC_SIGN_CONTEXT=0x01,0x02  the context bytes (at most 255); empty without it
 *   -DNGCC_SIGN_LENGTH_TYPE=T the type of smlen / mlen; otherwise read off the prototype (GCC, Clang), else
 *                             size_t when NGCC_SIGN_SIZE_T_DEFAULT is defined and unsigned long long otherwise
 */
#ifndef NGCC_SIGN_API_H
#define NGCC_SIGN_API_H

#include <stddef.h>

#if !defined(NGCC_SIGN_NAME)
#error "define NGCC_SIGN_NAME(x) (the instance's name of x) before including ngcc_sign_api.h"
#endif

#if defined(NGCC_SIGN_API_CTX_NAMES) && !defined(NGCC_SIGN_API_FIPS204)
#error "NGCC_SIGN_API_CTX_NAMES needs NGCC_SIGN_API_FIPS204"
#endif
#if defined(NGCC_SIGN_CONTEXT) && !defined(NGCC_SIGN_API_FIPS204)
#error "NGCC_SIGN_CONTEXT needs NGCC_SIGN_API_FIPS204 (the round-3 NIST API has no context)"
#endif

#if defined(NGCC_SIGN_API_CTX_NAMES)
#define NGCC_SIGN_FN NGCC_SIGN_NAME(crypto_sign_ctx)
#define NGCC_OPEN_FN NGCC_SIGN_NAME(crypto_sign_open_ctx)
#else
#define NGCC_SIGN_FN NGCC_SIGN_NAME(crypto_sign)
#define NGCC_OPEN_FN NGCC_SIGN_NAME(crypto_sign_open)
#endif

#if defined(NGCC_SIGN_API_FIPS204)
#define NGCC_SIGN_API_NAME "fips204"
/* The context: one leading byte keeps the array non-empty when the context is. */
#if defined(NGCC_SIGN_CONTEXT)
static const unsigned char ngcc_sign_ctx_bytes[] = {0, NGCC_SIGN_CONTEXT};
#else
static const unsigned char ngcc_sign_ctx_bytes[] = {0};
#endif
#define NGCC_SIGN_CTX (ngcc_sign_ctx_bytes + 1)
#define NGCC_SIGN_CTXLEN (sizeof ngcc_sign_ctx_bytes - 1)
#define NGCC_SIGN_CALL(sm, smlen, m, mlen, sk) NGCC_SIGN_FN(sm, smlen, m, mlen, NGCC_SIGN_CTX, NGCC_SIGN_CTXLEN, sk)
#define NGCC_OPEN_CALL(m, mlen, sm, smlen, pk) NGCC_OPEN_FN(m, mlen, sm, smlen, NGCC_SIGN_CTX, NGCC_SIGN_CTXLEN, pk)
#else
#define NGCC_SIGN_API_NAME "nist"
#define NGCC_SIGN_CALL(sm, smlen, m, mlen, sk) NGCC_SIGN_FN(sm, smlen, m, mlen, sk)
#define NGCC_OPEN_CALL(m, mlen, sm, smlen, pk) NGCC_OPEN_FN(m, mlen, sm, smlen, pk)
#endif

/*
 * The type of smlen / mlen: NIST says unsigned long long, PQClean uses size_t.  Read off the signing function's
 * prototype with GCC or Clang: unsigned long long when its smlen is unsigned long long *, size_t otherwise.
 */
#if !defined(NGCC_SIGN_LENGTH_TYPE)
#if defined(__GNUC__)
#if defined(NGCC_SIGN_API_FIPS204)
typedef int (*ngcc_sign_fn_ull)(unsigned char *, unsigned long long *, const unsigned char *, unsigned long long,
                                const unsigned char *, size_t, const unsigned char *);
typedef int (*ngcc_sign_fn_mixed)(unsigned char *, unsigned long long *, const unsigned char *, size_t,
                                  const unsigned char *, size_t, const unsigned char *);
#else
typedef int (*ngcc_sign_fn_ull)(unsigned char *, unsigned long long *, const unsigned char *, unsigned long long,
                                const unsigned char *);
typedef int (*ngcc_sign_fn_mixed)(unsigned char *, unsigned long long *, const unsigned char *, size_t,
                                  const unsigned char *);
#endif
#define NGCC_SIGN_LENGTH_TYPE                                                                                    \
    __typeof__(__builtin_choose_expr(__builtin_types_compatible_p(__typeof__(&NGCC_SIGN_FN), ngcc_sign_fn_ull) || \
                                         __builtin_types_compatible_p(__typeof__(&NGCC_SIGN_FN), ngcc_sign_fn_mixed), \
                                     (unsigned long long)0, (size_t)0))
#elif defined(NGCC_SIGN_SIZE_T_DEFAULT)
#define NGCC_SIGN_LENGTH_TYPE size_t
#else
#define NGCC_SIGN_LENGTH_TYPE unsigned long long
#endif
#endif
typedef NGCC_SIGN_LENGTH_TYPE ngcc_sign_len;

#endif /* NGCC_SIGN_API_H */
