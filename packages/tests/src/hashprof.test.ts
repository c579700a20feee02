// The hash/DRNG profiler and the survey end to end (real gcc builds): the fixture submissions (fixtures/README.md
// lists their facts) and PQClean's ML-KEM-512, ML-KEM-768 and ML-DSA-44, and a campaign with two build profiles.
// Call counts are checked against what the code does; shares and overheads are never asserted (timings are
// noisy), only that they are fractions.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PQCLEAN_HASH_SYMBOLS, profileCampaign } from "@ngcc-perf/hashprof";
import { loadCampaign, type ProgressEvent, resolveCampaign } from "@ngcc-perf/runner";
import { buildPath, type HashProfileRecord, recordPath, type SurveyRecord, validateFile } from "@ngcc-perf/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeNoCompile } from "./fixture-tools.ts";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const fixtures = join(root, "fixtures");
const work = mkdtempSync(join(tmpdir(), "ngcc-hashprof-e2e-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const QUICK = [
  "timing:",
  "  trials: 2",
  "  minIterations: 3",
  "  targetTrialMs: 1",
  "  warmupMs: 1",
  "  workerMs: 2",
  "  minWorkers: 2",
  "  budgetMs: 20",
];

function writeCampaign(name: string, lines: string[]): string {
  const file = join(work, `${name}.yaml`);
  writeFileSync(file, [`name: ${name}`, "system: x86_1", ...QUICK, ...lines, ""].join("\n"));
  return file;
}

const demo = writeCampaign("demo-quick", [
  `iccs: { dir: ${fixtures}/iccs }`,
  "profiler:",
  "  notes: notes.yaml",
  "  groups:",
  "    hash: { label: pseudohash/XOF/sm3, symbols: [pseudohash, pseudoXOF, sm3hash] }",
  "    drng: { symbols: [randombytes], symbolLabels: { randombytes: drng } }",
  "algorithms:",
  `  - { id: kem-90, source: { submission: ${fixtures}/submissions/kem-90 }, instances: [Puffin-128, Puffin-K-128] }`,
  `  - { id: sig-91, source: { submission: ${fixtures}/submissions/sig-91 }, instances: [Quill-128] }`,
  `  - { id: kex-92, source: { submission: ${fixtures}/submissions/kex-92 }, instances: [Heron-2P-128] }`,
]);
writeFileSync(join(work, "notes.yaml"), "kex-92: { text: hashing via the placeholders; DRNG only in KAT builds }\n");
const pq = writeCampaign("pq-quick", [
  "algorithms:",
  "  - { id: ml-kem-512, name: ML-KEM-512, source: { pqclean: ml-kem-512 } }",
  "  - { id: ml-kem-768, name: ML-KEM-768, source: { pqclean: ml-kem-768 } }",
  "  - { id: ml-dsa-44, name: ML-DSA-44, source: { pqclean: ml-dsa-44 } }",
]);

const outDemo = join(work, "out-demo");
const outPq = join(work, "out-pq");
const system = "x86_1";
const profilePath = (out: string, algorithmId: string, instance: string, operation: string, buildProfile = "guide") =>
  recordPath(out, { kind: "hash-profile", key: { system, algorithmId, instance, buildProfile, operation } });
const surveyPath = (out: string, algorithmId: string, buildProfile = "guide") =>
  recordPath(out, { kind: "survey", key: { system, algorithmId, buildProfile } });
const profile = (out: string, alg: string, inst: string, op: string, buildProfile = "guide") =>
  JSON.parse(readFileSync(profilePath(out, alg, inst, op, buildProfile), "utf8")) as HashProfileRecord & {
    status: "ok";
  };
const survey = (out: string, alg: string, buildProfile = "guide") =>
  JSON.parse(readFileSync(surveyPath(out, alg, buildProfile), "utf8")) as SurveyRecord;
const calls = (r: HashProfileRecord) =>
  Object.fromEntries((r.calls ?? []).map((c) => [c.symbol, c.meanPerOperation])) as Record<string, number>;

let demoSummary: Awaited<ReturnType<typeof profileCampaign>>;
let pqSummary: Awaited<ReturnType<typeof profileCampaign>>;
beforeAll(async () => {
  [demoSummary, pqSummary] = await Promise.all([
    profileCampaign(resolveCampaign(loadCampaign(demo)), { out: outDemo }),
    profileCampaign(resolveCampaign(loadCampaign(pq)), { out: outPq }),
  ]);
}, 600_000);

function allRecords(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && e.name.endsWith(".json") && !e.parentPath.includes("/build/"))
      out.push(join(e.parentPath, e.name));
  }
  return out;
}

