/**
 * `ngcc-perf init` (issue 15, part D): meta.json drafted from a submission folder as it arrives.
 *  - the five fixtures, copied without their meta.json: init's draft agrees with the committed meta.json in every
 *    field init can know (the differences are listed in fixtures/README.md), and their kat.sha256 is checked;
 *  - a folder init has not seen before: one source folder with per-set -D defines in a Makefile, an API header
 *    named kem.h, the submitter's randombytes.c and KAT program, no ICCS; a FIPS 204 signature header; a missing
 *    .rsp and a corrupt manifest said plainly; meta.json never overwritten without --force;
 *  - PQClean's ML-KEM-768 and ML-DSA-44 laid out as NIST submissions (Reference_Implementation/<set>/ with api.h and
 *    the scheme's sources, Reference_Implementation/common/ with the PQClean common files they need, minus
 *    randombytes.c; KAT/<set>/ with .rsp files made by ngcc-perf's KAT generator): init's draft, then `run` on a
 *    small campaign with no hand-edited file — KAT PASS, every section of the page filled, no ICCS wording.
 * Behaviour only, never timings.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  KAT_RNG_SOURCES,
  katgenDir,
  makeTempDir,
  nativeIncludeDir,
  pqcleanDir,
  run,
  runCli,
  runCliAsync,
  submissionsDir,
} from "./fixture-tools.ts";

const work = makeTempDir("ngcc-init-");
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface DraftInstance {
  name: string;
  implementation: string;
  parameterSet: string;
  folder: string;
  apiHeader: string;
  api?: { style?: string; prefix?: string };
  sources: string[];
  includeDirs: string[];
  defines: string[];
  randomness: string;
  randombytesSource?: string;
  kat: { file?: string; defines: string[]; randomness: string };
}
interface Draft {
  id: string;
  name: string;
  category: string;
  iccs?: { header: string; hash: string[]; drng: string[] } | null;
  katManifest?: string;
  parameterSets: string[];
  implementations: Array<{ name: string; folder: string }>;
  instances: DraftInstance[];
  profiler?: {
    groups: Record<string, { symbols: string[]; label: string; kind: string }>;
    replaceCampaignGroups?: boolean;
  };
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, "utf8")) as T;

/** `ngcc-perf <args>`, rerun (a few times, 5 s apart) while a build elsewhere is rewriting a dist folder. */
function cli(args: string[]) {
  let r = runCli(args);
  for (let k = 0; k < 6 && r.code !== 0 && /ERR_MODULE_NOT_FOUND/.test(r.stderr); k++) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5000);
    r = runCli(args);
  }
  return r;
}
const init = (...args: string[]) => cli(["init", ...args]);

