// End to end over a demo-like store (the demo campaign's shape: kem-90 under two build profiles, a signature, per
// call with the core-clock probe, shortened): `ngcc-perf time`, `report` and `compare`, then every ± the pages, the
// summary, the CSV and JSON exports and compare print is read back and checked against the record of the figure
// beside it — the time's own interval beside the time, the estimated cycles' own interval beside the cycles. Also
// `validate` of the whole store, site included. Never asserts a timing.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatCounter, formatHalfWidth, formatTime } from "@ngcc-perf/report";
import { validateFile } from "@ngcc-perf/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { iccsDir, makeTempDir, runCli, submissionsDir } from "./fixture-tools.ts";
import { type ParsedTable, parseMarkdownPage } from "./report-pages.ts";

const tmp = makeTempDir("ngcc-report-intervals-");
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const store = join(tmp, "store");
const compareDir = join(tmp, "compare");
const site = join(store, "site", "test_1");
// biome-ignore lint/suspicious/noExplicitAny: records read back untyped.
type Rec = any;
const timings = new Map<string, Rec>();
const key = (alg: string, instance: string, profile: string, op: string) => `${alg}/${instance}/${profile}/${op}`;
let compareStdout = "";

beforeAll(() => {
  const campaign = join(tmp, "demo-like.yaml");
  const sub = (id: string) => JSON.stringify(join(submissionsDir, id));
  writeFileSync(
    campaign,
    [
      "name: demo-like",
      "system: test_1",
      "defaultProfile: guide",
      "buildProfiles:",
      '  guide: { cflags: ["-O3", "-fomit-frame-pointer"] }',
      '  o2: { cflags: ["-O2"] }',
      `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
      "timing: { workerMs: 10, minWorkers: 3, budgetMs: 150, trials: 3, minIterations: 5, targetTrialMs: 1 }",
      "algorithms:",
      `  - { id: kem-90, instances: [Puffin-128], buildProfiles: [guide, o2], source: { submission: ${sub("kem-90")} } }`,
      `  - { id: sig-91, instances: [Quill-128], source: { submission: ${sub("sig-91")} } }`,
    ].join("\n"),
  );
  const time = runCli(["time", campaign, "--out", store]);
  expect(time.code, time.stderr).toBe(0);
  const report = runCli(["report", store]);
  expect(report.code, report.stderr).toBe(0);
  // No console warnings from the chart library.
  expect(report.stderr).not.toMatch(/WARN/);
  const compare = runCli(["compare", store, store, "--out", compareDir, "--resamples", "200"]);
  expect(compare.code, compare.stderr).toBe(0);
  compareStdout = compare.stdout;
  const records = join(store, "data", "test_1", "records");
  for (const alg of readdirSync(records))
    for (const profile of readdirSync(join(records, alg)))
      for (const f of readdirSync(join(records, alg, profile))) {
        const r = JSON.parse(readFileSync(join(records, alg, profile, f), "utf8"));
        timings.set(key(r.algorithmId, r.instance, r.buildProfile, r.operation), r);
      }
}, 900_000);

/** The cells of a row by header. */
function byHeader(table: ParsedTable, row: string[]): (h: string) => string | undefined {
  return (h) => row[table.headers.indexOf(h)];
}

/** The marks a ± cell may carry after the interval (the target missed). */
const withoutMarks = (s: string) => s.replace(/ †$/, "");
/** The figure cell without its marks: `mean 162 µs ‡ ◇` → `162 µs`. */
const figureOf = (s: string) =>
  s
    .replace(/^mean /, "")
    .replace(/ (‡|◇|⚠ not plausible)/g, "")
    .trim();

describe("every ± beside its own figure, over a demo-like store", () => {
  it("section 4 of every algorithm page and the summary page: each ± is the interval of the figure before it", () => {
    let checked = 0;
    const pages = readdirSync(site).filter((f) => f.endsWith(".md"));
    for (const file of pages) {
      const page = parseMarkdownPage(readFileSync(join(site, file), "utf8"));
      const alg = file.replace(/\.md$/, "");
      for (const section of page.sections)
        for (const table of section.tables) {
          const plus = table.headers.flatMap((h, i) => (h.startsWith("±") ? [i] : []));
          // A ± anywhere else in a table is one this test does not know: it must not be there.
          // (The method page's precision target, ±1 %, is a target, not an interval: its row names it.)
          for (const row of table.rows)
            row.forEach((c, i) => {
              if (c.includes("±") && !plus.includes(i) && !(row[0] as string).includes("target"))
                throw new Error(`${file}: ± outside a ± column: ${c}`);
            });
          if (!plus.length) continue;
          for (const row of table.rows) {
            const at = byHeader(table, row);
            const algorithm = at("algorithm") ?? alg;
            const profile = at("build profile") ?? "guide";
            const r = timings.get(key(algorithm, at("instance") as string, profile, at("operation") as string));
            expect(r, `${file} ${row.join(" | ")}`).toBeDefined();
            for (const i of plus) {
              const h = table.headers[i] as string;
              const before = figureOf(row[i - 1] as string);
              if (h === "±") {
                expect(withoutMarks(row[i] as string), `${file} ${row.join(" | ")}`).toBe(
                  formatHalfWidth(r.central.relativeHalfWidth),
                );
                expect(before).toBe(formatTime(r.central.valueNs));
              } else {
                expect(h).toBe("± cycles");
                expect(withoutMarks(row[i] as string)).toBe(formatHalfWidth(r.central.cycles.relativeHalfWidth));
                expect(before).toBe(formatCounter(r.central.cycles.value));
              }
              checked++;
            }
          }
        }
    }
    // Both profiles of kem-90 and the signature, on their pages and in the summary, time and cycles.
    expect(checked).toBeGreaterThanOrEqual(2 * 2 * (2 * 3 + 3));
  });

  it("the CSV and JSON exports carry each figure's own interval, as the records hold them", () => {
    const json = JSON.parse(readFileSync(join(site, "summary.json"), "utf8"));
    const lines = readFileSync(join(site, "summary.csv"), "utf8").trim().split("\r\n");
    const header = (lines[0] as string).split(",");
    expect(json.rows).toHaveLength(lines.length - 1);
    for (const [i, row] of json.rows.entries()) {
      const r = timings.get(key(row.algorithmId, row.instance, row.buildProfile ?? "guide", row.operation));
      expect(row).toMatchObject({
        timeNs: r.central.valueNs,
        ci95LowNs: r.central.ci95Ns.low,
        ci95HighNs: r.central.ci95Ns.high,
        timeRelativeHalfWidth: r.central.relativeHalfWidth,
        cycles: r.central.cycles.value,
        cyclesCi95Low: r.central.cycles.ci95.low,
        cyclesCi95High: r.central.cycles.ci95.high,
        cyclesRelativeHalfWidth: r.central.cycles.relativeHalfWidth,
        targetFigure: r.sampling.target.figure ?? "time",
        p99Ns: r.distribution.p99Ns,
        maxNs: r.distribution.maxNs,
        calls: r.distribution.calls,
      });
      const cells = (lines[i + 1] as string).split(",");
      const at = (h: string) => cells[header.indexOf(h)];
      expect(at("instance")).toBe(row.instance);
      expect(at("time_relative_half_width")).toBe(String(r.central.relativeHalfWidth));
      expect(at("cycles_relative_half_width")).toBe(String(r.central.cycles.relativeHalfWidth));
      expect(at("ci95_low_ns")).toBe(String(r.central.ci95Ns.low));
      expect(at("cycles_ci95_high")).toBe(String(r.central.cycles.ci95.high));
    }
  });

  it("compare prints each side's figure with that record's own interval (text, page and JSON)", () => {
    const c = JSON.parse(readFileSync(join(compareDir, "compare.json"), "utf8"));
    expect(validateFile(join(compareDir, "compare.json")).errors).toEqual([]);
    const page = parseMarkdownPage(readFileSync(join(compareDir, "compare.md"), "utf8"));
    const table = page.sections.find((s) => s.heading === "Timings")?.tables[0] as ParsedTable;
    expect(c.timings.length).toBe(timings.size);
    for (const t of c.timings) {
      const r = timings.get(key(t.key.algorithmId, t.key.instance, t.key.buildProfile, t.key.operation));
      const cycles = t.figure.unit === "cycles";
      const own = cycles ? r.central.cycles.relativeHalfWidth : r.central.relativeHalfWidth;
      expect(t.aRelativeHalfWidth).toBe(own);
      expect(t.bRelativeHalfWidth).toBe(own);
      const value = cycles ? `${formatCounter(r.central.cycles.value)} cycles` : formatTime(r.central.valueNs);
      const cell = `${value} ${formatHalfWidth(own)}`;
      const name = `kem-90/Puffin-128`;
      const row = table.rows.find(
        (x) =>
          (x[0] as string).startsWith(`${t.key.algorithmId}/${t.key.instance} ${t.key.operation} `) &&
          (x[0] as string).endsWith(`[${t.key.buildProfile}]`),
      );
      expect(row, `${name} ${t.key.operation}`).toBeDefined();
      expect(row?.[2]).toBe(cell);
      expect(row?.[3]).toBe(cell);
      expect(compareStdout).toContain(cell);
    }
  });

  it("validate passes on the whole store, the site's summary.json included", () => {
    expect(existsSync(join(site, "summary.json"))).toBe(true);
    expect(validateFile(join(site, "summary.json")).errors).toEqual([]);
    const v = runCli(["validate", store]);
    expect(v.code, v.stdout + v.stderr).toBe(0);
    expect(v.stderr).toMatch(/^(\d+) of \1 file\(s\) valid/m);
  });
});
