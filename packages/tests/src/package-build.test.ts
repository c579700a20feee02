/**
 * What a real package's build needs beyond sources, include folders and plain defines (issue 24, classes 5–8),
 * on a toy KEM made in the test, shaped as real packages are:
 *  - its api.h declares nothing itself: it includes params.h (sizes from sizeof and expressions) and kem.h (the
 *    CRYPTO_* macros and the crypto_kem_* names through a function-like namespace macro given by the build,
 *    -DWAX_NS(s)=wax_ref_##s);
 *  - it links OpenSSL's libcrypto (SHA-256), named in meta.json's `libraries` and linked after the objects, so
 *    Debian's default --as-needed keeps it;
 *  - its rng.h renames randombytes by a macro (wax_randombytes), and its own randombytes.c (left out) defines it;
 *    meta.json's api.randombytes names the symbol, which the build links to ngcc-perf's randombytes;
 *  - a cflags entry (-std=c11: the code uses _Static_assert).
 * `run --steps build,kat,sizes` builds it, its KAT (made by ngcc-perf's own KAT generator compiled by hand with the
 * same flags) passes and the sizes are those of params.h. Without `libraries` the link fails naming SHA256; a
 * meta.json with an optimisation flag in cflags is refused with its pointer. Behaviour only, never timings.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filesUnder, katByHand, makeTempDir, recordsOfKind, runCli } from "./fixture-tools.ts";

const work = makeTempDir("ngcc-package-build-");
afterAll(() => {
  if (!process.env.NGCC_KEEP_TEMP) rmSync(work, { recursive: true, force: true });
});

const API_H = `#ifndef WAX_API_H
#define WAX_API_H
#include "params.h"
#include "kem.h"
#endif
`;

const PARAMS_H = `#ifndef WAX_PARAMS_H
#define WAX_PARAMS_H
#include <stdint.h>
#define WAX_N 24
typedef struct { uint8_t seed[WAX_N]; uint8_t digest[32]; } wax_sk_t;
#define WAX_PUBLICKEYBYTES 32
#define WAX_SECRETKEYBYTES (sizeof(wax_sk_t) + WAX_PUBLICKEYBYTES)
#define WAX_CIPHERTEXTBYTES (WAX_N + 8)
#endif
`;

const KEM_H = `#ifndef WAX_KEM_H
#define WAX_KEM_H
#include "params.h"
#define CRYPTO_SECRETKEYBYTES WAX_SECRETKEYBYTES
#define CRYPTO_PUBLICKEYBYTES WAX_PUBLICKEYBYTES
#define CRYPTO_CIPHERTEXTBYTES WAX_CIPHERTEXTBYTES
#define CRYPTO_BYTES 32
#define CRYPTO_ALGNAME "Wax-24"
#define crypto_kem_keypair WAX_NS(keypair)
#define crypto_kem_enc WAX_NS(enc)
#define crypto_kem_dec WAX_NS(dec)
int crypto_kem_keypair(unsigned char *pk, unsigned char *sk);
int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk);
int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk);
#endif
`;

const RNG_H = `#ifndef WAX_RNG_H
#define WAX_RNG_H
#define randombytes wax_randombytes
int randombytes(unsigned char *x, unsigned long long xlen);
#endif
`;

// A toy, not a KEM anyone should use: the ciphertext is a random message masked by a hash of pk.
const WAX_C = `#include <string.h>
#include <openssl/sha.h>
#include "api.h"
#include "rng.h"

_Static_assert(WAX_N <= 32, "WAX_N fits a SHA-256 digest");

static void wax_hash(unsigned char out[32], const unsigned char *a, size_t alen, const unsigned char *b, size_t blen) {
    unsigned char buf[128];
    memcpy(buf, a, alen);
    memcpy(buf + alen, b, blen);
    SHA256(buf, alen + blen, out);
}

int crypto_kem_keypair(unsigned char *pk, unsigned char *sk) {
    wax_sk_t s;
    randombytes(s.seed, WAX_N);
    SHA256(s.seed, WAX_N, pk);
    memcpy(s.digest, pk, 32);
    memcpy(sk, &s, sizeof s);
    memcpy(sk + sizeof s, pk, WAX_PUBLICKEYBYTES);
    return 0;
}

int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk) {
    unsigned char m[WAX_N], pad[32];
    int i;
    randombytes(m, WAX_N);
    wax_hash(pad, pk, 32, (const unsigned char *)"pad", 3);
    for (i = 0; i < WAX_N; i++) {
        ct[i] = (unsigned char)(m[i] ^ pad[i]);
    }
    memcpy(ct + WAX_N, pad + WAX_N, 8);
    wax_hash(ss, m, WAX_N, ct, WAX_CIPHERTEXTBYTES);
    return 0;
}

int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk) {
    unsigned char m[WAX_N], pad[32];
    int i;
    wax_hash(pad, sk + sizeof(wax_sk_t), 32, (const unsigned char *)"pad", 3);
    for (i = 0; i < WAX_N; i++) {
        m[i] = (unsigned char)(ct[i] ^ pad[i]);
    }
    wax_hash(ss, m, WAX_N, ct, WAX_CIPHERTEXTBYTES);
    return 0;
}
`;

// The submitter's randombytes under its renamed symbol (zeros): ngcc-perf must leave it out and link its own.
const OWN_RANDOMBYTES_C = `#include <string.h>
#include "rng.h"

int randombytes(unsigned char *x, unsigned long long xlen) {
    memset(x, 0, (size_t)xlen);
    return 0;
}
`;

const NS_DEFINE = "WAX_NS(s)=wax_ref_##s";

function makeSubmission(name: string, edit?: (inst: Record<string, unknown>) => void) {
  const dir = join(work, name, "sub");
  const ref = join(dir, "Reference_Implementation", "Wax-24");
  mkdirSync(ref, { recursive: true });
  writeFileSync(join(ref, "api.h"), API_H);
  writeFileSync(join(ref, "params.h"), PARAMS_H);
  writeFileSync(join(ref, "kem.h"), KEM_H);
  writeFileSync(join(ref, "rng.h"), RNG_H);
  writeFileSync(join(ref, "wax.c"), WAX_C);
  writeFileSync(join(ref, "randombytes.c"), OWN_RANDOMBYTES_C);
  const inst: Record<string, unknown> = {
    name: "Wax-24",
    folder: "Reference_Implementation/Wax-24",
    apiHeader: "Reference_Implementation/Wax-24/api.h",
    api: { randombytes: "wax_randombytes" },
    sources: ["Reference_Implementation/Wax-24/wax.c", "Reference_Implementation/Wax-24/randombytes.c"],
    includeDirs: ["Reference_Implementation/Wax-24"],
    defines: [NS_DEFINE],
    cflags: ["-std=c11"],
    libraries: ["crypto"],
    kat: { file: "KAT/Wax-24/PQCkemKAT_88.rsp" },
  };
  edit?.(inst);
  const meta = { schemaVersion: 1, id: "kem-96", name: "Wax", category: "kem", instances: [inst] };
  writeFileSync(join(dir, "meta.json"), `${JSON.stringify(meta, null, 2)}\n`);
  const campaign = join(work, name, "campaign.yaml");
  writeFileSync(
    campaign,
    [
      `name: ${name}`,
      "system: x86_1",
      "defaultProfile: guide",
      "buildProfiles:",
      "  guide:",
      '    cflags: ["-O2"]',
      "algorithms:",
      "  - id: kem-96",
      "    source: { submission: sub }",
      "",
    ].join("\n"),
  );
  return { dir, campaign, ref };
}

/** The expected KAT file: ngcc-perf's KAT generator compiled by hand with the package's flags and libcrypto. */
async function writeKat(dir: string, ref: string): Promise<void> {
  const r = await katByHand(
    ["-std=c11", "-O2", `-D${NS_DEFINE}`, "-I", ref, join(ref, "wax.c")],
    join(dir, "KAT", "Wax-24", "PQCkemKAT_88.rsp"),
    ["-Wl,--defsym,wax_randombytes=randombytes", "-lcrypto"],
  );
  expect(r.build.stderr).toBe("");
  expect(r.build.status).toBe(0);
  expect(r.generate?.status).toBe(0);
}

