// The rounding-edge store (fixtures/rounding-store, made by @ngcc-perf/seed-store's make-rounding-store.ts) through
// the real report: every figure sits at or next to an edge of its format, and each cell must be what the rules of
// docs/report.md ("Number formatting") give for the figure as recorded, in the Markdown and in the HTML page.
//
// How a figure is rounded: its exact decimal value (a time in the unit the rule picks), to the digits the rule
// prints, ties to even — what C's printf does with an exact value, and docs/report.md names C's %.3g. So 1555 ns is
// 1.555 µs and prints 1.56 µs (not the 1.55 that 1555 / 1000 = 1.55499… in binary gives); 3125 ops/s, an exact
// tie, prints 3.12e+03. Rounding that reaches the next range moves there: 999.5 µs → 1000 µs → 1 ms (trailing
// zeros dropped, as %.3g does: `13 ms`), 9999.5 cycles → 10.0 k, 999950 cycles → 1.00 M, 9.95 % → 10%.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { renderSite } from "@ngcc-perf/report";
import { ROUNDING } from "@ngcc-perf/seed-store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixturesDir } from "./fixture-tools.ts";
import { type ParsedPage, type ParsedTable, parseHtmlPage, parseMarkdownPage } from "./report-pages.ts";

const storeDir = join(fixturesDir, "rounding-store");
const systemDir = join(storeDir, "data", ROUNDING.system);
const out = mkdtempSync(join(tmpdir(), "ngcc-rounding-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const pages: Partial<Record<"md" | "html", ParsedPage>> = {};
beforeAll(async () => {
  await renderSite(storeDir, { out, formats: ["md", "html"] });
  const file = (format: string): string =>
    readFileSync(join(out, "site", ROUNDING.system, `${ROUNDING.algorithmId}.${format}`), "utf8");
  pages.md = parseMarkdownPage(file("md"));
  pages.html = parseHtmlPage(file("html"));
}, 120_000);

// biome-ignore lint/suspicious/noExplicitAny: records are read untyped; the seed-store package validates them.
type Rec = any;

function record(folder: "records" | "profile", instance: string, operation: string): Rec {
  const path = join(systemDir, folder, ROUNDING.algorithmId, ROUNDING.buildProfile, `${instance}__${operation}.json`);
  return JSON.parse(readFileSync(path, "utf8"));
}

/** The cell of a page's table that has the column `column`, in the row of `instance` and `operation`. */
function cell(page: ParsedPage | undefined, column: string, instance: string, operation: string): string | undefined {
  const tables: ParsedTable[] = (page?.sections ?? []).flatMap((s) => s.tables);
  const table = tables.find((t) => t.headers.includes(column) && t.headers.includes("operation"));
  if (!table) return `no table with a column ${JSON.stringify(column)}`;
  const at = (name: string): number => table.headers.indexOf(name);
  const row = table.rows.find((r) => r[at("instance")] === instance && r[at("operation")] === operation);
  return row?.[at(column)];
}

interface Case {
  instance: string;
  operation: string;
  column: string;
  /** The figure as the record holds it. */
  value: (timing: Rec, profile: Rec) => unknown;
  recorded: unknown;
  cell: string;
  why: string;
}

const agg =
  (field: string) =>
  (t: Rec): unknown =>
    t.aggregates[field];
const share =
  (group: string) =>
  (_t: Rec, p: Rec): unknown =>
    p.groups.find((g: Rec) => g.name === group)?.share;
const calls = (_t: Rec, p: Rec): unknown =>
  Object.fromEntries(p.calls.map((c: Rec) => [c.label ?? c.symbol, c.meanPerOperation]));

/** Cases of one row of section 4: [column, figure as recorded, cell, why]. */
function perf(instance: string, operation: string, cells: Array<[string, number, string, string]>): Case[] {
  const field: Record<string, string> = {
    "mean cycles": "meanCounter",
    "mean time": "meanNs",
    "ops/s": "opsPerSecond",
    "median trial": "medianTrialNs",
  };
  return cells.map(([column, recorded, c, why]) => ({
    instance,
    operation,
    column,
    value: agg(field[column] as string),
    recorded,
    cell: c,
    why,
  }));
}

const PROFILE_COLUMNS = ["pseudohash/XOF/sm3", "DRNG", "calls per operation"];

const CASES: Case[] = [
  ...perf("Edge-1", "keygen", [
    ["mean cycles", 9999.4, "9999", "below 10,000: an integer"],
    ["mean time", 999.4, "999 ns", "three digits in ns"],
    ["ops/s", 1e9 / 999.4, "1e+06", "%.3g of 1000600.36"],
    ["median trial", 999.5, "1 µs", "999.5 ns rounds to 1000 ns at three digits: 1 µs"],
  ]),
  ...perf("Edge-1", "enc", [
    ["mean cycles", 9999.5, "10.0 k", "9999.5 rounds to 10,000, no longer below 10,000: one decimal and k"],
    ["mean time", 1555, "1.56 µs", "1.555 µs to three digits (the figure is 1555 ns exactly)"],
    ["ops/s", 1e9 / 1555, "6.43e+05", "%.3g of 643086.8"],
    ["median trial", 1555, "1.56 µs", "1.555 µs to three digits"],
  ]),
  ...perf("Edge-1", "dec", [
    ["mean cycles", 999_949, "999.9 k", "999.949 k: one decimal"],
    ["mean time", 999_500, "1 ms", "999.5 µs rounds to 1000 µs: 1 ms"],
    ["ops/s", 1e9 / 999_500, "1e+03", "%.3g of 1000.5"],
    ["median trial", 999_500, "1 ms", "999.5 µs rounds to 1000 µs: 1 ms"],
  ]),
  ...perf("Edge-2", "keygen", [
    ["mean cycles", 999_950, "1.00 M", "999.95 k rounds to 1000.0 k, no longer below 10⁶: two decimals and M"],
    ["mean time", 320_000, "320 µs", "three digits in µs"],
    ["ops/s", 3125, "3.12e+03", "C's %.3g of exactly 3125: a tie, to even"],
    ["median trial", 320_000, "320 µs", "three digits in µs"],
  ]),
  ...perf("Edge-2", "enc", [
    ["mean cycles", 27_086, "27.1 k", "27.086 k: one decimal"],
    ["mean time", 9995, "10 µs", "9.995 µs rounds to 10.0 µs (trailing zeros dropped)"],
    ["ops/s", 1e9 / 9995, "1e+05", "%.3g of 100050.03"],
    ["median trial", 9995, "10 µs", "9.995 µs rounds to 10.0 µs"],
  ]),
  ...perf("Edge-2", "dec", [
    ["mean cycles", 5759, "5759", "below 10,000: an integer"],
    ["mean time", 2125, "2.12 µs", "C's %.3g of exactly 2.125 µs: a tie, to even"],
    ["ops/s", 1e9 / 2125, "4.71e+05", "%.3g of 470588.2"],
    ["median trial", 2125, "2.12 µs", "a tie, to even"],
  ]),
  ...perf("Edge-3", "keygen", [
    ["mean cycles", 2_710_000, "2.71 M", "two decimals and M"],
    ["mean time", 1_000_000, "1 ms", "exactly 1 ms"],
    ["ops/s", 1000, "1e+03", "%.3g of exactly 1000"],
    ["median trial", 1_000_000, "1 ms", "exactly 1 ms"],
  ]),
  ...perf("Edge-3", "enc", [
    ["mean cycles", 2_709_864_500, "2709.86 M", "two decimals and M"],
    ["mean time", 999_950_000, "1 s", "999.95 ms rounds to 1000 ms: 1 s"],
    ["ops/s", 1e9 / 999_950_000, "1", "%.3g of 1.00005"],
    ["median trial", 999_950_000, "1 s", "999.95 ms rounds to 1000 ms: 1 s"],
  ]),
  ...perf("Edge-3", "dec", [
    ["mean cycles", 270_864, "270.9 k", "270.864 k: one decimal"],
    ["mean time", 99_950, "100 µs", "99.95 µs rounds to 100 µs"],
    ["ops/s", 1e9 / 99_950, "1e+04", "%.3g of 10005.0"],
    ["median trial", 99_949, "99.9 µs", "99.949 µs to three digits"],
  ]),
  {
    instance: "Edge-1",
    operation: "keygen",
    column: "pseudohash/XOF/sm3",
    value: share("hash"),
    recorded: 0.0995,
    cell: "10%",
    why: "9.95 % rounds to 10.0 %, not below 10 %: an integer",
  },
  {
    instance: "Edge-1",
    operation: "keygen",
    column: "DRNG",
    value: share("drng"),
    recorded: 0.09949,
    cell: "9.9%",
    why: "9.949 %: below 10 %, one decimal",
  },
  {
    instance: "Edge-1",
    operation: "keygen",
    column: "calls per operation",
    value: calls,
    recorded: { drng: 1, pseudoXOF: 46.65 },
    cell: "drng 1, pseudoXOF 46.6",
    why: "whole counts as integers; 46.65 to one decimal, a tie, to even",
  },
  {
    instance: "Edge-1",
    operation: "enc",
    column: "pseudohash/XOF/sm3",
    value: share("hash"),
    recorded: 0.995,
    cell: "100%",
    why: "99.5 % as an integer",
  },
  {
    instance: "Edge-1",
    operation: "enc",
    column: "DRNG",
    value: share("drng"),
    recorded: 0.00049,
    cell: "0.0%",
    why: "0.049 % to one decimal",
  },
  {
    instance: "Edge-1",
    operation: "enc",
    column: "calls per operation",
    value: calls,
    recorded: { drng: 2.95, pseudoXOF: 46.75 },
    cell: "drng 3.0, pseudoXOF 46.8",
    why: "2.95 is not whole: one decimal, 3.0",
  },
  {
    instance: "Edge-1",
    operation: "dec",
    column: "pseudohash/XOF/sm3",
    value: share("hash"),
    recorded: 0.115,
    cell: "12%",
    why: "11.5 % as an integer",
  },
  {
    instance: "Edge-1",
    operation: "dec",
    column: "DRNG",
    value: share("drng"),
    recorded: 0.0095,
    cell: "1.0%",
    why: "0.95 % to one decimal (0.0095 × 100 is 0.94999… in binary; the figure is 0.95 %)",
  },
  {
    instance: "Edge-1",
    operation: "dec",
    column: "calls per operation",
    value: calls,
    recorded: { drng: 0.5, sm3hash: 9.95 },
    cell: "drng 0.5, sm3hash 10.0",
    why: "9.95 to one decimal is 10.0 (not whole: one decimal kept)",
  },
];

describe("rounding-edge store through the real report", () => {
  it("holds the figures the cases name", () => {
    for (const c of CASES) {
      const t = record("records", c.instance, c.operation);
      const p = PROFILE_COLUMNS.includes(c.column) ? record("profile", c.instance, c.operation) : null;
      expect(c.value(t, p), `${c.instance} ${c.operation} ${c.column}`).toEqual(c.recorded);
    }
  });

  it.each(["md", "html"] as const)("prints n as trials × iterations in %s", (format) => {
    expect(cell(pages[format], "n (trials × iters)", "Edge-1", "dec")).toBe("50 (5 × 10)");
    expect(cell(pages[format], "n (trials × iters)", "Edge-3", "enc")).toBe("5 (5 × 1)");
  });

  for (const format of ["md", "html"] as const)
    it.each(
      CASES.map(
        (c) =>
          [
            `${c.instance} ${c.operation} ${c.column}: ${JSON.stringify(c.recorded)} → ${c.cell} (${c.why})`,
            c,
          ] as const,
      ),
    )(`${format}: %s`, (_name, c) => {
      expect(cell(pages[format], c.column, c.instance, c.operation)).toBe(c.cell);
    });
});
