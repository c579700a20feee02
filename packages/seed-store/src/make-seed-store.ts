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

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { kindOfPath, type RecordKind, type StoreFileKind, validateText } from "@ngcc-perf/schema";
import { DEFAULT_SEED_DIR, REPO_ROOT, readSeedDir } from "./extract-cells.ts";
import { formatJson, writeFileAtomic } from "./json-io.ts";
import type { SeedPage } from "./parse-seeds.ts";
import {
  environmentRecord,
  type SeedProblem,
  type StoreFile,
  storeFile,
  storeIndexRecord,
  synthesizePage,
} from "./synthesize.ts";

export const DEFAULT_STORE_DIR = join(REPO_ROOT, "fixtures/seed-store");

export interface SeedStore {
  system: string;
  /** Files relative to data/<system>/, with their JSON text. */
  files: Array<{ path: string; kind: StoreFileKind; text: string }>;
  problems: SeedProblem[];
  remarks: string[];
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** `line:column pointer message` lines of the schema's validator for a file's text; none when it is valid. */
export function recordErrors(text: string, path: string, kind: RecordKind): string[] {
  return validateText(text, path, kind).errors.map(
    (e) => `${e.line ?? 1}:${e.column ?? 1}: ${e.pointer || "(document)"} ${e.message}`,
  );
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

  const invalid: string[] = [];
  const files = records
    .map((f) => {
      const kind = f.entry.kind;
      if (kind === "kat-log") throw new Error(`${f.path}: KAT logs are not part of the seed store`);
      if (kindOfPath(f.path) !== kind) invalid.push(`${f.path}: the layout says ${kindOfPath(f.path)}, not ${kind}`);
      if (f.record.kind !== kind) invalid.push(`${f.path}: holds a ${String(f.record.kind)} record, not ${kind}`);
      const text = formatJson(f.record);
      const errors = recordErrors(text, f.path, kind);
      if (errors.length > 0) invalid.push(`${f.path} (${kind}):\n    ${errors.join("\n    ")}`);
      return { path: f.path, kind, text };
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const seen = new Set<string>();
  for (const f of files) {
    if (seen.has(f.path)) invalid.push(`${f.path}: written twice`);
    seen.add(f.path);
  }

  const index = storeIndexRecord(
    pages,
    files.map((f) => ({ path: f.path, kind: f.kind, sha256: sha256(f.text), bytes: Buffer.byteLength(f.text) })),
  );
  const indexFile = storeFile({ kind: "store-index", key: { system } }, index);
  const indexText = formatJson(index);
  const indexErrors = recordErrors(indexText, indexFile.path, "store-index");
  if (indexErrors.length > 0) invalid.push(`${indexFile.path} (store-index):\n    ${indexErrors.join("\n    ")}`);
  if (invalid.length > 0) throw new Error(`records that fail their schema:\n  ${invalid.join("\n  ")}`);
  files.push({ path: indexFile.path, kind: "store-index", text: indexText });
  return { system, files, problems, remarks };
}

/** Writes the store's system folder under a temporary name, then swaps it into place. */
export function writeSeedStore(store: SeedStore, storeDir: string): string {
  const dataDir = join(storeDir, "data");
  const target = join(dataDir, store.system);
  const stamp = `${process.pid}.${Date.now().toString(36)}`;
  const tmp = join(dataDir, `.${store.system}.tmp-${stamp}`);
  const old = join(dataDir, `.${store.system}.old-${stamp}`);
  mkdirSync(dataDir, { recursive: true });
  try {
    for (const f of store.files) writeFileAtomic(join(tmp, f.path), f.text);
    if (existsSync(target)) renameSync(target, old);
    renameSync(tmp, target);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
  return target;
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
