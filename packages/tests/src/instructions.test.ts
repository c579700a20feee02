// The instructions step (issue 16, item 3): instruction counts per operation under valgrind's callgrind, with
// the KAT DRBG seeded so every run makes the same inputs. Real builds of kem-90's Puffin-128: the counts are
// identical across three runs (never compared with a figure, only with each other), the step resumes, a build
// valgrind cannot decode (AVX-512 allowed) becomes a failure record, and without valgrind the step exits 2.

import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  CALLGRIND_OPTIONS,
  countedCalls,
  instructionsCampaign,
  loadCampaign,
  readCallgrindDumps,
  resolveCampaign,
  valgrindRefusal,
} from "@ngcc-perf/runner";
import { type InstructionsRecord, recordPath, validateFile } from "@ngcc-perf/schema";
import { afterAll, describe, expect, it } from "vitest";
import { iccsDir, makeTempDir, runCliAsync, submissionsDir } from "./fixture-tools.ts";

const work = makeTempDir("ngcc-instructions-");
afterAll(() => rmSync(work, { recursive: true, force: true }));

const OPS = ["keygen", "enc", "dec"] as const;

/** A campaign over kem-90's Puffin-128 under one profile with these flags. */
function campaign(name: string, cflags: string[], extra: string[] = []): string {
  const file = join(work, `${name}.yaml`);
  writeFileSync(
    file,
    [
      `name: ${name}`,
      "system: test_1",
      `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
      `buildProfiles: { p: { cflags: ${JSON.stringify(cflags)} } }`,
      ...extra,
      "algorithms:",
      `  - { id: kem-90, source: { submission: ${JSON.stringify(join(submissionsDir, "kem-90"))} }, instances: [Puffin-128] }`,
    ].join("\n"),
  );
  return file;
}

function records(out: string): InstructionsRecord[] {
  return OPS.map((operation) => {
    const key = { system: "test_1", algorithmId: "kem-90", instance: "Puffin-128", buildProfile: "p", operation };
    const file = recordPath(out, { kind: "instructions", key });
    expect(validateFile(file).errors).toEqual([]);
    return JSON.parse(readFileSync(file, "utf8")) as InstructionsRecord;
  });
}

const steps = (file: string, out: string, more: string[] = []) =>
  runCliAsync(["run", file, "--out", out, "--steps", "instructions", ...more], { timeoutMs: 300_000 });

describe("the instructions step", () => {
  it("counts every operation identically in three runs, and resumes", async () => {
    const file = campaign("three", ["-O2"], ["instructions: { calls: 8 }"]);
    const counts: number[][] = [];
    for (const n of [1, 2, 3]) {
      const out = join(work, `out-${n}`);
      const r = await steps(file, out);
      expect(r.code, r.stderr).toBe(0);
      const recs = records(out);
      for (const rec of recs) {
        expect(rec.status, rec.operation).toBe("ok");
        expect(rec.tool?.name).toBe("callgrind");
        expect(rec.calls).toBe(8);
        expect(rec.instructionsPerCall).toBeGreaterThan(0);
        // One count per call, the algorithm alone; the mean is theirs.
        const per = rec.perCall?.instructions ?? [];
        expect(per).toHaveLength(8);
        expect(rec.instructionsPerCall).toBeCloseTo(per.reduce((a, b) => a + b, 0) / 8, 6);
        expect(rec.perCall?.min).toBe(Math.min(...per));
        expect(rec.perCall?.max).toBe(Math.max(...per));
        expect(rec.randomness).toMatch(/CTR_DRBG.*not in the operation's count/);
      }
      counts.push(recs.map((r) => r.collectedIr ?? -1));
    }
    expect(counts[1]).toEqual(counts[0]);
    expect(counts[2]).toEqual(counts[0]);
    // keygen and enc draw randomness (reported beside the count), dec none.
    const [keygen, enc, dec] = records(join(work, "out-1"));
    for (const r of [keygen, enc]) {
      expect(r?.randombytes?.calls, r?.operation).toBeGreaterThan(0);
      expect(r?.randombytes?.bytes, r?.operation).toBeGreaterThan(0);
      expect(r?.randombytes?.instructions, r?.operation).toBeGreaterThan(0);
    }
    expect(dec?.randombytes).toMatchObject({ calls: 0, bytes: 0, instructions: 0 });
    // --resume: every record is current, nothing is run again.
    const again = await steps(file, join(work, "out-1"), ["--resume"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/instructions: 0 done, 0 failed, 3 skipped \(of 3\)/);
  }, 300_000);

  it("leaves the DRBG out of the count: the same program with the DRBG counted differs by the DRBG's count", async () => {
    // The counter the step linked for out-1 (the first test), run again by hand: once as the step runs it, once
    // with --drbg-in-count 1 (collection left on inside randombytes, as records before the exclusion counted).
    const out = join(work, "out-1");
    const find = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? find(join(dir, e.name)) : e.name === "ngcc-icount" ? [join(dir, e.name)] : [],
      );
    const [program] = find(join(out, "build"));
    expect(program).toBeDefined();
    const count = (op: string, drbgIn: boolean) => {
      const dir = join(work, `manual-${op}-${drbgIn}`);
      mkdirSync(dir, { recursive: true });
      const args = [
        "--op",
        op,
        "--calls",
        "8",
        "--keys",
        "4",
        "--pool",
        "16",
        ...(drbgIn ? ["--drbg-in-count", "1"] : []),
      ];
      const r = spawnSync(
        "valgrind",
        [...CALLGRIND_OPTIONS, `--callgrind-out-file=${join(dir, "cg.out")}`, program as string, ...args],
        { encoding: "utf8" },
      );
      expect(r.status, r.stderr).toBe(0);
      const json = JSON.parse(r.stdout) as { randombytes: { calls: number[]; bytes: number[] } };
      return countedCalls(readCallgrindDumps(dir, "cg.out"), json.randombytes, 8);
    };
    const recs = records(out);
    for (const op of OPS) {
      const rec = recs.find((r) => r.operation === op) as InstructionsRecord;
      const excluded = count(op, false);
      const included = count(op, true);
      // The step's own figure is what the program gives by hand.
      expect(Math.abs(excluded.instructionsPerCall - (rec.instructionsPerCall ?? 0))).toBeLessThan(1);
      const drbg = rec.randombytes?.instructions ?? -1;
      if (op === "dec") {
        // No randomness drawn: the same count both ways (to within a client request's few instructions).
        expect(drbg).toBe(0);
        expect(Math.abs(included.instructionsPerCall - excluded.instructionsPerCall)).toBeLessThan(20);
      } else {
        // The DRBG counted in: more by the DRBG's own instructions (within 1 %), which are thousands.
        expect(drbg).toBeGreaterThan(1000);
        const added = included.instructionsPerCall - excluded.instructionsPerCall;
        expect(Math.abs(added - drbg) / drbg, op).toBeLessThan(0.01);
      }
    }
  }, 300_000);

  it("a build valgrind cannot decode (AVX-512) becomes a failure record of every operation", async () => {
    const out = join(work, "out-avx512");
    const r = await steps(campaign("avx512", ["-O2", "-mavx512f"]), out);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).not.toMatch(/internal error/);
    for (const rec of records(out)) {
      expect(rec.status).toBe("failed");
      expect(rec.failure?.message).toMatch(/valgrind decodes x86-64 up to AVX2 .* -mavx512f/);
      expect(rec.instructionsPerCall).toBeUndefined();
    }
  }, 300_000);

  it("off unless asked for or enabled; asked for without valgrind: a clear message and exit 2", async () => {
    const file = campaign("plain", ["-O2"]);
    // Not asked for (a plain run) and not enabled by the campaign: it plans nothing, runs no valgrind.
    const off = await instructionsCampaign(resolveCampaign(loadCampaign(file)), { out: join(work, "out-off") });
    expect(off).toMatchObject({ planned: 0, records: 0, failed: 0, notes: ["off in this campaign"] });
    // PATH without valgrind: every program of /usr/bin but valgrind.
    const bin = join(work, "bin-no-valgrind");
    mkdirSync(bin);
    for (const f of readdirSync("/usr/bin"))
      if (!f.startsWith("valgrind")) symlinkSync(join("/usr/bin", f), join(bin, f));
    const r = await runCliAsync(["run", file, "--out", join(work, "out-none"), "--steps", "instructions"], {
      env: { ...process.env, PATH: bin },
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/the instructions step needs valgrind \(callgrind\), which is not installed/);
  }, 300_000);
});

describe("valgrindRefusal and readCallgrindDumps", () => {
  it("refuses AVX-512 flags, -march=native only on an AVX-512 processor", () => {
    expect(valgrindRefusal(["-O3", "-march=x86-64-v3"], true)).toBeNull();
    expect(valgrindRefusal(["-O3", "-march=x86-64-v4"], false)).toMatch(/-march=x86-64-v4/);
    expect(valgrindRefusal(["-march=native"], false)).toBeNull();
    expect(valgrindRefusal(["-march=native"], true)).toMatch(/on this AVX-512 processor/);
    expect(valgrindRefusal(["-mavx512bw"], false)).toMatch(/-mavx512bw/);
  });

  it("countedCalls: each call's dump less one toggle pair per request pair, the DRBG's replay beside", () => {
    const dumps = [
      { trigger: "Client Request: ngcc-call-1", ir: 1010 + 10 }, // one randombytes call: two pairs
      { trigger: "Client Request: ngcc-call-2", ir: 1210 + 20 }, // two calls: three pairs
      { trigger: "Client Request: ngcc-call-3", ir: 1000 + 5 }, // none: one pair
      { trigger: "Client Request: ngcc-call-11", ir: 99_999 }, // not one of the three calls
      { trigger: "Client Request: ngcc-baseline", ir: 15 }, // 3 pairs of 5
      { trigger: "Client Request: ngcc-randombytes", ir: 905 },
    ];
    const c = countedCalls(dumps, { calls: [1, 2, 0], bytes: [32, 64, 0] }, 3);
    expect(c.perCall).toEqual({ instructions: [1010, 1215, 1000], min: 1000, max: 1215, median: 1010 });
    expect(c.instructionsPerCall).toBeCloseTo(3225 / 3, 9);
    expect(c.collectedIr).toBe(1020 + 1230 + 1005);
    expect(c.randombytes).toEqual({ calls: 1, bytes: 32, instructions: 300, replayIr: 905 });
    expect(() => countedCalls(dumps.slice(1), { calls: [1, 2, 0], bytes: [32, 64, 0] }, 3)).toThrow(/ngcc-call-1/);
  });

  it("reads each dump's trigger and total", () => {
    const dir = join(work, "dumps");
    mkdirSync(dir);
    writeFileSync(join(dir, "cg.out"), "desc: Trigger: Program termination\nsummary: 0\ntotals: 0\n");
    writeFileSync(join(dir, "cg.out.1"), "desc: Trigger: Client Request: ngcc-calls\nevents: Ir\nsummary: 1234\n");
    writeFileSync(join(dir, "other"), "summary: 5\n");
    const dumps = readCallgrindDumps(dir, "cg.out").sort((a, b) => a.ir - b.ir);
    expect(dumps).toEqual([
      { trigger: "Program termination", ir: 0 },
      { trigger: "Client Request: ngcc-calls", ir: 1234 },
    ]);
  });
});
