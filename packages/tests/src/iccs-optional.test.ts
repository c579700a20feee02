/**
 * A NIST-format submission without ICCS (issue 15, part B), made in the test: a toy KEM whose API header is
 * named kem.h (a decoy api.h with #error sits on its include path), with the submitter's own randombytes.c among
 * its sources (returning zeros; linked, it would clash with ngcc-perf's randombytes). `ngcc-perf run` builds it,
 * its KAT (made by ngcc-perf's own KAT generator) passes, it is timed, nothing of fixtures/iccs is compiled or
 * linked, libinstance.so holds its own code only, and the console says once that randombytes.c was left out.
 * Then: a wrong apiHeader is bad input naming the file; a compile error shows its first error line whole and a
 * failed build is compiled once in a run of build, time and profile. Behaviour only, never timings.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filesUnder, iccsDir, katByHand, makeTempDir, recordsOfKind, runCli, STRICT_CFLAGS } from "./fixture-tools.ts";

const work = makeTempDir("ngcc-iccs-optional-");
afterAll(() => {
  if (!process.env.NGCC_KEEP_TEMP) rmSync(work, { recursive: true, force: true });
});

const KEM_H = `#ifndef FINCH_KEM_H
#define FINCH_KEM_H
#define CRYPTO_SECRETKEYBYTES 64
#define CRYPTO_PUBLICKEYBYTES 32
#define CRYPTO_CIPHERTEXTBYTES 32
#define CRYPTO_BYTES 32
#define CRYPTO_ALGNAME "Finch-1"
int crypto_kem_keypair(unsigned char *pk, unsigned char *sk);
int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk);
int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk);
#endif
`;

const RNG_H = `#ifndef FINCH_RNG_H
#define FINCH_RNG_H
int randombytes(unsigned char *x, unsigned long long xlen);
#endif
`;

// A toy, not a KEM anyone should use: the shared secret is a keyed mix of a random message sent under pk.
const FINCH_C = `#include <string.h>
#include "kem.h"
#include "rng.h"

static void finch_mix(unsigned char out[32], const unsigned char *in, size_t inlen, unsigned char tag) {
    unsigned int h = 2166136261u ^ tag;
    size_t i;
    int k;
    for (k = 0; k < 32; k++) {
        for (i = 0; i < inlen; i++) {
            h = (h ^ in[i]) * 16777619u;
        }
        h = (h ^ (unsigned int)k) * 16777619u;
        out[k] = (unsigned char)(h >> 24);
    }
}

int crypto_kem_keypair(unsigned char *pk, unsigned char *sk) {
    randombytes(sk, 32);
    finch_mix(pk, sk, 32, 1);
    memcpy(sk + 32, pk, 32);
    return 0;
}

int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk) {
    unsigned char m[32], pad[32], both[64];
    int i;
    randombytes(m, 32);
    finch_mix(pad, pk, 32, 2);
    for (i = 0; i < 32; i++) {
        ct[i] = (unsigned char)(m[i] ^ pad[i]);
    }
    memcpy(both, m, 32);
    memcpy(both + 32, ct, 32);
    finch_mix(ss, both, 64, 3);
    return 0;
}

int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk) {
    unsigned char m[32], pad[32], both[64];
    int i;
    finch_mix(pad, sk + 32, 32, 2);
    for (i = 0; i < 32; i++) {
        m[i] = (unsigned char)(ct[i] ^ pad[i]);
    }
    memcpy(both, m, 32);
    memcpy(both + 32, ct, 32);
    finch_mix(ss, both, 64, 3);
    return 0;
}
`;

// The submitter's randombytes (zeros): ngcc-perf must leave it out.
const OWN_RANDOMBYTES_C = `#include <string.h>
#include "rng.h"

int randombytes(unsigned char *x, unsigned long long xlen) {
    memset(x, 0, (size_t)xlen);
    return 0;
}
`;

interface Layout {
  dir: string;
  campaign: string;
}

/** Writes the toy submission (meta.json overridable) and a campaign without iccs beside it. */
function makeSubmission(name: string, o: { meta?: (m: Record<string, unknown>) => void; campaign?: string } = {}) {
  const dir = join(work, name, "sub");
  const ref = join(dir, "Reference_Implementation");
  mkdirSync(join(ref, "Finch-1"), { recursive: true });
  mkdirSync(join(ref, "common"), { recursive: true });
  writeFileSync(join(ref, "Finch-1", "kem.h"), KEM_H);
  writeFileSync(join(ref, "common", "api.h"), '#error "the decoy api.h: the build must include kem.h"\n');
  writeFileSync(join(ref, "common", "rng.h"), RNG_H);
  writeFileSync(join(ref, "common", "finch.c"), FINCH_C);
  writeFileSync(join(ref, "common", "randombytes.c"), OWN_RANDOMBYTES_C);
  const meta: Record<string, unknown> = {
    schemaVersion: 1,
    id: "kem-95",
    name: "Finch",
    category: "kem",
    summary: "Toy KEM without ICCS, made by a test.",
    implementations: [{ name: "reference", folder: "Reference_Implementation" }],
    parameterSets: ["Finch-1"],
    instances: [
      {
        name: "Finch-1",
        implementation: "reference",
        parameterSet: "Finch-1",
        folder: "Reference_Implementation/Finch-1",
        apiHeader: "Reference_Implementation/Finch-1/kem.h",
        sources: ["Reference_Implementation/common/finch.c", "Reference_Implementation/common/randombytes.c"],
        includeDirs: ["Reference_Implementation/Finch-1", "Reference_Implementation/common"],
        defines: [],
        kat: { file: "KAT/Finch-1/PQCkemKAT_64.rsp" },
      },
    ],
  };
  o.meta?.(meta);
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
      "timing: { workerMs: 20, budgetMs: 200, trials: 3, minIterations: 5, targetTrialMs: 5 }",
      ...(o.campaign ? [o.campaign] : []),
      "algorithms:",
      "  - id: kem-95",
      "    source: { submission: sub }",
      "",
    ].join("\n"),
  );
  return { dir, campaign } satisfies Layout;
}

