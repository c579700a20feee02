// End to end: `ngcc-perf calibrate` (A/A sessions of the time step, a between-run file) and `run --between-run FILE`
// (the component added to every per-call interval, the records and the method page saying so), with the bad inputs
// of both. Quick sessions: behaviour and arithmetic from the records' own fields, never a timing.
import { createHash } from "node:crypto";
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type BetweenRunRecord, type TimingRecord, validateFile } from "@ngcc-perf/schema";
import { tQuantile975, withBetweenRun } from "@ngcc-perf/stats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { iccsDir, makeTempDir, recordsOfKind, runCli, submissionsDir } from "./fixture-tools.ts";

const tmp = makeTempDir("ngcc-between-run-");
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const campaignFile = join(tmp, "c.yaml");
const brFile = join(tmp, "between-run.json");
let doc: BetweenRunRecord;
let calibrated: ReturnType<typeof runCli>;

beforeAll(() => {
  writeFileSync(
    campaignFile,
    [
      "name: between-run",
      "system: test_1",
      `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
      "timing: { workerMs: 2, minWorkers: 2, budgetMs: 20 }",
      "algorithms:",
      `  - { id: kem-90, source: { submission: ${JSON.stringify(join(submissionsDir, "kem-90"))} } }`,
    ].join("\n"),
  );
  calibrated = runCli([
    "calibrate",
    campaignFile,
    "--out",
    brFile,
    "--sessions",
    "2",
    "--quick",
    "--only",
    "kem-90/Puffin-128",
  ]);
  if (calibrated.code === 0) doc = JSON.parse(readFileSync(brFile, "utf8")) as BetweenRunRecord;
}, 600_000);

/** A --quick run of the campaign's Puffin-128 into out. */
const quickRun = (out: string, steps: string, ...extra: string[]) =>
  runCli(["run", campaignFile, "--out", out, "--steps", steps, "--quick", "--only", "kem-90/Puffin-128", ...extra]);

/** A copy of the between-run file with one edit, written beside it. */
function edited(name: string, edit: (d: BetweenRunRecord) => void): string {
  const d = JSON.parse(readFileSync(brFile, "utf8")) as BetweenRunRecord;
  edit(d);
  const file = join(tmp, name);
  writeFileSync(file, JSON.stringify(d, null, 2));
  return file;
}

describe("ngcc-perf calibrate", () => {
  it("writes a valid between-run file: every operation's figure per session and the components", () => {
    expect(calibrated.code, calibrated.stderr).toBe(0);
    expect(calibrated.stderr).toMatch(/session 1\/2: \d+ s/);
    expect(calibrated.stderr).toMatch(
      /time: between-run sd [\d.]+ % of the figure \(3 operation\(s\), 2 sessions, 1 df\)/,
    );
    expect(validateFile(brFile)).toMatchObject({ kind: "between-run", valid: true });
    expect(doc).toMatchObject({ system: "test_1", campaign: "between-run", quick: true });
    expect(doc.operations.map((o) => o.operation).sort()).toEqual(["dec", "enc", "keygen"]);
    for (const o of doc.operations) {
      expect(o).toMatchObject({ algorithmId: "kem-90", instance: "Puffin-128", buildProfile: "guide" });
      expect(o.time).toHaveLength(2);
      expect(o.contention).toHaveLength(2);
    }
    expect(doc.time).toMatchObject({ df: 1, sessions: 2, operations: 3 });
    expect(doc.time.relativeSd).toBeGreaterThanOrEqual(0);
  });

  it("refuses bad arguments with exit 2 and no stack trace", () => {
    const one = runCli(["calibrate", campaignFile, "--out", join(tmp, "x.json"), "--sessions", "1"]);
    expect(one.code).toBe(2);
    expect(one.stderr).toMatch(/--sessions takes a whole number ≥ 2, not "1"/);
    const noOut = runCli(["calibrate", campaignFile]);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toMatch(/--out FILE/);
    expect(one.stderr + noOut.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("ngcc-perf run --between-run", () => {
  it("adds the component to every per-call interval; the records keep the within-run half-width and say where it came from", () => {
    const out = join(tmp, "with");
    const r = quickRun(out, "build,time", "--between-run", brFile);
    expect(r.code, r.stderr).toBe(0);
    const sha = createHash("sha256").update(readFileSync(brFile)).digest("hex");
    const timings = recordsOfKind(out, /^timing$/) as unknown as TimingRecord[];
    expect(timings).toHaveLength(3);
    for (const t of timings) {
      const c = t.central as NonNullable<TimingRecord["central"]>;
      const b = c.betweenRun as NonNullable<typeof c.betweenRun>;
      expect(b).toMatchObject({ relativeSd: doc.time.relativeSd, df: 1, sessions: 2, sha256: sha });
      expect(b.measured).toMatch(/^test_1 on .+, 2 sessions ending /);
      const total = withBetweenRun(b.withinRelativeHalfWidth * c.valueNs, c.valueNs, doc.time);
      expect(c.relativeHalfWidth).toBeCloseTo(total / c.valueNs, 9);
      expect(c.ci95Ns.high).toBeCloseTo(c.valueNs + total, 6);
      expect(c.ci95Ns.low).toBeCloseTo(Math.max(0, c.valueNs - total), 6);
      expect(c.relativeHalfWidth).toBeGreaterThanOrEqual(b.withinRelativeHalfWidth);
      if (c.cycles && doc.cycles) {
        const y = c.cycles.betweenRun as NonNullable<typeof c.cycles.betweenRun>;
        expect(y.relativeSd).toBe(doc.cycles.relativeSd);
        const cyc = withBetweenRun(y.withinRelativeHalfWidth * c.cycles.value, c.cycles.value, doc.cycles);
        expect(c.cycles.relativeHalfWidth).toBeCloseTo(cyc / c.cycles.value, 9);
      }
    }
    const report = runCli(["report", out]);
    expect(report.code, report.stderr).toBe(0);
    const method = readFileSync(join(out, "site", "test_1", "method.md"), "utf8");
    expect(method).toMatch(/every interval also includes this machine's between-run component/);
  });

  it("compare adds both runs' components to the ratio's interval", () => {
    const a = join(tmp, "with");
    const b = join(tmp, "with-copy");
    cpSync(a, b, { recursive: true });
    const r = runCli(["compare", a, b, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const cmp = JSON.parse(r.stdout) as { timings: Array<Record<string, unknown>> };
    expect(cmp.timings).toHaveLength(3);
    for (const t of cmp.timings) {
      const c = (t.figure as { unit: string }).unit === "cycles" && doc.cycles ? doc.cycles : doc.time;
      const sd = Math.SQRT2 * c.relativeSd;
      const br = t.betweenRun as { relativeSd: number; df: number };
      expect(br.df).toBe(1);
      expect(br.relativeSd).toBeCloseTo(sd, 12);
      const e = tQuantile975(1) * sd;
      const ci = t.ci95 as { low: number; high: number };
      // Each end is √(bootstrap² + e²) from the ratio on the log scale (stats' between-run.test checks the
      // arithmetic): at least e, whatever the bootstrap's own part (a store against its copy, resampled; its width
      // follows the load, so it is not bounded here).
      expect(Math.log(ci.high / (t.ratio as number))).toBeGreaterThanOrEqual(e - 1e-12);
      expect(-Math.log(ci.low / (t.ratio as number))).toBeGreaterThanOrEqual(e - 1e-12);
      expect(t.note).toMatch(/the interval includes both runs' between-run component/);
    }
  });

  it("says, without one, that the intervals are within-run", () => {
    const out = join(tmp, "without");
    const r = quickRun(out, "build,time,report");
    expect(r.code, r.stderr).toBe(0);
    for (const t of recordsOfKind(out, /^timing$/) as unknown as TimingRecord[]) {
      expect(t.central?.betweenRun).toBeUndefined();
    }
    expect(readFileSync(join(out, "site", "test_1", "method.md"), "utf8")).toMatch(
      /These intervals are within-run: they hold for a repeat run only while the machine stays in the state/,
    );
  });

  it("refuses a file of another system or processor, a --quick file for a real run, and a malformed file: exit 2 naming the file and the pointer", () => {
    const run = (file: string, ...extra: string[]) =>
      runCli([
        "run",
        campaignFile,
        "--out",
        join(tmp, "refused"),
        "--steps",
        "build,time",
        ...extra,
        "--between-run",
        file,
      ]);
    const cases: Array<[string, RegExp, string[]]> = [
      [
        edited("system.json", (d) => {
          d.system = "arm_1";
        }),
        /system\.json:\d+:\d+ \/system is "arm_1", but the campaign measures "test_1"/,
        ["--quick"],
      ],
      [
        edited("cpu.json", (d) => {
          d.host.cpuModel = "Imaginary CPU 9000";
        }),
        /cpu\.json:\d+:\d+ \/host\/cpuModel is "Imaginary CPU 9000", but this machine's processor is/,
        ["--quick"],
      ],
      [brFile, /between-run\.json:\d+:\d+ \/quick is true: a --quick calibration/, []],
      [
        edited("negative.json", (d) => {
          d.time.relativeSd = -1;
        }),
        /negative\.json:\d+:\d+ \/time\/relativeSd/,
        ["--quick"],
      ],
    ];
    for (const [file, message, extra] of cases) {
      const r = run(file, ...extra);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    writeFileSync(join(tmp, "broken.json"), '{ "kind": "between-run",\n  "system": ');
    const broken = run(join(tmp, "broken.json"), "--quick");
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/broken\.json:\d+:\d+/);
    const missing = run(join(tmp, "missing.json"), "--quick");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing\.json.*cannot read the between-run file: ENOENT/);
  });
});
