// End to end: `ngcc-perf time` over real C builds — the fixture submissions, PQClean, and the bad
// submissions — and `ngcc-perf validate` over the store it writes. Never asserts a timing.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type TimingRecord, validateFile } from "@ngcc-perf/schema";
import { afterAll, describe, expect, it } from "vitest";
import {
  iccsDir,
  makeCrashInDec,
  makeHangInSign,
  makeNoCompile,
  makeOverflowInEnc,
  makeTempDir,
  runCli,
  submissionsDir,
} from "./fixture-tools.ts";

const tmp = makeTempDir("ngcc-time-");
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const cli = (...args: string[]) => runCli(args);

/** Fast timing: short workers and a small budget (per-call), or 3 short trials — behaviour, not speed. */
const FAST = "{ trials: 3, minIterations: 5, targetTrialMs: 1, warmupMs: 1, workerMs: 2, minWorkers: 2, budgetMs: 20 }";
const TRIALS = "{ method: trials, trials: 3, minIterations: 5, targetTrialMs: 1, warmupMs: 1 }";

function campaign(name: string, algorithms: string, extra = "", timing = FAST): string {
  const file = join(tmp, `${name}.yaml`);
  writeFileSync(
    file,
    [
      `name: ${name}`,
      "system: test_1",
      `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
      `timing: ${timing}`,
      extra,
      "algorithms:",
      algorithms,
    ].join("\n"),
  );
  return file;
}

/** Timing records by "<alg>/<instance>__<op>" (profile guide) or "<alg>/<profile>/<instance>__<op>". */
function records(out: string, system = "test_1"): Record<string, { status: string; [k: string]: unknown }> {
  const dir = join(out, "data", system, "records");
  const result: Record<string, { status: string }> = {};
  if (!existsSync(dir)) return result;
  for (const alg of readdirSync(dir)) {
    for (const profile of readdirSync(join(dir, alg))) {
      for (const f of readdirSync(join(dir, alg, profile))) {
        const name = profile === "guide" ? `${alg}/${f}` : `${alg}/${profile}/${f}`;
        result[name.replace(/\.json$/, "")] = JSON.parse(readFileSync(join(dir, alg, profile, f), "utf8"));
      }
    }
  }
  return result;
}

/**
 * The driver's calibration rule (native/driver/ngcc_driver.c), from its own estimate: iterations per trial so
 * that a trial lasts the target and at least 1000 × the counter overhead, within [min, max].
 */
function expectedIterations(cal: {
  targetTrialNs: number;
  minIterations: number;
  maxIterations: number;
  estimateNs: number;
  overheadNs: number;
}): { iterations: number; limitedBy: string } {
  const est = Math.max(cal.estimateNs, 0.01);
  const needTarget = Math.ceil(cal.targetTrialNs / est);
  const needOverhead = Math.ceil((1000 * cal.overheadNs) / est);
  let iterations = cal.minIterations;
  let limitedBy = "min-iterations";
  if (needTarget > iterations) [iterations, limitedBy] = [Math.min(needTarget, cal.maxIterations), "target-ns"];
  if (needOverhead > iterations)
    [iterations, limitedBy] = [Math.min(needOverhead, cal.maxIterations), "counter-overhead"];
  if (iterations >= cal.maxIterations && (needTarget > cal.maxIterations || needOverhead > cal.maxIterations)) {
    limitedBy = "max-iterations";
  }
  return { iterations, limitedBy };
}

describe("ngcc-perf time", () => {
  it("times every operation of fixture instances of each category by the seeds' trials method and writes a valid store", () => {
    const out = join(tmp, "fixtures-out");
    const file = campaign(
      "fixtures",
      [
        `  - { id: kem-90, instances: [Puffin-128, Puffin-K-128], source: { submission: ${JSON.stringify(join(submissionsDir, "kem-90"))} } }`,
        `  - { id: sig-91, instances: [Quill-V-192], source: { submission: ${JSON.stringify(join(submissionsDir, "sig-91"))} } }`,
        `  - { id: kex-92, instances: [Heron-128, Heron-2P-128], source: { submission: ${JSON.stringify(join(submissionsDir, "kex-92"))} } }`,
      ].join("\n"),
      "",
      TRIALS,
    );
    const r = cli("time", file, "--out", out, "--json");
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(0);
    const recs = records(out);
    expect(Object.keys(recs).sort()).toEqual(
      [
        ...["keygen", "enc", "dec"].flatMap((op) => [`kem-90/Puffin-128__${op}`, `kem-90/Puffin-K-128__${op}`]),
        ...["keygen", "sign", "verify"].map((op) => `sig-91/Quill-V-192__${op}`),
        ...["exchange", "init_a", "init_b", "pass1", "derive_a", "derive_b"].map((op) => `kex-92/Heron-128__${op}`),
        ...["exchange", "init_a", "init_b", "pass1", "pass2", "derive_a", "derive_b"].map(
          (op) => `kex-92/Heron-2P-128__${op}`,
        ),
      ].sort(),
    );
    for (const [name, rec] of Object.entries(recs)) {
      expect(rec.status, name).toBe("ok");
      const trials = rec.trials as Array<{ iterations: number; counterDelta: number; ns: number }>;
      const agg = rec.aggregates as { n: number; trials: number };
      expect(trials).toHaveLength(3);
      expect(agg.n).toBe(trials.reduce((s, t) => s + t.iterations, 0));
      for (const t of trials) {
        expect(t.iterations).toBeGreaterThanOrEqual(5);
        expect(t.ns).toBeGreaterThan(0);
      }
      // The calibration block is kept, and the iterations follow the rule from the driver's own estimate.
      const cal = rec.calibration as {
        targetTrialNs: number;
        minIterations: number;
        maxIterations: number;
        estimateNs: number;
        limitedBy: string;
      };
      const counter = rec.counter as { overhead: number; rateHz: number };
      const rule = expectedIterations({
        ...cal,
        overheadNs: (Math.max(counter.overhead, 1) * 1e9) / counter.rateHz,
      });
      expect({ iterations: trials[0]?.iterations, limitedBy: cal.limitedBy }, name).toEqual(rule);
      const mem = rec.memory as { elfImageBytes: number; baselineRssKiB: number; peakRssKiB: number };
      expect(mem.elfImageBytes).toBeGreaterThan(1000);
      expect(mem.peakRssKiB).toBeGreaterThanOrEqual(mem.baselineRssKiB);
      // The seeds' proxies only: the stack and heap high-water are the memory step's (memory-step.test.ts).
      expect(Object.keys(mem).sort(), name).toEqual(["baselineRssKiB", "elfImageBytes", "peakRssKiB"]);
    }
    // The own-Keccak variant is built from the same sources with its define recorded.
    const field = <T>(key: string, name: string): T => {
      const rec = recs[key];
      if (!rec) throw new Error(`no record ${key}`);
      return rec[name] as T;
    };
    expect(field<{ defines?: string[] }>("kem-90/Puffin-K-128__keygen", "build").defines).toContain(
      "-DPUFFIN_OWN_KECCAK",
    );
    // Variable-length signatures: the measured lengths lie below the API cap.
    const lengths = field<{ signatureBytes: { min: number; max: number } }>(
      "sig-91/Quill-V-192__sign",
      "lengths",
    ).signatureBytes;
    expect(lengths.min).toBeGreaterThan(0);
    expect(lengths.max).toBeLessThanOrEqual(3074);
    const env = JSON.parse(readFileSync(join(out, "data/test_1/environment.json"), "utf8"));
    expect(env.counter.unit).toBe(process.arch === "x64" ? "tsc-ticks" : env.counter.unit);
    const v = cli("validate", join(out, "data"));
    expect(v.stderr).toMatch(/(\d+) of \1 file\(s\) valid/);
    expect(v.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ failed: 0, steps: { time: { records: Object.keys(recs).length } } });

    // --resume skips every job whose record exists for identical inputs.
    const again = cli("time", file, "--out", out, "--resume", "--json");
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      steps: { time: { records: 0, skipped: Object.keys(recs).length } },
    });
  }, 600_000);

  it("samples every call over varied inputs in several workers, with the distribution and the published figure", () => {
    const out = join(tmp, "per-call-out");
    const file = campaign(
      "per-call",
      [
        `  - { id: sig-93, source: { submission: ${JSON.stringify(join(submissionsDir, "sig-93"))} } }`,
        `  - { id: kex-92, instances: [Heron-2P-128], source: { submission: ${JSON.stringify(join(submissionsDir, "kex-92"))} } }`,
      ].join("\n"),
      "",
      // Enough calls that Wren's sign (a share of about 0.36 of its messages take one round) has its median on two
      // or more rounds with certainty: with FAST's ~20 calls it landed on one round now and then (median published).
      "{ trials: 3, minIterations: 5, targetTrialMs: 1, warmupMs: 1, workerMs: 12, minWorkers: 2, budgetMs: 100 }",
    );
    const r = cli("time", file, "--out", out);
    expect(r.code, r.stderr).toBe(0);
    const recs = records(out);
    expect(Object.keys(recs)).toHaveLength(3 + 7);
    for (const [name, rec] of Object.entries(recs)) {
      const x = rec as unknown as Required<TimingRecord>;
      expect(x.method, name).toBe("per-call");
      expect(x.build.linkage, name).toBe("static-objects");
      const s = x.sampling;
      expect(["target", "budget"]).toContain(s.stoppedBy);
      expect(s.workers).toBe(x.samples.length);
      expect(s.workers).toBeGreaterThanOrEqual(1);
      expect(s.samplesPerWorker).toEqual(x.samples.map((w) => w.counterDeltas.length));
      // With the core-clock probe, the contention probe too: every worker judged; the distribution is of the
      // uncontended workers when it says so, the aggregates (trials) of every worker.
      if (x.samples[0]?.clockDeltas) {
        expect(x.contention.workers.map((w) => w.worker)).toEqual(x.samples.map((w) => w.worker));
        expect(x.samples.every((w) => w.throughputDeltas?.length === w.counterDeltas.length)).toBe(true);
        for (const w of x.contention.workers) expect(w.contended).toBe(w.addsPerCycle < x.contention.threshold);
      }
      const published =
        x.contention?.publishedFrom === "uncontended" ? x.contention.workers.map((w) => !w.contended) : null;
      // A worker's samples during which it was switched out are left out, unless more than a quarter are.
      const kept = x.samples.map((w, i) => {
        const out = w.switchedOut?.length ?? 0;
        return out > 0.25 * (s.samplesPerWorker[i] ?? 0)
          ? (s.samplesPerWorker[i] ?? 0)
          : (s.samplesPerWorker[i] ?? 0) - out;
      });
      if (s.switchedOut) expect(s.switchedOut.keptPerWorker).toEqual(kept);
      expect(x.distribution.n).toBe(kept.reduce((a, b, i) => a + (published && !published[i] ? 0 : b), 0));
      expect(x.distribution.calls).toBe(x.distribution.n * s.batch);
      expect(x.aggregates.n).toBe(kept.reduce((a, b) => a + b, 0) * s.batch);
      expect(x.distribution.p999Ns).toBeGreaterThanOrEqual(x.distribution.p99Ns);
      expect(x.distribution.p999Ns).toBeLessThanOrEqual(x.distribution.maxNs);
      const c = x.central;
      expect(c.ci95Ns.low).toBeLessThanOrEqual(c.valueNs);
      expect(c.ci95Ns.high).toBeGreaterThanOrEqual(c.valueNs);
      expect(c.metTarget).toBe(c.relativeHalfWidth <= s.target.relativeHalfWidth);
      expect(c.valueNs).toBe(c.statistic === "median" ? x.distribution.medianNs : x.distribution.meanNs);
      expect(
        validateFile(join(out, "data/test_1/records", `${name.replace(/^([^/]+)\//, "$1/guide/")}.json`)).errors,
      ).toEqual([]);
    }
    // Every worker of an operation takes samples of the same batch, so the figures agree with each other and the
    // store passes validate's integrity and consistency checks.
    for (const rec of Object.values(recs)) {
      const x = rec as unknown as Required<TimingRecord>;
      const kept = x.sampling.switchedOut?.keptPerWorker ?? x.samples.map((w) => w.counterDeltas.length);
      expect(x.aggregates.n).toBe(kept.reduce((a, b) => a + b, 0) * x.sampling.batch);
    }
    const v = cli("validate", out);
    expect(v.code, v.stdout + v.stderr).toBe(0);
    const sign = recs["sig-93/Wren-128__sign"] as unknown as Required<TimingRecord>;
    expect(sign.sampling.inputs).toMatchObject({ messages: "fresh", keyPairs: 4 });
    // Deterministic signing whose rejection rounds depend on the message: a wide, discrete distribution,
    // published as the mean over varied inputs.
    expect(sign.central.statistic).toBe("mean");
    expect(sign.central.reason).toMatch(/depends on the input/);
    expect((recs["sig-93/Wren-128__verify"] as unknown as Required<TimingRecord>).sampling.inputs.messages).toBe(
      "pool",
    );

    // --quick: one short worker per operation, no target, and the records say so.
    const quick = cli("time", file, "--out", join(tmp, "quick-out"), "--quick", "--only", "kex-92");
    expect(quick.code, quick.stderr).toBe(0);
    for (const rec of Object.values(records(join(tmp, "quick-out")))) {
      const x = rec as unknown as Required<TimingRecord>;
      expect(x.sampling).toMatchObject({ stoppedBy: "quick", workers: 1 });
    }
  }, 600_000);

  it("measures a PQClean scheme through its namespaced API", () => {
    const out = join(tmp, "pqclean-out");
    const file = campaign("pq", "  - { id: ml-kem-512, name: ML-KEM-512, source: { pqclean: ml-kem-512 } }");
    const r = cli("time", file, "--out", out);
    expect(r.code).toBe(0);
    const recs = records(out);
    expect(Object.keys(recs).sort()).toEqual([
      "ml-kem-512/ml-kem-512__dec",
      "ml-kem-512/ml-kem-512__enc",
      "ml-kem-512/ml-kem-512__keygen",
    ]);
    expect(validateFile(join(out, "data/test_1/records/ml-kem-512/guide/ml-kem-512__dec.json")).errors).toEqual([]);
  }, 300_000);

  it("turns a compile error, a crash, a hang and a buffer overflow into failure records, exit 1, and goes on", () => {
    const bad = join(tmp, "bad");
    const noCompile = makeNoCompile(join(bad, "a"));
    const crash = makeCrashInDec(join(bad, "b"));
    const hang = makeHangInSign(join(bad, "c"));
    const overflow = makeOverflowInEnc(join(bad, "d"));
    const out = join(tmp, "bad-out");
    const file = campaign(
      "bad",
      [
        `  - { id: nocompile, instances: [Puffin-128], source: { submission: ${JSON.stringify(noCompile.sub.dir)} } }`,
        `  - { id: crash, instances: [Puffin-128], source: { submission: ${JSON.stringify(crash.sub.dir)} } }`,
        `  - { id: hang, instances: [Quill-128], source: { submission: ${JSON.stringify(hang.sub.dir)} } }`,
        `  - { id: overflow, instances: [Puffin-128], source: { submission: ${JSON.stringify(overflow.sub.dir)} } }`,
        `  - { id: good, instances: [Puffin-192], source: { submission: ${JSON.stringify(join(submissionsDir, "kem-90"))} } }`,
      ].join("\n"),
      "timeouts: { operationSeconds: 2 }",
    );
    const r = cli("time", file, "--out", out, "--json");
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at .+:\d+:\d+\)/);
    const recs = records(out);
    const reason = (k: string) => (recs[k]?.failure as { reason: string; message: string } | undefined)?.reason;
    const message = (k: string) => (recs[k]?.failure as { message: string } | undefined)?.message ?? "";
    expect(reason("nocompile/Puffin-128__keygen")).toBe("compile-error");
    expect(message("nocompile/Puffin-128__keygen")).toMatch(
      /compiling nocompile\/Puffin-128 \(kem\.c\) failed[\s\S]*error/,
    );
    expect(reason("crash/Puffin-128__dec")).toBe("crash");
    expect(message("crash/Puffin-128__dec")).toMatch(/SIGSEGV/);
    expect(reason("hang/Quill-128__sign")).toBe("timeout");
    expect(reason("overflow/Puffin-128__enc")).toBe("canary");
    expect(message("overflow/Puffin-128__enc")).toMatch(/canary/);
    for (const op of ["keygen", "enc", "dec"]) expect(recs[`good/Puffin-192__${op}`]?.status).toBe("ok");
    // Failure records are valid records too.
    const v = cli("validate", join(out, "data"));
    expect(v.code).toBe(0);
    expect(JSON.parse(r.stdout).failed).toBe(Object.values(recs).filter((x) => x.status === "failed").length);
  }, 600_000);

  it("reports an api.h without its size macros as a compile error naming them", () => {
    // A tiny submission whose own code compiles but whose api.h lacks CRYPTO_CIPHERTEXTBYTES.
    const dir = join(tmp, "nomacros");
    mkdirSync(join(dir, "impl"), { recursive: true });
    writeFileSync(
      join(dir, "impl/api.h"),
      "#define CRYPTO_PUBLICKEYBYTES 8\n#define CRYPTO_SECRETKEYBYTES 8\n#define CRYPTO_BYTES 8\n",
    );
    writeFileSync(
      join(dir, "impl/kem.c"),
      [
        "#include <string.h>",
        "int crypto_kem_keypair(unsigned char *pk, unsigned char *sk) { memset(pk, 1, 8); memset(sk, 1, 8); return 0; }",
        "int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk) { memcpy(ct, pk, 8); memset(ss, 2, 8); return 0; }",
        "int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk) { (void)ct; (void)sk; memset(ss, 2, 8); return 0; }",
        "",
      ].join("\n"),
    );
    writeFileSync(
      join(dir, "meta.json"),
      JSON.stringify({
        name: "NoMacros",
        category: "kem",
        instances: [{ name: "NoMacros-1", folder: "impl", sources: ["impl/kem.c"] }],
      }),
    );
    const out = join(tmp, "nomacros-out");
    const file = campaign("nomacros", `  - { id: nomacros, source: { submission: ${JSON.stringify(dir)} } }`);
    const r = cli("time", file, "--out", out);
    expect(r.code).toBe(1);
    const failure = records(out)["nomacros/NoMacros-1__keygen"]?.failure as
      | { reason: string; message: string }
      | undefined;
    expect(failure?.reason).toBe("compile-error");
    expect(failure?.message).toMatch(
      /building the driver for nomacros\/NoMacros-1 failed[\s\S]*api\.h must define CRYPTO_PUBLICKEYBYTES, CRYPTO_SECRETKEYBYTES, CRYPTO_CIPHERTEXTBYTES/,
    );
  }, 300_000);

  it("says so when the compiler is not installed, exit 2", () => {
    const file = campaign(
      "nocc",
      `  - { id: kem-90, instances: [Puffin-128], source: { submission: ${JSON.stringify(join(submissionsDir, "kem-90"))} } }`,
      "compiler: { cc: /nonexistent/bin/gcc-99 }",
    );
    const r = cli("time", file, "--out", join(tmp, "nocc-out"));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/compiler "\/nonexistent\/bin\/gcc-99" is not usable/);
  });

  it("rejects a campaign with a missing submission folder with exit 2 and a clear message", () => {
    const file = campaign(
      "missing",
      `  - { id: gone, source: { submission: ${JSON.stringify(join(tmp, "nowhere"))} } }`,
    );
    const r = cli("time", file, "--out", join(tmp, "missing-out"));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/algorithm gone: submission folder .*nowhere does not exist/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