/** The expected KAT file, made by ngcc-perf's KAT generator compiled by hand (the submitter's randombytes out). */
async function writeKat(dir: string): Promise<void> {
  const ref = join(dir, "Reference_Implementation");
  const r = await katByHand(
    [
      ...STRICT_CFLAGS,
      `-DNGCC_API_HEADER="${join(ref, "Finch-1", "kem.h")}"`,
      "-I",
      join(ref, "Finch-1"),
      "-I",
      join(ref, "common"),
      join(ref, "common", "finch.c"),
    ],
    join(dir, "KAT", "Finch-1", "PQCkemKAT_64.rsp"),
  );
  expect(r.build.stderr).toBe("");
  expect(r.build.status).toBe(0);
  expect(r.generate?.status).toBe(0);
}

describe("a submission without ICCS, with its own randombytes.c and a header named kem.h", () => {
  const s = makeSubmission("finch");
  const out = join(work, "finch", "out");
  let result: ReturnType<typeof runCli>;
  beforeAll(async () => {
    await writeKat(s.dir);
    result = runCli(["run", s.campaign, "--out", out, "--steps", "build,kat,time", "--quick"]);
  }, 900_000);

  it("builds, passes its KAT and is timed", () => {
    expect(result.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND/);
    expect(result.code, result.stderr).toBe(0);
    const kat = recordsOfKind(out, /^kat$/);
    expect(kat).toHaveLength(1);
    expect(kat[0]?.verdict).toBe("PASS");
    const timing = recordsOfKind(out, /^timing$/);
    expect(timing.map((r) => r.operation).sort()).toEqual(["dec", "enc", "keygen"]);
    for (const r of timing) expect(r.status).toBe("ok");
  });

  it("compiles and links nothing of ICCS, nor the submitter's randombytes.c", () => {
    const text = filesUnder(out)
      .filter((f) => f.endsWith(".json"))
      .map((f) => readFileSync(f, "utf8"))
      .join("\n");
    expect(text).toContain("ngcc_randombytes.c");
    expect(text).not.toContain(iccsDir);
    expect(text).not.toMatch(/fixtures\/iccs|iccs\.h|sm3\.c|pseudo\.c|drng\.c/);
    expect(text).not.toMatch(/common\/randombytes\.c"/);
  });

  it("libinstance.so holds its own code only", () => {
    const so = filesUnder(join(out, "build")).filter((f) => f.endsWith("/libinstance.so"));
    expect(so.length).toBeGreaterThan(0);
    for (const f of so) {
      const nm = spawnSync("nm", ["-D", "--defined-only", f], { encoding: "utf8" });
      expect(nm.status).toBe(0);
      expect(nm.stdout).toMatch(/\bcrypto_kem_enc\b/);
      expect(nm.stdout).not.toMatch(/\brandombytes\b|sm3|pseudo/);
    }
  });

  it("says once that the submitter's randombytes.c was left out", () => {
    const note =
      "kem-95/Finch-1: left out Reference_Implementation/common/randombytes.c: ngcc-perf provides randombytes (the KAT DRBG or the system RNG)";
    expect(result.stderr.split("\n").filter((l) => l === note)).toHaveLength(1);
  });
});

describe("apiHeader names a file", () => {
  it("a wrong file is bad input naming it and the pointer", () => {
    const s = makeSubmission("wrong-header", {
      meta: (m) => {
        (m.instances as Array<Record<string, unknown>>)[0] = {
          ...(m.instances as Array<Record<string, unknown>>)[0],
          apiHeader: "Reference_Implementation/Finch-1/kem_h.h",
        };
      },
    });
    const r = runCli(["run", s.campaign, "--out", join(work, "wrong-header", "out"), "--steps", "build"]);
    expect(r.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND/);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "/instances/0/apiHeader: Reference_Implementation/Finch-1/kem_h.h does not exist; expected the API header file",
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("a header that is not an API header is refused", () => {
    const s = makeSubmission("not-api", {
      meta: (m) => {
        (m.instances as Array<Record<string, unknown>>)[0] = {
          ...(m.instances as Array<Record<string, unknown>>)[0],
          apiHeader: "Reference_Implementation/common/rng.h",
        };
      },
    });
    writeFileSync(join(s.dir, "Reference_Implementation", "common", "rng.h"), RNG_H.replace(/randombytes/g, "rb"));
    const r = runCli(["run", s.campaign, "--out", join(work, "not-api", "out"), "--steps", "build"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("/instances/0/apiHeader: Reference_Implementation/common/rng.h is not an API header");
  });
});

describe("a compile error", () => {
  const wrapper = join(work, "broken", "cc-log.sh");
  const s = makeSubmission("broken", { campaign: `sandbox: { enabled: false }\ncompiler: { cc: "${wrapper}" }` });
  const log = join(work, "broken", "cc.log");
  const out = join(work, "broken", "out");
  let result: ReturnType<typeof runCli>;
  beforeAll(() => {
    writeFileSync(wrapper, `#!/bin/sh\necho "$*" >> '${log}'\nexec gcc "$@"\n`);
    chmodSync(wrapper, 0o755);
    const finch = join(s.dir, "Reference_Implementation", "common", "finch.c");
    writeFileSync(finch, FINCH_C.replace("    randombytes(sk, 32);", "    randombytes(sk, 32)\n    int oops = ;"));
    result = runCli(["run", s.campaign, "--out", out, "--steps", "build,time,profile", "--quick"]);
  }, 900_000);

  it("shows the first compiler error line whole, on the console and in the failure record", () => {
    expect(result.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND/);
    expect(result.code, result.stderr).toBe(1);
    const finch = join(s.dir, "Reference_Implementation", "common", "finch.c");
    const line = new RegExp(`${finch.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:\\d+:\\d+: error: [^\\n]+`);
    const first = result.stderr.match(line)?.[0];
    expect(first, result.stderr).toBeDefined();
    const timing = recordsOfKind(out, /^timing$/);
    expect(timing.length).toBe(3);
    for (const r of timing) {
      const message = (r.failure as { reason: string; message: string }).message;
      expect((r.failure as { reason: string }).reason).toBe("compile-error");
      expect(message.split("\n")[0]).toContain(first as string);
    }
  });

  it("compiles the failing source once in the whole run", () => {
    const compiles = readFileSync(log, "utf8")
      .split("\n")
      .filter((l) => / -c \S*finch\.c /.test(l));
    expect(compiles).toHaveLength(1);
  });
});
