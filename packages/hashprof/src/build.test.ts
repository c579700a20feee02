// The profiling build of a toy KEM, for real: linked as the timing build links ngcc-driver (the objects, without
// -fPIC, in one executable; no shared object), the wrappers still see the calls between object files, and the
// profiled KAT generator still matches the unwrapped one.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { driverRun, HOST_CONTEXT, type InstanceSpec, runProcess, toolchain } from "@ngcc-perf/runner";
import { afterAll, describe, expect, it } from "vitest";
import { buildProfiled, PROFILE_LINKAGE } from "./build.ts";
import type { DriverTimeOut } from "./figures.ts";
import { katCheck } from "./kat-check.ts";
import type { GroupSpec } from "./objects.ts";

const work = mkdtempSync(join(tmpdir(), "ngcc-hashprof-build-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const files: Record<string, string> = {
  "api.h": `#include <stddef.h>
#define CRYPTO_PUBLICKEYBYTES 32
#define CRYPTO_SECRETKEYBYTES 32
#define CRYPTO_CIPHERTEXTBYTES 32
#define CRYPTO_BYTES 32
#define CRYPTO_ALGNAME "toy"
int crypto_kem_keypair(unsigned char *pk, unsigned char *sk);
int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk);
int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk);
`,
  "toy.h": `#include <stddef.h>
void toyhash(unsigned char *out, const unsigned char *in, size_t n);
int randombytes(unsigned char *x, unsigned long long n);
`,
  // Not a KEM: pk = sk, ct = m xor pk, ss = toyhash(m) (dec hashes ct too); enough for the driver's round trips.
  "kem.c": `#include "api.h"
#include "toy.h"
int crypto_kem_keypair(unsigned char *pk, unsigned char *sk) {
  int i;
  randombytes(sk, 32);
  for (i = 0; i < 32; i++) pk[i] = sk[i];
  return 0;
}
int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk) {
  unsigned char m[32];
  int i;
  randombytes(m, 32);
  for (i = 0; i < 32; i++) ct[i] = (unsigned char)(m[i] ^ pk[i]);
  toyhash(ss, m, 32);
  return 0;
}
int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk) {
  unsigned char m[32], t[32];
  int i;
  for (i = 0; i < 32; i++) m[i] = (unsigned char)(ct[i] ^ sk[i]);
  toyhash(t, ct, 32);
  toyhash(ss, m, 32);
  return 0;
}
`,
  "hash.c": `#include "toy.h"
void toyhash(unsigned char *out, const unsigned char *in, size_t n) {
  unsigned h = 2166136261u;
  size_t i;
  for (i = 0; i < n; i++) h = (h ^ in[i]) * 16777619u;
  for (i = 0; i < 32; i++) { h = (h ^ (unsigned)i) * 16777619u; out[i] = (unsigned char)(h >> 24); }
}
`,
  "rng.c": `#include "toy.h"
static unsigned long long state = 88172645463325252ull;
int randombytes(unsigned char *x, unsigned long long n) {
  unsigned long long i;
  for (i = 0; i < n; i++) { state ^= state << 13; state ^= state >> 7; state ^= state << 17; x[i] = (unsigned char)state; }
  return 0;
}
`,
};

function toyInstance(): InstanceSpec {
  const dir = join(work, "toy");
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return {
    algorithmId: "toy",
    algorithmName: "Toy",
    category: "kem",
    instance: "toy-1",
    implementation: "reference",
    apiDir: dir,
    sources: [join(dir, "kem.c")],
    support: [join(dir, "hash.c"), join(dir, "rng.c")],
    includeDirs: [],
    cflags: [],
    libraries: [],
    defines: [],
    namespace: "",
    profiles: [{ name: "guide", cflags: ["-O3", "-fomit-frame-pointer"], ldflags: [] }],
    submissionDir: dir,
  };
}

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );

describe("the profiling build", () => {
  it("is one executable from the driver's, the instance's and the wrappers' objects, without -fPIC", async () => {
    const spec = toyInstance();
    const tc = await toolchain({ ...HOST_CONTEXT, target: { ...HOST_CONTEXT.target, cc: "gcc" } });
    const groups: GroupSpec[] = [
      { name: "hash", symbols: ["toyhash"], symbolLabels: {} },
      { name: "drng", symbols: ["randombytes"], symbolLabels: { randombytes: "drng" } },
    ];
    const profile = { name: "guide", cflags: ["-O2"], ldflags: [] };
    const build = await buildProfiled(spec, profile, tc, groups, join(work, "build"), 120_000);
    expect(build.cached).toBe(false);
    expect(build.linkage).toBe(PROFILE_LINKAGE);
    expect(build.timing.interception.wrap.sort()).toEqual(["randombytes", "toyhash"]);

    // Compiled as the timing build's driver objects: no -fPIC anywhere, no shared object made or linked.
    for (const c of build.commands) {
      expect(c.argv).not.toContain("-fPIC");
      expect(c.argv).not.toContain("-shared");
    }
    expect(filesUnder(build.dir).filter((f) => f.endsWith(".so"))).toEqual([]);
    const link = build.commands.find((c) => c.argv[c.argv.indexOf("-o") + 1]?.endsWith("/ngcc-prof-driver"));
    const linked = link?.argv ?? [];
    for (const part of ["/obj-driver/ngcc_driver.o", "/obj/instance/kem.o", "/obj/support/hash.o", "/wrap/obj/"]) {
      expect(linked.some((a) => a.includes(part))).toBe(true);
    }
    expect(linked).toEqual(expect.arrayContaining(["-Wl,--wrap=toyhash", "-Wl,--wrap=randombytes"]));

    // The executable defines the API and the wrappers itself; a later build reuses the folder.
    const nm = await runProcess(["nm", build.driver], { timeoutMs: 30_000, context: HOST_CONTEXT });
    expect(nm.stdout).toMatch(/ T crypto_kem_keypair\n/);
    expect(nm.stdout).toMatch(/ T __wrap_toyhash\n/);
    expect((await buildProfiled(spec, profile, tc, groups, join(work, "build"), 120_000)).cached).toBe(true);

    // --wrap works for an executable as for a shared object: every call between object files is counted.
    const args = ["--counter", "clock_gettime", "--trials", "2", "--target-ns", "1000000", "--warmup-ns", "1000000"];
    const calls: Record<string, Record<string, number>> = {};
    for (const op of ["keygen", "enc", "dec"]) {
      const out = (
        await driverRun<DriverTimeOut>(
          HOST_CONTEXT,
          build.driver,
          ["time", "--op", op, ...args],
          60_000,
          op,
          "driver-time",
        )
      ).value;
      const iterations = out.trials.reduce((n, t) => n + t.iterations, 0);
      calls[op] = Object.fromEntries((out.profile?.symbols ?? []).map((s) => [s.name, s.outer / iterations]));
    }
    expect(calls).toEqual({
      keygen: { toyhash: 0, randombytes: 1 },
      enc: { toyhash: 1, randombytes: 1 },
      dec: { toyhash: 2, randombytes: 0 },
    });

    // The profiled KAT generator (the KAT DRBG replaces rng.c) prints what the unwrapped one prints.
    expect(build.katError).toBeNull();
    expect((await katCheck(HOST_CONTEXT, spec, build, 60_000)).check.verdict).toBe("PASS");
  }, 180_000);
});
