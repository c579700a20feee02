// Small synthetic packages for init's tests: files written into a temporary folder.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll } from "vitest";

export function writeTree(files: Record<string, string>, root = mkdtempSync(join(tmpdir(), "ngcc-init-t-"))): string {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

/** `writeTree` for one test file: each tree in a temporary folder of its own, all removed after the file's tests. */
export function tempTrees(): (files: Record<string, string>) => string {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  return (files) => {
    const d = writeTree(files);
    dirs.push(d);
    return d;
  };
}

const hex = (n: number) => "AB".repeat(n);
/** A one-entry .rsp with the sizes of a KEM (enough for init to match it). */
export const kemRsp = (pk: number, sk: number, ct: number, header = "# Toy") =>
  `${header}\n\ncount = 0\nseed = ${hex(48)}\npk = ${hex(pk)}\nsk = ${hex(sk)}\nct = ${hex(ct)}\nss = ${hex(32)}\n\n`;

/** A KEM whose sizes come from params.h by a macro K (CRYPTO_SECRETKEYBYTES = 100*K, pk 10*K, ct 20*K). */
export const KEM_C = `#include <string.h>
#include "api.h"
#include "randombytes.h"
int crypto_kem_keypair(unsigned char *pk, unsigned char *sk) {
  randombytes(sk, CRYPTO_SECRETKEYBYTES);
  memcpy(pk, sk, CRYPTO_PUBLICKEYBYTES);
  return 0;
}
int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk) {
  memset(ct, 0, CRYPTO_CIPHERTEXTBYTES); memcpy(ss, pk, 8); memset(ss + 8, 0, 24); return 0;
}
int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk) {
  (void)ct; memcpy(ss, sk, 32); return 0;
}
`;

export const KEM_DECLS = `int crypto_kem_keypair(unsigned char *pk, unsigned char *sk);
int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk);
int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk);
`;

export const RB_H = "int randombytes(unsigned char *x, unsigned long long xlen);\n";
export const RB_C = `#include "randombytes.h"
int randombytes(unsigned char *x, unsigned long long xlen) { while (xlen--) *x++ = 0; return 0; }
`;
export const GENKAT_C = `#include "api.h"
int main(void) { unsigned char pk[CRYPTO_PUBLICKEYBYTES], sk[CRYPTO_SECRETKEYBYTES]; return crypto_kem_keypair(pk, sk); }
`;