describe("fixture submissions", () => {
  it("every record is valid and nothing failed; the profiled KAT builds reproduce the committed .rsp", () => {
    expect(demoSummary.failures).toEqual([]);
    const files = allRecords(join(outDemo, "data"));
    expect(files.length).toBe(3 + 3 + 3 + 7 + 3);
    for (const f of files) expect(validateFile(f)).toMatchObject({ valid: true, errors: [] });
    for (const [alg, inst] of [
      ["kem-90", "Puffin-128"],
      ["kem-90", "Puffin-K-128"],
      ["sig-91", "Quill-128"],
      ["kex-92", "Heron-2P-128"],
    ] as const) {
      const r = profile(outDemo, alg, inst, alg === "kex-92" ? "exchange" : "keygen");
      expect(r.katCheck).toMatchObject({ verdict: "PASS" });
      expect(r.katCheck?.comparedWith).toMatch(/^KAT\/.*\.rsp$/);
      for (const g of r.groups ?? []) {
        expect(g.share).toBeGreaterThanOrEqual(0);
        expect(g.share).toBeLessThanOrEqual(1);
      }
      expect(r.totalNsPerOp).toBeGreaterThan(0);
      expect(r.unprofiledNsPerOp).toBeGreaterThan(0);
    }
  });

  it("Puffin: calls per operation are what kem.c, pke.c and matrix.c make (k = 2)", () => {
    // keygen: pseudoXOF(seed) + k² matrix + 2k noise; pseudohash(pk); randombytes twice
    // enc: G + k² matrix + (2k + 1) noise + KDF; pseudohash(pk) and H(ct); randombytes once
    // dec: G + re-encryption (k² + 2k + 1) + KDF; H(ct)
    // Puffin-K: the k² matrix polynomials come from the own Keccak instead of pseudoXOF
    const k = 2;
    for (const [inst, m] of [
      ["Puffin-128", k * k],
      ["Puffin-K-128", 0],
    ] as const) {
      expect(calls(profile(outDemo, "kem-90", inst, "keygen"))).toEqual({
        pseudoXOF: 1 + m + 2 * k,
        pseudohash: 1,
        randombytes: 2,
      });
      expect(calls(profile(outDemo, "kem-90", inst, "enc"))).toEqual({
        pseudoXOF: 2 + m + 2 * k + 1,
        pseudohash: 2,
        randombytes: 1,
      });
      expect(calls(profile(outDemo, "kem-90", inst, "dec"))).toEqual({ pseudoXOF: 2 + m + 2 * k + 1, pseudohash: 1 });
    }
    const r = profile(outDemo, "kem-90", "Puffin-128", "keygen");
    expect(r.calls?.find((c) => c.symbol === "randombytes")?.label).toBe("drng");
    expect(r.groups?.map((g) => g.name)).toEqual(["hash", "drng"]);
    expect(r.blindSpots).toEqual([]);
  });

  it("Quill: sm3hash builds the 2^τ-leaf tree (3·2^τ − 1 calls), sign adds k, verify walks k paths", () => {
    const tau = 8;
    const kk = 16;
    expect(calls(profile(outDemo, "sig-91", "Quill-128", "keygen"))).toEqual({
      sm3hash: 3 * 2 ** tau - 1,
      randombytes: 1,
    });
    expect(calls(profile(outDemo, "sig-91", "Quill-128", "sign"))).toEqual({
      sm3hash: 3 * 2 ** tau - 1 + kk,
      pseudohash: 3,
    });
    expect(calls(profile(outDemo, "sig-91", "Quill-128", "verify"))).toEqual({
      sm3hash: kk * (tau + 1),
      pseudohash: 2,
    });
  });

  it("Heron: the timing build never calls the DRNG, and says so instead of a silent 0%", () => {
    for (const op of ["exchange", "init_a", "init_b", "pass1", "pass2", "derive_a", "derive_b"]) {
      const r = profile(outDemo, "kex-92", "Heron-2P-128", op);
      expect(calls(r).randombytes).toBeUndefined();
      expect(r.groups?.find((g) => g.name === "drng")?.share).toBe(0);
      expect(r.blindSpots).toEqual([expect.objectContaining({ symbol: "randombytes", reason: "not-referenced" })]);
    }
    expect(calls(profile(outDemo, "kex-92", "Heron-2P-128", "exchange")).pseudoXOF).toBeGreaterThan(0);
  });

  it("survey: Puffin mixed with its own Keccak named, Quill and Heron ICCS-only, Heron's KAT_BUILD switch", () => {
    const kem = survey(outDemo, "kem-90");
    expect(kem.verdict).toBe("mixed");
    expect(kem.automatic?.ownPrimitives?.map((p) => p.name)).toEqual(["Keccak-f[1600]"]);
    expect(kem.automatic?.ownPrimitives?.[0]?.evidence).toMatch(/Puffin-K-128: keccak\.o .*Keccak round constants/);
    expect(kem.automatic?.switches).toEqual([expect.objectContaining({ define: "-DPUFFIN_OWN_KECCAK" })]);
    expect(kem.automatic?.instances?.map((i) => [i.instance, i.verdict])).toEqual([
      ["Puffin-128", "ICCS-only"],
      ["Puffin-K-128", "mixed"],
    ]);
    expect(kem.curated).toBeUndefined();

    const sig = survey(outDemo, "sig-91");
    expect(sig.verdict).toBe("ICCS-only");
    expect(sig.automatic?.placeholders).toEqual(["pseudohash", "randombytes", "sm3hash"]);

    const kex = survey(outDemo, "kex-92");
    expect(kex.verdict).toBe("ICCS-only");
    expect(kex.automatic?.instances?.[0]?.drng).toEqual([]);
    expect(kex.automatic?.switches).toEqual([
      {
        define: "-DKAT_BUILD",
        effect: expect.stringMatching(/^DRNG \(randombytes\) only with -DKAT_BUILD; otherwise \/dev\/urandom/),
      },
    ]);
    // the curated text is kept apart from the automatic one
    expect(kex.curated).toMatchObject({ text: "hashing via the placeholders; DRNG only in KAT builds" });
    expect(kex.text).toBe(kex.curated?.text);
    expect(kex.automatic?.text).toMatch(/DRNG \(randombytes\) only with -DKAT_BUILD/);
  });
});