describe("init on the fixtures (their meta.json removed)", () => {
  /** Fields init cannot know from the folder (a person's words and choices), and the -K- variants of kem-90. */
  const KNOWN = {
    // Puffin-K-* are the same folders built with -DPUFFIN_OWN_KECCAK: nothing in the folder names them.
    "kem-90": { onlyIn: ["Puffin-K-128", "Puffin-K-192", "Puffin-K-256"], extraSources: [] },
  } as Record<string, { onlyIn: string[]; extraSources: string[] }>;

  for (const id of ["kem-90", "sig-91", "kex-92", "sig-93", "sig-94"]) {
    it(`${id}: the draft agrees with the committed meta.json`, () => {
      const dir = join(work, "fixtures", id);
      cpSync(join(submissionsDir, id), dir, { recursive: true });
      rmSync(join(dir, "meta.json"));
      const r = init(dir);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("KAT/kat.sha256: checked, every KAT file matches");
      // The summary is among what init could not decide (after, for kem-90, the Puffin-K-* KAT files no
      // instance uses: init now says so).
      expect(r.stdout).toMatch(/Could not decide[^\n]*\n( {2}[^\n]*\n)* {2}summary: not in the folder/);
      const draft = readJson<Draft>(join(dir, "meta.json"));
      const fixture = readJson<Draft>(join(submissionsDir, id, "meta.json"));
      expect(draft.id).toBe(fixture.id);
      expect(draft.category).toBe(fixture.category);
      expect(draft.iccs).toEqual(fixture.iccs);
      expect(draft.katManifest).toBe(fixture.katManifest);
      expect(draft.implementations).toEqual(fixture.implementations);
      const known = KNOWN[id] ?? { onlyIn: [], extraSources: [] };
      expect(fixture.instances.map((i) => i.name).filter((n) => !known.onlyIn.includes(n))).toEqual(
        draft.instances.map((i) => i.name),
      );
      for (const d of draft.instances) {
        const f = fixture.instances.find((i) => i.name === d.name) as DraftInstance;
        expect(d.folder, d.name).toBe(f.folder);
        expect(d.apiHeader, d.name).toBe(f.apiHeader);
        expect(d.parameterSet, d.name).toBe(f.parameterSet);
        expect(d.includeDirs, d.name).toEqual(f.includeDirs);
        expect(d.defines, d.name).toEqual(f.defines);
        expect(d.randomness, d.name).toBe(f.randomness);
        expect(d.kat, d.name).toEqual(f.kat);
        const extra = known.extraSources.map((s) => `Reference_Implementation/${s}`);
        expect([...d.sources].sort(), d.name).toEqual([...f.sources, ...extra].sort());
        if (fixture.category === "sign") expect(d.api?.style, d.name).toBe(f.api?.style ?? "nist");
      }
      // The ICCS placeholders as the profiler's groups, with the ICCS wording.
      expect(draft.profiler?.groups.hash?.symbols).toEqual(fixture.iccs?.hash);
      expect(draft.profiler?.groups.drng?.symbols).toEqual(["randombytes"]);
      // The draft is a valid meta.json.
      const v = cli(["validate", join(dir, "meta.json")]);
      expect(v.code, v.stdout + v.stderr).toBe(0);
    }, 120_000);
  }

  it("kem-90: keccak.c, called only with -DPUFFIN_OWN_KECCAK, is left out with a note; no SHA-3 group", () => {
    const dir = join(work, "fixtures", "kem-90");
    const r = init(dir, "--force");
    expect(r.code).toBe(0);
    // The -K- variants' KAT files fit the sizes of instances that took other files: said, not silently unused.
    expect(r.stdout).toContain(
      "KAT files no instance uses: KAT/Puffin-K-128/PQCkemKAT_1632.rsp, KAT/Puffin-K-192/PQCkemKAT_2400.rsp, KAT/Puffin-K-256/PQCkemKAT_3168.rsp",
    );
    // Said once for the three sets (each instance's own line before init grouped what every instance shares).
    expect(r.stdout).toContain(
      "every instance: left out Reference_Implementation/common/keccak.c: none of the instance's other sources calls its functions",
    );
    const draft = readJson<Draft>(join(dir, "meta.json"));
    expect(Object.keys(draft.profiler?.groups ?? {}).sort()).toEqual(["drng", "hash"]);
  }, 120_000);

  it("never overwrites meta.json without --force", () => {
    const dir = join(work, "fixtures", "sig-93");
    const before = readFileSync(join(dir, "meta.json"), "utf8");
    writeFileSync(join(dir, "meta.json"), `${before.trim()} `);
    const r = init(dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/meta\.json: exists; init never overwrites it \(--force/);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(readFileSync(join(dir, "meta.json"), "utf8")).toBe(`${before.trim()} `);
    const f = init(dir, "--force");
    expect(f.code).toBe(0);
    expect(readFileSync(join(dir, "meta.json"), "utf8")).toBe(before);
  }, 120_000);
});

describe("init with two implementations, the folder named by a relative path", () => {
  it("Reference_Implementation and Optimized_Implementation: one instance each, the same KAT file", () => {
    const dir = join(work, "two-impl", "sig-93");
    cpSync(join(submissionsDir, "sig-93"), dir, { recursive: true });
    rmSync(join(dir, "meta.json"));
    cpSync(join(dir, "Reference_Implementation"), join(dir, "Optimized_Implementation"), { recursive: true });
    const r = init(relative(process.cwd(), dir));
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const draft = readJson<Draft>(join(dir, "meta.json"));
    expect(draft.implementations).toEqual([
      { name: "reference", folder: "Reference_Implementation" },
      { name: "optimized", folder: "Optimized_Implementation" },
    ]);
    expect(draft.instances.map((i) => [i.name, i.implementation, i.parameterSet, i.sources, i.kat.file])).toEqual([
      [
        "Wren-128",
        "reference",
        "Wren-128",
        ["Reference_Implementation/common/sign.c"],
        "KAT/Wren-128/PQCsignKAT_224.rsp",
      ],
      [
        "Wren-128-optimized",
        "optimized",
        "Wren-128",
        ["Optimized_Implementation/common/sign.c"],
        "KAT/Wren-128/PQCsignKAT_224.rsp",
      ],
    ]);
    expect(r.stdout).toContain("sig-93,Wren-128-optimized,sign,800,,544,,,");
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------------------------
// A folder init has not seen: one source folder, per-set -D defines in a Makefile, the header named kem.h.

const TOY_KEM_H = `#ifndef TOY_KEM_H
#define TOY_KEM_H
#ifndef TOY_LEVEL
#define TOY_LEVEL 1
#endif
#define TOY_BASE 16
#define CRYPTO_SECRETKEYBYTES (2 * TOY_BASE * TOY_LEVEL + 8)
#define CRYPTO_PUBLICKEYBYTES ((size_t)TOY_BASE * TOY_LEVEL)
#define CRYPTO_CIPHERTEXTBYTES (TOY_BASE << TOY_LEVEL)
#define CRYPTO_BYTES 32u
int crypto_kem_keypair(unsigned char *pk, unsigned char *sk);
int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk);
int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk);
#endif
`;
const TOY_C = `#include <string.h>
#include "kem.h"
#include "rng.h"
#include "sha2.h"
int crypto_kem_keypair(unsigned char *pk, unsigned char *sk) {
    randombytes(sk, CRYPTO_SECRETKEYBYTES);
    toy_sha256(pk, sk, CRYPTO_PUBLICKEYBYTES);
    return 0;
}
int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk) {
    memset(ct, 0, CRYPTO_CIPHERTEXTBYTES);
    memcpy(ss, pk, 16);
    memset(ss + 16, 0, 16);
    return 0;
}
int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk) {
    (void)ct;
    memcpy(ss, sk, 32);
    return 0;
}
`;
const TOY_SHA2_H = "void toy_sha256(unsigned char *out, const unsigned char *in, unsigned long n);\n";
const TOY_SHA2_C = `#include "sha2.h"
void toy_sha256(unsigned char *out, const unsigned char *in, unsigned long n) {
    unsigned long i;
    for (i = 0; i < n; i++) out[i] = (unsigned char)(in[i] ^ 0x5c);
}
`;
const TOY_RNG_H = "int randombytes(unsigned char *x, unsigned long long xlen);\n";
const TOY_RNG_C = `#include "rng.h"
int randombytes(unsigned char *x, unsigned long long xlen) {
    while (xlen--) *x++ = 0;
    return 0;
}
`;
const TOY_GENKAT_C = `#include "kem.h"
int main(void) { return 0; }
`;
const TOY_MAKEFILE = `CFLAGS = -O2 -std=c99
toy-1: ; $(CC) $(CFLAGS) -DTOY_LEVEL=1 toy.c sha2.c -o $@
toy-3: ; $(CC) $(CFLAGS) -DTOY_LEVEL=3 toy.c sha2.c -o $@
`;

const hex = (n: number) => "AB".repeat(n);
/** A one-entry .rsp with the sizes of a KEM (enough for init to match it). */
const rspText = (pk: number, sk: number, ct: number) =>
  `# Toy\n\ncount = 0\nseed = ${hex(48)}\npk = ${hex(pk)}\nsk = ${hex(sk)}\nct = ${hex(ct)}\nss = ${hex(32)}\n\n`;

function writeFiles(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(root, rel, ".."), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

describe("init on a folder with a Makefile, kem.h and the submitter's randombytes", () => {
  const dir = join(work, "toy-kem");
  writeFiles(dir, {
    "Reference_Implementation/kem.h": TOY_KEM_H,
    "Reference_Implementation/toy.c": TOY_C,
    "Reference_Implementation/sha2.h": TOY_SHA2_H,
    "Reference_Implementation/sha2.c": TOY_SHA2_C,
    "Reference_Implementation/rng.h": TOY_RNG_H,
    "Reference_Implementation/randombytes.c": TOY_RNG_C,
    "Reference_Implementation/PQCgenKAT_kem.c": TOY_GENKAT_C,
    "Reference_Implementation/Makefile": TOY_MAKEFILE,
    // toy-1: pk 16, sk 40, ct 32 — its KAT file; toy-3 has none.
    "KAT/PQCkemKAT_40.rsp": rspText(16, 40, 32),
  });

  it("drafts one instance per program of make -n -B, sizes by printparams, no ICCS, randombytes.c left out", () => {
    const r = init(dir, "--id", "kem-97");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const draft = readJson<Draft>(join(dir, "meta.json"));
    expect(draft.id).toBe("kem-97");
    expect(draft.category).toBe("kem");
    expect(draft.iccs).toBeUndefined();
    expect(draft.parameterSets).toEqual(["toy-1", "toy-3"]);
    expect(draft.instances.map((i) => [i.name, i.defines, i.kat.defines])).toEqual([
      ["toy-1", ["TOY_LEVEL=1"], ["TOY_LEVEL=1"]],
      ["toy-3", ["TOY_LEVEL=3"], ["TOY_LEVEL=3"]],
    ]);
    for (const i of draft.instances) {
      expect(i.apiHeader).toBe("Reference_Implementation/kem.h");
      expect(i.sources).toEqual(["Reference_Implementation/sha2.c", "Reference_Implementation/toy.c"]);
      expect(i.randombytesSource).toBe("Reference_Implementation/randombytes.c");
      expect(i.api).toBeUndefined();
      // The compile line's -std=c99 is carried (the build needs it); its -O2 is not (build profiles choose that).
      expect((i as unknown as { cflags?: string[] }).cflags).toEqual(["-std=c99"]);
    }
    expect(draft.instances[0]?.kat.file).toBe("KAT/PQCkemKAT_40.rsp");
    expect(draft.instances[1]?.kat.file).toBeUndefined();
    expect(draft.katManifest).toBe("KAT/kat.sha256");
    expect(readFileSync(join(dir, "KAT/kat.sha256"), "utf8")).toMatch(/^[0-9a-f]{64} {2}PQCkemKAT_40\.rsp\n$/);
    expect(r.stdout).toContain(
      "left out Reference_Implementation/randombytes.c: defines randombytes: ngcc-perf provides randombytes",
    );
    // The Makefile is the source of truth: its two programs (toy-1, toy-3), read from make -n -B; the KAT
    // program the Makefile does not build is not read at all (the text-reading init left it out by its main).
    expect(r.stdout).toContain(
      "Reference_Implementation: 2 compile set(s) from make -n -B of its program targets (toy-1 toy-3)",
    );
    expect(r.stdout).toContain("toy-3: compile set from make -n -B (program Reference_Implementation/toy-3)");
    expect(r.stdout).toContain("every instance: did not carry -O2: optimisation (the build profile chooses it)");
    expect(r.stdout).toContain("toy-1: sizes by compiling Reference_Implementation/kem.h with -DTOY_LEVEL=1");
    expect(r.stdout).toContain("toy-3: no KAT file found (expected PQCkemKAT_104.rsp with 104-byte secret keys)");
    expect(r.stdout).toContain("no ICCS");
    // Catalog rows from the API's sizes, printed (not written).
    expect(r.stdout).toContain("kem-97,toy-1,kem,16,32,,,,");
    expect(r.stdout).toContain("kem-97,toy-3,kem,48,128,,,,");
    // Its own SHA-2 and the plain randombytes as profiler groups, instead of the campaign's.
    expect(draft.profiler).toEqual({
      groups: {
        sha2: { symbols: ["toy_sha256"], label: "SHA-2 (the submission's own)", kind: "hash" },
        drng: { symbols: ["randombytes"], label: "randombytes", kind: "drng" },
      },
      replaceCampaignGroups: true,
    });
    const v = cli(["validate", join(dir, "meta.json")]);
    expect(v.code, v.stdout + v.stderr).toBe(0);
  }, 120_000);

  it("checks an existing kat.sha256 and says which file disagrees (exit 1), never rewriting it", () => {
    const manifest = join(dir, "KAT/kat.sha256");
    const bad = `${"0".repeat(64)}  PQCkemKAT_40.rsp\n`;
    writeFileSync(manifest, bad);
    const r = init(dir, "--id", "kem-97", "--force");
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      "KAT/kat.sha256: PQCkemKAT_40.rsp: SHA-256 differs from the manifest's (a changed or corrupt KAT file)",
    );
    expect(readFileSync(manifest, "utf8")).toBe(bad);
  }, 120_000);

  it("preprocesses and compiles the submission in the sandbox: a compiler that writes beside the sources cannot", async () => {
    const box = join(work, "toy-box");
    cpSync(dir, box, { recursive: true });
    rmSync(join(box, "meta.json"), { force: true });
    rmSync(join(box, "KAT/kat.sha256"), { force: true });
    // A hostile compiler (the campaign's CC is the submitter's choice as much as the code is): it tries to write
    // into the submission folder and into /root before compiling. Inside the sandbox both are read-only.
    const escaped = [join(box, "escaped-by-cc"), "/root/ngcc-init-escaped-by-cc"];
    const cc = join(work, "hostile-cc.sh");
    writeFileSync(
      cc,
      `#!/bin/sh\n${escaped.map((f) => `echo escaped > '${f}' 2>/dev/null`).join("\n")}\nexec gcc "$@"\n`,
      { mode: 0o755 },
    );
    rmSync(escaped[1] as string, { force: true });
    const r = await runCliAsync(["init", box, "--dry-run"], { env: { ...process.env, CC: cc } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('"name": "toy-1"');
    for (const f of escaped) expect(existsSync(f), f).toBe(false);
  }, 120_000);

  it("--dry-run prints the draft and writes nothing; bad input is one line, exit 2", () => {
    const dry = join(work, "toy-dry");
    cpSync(dir, dry, { recursive: true });
    rmSync(join(dry, "meta.json"));
    rmSync(join(dry, "KAT/kat.sha256"));
    const r = init(dry, "--dry-run");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('"name": "toy-1"');
    expect(existsSync(join(dry, "meta.json"))).toBe(false);
    expect(existsSync(join(dry, "KAT/kat.sha256"))).toBe(false);
    const none = init(join(work, "no-such-folder"));
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no-such-folder: not a folder/);
    const empty = join(work, "empty");
    mkdirSync(empty);
    const e = init(empty);
    expect(e.code).toBe(2);
    expect(e.stderr).toMatch(/found no parameter set — expected Reference_Implementation\/<set>\/api\.h/);
    const cat = init(dry, "--category", "dsa");
    expect(cat.code).toBe(2);
    expect(cat.stderr).toMatch(/--category "dsa": expected kem, sign or kex/);
  }, 120_000);
});

describe("init reads the signature API from crypto_sign's prototype", () => {
  it("FIPS 204 context API: api.style fips204", () => {
    const dir = join(work, "toy-sig");
    writeFiles(dir, {
      "Reference_Implementation/Toy-2/api.h": `#include <stddef.h>
#define CRYPTO_SECRETKEYBYTES 64
#define CRYPTO_PUBLICKEYBYTES 32
#define CRYPTO_BYTES 48
int crypto_sign_keypair(unsigned char *pk, unsigned char *sk);
int crypto_sign(unsigned char *sm, size_t *smlen, const unsigned char *m, size_t mlen,
                const unsigned char *ctx, size_t ctxlen, const unsigned char *sk);
int crypto_sign_open(unsigned char *m, size_t *mlen, const unsigned char *sm, size_t smlen,
                     const unsigned char *ctx, size_t ctxlen, const unsigned char *pk);
`,
      "Reference_Implementation/Toy-2/sign.c": `#include "api.h"
int crypto_sign_keypair(unsigned char *pk, unsigned char *sk) { (void)pk; (void)sk; return 0; }
`,
    });
    const r = init(dir);
    expect(r.code).toBe(0);
    const draft = readJson<Draft>(join(dir, "meta.json"));
    expect(draft.category).toBe("sign");
    expect(draft.instances[0]?.api).toEqual({ style: "fips204" });
    expect(r.stdout).toContain("Toy-2: signature API fips204 (crypto_sign has 7 parameters with a context)");
    expect(r.stdout).toContain("Toy-2: no KAT file found (expected PQCsignKAT_64.rsp");
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------------------------
// PQClean's ML-KEM-768 and ML-DSA-44 as NIST submissions arrive.

interface Scheme {
  id: string;
  set: string;
  kind: "crypto_kem" | "crypto_sign";
  scheme: string;
  prefix: string;
}
const SCHEMES: Scheme[] = [
  { id: "kem-71", set: "ML-KEM-768", kind: "crypto_kem", scheme: "ml-kem-768", prefix: "PQCLEAN_MLKEM768_CLEAN_" },
  { id: "sig-72", set: "ML-DSA-44", kind: "crypto_sign", scheme: "ml-dsa-44", prefix: "PQCLEAN_MLDSA44_CLEAN_" },
];
/** The PQClean common files the two schemes need (randombytes.c left out: the submitter's own). */
const COMMON = ["fips202.c", "fips202.h", "randombytes.h", "compat.h", "crypto_declassify.h"];

async function nistCopy(s: Scheme): Promise<string> {
  const dir = join(work, "nist", s.id);
  const set = join(dir, "Reference_Implementation", s.set);
  const common = join(dir, "Reference_Implementation", "common");
  mkdirSync(set, { recursive: true });
  mkdirSync(common, { recursive: true });
  const src = join(pqcleanDir, s.kind, s.scheme, "clean");
  for (const f of readdirSync(src).filter((f) => /\.[ch]$/.test(f))) cpSync(join(src, f), join(set, f));
  for (const f of COMMON) cpSync(join(pqcleanDir, "common", f), join(common, f));
  // The KAT file, made by ngcc-perf's KAT generator (native/katgen) compiled with the scheme by hand.
  const exe = join(work, `katgen-${s.id}`);
  const sources = [
    ...readdirSync(set)
      .filter((f) => f.endsWith(".c"))
      .map((f) => join(set, f)),
    join(common, "fips202.c"),
  ];
  const b = await run("gcc", [
    "-std=c99",
    "-O2",
    s.kind === "crypto_kem" ? "-DNGCC_KAT_KEM" : "-DNGCC_KAT_SIGN",
    `-DNGCC_API_PREFIX=${s.prefix}`,
    "-I",
    set,
    "-I",
    common,
    "-I",
    katgenDir,
    "-I",
    nativeIncludeDir,
    ...sources,
    ...KAT_RNG_SOURCES,
    join(katgenDir, "katgen.c"),
    "-o",
    exe,
  ]);
  expect(b.stderr, "katgen build").toBe("");
  const name = (await run(exe, ["--filename"])).stdout.trim();
  mkdirSync(join(dir, "KAT", s.set), { recursive: true });
  const g = await run(exe, ["--write-rsp", join(dir, "KAT", s.set, name)], { timeoutMs: 300_000 });
  expect(g.status, g.stderr).toBe(0);
  rmSync(exe);
  return dir;
}

const dirs: Record<string, string> = {};

describe("init on PQClean's ML-KEM-768 and ML-DSA-44 laid out as NIST submissions", () => {
  for (const s of SCHEMES) {
    it(`${s.set}: the draft names the scheme's sources, prefix, KAT file and own SHA-3, and no ICCS`, async () => {
      const dir = await nistCopy(s);
      dirs[s.id] = dir;
      const r = init(dir, "--id", s.id);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      const draft = readJson<Draft>(join(dir, "meta.json"));
      expect(draft.name).toBe(s.set);
      expect(draft.category).toBe(s.kind === "crypto_kem" ? "kem" : "sign");
      expect(draft.iccs).toBeUndefined();
      expect(draft.instances).toHaveLength(1);
      const i = draft.instances[0] as DraftInstance;
      expect(i.name).toBe(s.set);
      expect(i.api).toEqual(s.kind === "crypto_sign" ? { style: "nist", prefix: s.prefix } : { prefix: s.prefix });
      const own = readdirSync(join(pqcleanDir, s.kind, s.scheme, "clean"))
        .filter((f) => f.endsWith(".c"))
        .map((f) => `Reference_Implementation/${s.set}/${f}`);
      expect([...i.sources].sort()).toEqual([...own, "Reference_Implementation/common/fips202.c"].sort());
      expect(i.includeDirs).toEqual([`Reference_Implementation/${s.set}`, "Reference_Implementation/common"]);
      expect(i.kat.file).toMatch(new RegExp(`^KAT/${s.set}/PQC(kem|sign)KAT_\\d+\\.rsp$`));
      expect(draft.katManifest).toBe("KAT/kat.sha256");
      const groups = draft.profiler?.groups ?? {};
      expect(Object.keys(groups).sort()).toEqual(["drng", "sha3"]);
      expect(groups.sha3?.symbols).toContain("shake128_absorb");
      expect(groups.sha3?.symbols.every((x) => !x.startsWith(s.prefix))).toBe(true); // fips202.c's, not wrappers
      expect(groups.drng).toEqual({ symbols: ["PQCLEAN_randombytes"], label: "randombytes", kind: "drng" });
      expect(draft.profiler?.replaceCampaignGroups).toBe(true);
      expect(JSON.stringify(draft)).not.toMatch(/iccs|pseudo|placeholder/i);
      const v = cli(["validate", join(dir, "meta.json")]);
      expect(v.code, v.stdout + v.stderr).toBe(0);
      // Catalog rows for the two schemes, to be written to the campaign's catalog below.
      const rows = r.stdout
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => l.startsWith(`${s.id},`));
      expect(rows).toHaveLength(1);
      writeFileSync(join(dir, "catalog-row.csv"), `${rows[0]}\n`);
    }, 600_000);
  }

  // Needs parts B (a submission without iccs: no ICCS linked, ngcc-perf's plain randombytes — PQCLEAN_randombytes
  // too —, the prefix from api.prefix or the header) and C (api.style) to be in: run once their commits are.
  it("run on a small campaign with no hand-edited file: KAT PASS, every section filled, no ICCS wording", () => {
    for (const s of SCHEMES) expect(dirs[s.id], "the init tests above ran").toBeDefined();
    const catalog = join(work, "nist", "external_sizes.csv");
    writeFileSync(
      catalog,
      [
        "algorithm_id,instance,category,public_key,ciphertext,signature,public_key_a,kex_messages,source,note",
        ...SCHEMES.map((s) => readFileSync(join(dirs[s.id] as string, "catalog-row.csv"), "utf8").trim()),
      ]
        .map((l) => `${l}\n`)
        .join(""),
    );
    const campaign = join(work, "nist", "campaign.yaml");
    writeFileSync(
      campaign,
      [
        "name: init-nist",
        "system: test_1",
        "buildProfiles: { o2: { cflags: [-O2] } }",
        "timing: { trials: 3, minIterations: 5, targetTrialMs: 1, warmupMs: 1, workerMs: 2, minWorkers: 2, budgetMs: 20 }",
        `sizes: { catalog: ${JSON.stringify(catalog)} }`,
        "algorithms:",
        ...SCHEMES.map((s) => `  - { id: ${s.id}, source: { submission: ${JSON.stringify(dirs[s.id])} } }`),
      ].join("\n"),
    );
    const out = join(work, "nist", "out");
    const r = cli(["run", campaign, "--out", out]);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code, r.stderr).toBe(0);
    for (const s of SCHEMES) {
      const kat = readJson<{ verdict: string }>(join(out, "data/test_1/kat", s.id, "o2", `${s.set}.json`));
      expect(kat.verdict, s.id).toBe("PASS");
      const page = findPage(join(out, "site", "test_1"), s.id);
      expect(page, `page of ${s.id}`).not.toBeNull();
      const text = readFileSync(page as string, "utf8");
      const lines = (re: RegExp) => text.split("\n").filter((l) => re.test(l));
      expect(lines(/\bICCS\b|placeholder/i), s.id).toEqual([]);
      expect(lines(/not measured|No [^.\n]* in the store|No sizes were found|FAILED/), s.id).toEqual([]);
      // Every numbered section is there, with content under its heading.
      const sections = text.split(/^## /m).slice(1);
      expect(sections.filter((x) => /^\d\./.test(x)).length, s.id).toBeGreaterThanOrEqual(6);
      for (const x of sections) {
        const [heading, ...body] = x.split("\n");
        expect(body.filter((l) => /\w/.test(l) && !l.startsWith("<a id=")).length, heading).toBeGreaterThan(0);
      }
    }
  }, 900_000);
});

/** The Markdown page of an algorithm in a rendered site (its file name carries the id). */
function findPage(site: string, id: string): string | null {
  const walk = (d: string): string | null => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        const f = walk(p);
        if (f) return f;
      } else if (e.name.endsWith(".md") && e.name.includes(id)) return p;
    }
    return null;
  };
  return existsSync(site) ? walk(site) : null;
}
