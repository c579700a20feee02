// Small record stores for the report's tests, made of seed-store records (fixtures/seed-store) and placed with the
// schema's layout module: a copy of some algorithms under another system, records edited or added per build
// profile. Test support only (not exported by the package).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { parseRecordPath, recordPath, type StoreEntry } from "@ngcc-perf/schema";

export const SEED = fileURLToPath(new URL("../../../fixtures/seed-store/data/arm_1/", import.meta.url));

// biome-ignore lint/suspicious/noExplicitAny: records are edited untyped; the loader validates them.
export type Rec = any;
export const readJson = (p: string): Rec => JSON.parse(readFileSync(p, "utf8"));
export function writeJson(p: string, v: unknown): void {
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, `${JSON.stringify(v, null, 2)}\n`);
}

export function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/** Every record file of a system folder with its kind and key (the layout's reading of its path). */
export function entries(dir: string, system: string): Array<{ file: string; entry: StoreEntry }> {
  return walk(dir).flatMap((file) => {
    const entry = parseRecordPath(system, relative(dir, file).split(sep).join("/"));
    return entry ? [{ file, entry }] : [];
  });
}

/** A store at `root` holding the seed store's `ids` as system `system` (index limited to them, no file list). */
export function miniStore(root: string, ids: ReadonlyArray<string>, system = "arm_1"): string {
  for (const { file, entry } of entries(SEED, "arm_1")) {
    if ("algorithmId" in entry.key && !ids.includes(entry.key.algorithmId)) continue;
    const r = readJson(file);
    if (r.system !== undefined) r.system = system;
    if (entry.kind === "store-index") {
      r.algorithms = r.algorithms.filter((a: Rec) => ids.includes(a.id));
      r.files = [];
    }
    writeJson(recordPath(root, { ...entry, key: { ...entry.key, system } } as StoreEntry), r);
  }
  return root;
}

/** The path of a timing (or hash-profile) record of a store. */
export function recordAt(
  root: string,
  kind: "timing" | "hash-profile",
  key: { algorithmId: string; instance: string; operation: string; buildProfile?: string; system?: string },
): string {
  return recordPath(root, {
    kind,
    key: { system: "arm_1", buildProfile: "guide", ...key },
  });
}

/** The path of a KAT record of a store. */
export function katAt(
  root: string,
  key: { algorithmId: string; instance: string; buildProfile?: string; system?: string },
): string {
  return recordPath(root, { kind: "kat", key: { system: "arm_1", buildProfile: "guide", ...key } });
}

/** The path of a size audit or survey of a store. */
export function algorithmRecordAt(
  root: string,
  kind: "size-audit" | "survey",
  key: { algorithmId: string; buildProfile?: string; system?: string },
): string {
  return recordPath(root, { kind, key: { system: "arm_1", buildProfile: "guide", ...key } });
}

/** Rewrites every record of a store's system folder with `edit`. */
export function editAll(root: string, system: string, edit: (r: Rec, entry: StoreEntry) => void): void {
  for (const { file, entry } of entries(join(root, "data", system), system)) {
    if (entry.kind === "kat-log") continue;
    const r = readJson(file);
    edit(r, entry);
    writeJson(file, r);
  }
}
