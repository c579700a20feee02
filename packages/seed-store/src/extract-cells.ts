// Writes the golden expectation of the seed pages: every table, row and cell, with the notes of each section.
//
//   pnpm --filter @ngcc-perf/seed-store extract-cells [seedDir] [outFile]
//   (or: pnpm exec tsx packages/seed-store/src/extract-cells.ts [seedDir] [outFile])
//
// seedDir defaults to ../shared/seeds beside the repository root (/work/shared/seeds),
// outFile to fixtures/seed-cells/expected-cells.json. The file is written to a temporary name and renamed.

import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { formatJson, writeFileAtomic } from "./json-io.ts";
import type { SeedPage } from "./parse-seeds.ts";
import { notesOf, parseSeedPage, tablesOf } from "./parse-seeds.ts";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
export const DEFAULT_SEED_DIR = resolve(REPO_ROOT, "../shared/seeds");
export const DEFAULT_OUT = join(REPO_ROOT, "fixtures/seed-cells/expected-cells.json");

export interface ExpectedTable {
  headers: string[];
  rows: string[][];
}

export interface ExpectedSection {
  number: number | null;
  heading: string;
  notes: string[];
  tables: ExpectedTable[];
}

export interface ExpectedPage {
  source: { file: string; rendering: SeedPage["rendering"] };
  header: SeedPage["header"];
  title: SeedPage["title"];
  intro: string;
  basicInformation: SeedPage["basic"];
  sections: ExpectedSection[];
  footer: string;
}

export interface ExpectedCells {
  description: string;
  cellNormalForm: string;
  pages: Record<string, ExpectedPage>;
}

export const CELL_NORMAL_FORM =
  "code markup (backticks) removed, whitespace runs collapsed to one space, trimmed; otherwise as printed. " +
  "The KAT-log evidence cell reads `KAT log (sha256 <16 hex digits>…)`; list values of section 1 are joined by ', '.";

export function toExpectedPage(page: SeedPage, file: string): ExpectedPage {
  return {
    source: { file, rendering: page.rendering },
    header: page.header,
    title: page.title,
    intro: page.intro,
    basicInformation: page.basic,
    sections: page.sections.map((s) => ({
      number: s.number,
      heading: s.heading,
      notes: notesOf(s),
      tables: tablesOf(s).map((t) => ({ headers: t.headers, rows: t.rows })),
    })),
    footer: page.footer,
  };
}

/** Parses every `*.txt` seed page of a directory; keys are algorithm ids, in file-name order. */
export function readSeedDir(seedDir: string): Array<{ file: string; page: SeedPage }> {
  const files = readdirSync(seedDir)
    .filter((f) => f.endsWith(".txt"))
    .sort();
  if (files.length === 0) throw new Error(`no seed pages (*.txt) in ${seedDir}`);
  return files.map((file) => ({ file, page: parseSeedPage(readFileSync(join(seedDir, file), "utf8"), file) }));
}

export function buildExpectedCells(seedDir: string): ExpectedCells {
  const pages: Record<string, ExpectedPage> = {};
  for (const { file, page } of readSeedDir(seedDir)) {
    const id = page.header.algorithmId;
    if (pages[id] !== undefined) throw new Error(`two seed pages for ${id}: ${pages[id]?.source.file} and ${file}`);
    pages[id] = toExpectedPage(page, file);
  }
  return {
    description:
      "Golden cells of the seed performance pages (system arm_1), extracted by packages/seed-store/src/extract-cells.ts. " +
      "Rendering the seed store must give, for each page, tables whose cells equal these: every table, row and cell.",
    cellNormalForm: CELL_NORMAL_FORM,
    pages,
  };
}

function main(argv: string[]): void {
  const seedDir = resolve(argv[0] ?? DEFAULT_SEED_DIR);
  const out = resolve(argv[1] ?? DEFAULT_OUT);
  const doc = buildExpectedCells(seedDir);
  writeFileAtomic(out, formatJson(doc));
  const summary = Object.entries(doc.pages).map(([id, p]) => {
    const rows = p.sections.reduce((n, s) => n + s.tables.reduce((m, t) => m + t.rows.length, 0), 0);
    return `${id} (${p.source.file}, ${p.source.rendering}): ${rows} rows`;
  });
  process.stderr.write(`wrote ${out}\n  ${summary.join("\n  ")}\n`);
}

if (process.argv[1] !== undefined && basename(process.argv[1]) === basename(fileURLToPath(import.meta.url))) {
  try {
    main(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  }
}
