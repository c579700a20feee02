// Assembling a record store's system folder in memory and writing it: every record placed by the layout module of
// @ngcc-perf/schema, validated with its validators, serialized byte-stably, listed in the index with its SHA-256.
// Shared by the seed store (make-seed-store.ts) and the rounding-edge store (make-rounding-store.ts).

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join, relative, sep } from "node:path";
import {
  kindOfPath,
  type RecordKind,
  relativeRecordPath,
  type StoreEntry,
  type StoreFileKind,
  validateText,
} from "@ngcc-perf/schema";
import { formatJson, writeFileAtomic } from "./json-io.ts";

export type JsonRecord = Record<string, unknown>;

/** A record of the store: where it goes (its kind and key) and what it holds. */
export interface StoreFile {
  entry: StoreEntry;
  /** Path relative to data/<system>/, from the layout module (relativeRecordPath). */
  path: string;
  record: JsonRecord;
}

export function storeFile(entry: StoreEntry, record: JsonRecord): StoreFile {
  return { entry, path: relativeRecordPath(entry), record };
}

/** A file of a system folder as written: its path relative to data/<system>/, its kind and its text. */
export interface StoreText {
  path: string;
  kind: StoreFileKind;
  text: string;
}

/** What the index says of a file. */
export interface IndexedFile {
  path: string;
  kind: StoreFileKind;
  sha256: string;
  bytes: number;
}

export interface AssembledStore {
  system: string;
  /** Every file of data/<system>/ sorted by path, the index last. */
  files: StoreText[];
}

export function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** `line:column pointer message` lines of the schema's validator for a file's text; none when it is valid. */
export function recordErrors(text: string, path: string, kind: RecordKind): string[] {
  return validateText(text, path, kind).errors.map(
    (e) => `${e.line ?? 1}:${e.column ?? 1}: ${e.pointer || "(document)"} ${e.message}`,
  );
}

/**
 * The files of a system folder: the records serialized (formatJson), each checked against the kind its place
 * holds and validated, then the index that `makeIndex` builds from their hashes. Throws, naming every file, when
 * a record is invalid, lies at another kind's place or is written twice.
 */
export function assembleStore(
  system: string,
  records: readonly StoreFile[],
  makeIndex: (files: IndexedFile[]) => JsonRecord,
): AssembledStore {
  const invalid: string[] = [];
  const seen = new Set<string>();
  const files = records
    .map((f): StoreText => {
      const kind = f.entry.kind;
      if (kind === "store-index" || kind === "kat-log") throw new Error(`${f.path}: ${kind} files are made here`);
      if (f.entry.key.system !== system) invalid.push(`${f.path}: of system ${f.entry.key.system}, not ${system}`);
      if (kindOfPath(f.path) !== kind) invalid.push(`${f.path}: the layout says ${kindOfPath(f.path)}, not ${kind}`);
      if (f.record.kind !== kind) invalid.push(`${f.path}: holds a ${String(f.record.kind)} record, not ${kind}`);
      if (seen.has(f.path)) invalid.push(`${f.path}: written twice`);
      seen.add(f.path);
      const text = formatJson(f.record);
      const errors = recordErrors(text, f.path, kind);
      if (errors.length > 0) invalid.push(`${f.path} (${kind}):\n    ${errors.join("\n    ")}`);
      return { path: f.path, kind, text };
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  const index = makeIndex(
    files.map((f) => ({ path: f.path, kind: f.kind, sha256: sha256(f.text), bytes: Buffer.byteLength(f.text) })),
  );
  const indexPath = relativeRecordPath({ kind: "store-index", key: { system } });
  const indexText = formatJson(index);
  const indexErrors = recordErrors(indexText, indexPath, "store-index");
  if (indexErrors.length > 0) invalid.push(`${indexPath} (store-index):\n    ${indexErrors.join("\n    ")}`);
  if (invalid.length > 0) throw new Error(`records that fail their schema or place:\n  ${invalid.join("\n  ")}`);
  files.push({ path: indexPath, kind: "store-index", text: indexText });
  return { system, files };
}

/** Writes a store's system folder (<storeDir>/data/<system>/) under a temporary name, then swaps it into place. */
export function writeStore(store: AssembledStore, storeDir: string): string {
  const dataDir = join(storeDir, "data");
  const target = join(dataDir, store.system);
  const stamp = `${process.pid}.${Date.now().toString(36)}`;
  const tmp = join(dataDir, `.${store.system}.tmp-${stamp}`);
  const old = join(dataDir, `.${store.system}.old-${stamp}`);
  mkdirSync(dataDir, { recursive: true });
  try {
    for (const f of store.files) writeFileAtomic(join(tmp, ...f.path.split("/")), f.text);
    if (existsSync(target)) renameSync(target, old);
    renameSync(tmp, target);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
  return target;
}

/** Every file of a written system folder by its path relative to it (`/` separators), with its text. */
export function readSystemFolder(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else files.set(relative(dir, p).split(sep).join("/"), readFileSync(p, "utf8"));
    }
  };
  walk(dir);
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
