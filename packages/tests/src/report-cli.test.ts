// End to end: `ngcc-perf time` measures a fixture KEM and a KEM that crashes in dec (real C builds), then
// `ngcc-perf report` renders that store: measured figures, the counter's own unit, FAILED with the reason, and the
// exit codes of bad input. Never asserts a timing.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { recordPath } from "@ngcc-perf/schema";
import { afterAll, describe, expect, it } from "vitest";
import { iccsDir, makeCrashInDec, makeTempDir, runCli, submissionsDir } from "./fixture-tools.ts";
import { parseMarkdownPage } from "./report-pages.ts";

const tmp = makeTempDir("ngcc-report-cli-");
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const cli = (...args: string[]) => runCli(args);

describe("ngcc-perf report over a measured store", () => {
  it("renders measured records, names the counter's unit and shows a crash as FAILED", () => {
    const crash = makeCrashInDec(join(tmp, "bad"));
    const campaign = join(tmp, "campaign.yaml");
    writeFileSync(
      campaign,
      [
        "name: report-e2e",
        "system: test_1",
        `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
        "timing: { trials: 3, minIterations: 5, targetTrialMs: 1, warmupMs: 1, workerMs: 2, minWorkers: 2, budgetMs: 20 }",
        "algorithms:",
        `  - { id: kem-90, instances: [Puffin-128], source: { submission: ${JSON.stringify(join(submissionsDir, "kem-90"))} } }`,
        `  - { id: kem-crash, instances: [Puffin-128], source: { submission: ${JSON.stringify(crash.sub.dir)} } }`,
      ].join("\n"),
    );
    const store = join(tmp, "store");
    const time = cli("time", campaign, "--out", store);
    expect(time.code, time.stderr).toBe(1);

    const r = cli("report", store, "--json");
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ systems: ["test_1"], algorithms: 2, formats: ["md", "html"] });
    expect(summary.failedRecords).toBeGreaterThan(0);
    expect(r.stderr).toMatch(/failed record\(s\) shown as FAILED/);

    const env = JSON.parse(readFileSync(join(store, "data/test_1/environment.json"), "utf8"));
    const unitHeader: Record<string, string> = {
      "tsc-ticks": "mean TSC ticks",
      "core-cycles": "mean cycles",
      "timer-ticks": "mean timer ticks",
      ns: "mean counter ns",
    };
    const good = parseMarkdownPage(readFileSync(join(store, "site/test_1/kem-90.md"), "utf8"));
    const perf = good.sections.find((s) => s.heading === "4. Performance")?.tables[0];
    // Per-call records that probed the core clock give estimated core cycles; otherwise the counter's unit.
    const probed = env.counter.unit !== "core-cycles" && env.counter.unit !== "instructions";
    expect(perf?.headers[2]).toBe(probed ? "mean cycles (est.)" : unitHeader[env.counter.unit]);
    expect(perf?.rows.map((row) => row.slice(0, 2))).toEqual([
      ["Puffin-128", "keygen"],
      ["Puffin-128", "enc"],
      ["Puffin-128", "dec"],
    ]);
    const headers = perf?.headers ?? [];
    for (const row of perf?.rows ?? []) {
      const at = (h: string) => row[headers.indexOf(h)];
      expect(row[3]).toMatch(/^\d+(\.\d+)? (ns|µs|ms|s)$/);
      // per call: the central figure (the mean marked ‡ where the time depends on the input), its ±, then (with the
      // clock probe) the estimated cycles and their own ±, workers × calls; ◇ where every worker shared its core
      // with a busy sibling (a state of the machine the test cannot choose)
      expect(row[5]).toMatch(/^(mean )?\d+(\.\d+)? (ns|µs|ms|s)( ‡)?( ◇)?$/);
      expect(row[6]).toMatch(/^±\d+(\.\d)?%( †)?$/);
      if (probed) expect(at("± cycles")).toMatch(/^±\d+(\.\d)?%( †)?$/);
      // workers × calls, or workers × samples × batch when some operation on the page was batched
      expect(row[headers.findIndex((h) => h.startsWith("n ("))]).toMatch(/^\d+ \(\d+ × \d+(–\d+)?( × \d+)?\)$/);
    }
    // Steps that did not run are said plainly.
    expect(good.sections.find((s) => s.heading === "3. Functional testing (KAT)")?.tables[0]?.rows[0]).toEqual([
      "Puffin-128",
      "guide",
      "not run",
    ]);

    const bad = parseMarkdownPage(readFileSync(join(store, "site/test_1/kem-crash.md"), "utf8"));
    const rows = bad.sections.find((s) => s.heading === "4. Performance")?.tables[0]?.rows ?? [];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => (row[2] ?? "").startsWith("FAILED ("))).toBe(true);
    expect(rows.some((row) => /FAILED \((crash|check-failed)\)/.test(row[2] ?? ""))).toBe(true);
  }, 600_000);

  it("exits 2 with the file and pointer of a bad record, and for bad usage", () => {
    const store = join(tmp, "bad-store");
    const file = recordPath(store, {
      kind: "timing",
      key: { system: "x_1", algorithmId: "kem-1", instance: "A", buildProfile: "guide", operation: "keygen" },
    });
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '{\n  "kind": "timing",\n  "schemaVersion": 1\n}\n');
    const r = cli("report", store);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/A__keygen\.json:\d+:\d+: /);
    expect(r.stderr).not.toMatch(/\n\s+at /);

    expect(cli("report", join(tmp, "missing")).code).toBe(2);
    expect(cli("report").code).toBe(2);
    const f = cli("report", store, "--format", "pdf");
    expect(f.code).toBe(2);
    expect(f.stderr).toMatch(/--format takes a comma-separated list of md, html/);
  }, 120_000);
});
