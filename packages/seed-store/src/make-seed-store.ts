// Writes fixtures/seed-store/data/<system>/ from the seed pages: a record store whose records carry every figure of
// the pages, with raw trials synthesized to match the published aggregates (see fixtures/seed-store/README.md).
//
//   pnpm --filter @ngcc-perf/seed-store make-seed-store [seedDir] [storeDir]
//   (or: pnpm exec tsx packages/seed-store/src/make-seed-store.ts [seedDir] [storeDir])
//
// seedDir defaults to ../shared/seeds beside the repository root, storeDir to fixtures/seed-store. Every record is
// validated with @ngcc-perf/schema (the product's validators) and placed by its layout module before anything is
// written; the system folder is built under a temporary name and renamed into place, so the store never holds half
// a run. Seed figures for which no consistent value exists are listed on stderr and make the exit code 1 (the store
// is still written).

import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_SEED_DIR, REPO_ROOT, readSeedDir } from "./extract-cells.ts";
import type { SeedPage } from "./parse-seeds.ts";
import { type AssembledStore, assembleStore, type StoreFile, storeFile, writeStore } from "./store-files.ts";
import { environmentRecord, type SeedProblem, storeIndexRecord, synthesizePage } from "./synthesize.ts";

export const DEFAULT_STORE_DIR = join(REPO_ROOT, "fixtures/seed-store");

export interface SeedStore extends AssembledStore {
  problems: SeedProblem[];
  remarks: string[];
}

/** Builds (in memory) and validates the whole store of the seed pages. Throws on an invalid record. */
export function buildSeedStore(pages: ReadonlyArray<{ page: SeedPage; file: string }>): SeedStore {
  const first = pages[0];
  if (!first) throw new Error("no seed pages");
  const system = first.page.header.system;
  const problems: SeedProblem[] = [];
  const remarks: string[] = [];
  const records: StoreFile[] = [];

  // One environment per system: section 2 must be the same on every page.
  const env = environmentRecord(first.page, first.file);
  for (const { page, file } of pages) {
    const other = environmentRecord(page, file);
    const strip = (r: Record<string, unknown>): string => JSON.stringify({ ...r, provenance: null });
    if (strip(other) !== strip(env))
      problems.push({ algorithmId: page.header.algorithmId, message: `section 2 differs from ${first.file}` });
  }
  records.push(storeFile({ kind: "environment", key: { system } }, env));

  for (const { page, file } of pages) {
    const r = synthesizePage(page, file);
    records.push(...r.files);
    problems.push(...r.problems);
    remarks.push(...r.remarks);
  }
  const store = assembleStore(system, records, (files) => storeIndexRecord(pages, files));
  return { ...store, problems, remarks };
}

/** Writes the seed store's system folder under a temporary name, then swaps it into place. */
export function writeSeedStore(store: SeedStore, storeDir: string): string {
  return writeStore(store, storeDir);
}

function main(argv: string[]): number {
  const seedDir = resolve(argv[0] ?? DEFAULT_SEED_DIR);
  const storeDir = resolve(argv[1] ?? DEFAULT_STORE_DIR);
  const store = buildSeedStore(readSeedDir(seedDir));
  const target = writeSeedStore(store, storeDir);
  const count = (k: string): number => store.files.filter((f) => f.kind === k).length;
  process.stderr.write(
    `wrote ${target}: ${store.files.length} files (timing ${count("timing")}, hash-profile ${count("hash-profile")}, ` +
      `kat ${count("kat")}, size-audit ${count("size-audit")}, survey ${count("survey")}, environment, index); ` +
      "every record valid against @ngcc-perf/schema\n",
  );
  for (const r of store.remarks) process.stderr.write(`note: ${r}\n`);
  for (const p of store.problems)
    process.stderr.write(
      `SEED PROBLEM: ${[p.algorithmId, p.instance, p.operation].filter(Boolean).join(" ")}: ${p.message}\n`,
    );
  return store.problems.length > 0 ? 1 : 0;
}

if (process.argv[1] !== undefined && basename(process.argv[1]) === basename(fileURLToPath(import.meta.url))) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 2;
  }
}