/** PQClean @ 3730b32aa50b, META.yml `nistkat-sha256` (SHA-256 of entry 0 without header or empty lines). */
const NISTKAT: Record<string, string> = {
  "ml-kem-512": "c70041a761e01cd6426fa60e9fd6a4412c2be817386c8d0f3334898082512782",
  "ml-kem-768": "5352539586b6c3df58be6158a6250aeff402bd73060b0a3de68850ac074c17c3",
  "ml-dsa-44": "9a196e7fb32fbc93757dc2d8dc1924460eab66303c0c08aeb8b798fb8d8f8cf3",
};

describe("PQClean", () => {
  it("ML-KEM-512 keygen: one sha3_256, one sha3_512, four shake128_absorb, four shake256, one randombytes", () => {
    expect(pqSummary.failures).toEqual([]);
    const c = calls(profile(outPq, "ml-kem-512", "ml-kem-512", "keygen"));
    expect(c).toMatchObject({
      sha3_256: 1,
      sha3_512: 1,
      shake128_absorb: 4,
      shake256: 4,
      PQCLEAN_randombytes: 1,
    });
    // the only other calls are the matrix sampler's squeezes (rejection sampling: sometimes one more) and releases
    expect(Object.keys(c).sort()).toEqual(
      [
        "PQCLEAN_randombytes",
        "sha3_256",
        "sha3_512",
        "shake128_absorb",
        "shake128_ctx_release",
        "shake128_squeezeblocks",
        "shake256",
      ].sort(),
    );
    expect(c.shake128_ctx_release).toBe(4);
    expect(c.shake128_squeezeblocks).toBeGreaterThanOrEqual(4);
  });

  it("ML-KEM-768 (k = 3) and ML-DSA-44 are profiled likewise; their survey sees only fips202", () => {
    const k768 = calls(profile(outPq, "ml-kem-768", "ml-kem-768", "keygen"));
    expect(k768).toMatchObject({ sha3_256: 1, sha3_512: 1, shake128_absorb: 9, shake256: 6, PQCLEAN_randombytes: 1 });
    const enc = calls(profile(outPq, "ml-kem-768", "ml-kem-768", "enc"));
    expect(enc).toMatchObject({ sha3_256: 1, sha3_512: 1, shake128_absorb: 9, shake256: 7, PQCLEAN_randombytes: 1 });
    const dsa = calls(profile(outPq, "ml-dsa-44", "ml-dsa-44", "keygen"));
    // ML-DSA-44 expands A (k·l = 16 SHAKE128 streams) and draws one seed
    expect(dsa).toMatchObject({ shake128_inc_init: 16, PQCLEAN_randombytes: 1 });
    expect(calls(profile(outPq, "ml-dsa-44", "ml-dsa-44", "verify")).PQCLEAN_randombytes).toBeUndefined();
    for (const alg of ["ml-kem-512", "ml-kem-768", "ml-dsa-44"]) {
      const s = survey(outPq, alg);
      expect(s.verdict).toBe("ICCS-only");
      expect(s.automatic?.ownPrimitives).toEqual([]);
      expect(s.automatic?.shims?.length).toBeGreaterThan(0);
    }
  });

  it("calls per operation: ML-DSA-44 sign's rejection loop varies its SHAKE calls; ML-KEM-512 dec's do not", () => {
    const perOp = (r: HashProfileRecord, symbol: string) => {
      const c = (r.calls ?? []).find((x) => x.symbol === symbol);
      if (!c?.callsPerOperation) throw new Error(`${symbol}: no callsPerOperation`);
      return { ...c.callsPerOperation, meanPerOperation: c.meanPerOperation };
    };
    const sign = profile(outPq, "ml-dsa-44", "ml-dsa-44", "sign");
    // once for mu, then 6 per attempt of the signing loop (the mask y's 4 streams, the challenge hash, the
    // challenge polynomial): 1 + 6 × attempts
    const loop = perOp(sign, "shake256_inc_init");
    expect(loop.operations).toBe(sign.iterations);
    expect(loop.min).toBeLessThan(loop.max);
    expect(loop.mean).toBeCloseTo(loop.meanPerOperation, 12);
    const h = loop.histogram ?? [];
    expect(h.length).toBeGreaterThan(1);
    for (const [c] of h) expect(((c ?? 0) - 1) % 6).toBe(0);
    expect(h.reduce((n, [, k]) => n + (k ?? 0), 0)).toBe(loop.operations);
    expect(h.reduce((n, [c, k]) => n + (c ?? 0) * (k ?? 0), 0)).toBe(Math.round(loop.mean * loop.operations));
    const dec = profile(outPq, "ml-kem-512", "ml-kem-512", "dec");
    for (const symbol of ["sha3_512", "shake256"]) {
      const fixed = perOp(dec, symbol);
      expect(fixed.min).toBe(fixed.max);
      expect(fixed.min).toBe(fixed.meanPerOperation);
      expect(fixed.median).toBe(fixed.meanPerOperation);
      expect(fixed.histogram).toEqual([[fixed.min, dec.iterations]]);
    }
  });

  it("the profiled KAT generators still pass: identical to the unwrapped build and to PQClean's nistkat-sha256", () => {
    for (const alg of Object.keys(NISTKAT)) {
      for (const op of ["keygen"]) {
        const r = profile(outPq, alg, alg, op);
        expect(r.katCheck).toMatchObject({ verdict: "PASS" });
      }
      const dir = buildPath(outPq, { system, algorithmId: alg, buildProfile: "guide" }, "profile");
      const build = readdirSync(dir).find((d) => d.startsWith(`${alg}-guide-`) && !d.includes(".tmp"));
      const exe = join(dir, build ?? "missing", "katgen-profiled");
      const single = spawnSync(exe, ["--single"], { encoding: "utf8", timeout: 120_000 });
      expect(single.status).toBe(0);
      expect(createHash("sha256").update(single.stdout).digest("hex")).toBe(NISTKAT[alg]);
    }
  });

  it("the pqclean campaign's symbol group is every public fips202/sha2 function", () => {
    const c = loadCampaign(join(fixtures, "campaigns", "pqclean.yaml"));
    expect([...(c.config.profiler?.groups.hash?.symbols ?? [])].sort()).toEqual([...PQCLEAN_HASH_SYMBOLS].sort());
    expect(c.config.profiler?.groups.drng?.symbols).toEqual(["PQCLEAN_randombytes"]);
  });
});

