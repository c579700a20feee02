/**
 * Every fixture instance builds warning-free (C99, -Wall -Wextra -Wpedantic
 * -Werror -Wshadow -Wvla -Wmissing-prototypes) and passes 1000 random round
 * trips, with -O2 and under AddressSanitizer + UndefinedBehaviorSanitizer;
 * exported symbols carry the submission's prefix; the survey-relevant facts
 * (own Keccak only in Puffin-K, Heron's DRNG only with -DKAT_BUILD) hold in
 * the object files.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  buildInstance,
  type InstanceMeta,
  instanceGccArgs,
  listSubmissions,
  makeTempDir,
  nativeIncludeDir,
  run,
  runRoundtrip,
  STRICT_CFLAGS,
  type Submission,
  toolsDir,
} from "./fixture-tools.ts";

/** 1000 by default (the bar); NGCC_FIXTURE_ITERATIONS lowers it for quick local runs. */
const ITERATIONS = Number(process.env.NGCC_FIXTURE_ITERATIONS ?? 1000);
const work = makeTempDir("ngcc-rt-");
afterAll(() => rmSync(work, { recursive: true, force: true }));

const subs = listSubmissions();
const cases = subs.flatMap((sub) => sub.meta.instances.map((inst) => [inst.name, sub, inst] as const));

const OPS: Record<string, string[]> = {
  kem: ["keygen", "enc", "dec"],
  sign: ["keygen", "sign", "verify"],
  kex: ["init_a", "init_b", "pass1", "derive_a", "derive_b", "exchange"],
};

describe(`${ITERATIONS} round trips per instance`, () => {
  it.concurrent.each(cases)(
    "%s (-O2)",
    async (_name, sub, inst) => {
      const b = await buildInstance(sub, inst, { driver: "roundtrip" }, work);
      expect(b.stderr).toBe("");
      expect(b.ok).toBe(true);
      const r = await runRoundtrip(b.exe, ITERATIONS);
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      expect(r.report?.name).toBe(inst.name);
      expect(r.report?.iterations).toBe(ITERATIONS);
      for (const op of OPS[sub.meta.category] ?? []) {
        // fast enough for CI: a few ms at most (generous bound for shared runners)
        expect(r.report?.us[op]).toBeLessThan(op === "exchange" ? 25_000 : 10_000);
      }
      if (inst.name === "Quill-V-192") {
        const s = r.report?.siglen;
        expect(s && s.min < s.max && s.max < s.cap).toBe(true);
      }
      if (inst.name === "Quill-128") expect(r.report?.siglen).toEqual({ min: 2320, max: 2320, cap: 2320 });
    },
    120_000,
  );

  it.concurrent.each(cases)(
    "%s (-fsanitize=address,undefined)",
    async (_name, sub, inst) => {
      const b = await buildInstance(sub, inst, { driver: "roundtrip", sanitize: true }, work);
      expect(b.stderr).toBe("");
      expect(b.ok).toBe(true);
      const r = await runRoundtrip(b.exe, ITERATIONS, 600_000);
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      expect(r.report?.iterations).toBe(ITERATIONS);
    },
    600_000,
  );
});

/** Defined and undefined external symbols of an instance's own object files. */
async function symbols(sub: Submission, inst: InstanceMeta, extraDefines: string[] = []) {
  const dir = join(work, `obj-${sub.meta.id}-${inst.name}-${extraDefines.join("_")}`);
  mkdirSync(dir, { recursive: true });
  const args = instanceGccArgs(
    sub,
    { ...inst, defines: [...inst.defines, ...extraDefines] },
    { driver: "objects" },
    "",
  );
  const c = await run("gcc", args, { cwd: dir });
  expect(c.stderr).toBe("");
  const objs = inst.sources.map((s) => join(dir, (s.split("/").pop() as string).replace(/\.c$/, ".o")));
  const nm = await run("nm", ["-g", ...objs]);
  expect(nm.status).toBe(0);
  const defined = new Set<string>();
  const undefinedSyms = new Set<string>();
  for (const line of nm.stdout.split("\n")) {
    const m = /^\s*(?:[0-9a-f]+)?\s+([A-Za-z])\s+(\S+)$/.exec(line);
    if (!m?.[1] || !m[2]) continue;
    if (m[1] === "U") undefinedSyms.add(m[2]);
    else defined.add(m[2]);
  }
  return { defined, undefinedSyms };
}

const PREFIX: Record<string, RegExp> = {
  "kem-90": /^(puffin_|crypto_kem_(keypair|enc|dec)$)/,
  "sig-91": /^(quill_|crypto_sign(_keypair|_open)?$)/,
  "kex-92": /^(heron_|crypto_kex_(init_a|init_b|pass1|pass2|derive_a|derive_b)$)/,
  "sig-93": /^(wren_|crypto_sign(_keypair|_open)?$)/,
  "sig-94": /^(shrike_|crypto_sign(_keypair|_open)?$)/,
};

