// The published statistic decided by instruction counts (issue 26): one decision per instance × operation for the
// whole campaign, from the per-call counts of the instance's reference profile (its first profile valgrind can
// count), counted by the time step before it times anything; every profile's timing record carries the same
// statistic and decision. Real builds of kem-90's Puffin-128 (no rejection loop: the median) and sig-93's
// Wren-128 (deterministic signing with a message-dependent number of rejection rounds: the mean for sign) under
// two profiles, timed with --quick (no figure is compared with anything). Without valgrind the distribution
// decides, and the records say why.
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type InstructionsRecord, recordPath, type TimingRecord, validateFile } from "@ngcc-perf/schema";
import { afterAll, describe, expect, it } from "vitest";
import { iccsDir, makeTempDir, runCliAsync, submissionsDir } from "./fixture-tools.ts";

const work = makeTempDir("ngcc-central-decision-");
afterAll(() => rmSync(work, { recursive: true, force: true }));

const file = join(work, "campaign.yaml");
writeFileSync(
  file,
  [
    "name: decision",
    "system: test_1",
    `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
    'buildProfiles: { a: { cflags: ["-O2"] }, b: { cflags: ["-O1"] } }',
    "instructions: { calls: 12 }",
    "algorithms:",
    `  - { id: kem-90, source: { submission: ${JSON.stringify(join(submissionsDir, "kem-90"))} }, instances: [Puffin-128], buildProfiles: [a, b] }`,
    `  - { id: sig-93, source: { submission: ${JSON.stringify(join(submissionsDir, "sig-93"))} }, instances: [Wren-128], buildProfiles: [a, b] }`,
  ].join("\n"),
);

const UNITS = [
  { algorithmId: "kem-90", instance: "Puffin-128", ops: ["keygen", "enc", "dec"] },
  { algorithmId: "sig-93", instance: "Wren-128", ops: ["keygen", "sign", "verify"] },
] as const;

function read<T>(out: string, kind: "timing" | "instructions", key: Record<string, string>): T {
  const path = recordPath(out, { kind, key: { system: "test_1", ...key } as never });
  expect(validateFile(path).errors).toEqual([]);
  return JSON.parse(readFileSync(path, "utf8")) as T;
}

describe("the time step's statistic, decided by instruction counts", () => {
  it("every profile publishes the reference profile's decision; the instructions step then reuses the counts", async () => {
    const out = join(work, "out");
    const r = await runCliAsync(["run", file, "--out", out, "--steps", "time,instructions", "--quick"], {
      timeoutMs: 600_000,
    });
    expect(r.code, r.stderr).toBe(0);
    // The pre-pass counted profile a (the reference) only; the instructions step counted b and reused a.
    expect(r.stderr).toMatch(/instructions: 6 done, 0 failed, 6 skipped \(of 12\)/);
    const seen = new Map<string, string>();
    for (const u of UNITS) {
      for (const operation of u.ops) {
        const key = { algorithmId: u.algorithmId, instance: u.instance, operation };
        const counted = read<InstructionsRecord>(out, "instructions", { ...key, buildProfile: "a" });
        const per = counted.perCall?.instructions ?? [];
        expect(per).toHaveLength(12);
        const records = ["a", "b"].map((buildProfile) => read<TimingRecord>(out, "timing", { ...key, buildProfile }));
        for (const t of records) {
          const d = t.central?.decision;
          expect(d, `${u.instance} ${operation}`).toMatchObject({
            by: "instructions",
            profile: "a",
            calls: 12,
            minInstructions: Math.min(...per),
            maxInstructions: Math.max(...per),
            threshold: 0.1,
          });
          if (d?.by !== "instructions") throw new Error("not decided by instructions");
          expect(t.central?.statistic).toBe(d.inputDependent ? "mean" : "median");
          expect(t.central?.reason).toMatch(/the instructions per call \(12 counted calls under a: /);
          expect(t.central?.reason).toMatch(d.inputDependent ? /depends on the input/ : /does not depend on the input/);
        }
        // The same statistic and decision under both profiles.
        expect(records[1]?.central?.decision).toEqual(records[0]?.central?.decision);
        expect(records[1]?.central?.statistic).toBe(records[0]?.central?.statistic);
        seen.set(`${u.instance} ${operation}`, records[0]?.central?.statistic ?? "");
      }
    }
    // Puffin's work does not loop on its input; Wren's signing repeats rounds by message.
    expect(seen.get("Puffin-128 keygen")).toBe("median");
    expect(seen.get("Puffin-128 dec")).toBe("median");
    expect(seen.get("Wren-128 sign")).toBe("mean");
    expect(seen.get("Wren-128 verify")).toBe("median");
  }, 600_000);

  it("without valgrind the timing distribution decides, and the record says why", async () => {
    const bin = join(work, "bin-no-valgrind");
    mkdirSync(bin);
    for (const f of readdirSync("/usr/bin"))
      if (!f.startsWith("valgrind")) symlinkSync(join("/usr/bin", f), join(bin, f));
    const out = join(work, "out-none");
    const r = await runCliAsync(["run", file, "--out", out, "--steps", "time", "--quick", "--only", "kem-90"], {
      env: { ...process.env, PATH: bin },
      timeoutMs: 600_000,
    });
    expect(r.code, r.stderr).toBe(0);
    for (const buildProfile of ["a", "b"]) {
      for (const operation of UNITS[0].ops) {
        const t = read<TimingRecord>(out, "timing", {
          algorithmId: "kem-90",
          instance: "Puffin-128",
          buildProfile,
          operation,
        });
        expect(t.central?.decision).toEqual({ by: "distribution", why: "valgrind (callgrind) is not installed" });
        expect(t.central?.reason).toMatch(/instructions not counted: valgrind \(callgrind\) is not installed/);
      }
    }
  }, 600_000);
});