describe("two build profiles", () => {
  const PROFILES = { guide: ["-O3", "-fomit-frame-pointer"], o0: ["-O0"] } as const;
  const file = writeCampaign("two-profiles", [
    `iccs: { dir: ${fixtures}/iccs }`,
    "buildProfiles:",
    ...Object.entries(PROFILES).map(([name, flags]) => `  ${name}: { cflags: ${JSON.stringify(flags)} }`),
    "algorithms:",
    `  - { id: kem-90, source: { submission: ${fixtures}/submissions/kem-90 }, instances: [Puffin-128], buildProfiles: [guide, o0] }`,
  ]);
  const out = join(work, "out-two-profiles");
  const key = (buildProfile: string) => ({ system, algorithmId: "kem-90", instance: "Puffin-128", buildProfile });
  const run = async (options: { resume?: boolean; requireKatPass?: boolean }) => {
    const events: ProgressEvent[] = [];
    const summary = await profileCampaign(resolveCampaign(loadCampaign(file)), {
      out,
      ...options,
      onProgress: (e) => events.push(e),
    });
    const plans = events.filter((e) => e.type === "plan");
    const jobs = events.filter((e) => e.type === "job");
    return { summary, total: plans.map((e) => e.total), jobs };
  };

  it("writes each profile's hash-profile and survey records, with the plan's total final before the first job", async () => {
    const { summary, total, jobs } = await run({});
    expect(summary.failures).toEqual([]);
    expect(total).toEqual([8]); // 3 operations × 2 profiles + a survey per profile
    expect(jobs.map((e) => e.done)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(summary).toMatchObject({ planned: 8, records: 8, failed: 0, skipped: 0 });
    for (const [bp, flags] of Object.entries(PROFILES)) {
      for (const op of ["keygen", "enc", "dec"]) {
        const f = profilePath(out, "kem-90", "Puffin-128", op, bp);
        expect(validateFile(f)).toMatchObject({ valid: true, errors: [] });
        const r = profile(out, "kem-90", "Puffin-128", op, bp);
        expect(r).toMatchObject({ status: "ok", buildProfile: bp, build: { flags: [...flags] } });
        expect(r.katCheck).toMatchObject({ verdict: "PASS" });
        // the calls are the code's, whatever the flags
        expect(calls(r)).toEqual(calls(profile(out, "kem-90", "Puffin-128", op, "guide")));
      }
      expect(validateFile(surveyPath(out, "kem-90", bp))).toMatchObject({ valid: true, errors: [] });
      expect(survey(out, "kem-90", bp)).toMatchObject({ buildProfile: bp, system });
      expect(survey(out, "kem-90", bp).automatic?.instances?.map((i) => i.instance)).toEqual(["Puffin-128"]);
      expect(existsSync(buildPath(out, key(bp), "profile"))).toBe(true);
    }
  }, 600_000);

  it("gates each profile on its own KAT verdict; --resume keeps the current records and gates the rest again", async () => {
    const kat = recordPath(out, { kind: "kat", key: key("o0") });
    mkdirSync(dirname(kat), { recursive: true });
    writeFileSync(kat, JSON.stringify({ verdict: "FAIL" }));
    const gated = await run({ requireKatPass: true });
    expect(gated.total).toEqual([8]);
    expect(gated.jobs).toHaveLength(8);
    expect(gated.summary).toMatchObject({ planned: 8, records: 5, failed: 3, skipped: 0 });
    for (const op of ["keygen", "enc", "dec"]) {
      expect(profile(out, "kem-90", "Puffin-128", op, "guide").status).toBe("ok");
      expect(profile(out, "kem-90", "Puffin-128", op, "o0")).toMatchObject({
        status: "failed",
        buildProfile: "o0",
        failure: { reason: "kat-failed" },
      });
    }
    const resumed = await run({ resume: true, requireKatPass: true });
    expect(resumed.total).toEqual([8]);
    expect(resumed.jobs).toHaveLength(8);
    // guide's 3 records and both surveys (their inputs hash unchanged) are current; o0 is gated again.
    expect(resumed.summary).toMatchObject({ planned: 8, skipped: 5, failed: 3, records: 0 });
  }, 600_000);
});

describe("ngcc-perf profile (the command)", () => {
  const bin = join(root, "packages/cli/bin.js");
  const cli = (...a: string[]) =>
    spawnSync(process.execPath, [bin, "profile", ...a], { encoding: "utf8", timeout: 300_000 });

  it("a bad notes file is bad input: exit 2, the file and key named, no stack trace, nothing built", () => {
    const out = join(work, "out-bad");
    writeFileSync(join(work, "bad-notes.yaml"), "kem-90: { verdict: partly }\n");
    const c = writeCampaign("campaign-with-bad-notes", [
      "profiler:",
      "  notes: bad-notes.yaml",
      "  groups: { hash: { symbols: [pseudoXOF] } }",
      `iccs: { dir: ${fixtures}/iccs }`,
      "algorithms:",
      `  - { id: kem-90, source: { submission: ${fixtures}/submissions/kem-90 } }`,
    ]);
    const r = cli(c, "--out", out);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/bad-notes\.yaml: \/kem-90\/verdict: expected one of ICCS-only, mixed, bypass/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(out, "build"))).toBe(false);
    expect(existsSync(join(out, "data", system, "profile"))).toBe(false);
  });

  it("an instance that does not compile becomes failure records (one build, failed once) and exit 1", () => {
    const bad = makeNoCompile(join(work, "bad-subs"));
    const c = writeCampaign("no-compile", [
      `iccs: { dir: ${fixtures}/iccs }`,
      "algorithms:",
      `  - { id: kem-90, source: { submission: ${bad.sub.dir} }, instances: [Puffin-128] }`,
    ]);
    const out = join(work, "out-no-compile");
    const r = cli(c, "--out", out, "--json");
    expect(r.status).toBe(1);
    // three operations and the survey, which has no instance left to survey
    const result = JSON.parse(r.stdout) as { failed: number; steps: { profile: Record<string, unknown> } };
    expect(result.failed).toBe(4);
    expect(result.steps.profile).toMatchObject({ planned: 4, failed: 4, records: 0, skipped: 0 });
    for (const op of ["keygen", "enc", "dec"]) {
      const f = profilePath(out, "kem-90", "Puffin-128", op);
      expect(validateFile(f)).toMatchObject({ valid: true });
      expect(JSON.parse(readFileSync(f, "utf8"))).toMatchObject({
        status: "failed",
        failure: { reason: "compile-error" },
      });
    }
    // one failed build for the unit: every record carries the same commands (durations to the microsecond)
    const commands = ["keygen", "enc", "dec"].map((op) =>
      JSON.stringify(JSON.parse(readFileSync(profilePath(out, "kem-90", "Puffin-128", op), "utf8")).commands),
    );
    expect(new Set(commands).size).toBe(1);
    expect(existsSync(surveyPath(out, "kem-90"))).toBe(false);
  });
});
