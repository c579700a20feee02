// The instructions step (issue 16, item 3): instruction counts per operation under valgrind's callgrind, with
// the KAT DRBG seeded so every run makes the same inputs. Real builds of kem-90's Puffin-128: the counts are
// identical across three runs (never compared with a figure, only with each other), the step resumes, a build
// valgrind cannot decode (AVX-512 allowed) becomes a failure record, and without valgrind the step exits 2.
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { instructionsCampaign, loadCampaign, readCallgrindDumps, valgrindRefusal } from "@ngcc-perf/runner";
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
        expect(rec.instructionsPerCall).toBe(((rec.collectedIr ?? 0) - (rec.baselineIr ?? 0)) / 8);
        expect(rec.randomness).toMatch(/CTR_DRBG/);
      }
      counts.push(recs.map((r) => r.collectedIr ?? -1));
    }
    expect(counts[1]).toEqual(counts[0]);
    expect(counts[2]).toEqual(counts[0]);
    // --resume: every record is current, nothing is run again.
    const again = await steps(file, join(work, "out-1"), ["--resume"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/instructions: 0 done, 0 failed, 3 skipped \(of 3\)/);
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
    const off = await instructionsCampaign(loadCampaign(file), { out: join(work, "out-off") });
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