describe("object files", () => {
  it.concurrent.each(cases)(
    "%s: exported symbols carry the submission's prefix",
    async (_name, sub, inst) => {
      const { defined, undefinedSyms } = await symbols(sub, inst);
      const re = PREFIX[sub.meta.id] as RegExp;
      expect([...defined].filter((s) => !re.test(s))).toEqual([]);
      // the ICCS placeholders are called across object files (visible to -Wl,--wrap)
      for (const h of sub.meta.iccs.hash) expect(undefinedSyms.has(h)).toBe(true);
      expect(undefinedSyms.has("randombytes")).toBe(inst.randomness === "randombytes");
    },
    60_000,
  );

  it("Puffin-K links its own SHAKE128 for matrix A; Puffin does not", async () => {
    const sub = subs.find((s) => s.meta.id === "kem-90") as Submission;
    const k = await symbols(sub, sub.meta.instances.find((i) => i.name === "Puffin-K-128") as InstanceMeta);
    const base = await symbols(sub, sub.meta.instances.find((i) => i.name === "Puffin-128") as InstanceMeta);
    expect(k.defined.has("puffin_shake128")).toBe(true);
    expect(k.undefinedSyms.has("puffin_shake128")).toBe(true);
    expect(base.defined.has("puffin_shake128")).toBe(false);
  }, 60_000);

  it("Heron calls randombytes only when built with -DKAT_BUILD", async () => {
    const sub = subs.find((s) => s.meta.id === "kex-92") as Submission;
    const inst = sub.meta.instances[0] as InstanceMeta;
    expect(inst.kat.defines).toEqual(["KAT_BUILD"]);
    expect((await symbols(sub, inst)).undefinedSyms.has("randombytes")).toBe(false);
    expect((await symbols(sub, inst, ["KAT_BUILD"])).undefinedSyms.has("randombytes")).toBe(true);
  }, 60_000);
});

describe("ICCS calls are visible to link-time wrappers (-Wl,--wrap)", () => {
  const WRAP = ["-Wl,--wrap=sm3hash,--wrap=pseudohash,--wrap=pseudoXOF,--wrap=randombytes"];
  // one round-trip iteration: keygen, enc, dec and a dec of a modified ciphertext (kem) or
  // init_a, init_b, pass1, derive_a, derive_b and a derive_b of a modified message (kex)
  const expected: [string, string, string[], Record<string, number>][] = [
    ["kem-90", "Puffin-128", [], { sm3hash: 0, pseudohash: 5, pseudoXOF: 42, randombytes: 3 }],
    // own SHAKE128 replaces the 4 pseudoXOF calls for matrix A in each of keygen, enc, dec, dec
    ["kem-90", "Puffin-K-128", [], { sm3hash: 0, pseudohash: 5, pseudoXOF: 26, randombytes: 3 }],
    ["kex-92", "Heron-128", [], { sm3hash: 0, pseudohash: 4, pseudoXOF: 41, randombytes: 0 }],
    ["kex-92", "Heron-128", ["KAT_BUILD"], { sm3hash: 0, pseudohash: 4, pseudoXOF: 41, randombytes: 2 }],
  ];
  it.concurrent.each(expected)(
    "%s %s %j",
    async (id, name, defines, counts) => {
      const sub = subs.find((s) => s.meta.id === id) as Submission;
      const inst = sub.meta.instances.find((i) => i.name === name) as InstanceMeta;
      const dir = join(work, `wrap-${name}-${defines.join("_")}`);
      mkdirSync(dir, { recursive: true });
      const b = await buildInstance(
        sub,
        { ...inst, defines: [...inst.defines, ...defines] },
        { driver: "roundtrip", extraFlags: [join(toolsDir, "wrapcount.c"), ...WRAP] },
        dir,
      );
      expect(b.stderr).toBe("");
      const r = await run(b.exe, ["1"]);
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stderr.trim().split("\n").pop() as string)).toEqual(counts);
    },
    60_000,
  );
});

describe("native/include/ngcc_kex.h checks a key exchange's api.h", () => {
  const sub = subs.find((s) => s.meta.id === "kex-92") as Submission;
  const inst = sub.meta.instances.find((i) => i.name === "Heron-2P-128") as InstanceMeta;
  const api = readFileSync(join(sub.dir, inst.apiHeader), "utf8");
  const variants: [string, string, RegExp][] = [
    ["the real api.h", api, /^$/],
    [
      "a missing size macro",
      api.replace(/#define CRYPTO_KEX_STATEBYTES_B .*\n/, ""),
      /must define every CRYPTO_KEX_\* size macro/,
    ],
    [
      "a prototype that disagrees",
      api.replace(
        "int crypto_kex_pass1(unsigned char *m1, unsigned char *st_a, const unsigned char *sk_a,",
        "int crypto_kex_pass1(unsigned char *m1, const unsigned char *st_a, const unsigned char *sk_a,",
      ),
      /conflicting types for .crypto_kex_pass1/,
    ],
    [
      "a one-pass exchange with a pass-2 message",
      api.replace("CRYPTO_KEX_PASSES 2", "CRYPTO_KEX_PASSES 1"),
      /MSG2BYTES 0/,
    ],
  ];
  it.concurrent.each(variants)("%s", async (label, text, error) => {
    const dir = join(work, `api-${label.replace(/\W+/g, "_")}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "api.h"), text);
    const r = await run("gcc", [
      ...STRICT_CFLAGS,
      "-DNGCC_PP_KEX",
      "-I",
      dir,
      "-I",
      nativeIncludeDir,
      join(toolsDir, "printparams.c"),
      "-o",
      join(dir, "pp"),
    ]);
    if (error.source === "^$") {
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
    } else {
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(error);
    }
  });
});
