// The golden test of the report: rendering the seed store (fixtures/seed-store) gives, for each of the five seed
// pages, tables whose cells equal the seed's (fixtures/seed-cells/expected-cells.json) — every table, every row,
// every cell — in the Markdown and in the HTML page, read back as a reader sees them.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { renderSite } from "@ngcc-perf/report";
import type { ExpectedCells } from "@ngcc-perf/seed-store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixturesDir } from "./fixture-tools.ts";
import { type ParsedPage, parseHtmlPage, parseMarkdownPage } from "./report-pages.ts";

const golden = JSON.parse(
  readFileSync(join(fixturesDir, "seed-cells", "expected-cells.json"), "utf8"),
) as ExpectedCells;
const out = mkdtempSync(join(tmpdir(), "ngcc-report-golden-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

beforeAll(async () => {
  await renderSite(join(fixturesDir, "seed-store"), { out });
}, 120_000);

function compare(format: "md" | "html"): { cells: number; matched: number; mismatches: string[] } {
  let cells = 0;
  let matched = 0;
  const mismatches: string[] = [];
  for (const [id, want] of Object.entries(golden.pages)) {
    const text = readFileSync(join(out, "site", want.header.system, `${id}.${format}`), "utf8");
    const got: ParsedPage = format === "md" ? parseMarkdownPage(text) : parseHtmlPage(text);
    const check = (what: string, a: unknown, b: unknown) => {
      if (JSON.stringify(a) !== JSON.stringify(b))
        mismatches.push(`${format} ${id} ${what}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`);
    };
    check("header", got.header, want.header.line);
    check("title", got.title, want.title.line);
    check("intro", got.intro[0], want.intro);
    const basic = got.sections.find((s) => s.heading === want.basicInformation.heading);
    check("section 1", basic?.items, want.basicInformation.items);
    // Every seed section, in the seed's order; the page may add sections only after them.
    check(
      "section headings",
      got.sections.slice(1, 1 + want.sections.length).map((s) => s.heading),
      want.sections.map((s) => s.heading),
    );
    for (const section of want.sections) {
      const mine = got.sections.find((s) => s.heading === section.heading);
      // The seed's notes, in order, before the table (a page may add its own remarks).
      const notes = mine?.notes ?? [];
      const seen = section.notes.filter((n) => notes.includes(n));
      check(`${section.heading} notes`, seen, section.notes);
      check(`${section.heading} tables`, mine?.tables.length, section.tables.length);
      section.tables.forEach((table, t) => {
        const g = mine?.tables[t];
        const all = [table.headers, ...table.rows];
        const gotRows = g ? [g.headers, ...g.rows] : [];
        check(`${section.heading} table ${t + 1} rows`, gotRows.length, all.length);
        all.forEach((row, r) => {
          row.forEach((value, c) => {
            cells++;
            // A row the page marks unstable carries "§ <spread>" after the seed's figure (the seeds had no mark).
            const cellText = gotRows[r]?.[c]?.replace(/ § \d+(\.\d+)?%$/, "");
            if (cellText === value) matched++;
            else
              mismatches.push(
                `${format} ${id} ${section.heading} row ${r} col ${c}: ${JSON.stringify(gotRows[r]?.[c])} ≠ ${JSON.stringify(value)}`,
              );
          });
          if ((gotRows[r]?.length ?? 0) !== row.length)
            mismatches.push(
              `${format} ${id} ${section.heading} row ${r}: ${gotRows[r]?.length} cells, want ${row.length}`,
            );
        });
      });
    }
  }
  return { cells, matched, mismatches };
}

describe("report golden: the five seed pages from the seed store", () => {
  it.each(["md", "html"] as const)("reproduces every table, row and cell in %s", (format) => {
    const r = compare(format);
    console.log(
      `report golden (${format}): ${r.matched} of ${r.cells} cells of ${Object.keys(golden.pages).length} seed pages matched`,
    );
    expect(r.mismatches.slice(0, 20)).toEqual([]);
    expect(r.matched).toBe(r.cells);
    expect(r.cells).toBeGreaterThan(2000);
  });

  it("says that the seed store's records are synthesized, not measured", () => {
    for (const format of ["md", "html"] as const) {
      const text = readFileSync(join(out, "site", "arm_1", `kem-20.${format}`), "utf8");
      const page = format === "md" ? parseMarkdownPage(text) : parseHtmlPage(text);
      expect(
        page.intro.some((p) => p.startsWith("Synthesized records:")),
        format,
      ).toBe(true);
    }
  });
});