describe("a package with an api.h that only includes, libcrypto, a renamed randombytes and a namespace macro", () => {
  const s = makeSubmission("wax");
  const out = join(work, "wax", "out");
  let result: ReturnType<typeof runCli>;
  beforeAll(async () => {
    await writeKat(s.dir, s.ref);
    result = runCli(["run", s.campaign, "--out", out, "--steps", "build,kat,sizes"]);
  }, 900_000);

  it("builds and passes its KAT", () => {
    expect(result.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND/);
    expect(result.code, result.stderr).toBe(0);
    const kat = recordsOfKind(out, /^kat$/);
    expect(kat).toHaveLength(1);
    expect(kat[0]?.verdict).toBe("PASS");
  });

  it("reads the sizes params.h gives by sizeof", () => {
    const text = JSON.stringify(recordsOfKind(out, /^size-audit$/));
    expect(text).toMatch(/"secretKeyBytes":88\b/);
    expect(text).toMatch(/"ciphertextBytes":32\b/);
  });

  it("links libcrypto after the objects and the renamed randombytes to ngcc-perf's", () => {
    const builds = filesUnder(join(out, "build")).filter((f) => f.endsWith(".build.json"));
    expect(builds.length).toBeGreaterThan(0);
    const links = builds
      .flatMap((f) => (JSON.parse(readFileSync(f, "utf8")) as { commands: Array<{ argv: string[] }> }).commands)
      .map((c) => c.argv)
      .filter((argv) => argv.includes("-o") && !argv.includes("-c") && argv.some((a) => a.endsWith(".o")));
    expect(links.length).toBeGreaterThan(0);
    for (const argv of links) {
      const lib = argv.indexOf("-lcrypto");
      expect(lib, argv.join(" ")).toBeGreaterThan(-1);
      const lastObject = Math.max(...argv.map((a, k) => (a.endsWith(".o") ? k : -1)));
      expect(lib).toBeGreaterThan(lastObject);
    }
    const executables = links.filter((argv) => !argv.includes("-shared"));
    expect(executables.length).toBeGreaterThan(0);
    for (const argv of executables) expect(argv).toContain("-Wl,--defsym,wax_randombytes=randombytes");
  });
});

describe("what the build refuses or cannot link", () => {
  it("without libraries the link fails naming the OpenSSL function", () => {
    const s = makeSubmission("no-lib", (inst) => {
      delete inst.libraries;
    });
    const r = runCli(["run", s.campaign, "--out", join(work, "no-lib", "out"), "--steps", "build"]);
    expect(r.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND/);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/undefined reference to `SHA256'/);
  });

  it("an optimisation flag in cflags is refused with its pointer", () => {
    const s = makeSubmission("bad-cflag", (inst) => {
      inst.cflags = ["-std=c11", "-O3"];
    });
    const r = runCli(["run", s.campaign, "--out", join(work, "bad-cflag", "out"), "--steps", "build"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/meta\.json:\d+:\d+ \/instances\/0\/cflags\/1 /);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
