// The committed rounding-edge store (fixtures/rounding-store): valid records at the places of the schema's layout,
// an index with every file's SHA-256, aggregates that are the runner's statistics of the trials and land exactly on
// the chosen figures, and exactly what make-rounding-store.ts writes. What the report prints for it is
// packages/tests/src/rounding-store.test.ts.

import { join } from "node:path";
import { aggregate, type Trial } from "@ngcc-perf/runner";
import { kindOfPath, parseRecordPath, validateText } from "@ngcc-perf/schema";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./extract-cells.ts";
import { buildRoundingStore, PROFILES, ROUNDING, ROWS, trialsOf } from "./make-rounding-store.ts";
import { readSystemFolder, sha256 } from "./store-files.ts";

const systemDir = join(REPO_ROOT, "fixtures/rounding-store/data", ROUNDING.system);

const texts = readSystemFolder(systemDir);
// biome-ignore lint/suspicious/noExplicitAny: records are read untyped and checked here.
const records = new Map([...texts].map(([path, text]) => [path, JSON.parse(text) as any]));

describe("rounding-edge store files", () => {
  it("holds the environment, the index, one timing record per row and one profile per profile row", () => {
    const kinds = [...texts.keys()].map((p) => kindOfPath(p));
    expect(kinds.filter((k) => k === "timing")).toHaveLength(ROWS.length);
    expect(kinds.filter((k) => k === "hash-profile")).toHaveLength(PROFILES.length);
    expect(kinds.filter((k) => k === "environment")).toHaveLength(1);
    expect(kinds.filter((k) => k === "store-index")).toHaveLength(1);
    expect(texts.size).toBe(ROWS.length + PROFILES.length + 2);
  });

  it("validates every file against the schema of the kind its place holds, at the place its key gives", () => {
    const failures: string[] = [];
    for (const [path, text] of texts) {
      const entry = parseRecordPath(ROUNDING.system, path);
      if (entry === null || entry.kind === "kat-log") {
        failures.push(`${path}: not a record's place`);
        continue;
      }
      for (const e of validateText(text, path, entry.kind).errors)
        failures.push(`${path}:${e.line}:${e.column}: ${e.pointer} ${e.message}`);
      const r = records.get(path);
      for (const [field, value] of Object.entries(entry.key))
        if (r[field] !== undefined && r[field] !== value) failures.push(`${path}: ${field} ${r[field]}, not ${value}`);
    }
    expect(failures).toEqual([]);
  });

  it("lists every file in the index with its kind, SHA-256 and size", () => {
    const index = records.get("index.json");
    const listed = [...index.files].sort((a, b) => (a.path < b.path ? -1 : 1));
    const onDisk = [...texts.keys()].filter((p) => p !== "index.json").sort();
    expect(listed.map((f) => f.path)).toEqual(onDisk);
    for (const f of listed) {
      const text = texts.get(f.path) as string;
      expect(f, f.path).toEqual({
        path: f.path,
        kind: kindOfPath(f.path),
        sha256: sha256(text),
        bytes: Buffer.byteLength(text),
      });
    }
  });

  it("says it was written by a person, not measured", () => {
    for (const [path, r] of records) expect(r.provenance.origin, path).toBe("curated");
  });

  it("is exactly what make-rounding-store.ts writes", () => {
    const rebuilt = buildRoundingStore();
    expect(rebuilt.files.map((f) => f.path).sort()).toEqual([...texts.keys()].sort());
    for (const f of rebuilt.files)
      expect(f.text, `${f.path} differs: run pnpm --filter @ngcc-perf/seed-store make-rounding-store`).toBe(
        texts.get(f.path),
      );
  });
});

describe("rounding-edge store figures", () => {
  it("holds the runner's aggregates of the trials, landing exactly on the chosen mean, median and cycles", () => {
    for (const row of ROWS) {
      const path = `records/${ROUNDING.algorithmId}/${ROUNDING.buildProfile}/${row.instance}__${row.operation}.json`;
      const r = records.get(path);
      expect(r, path).toBeDefined();
      expect(r.aggregates, path).toEqual(aggregate(r.trials as Trial[]));
      expect(r.aggregates.meanNs, path).toBe(row.meanTrialNs / row.iterations);
      expect(r.aggregates.medianTrialNs, path).toBe(row.medianTrialNs / row.iterations);
      expect(r.aggregates.meanCounter, path).toBe(row.meanCycles);
      expect(r.aggregates.opsPerSecond, path).toBe(1e9 / r.aggregates.meanNs);
      expect(r.aggregates.unstable, path).toBe(false);
    }
  });

  it("holds the chosen shares and calls", () => {
    for (const p of PROFILES) {
      const r = records.get(
        `profile/${ROUNDING.algorithmId}/${ROUNDING.buildProfile}/${p.instance}__${p.operation}.json`,
      );
      // biome-ignore lint/suspicious/noExplicitAny: an untyped record.
      const share = (name: string): number => r.groups.find((g: any) => g.name === name).share;
      expect([share("hash"), share("drng")]).toEqual([p.hash, p.drng]);
      // biome-ignore lint/suspicious/noExplicitAny: an untyped record.
      expect(Object.fromEntries(r.calls.map((c: any) => [c.symbol, c.meanPerOperation]))).toEqual(p.calls);
    }
  });

  it("refuses a row whose mean and median trial cannot both be met by the trial layout", () => {
    const row = {
      instance: "Edge-1",
      operation: "enc",
      meanCycles: 1,
      iterations: 10,
      meanTrialNs: 10_000,
      medianTrialNs: 20_000,
    } as const;
    expect(() => trialsOf(row)).toThrow(/too far apart/);
    expect(() => trialsOf({ ...row, meanTrialNs: 20_001 })).toThrow(/would not be on whole ns/);
  });
});
