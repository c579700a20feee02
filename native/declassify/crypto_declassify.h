/*
 * crypto_declassify.h -- how a submission tells ngcc-perf's constant-time checks that a value is public.
 *
 *   #include "crypto_declassify.h"
 *   ...
 *   crypto_declassify(&ok, sizeof ok);   (a rejection-sampling verdict that the output makes public anyway)
 *
 * ngcc-perf puts this folder on every submission's include path (after the submission's own folders, so a
 * submission's own crypto_declassify.h, e.g. SUPERCOP's, is found first). In every build but the constant-time
 * step's it does nothing: the arguments are evaluated and discarded, no code is emitted for the call.
 *
 * In the constant-time step's build (-DNGCC_CT_CHECKER) it calls ngcc_ct_declassify of the checker program
 * (native/ct/ngcc_ct.c) with the call's __FILE__ and __LINE__: the n bytes at p are marked defined for memcheck
 * (VALGRIND_MAKE_MEM_DEFINED), so a branch, an address or a division computed from them afterwards is not a
 * finding, and the call site is recorded; the report lists every site that declassified something, with its
 * file:line, the calls and the bytes, so evaluators see what a submitter chose to call public.
 *
 * Call it; do not declare it yourself (in the checker's build it is a macro).
 */
#ifndef NGCC_CRYPTO_DECLASSIFY_H
#define NGCC_CRYPTO_DECLASSIFY_H

#include <stddef.h>

#if defined(NGCC_CT_CHECKER)
void ngcc_ct_declassify(const void *p, size_t n, const char *file, long line);
#define crypto_declassify(p, n) ngcc_ct_declassify((const void *)(p), (size_t)(n), __FILE__, (long)__LINE__)
#else
#define crypto_declassify(p, n) ((void)(p), (void)(n))
#endif

#endif
