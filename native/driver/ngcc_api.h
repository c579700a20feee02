/*
 * ngcc_api.h -- the instance's api.h, seen through NGCC_NAMESPACE.
 *
 * Exactly one of NGCC_CATEGORY_KEM, NGCC_CATEGORY_SIGN, NGCC_CATEGORY_KEX is
 * defined on the command line.  With -DNGCC_NAMESPACE=PQCLEAN_MLKEM512_CLEAN_
 * NGCC_NS(crypto_kem_keypair) is PQCLEAN_MLKEM512_CLEAN_crypto_kem_keypair and
 * NGCC_NS(CRYPTO_BYTES) is PQCLEAN_MLKEM512_CLEAN_CRYPTO_BYTES; without it the
 * plain NIST names are used.  Key exchange (ngcc_kex.h) is never namespaced.
 */
#ifndef NGCC_API_H
#define NGCC_API_H

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

/* A plain NIST api.h must define its size macros; say which, rather than fail later on an undeclared name. */
#if !defined(NGCC_NAMESPACE) && defined(NGCC_CATEGORY_KEM) &&                                                   \
    (!defined(CRYPTO_PUBLICKEYBYTES) || !defined(CRYPTO_SECRETKEYBYTES) || !defined(CRYPTO_CIPHERTEXTBYTES) ||  \
     !defined(CRYPTO_BYTES))
#error "api.h must define CRYPTO_PUBLICKEYBYTES, CRYPTO_SECRETKEYBYTES, CRYPTO_CIPHERTEXTBYTES and CRYPTO_BYTES"
#endif
#if !defined(NGCC_NAMESPACE) && defined(NGCC_CATEGORY_SIGN) &&                                                  \
    (!defined(CRYPTO_PUBLICKEYBYTES) || !defined(CRYPTO_SECRETKEYBYTES) || !defined(CRYPTO_BYTES))
#error "api.h must define CRYPTO_PUBLICKEYBYTES, CRYPTO_SECRETKEYBYTES and CRYPTO_BYTES"
#endif

#define NGCC_PASTE_(a, b) a##b
#define NGCC_PASTE(a, b) NGCC_PASTE_(a, b)

#if defined(NGCC_NAMESPACE)
#define NGCC_NS(name) NGCC_PASTE(NGCC_NAMESPACE, name)
/* A namespaced api.h (PQClean) always names its parameter set. */
#define NGCC_ALGNAME NGCC_NS(CRYPTO_ALGNAME)
#else
#define NGCC_NS(name) name
#if defined(CRYPTO_ALGNAME)
#define NGCC_ALGNAME CRYPTO_ALGNAME
#else
#define NGCC_ALGNAME NULL
#endif
#endif

#endif /* NGCC_API_H */
