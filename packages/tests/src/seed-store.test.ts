// The committed seed store (fixtures/seed-store/data/arm_1): valid records, aggregates that follow from the raw
// trials, an index that matches the files, and every cell of the five seed pages reproduced from the records.

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { ExpectedCells } from "../../../scripts/seed-store/extract-cells.ts";
import { buildSeedStore } from "../../../scripts/seed-store/make-seed-store.ts";
import { parseSeedPage } from "../../../scripts/seed-store/parse-seeds.ts";
import { renderTab } from "../../../scripts/seed-store/render-seed-text.ts";
import { kindOfStorePath, makeValidator } from "../../../scripts/seed-store/schemas.ts";
import { computeAggregates, type Trial } from "../../../scripts/seed-store/stats.ts";
import { loadStore, notesFromStore, tablesFromStore } from "../../../scripts/seed-store/store-cells.ts";

const fixtures = fileURLToPath(new URL("../../../fixtures/seed-store/", import.meta.url));
const systemDir = `${fixtures}data/arm_1`;
const store = loadStore(systemDir);
const golden = JSON.parse(
  readFileSync(fileURLToPath(new URL("../../../fixtures/seed-cells/expected-cells.json", import.meta.url)), "utf8"),
) as ExpectedCells;
const validate = makeValidator();

// biome-ignore lint/suspicious/noExplicitAny: records are read untyped and checked here.
type Rec = any;

const byKind = (kind: string): Array<[string, Rec]> =>
  [...store.records.entries()].filter(([path]) => kindOfStorePath(path) === kind);

function closeTo(actual: number, expected: number, what: string): void {
  const tol = Math.max(Math.abs(expected) * 1e-12, 1e-9);
  expect(Math.abs(actual - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(tol);
}

describe("seed store files", () => {
  it("has the layout of the design brief", () => {
    expect(store.records.size).toBe(213);
    expect(byKind("environment")).toHaveLength(1);
    expect(byKind("store-index")).toHaveLength(1);
    expect(byKind("timing")).toHaveLength(99);
    expect(byKind("hash-profile")).toHaveLength(74);
    expect(byKind("kat")).toHaveLength(28);
    expect(byKind("size-audit")).toHaveLength(5);
    expect(byKind("survey")).toHaveLength(5);
  });

  it("validates every file against the schema of its kind", () => {
    const failures: string[] = [];
    for (const [path, record] of store.records) {
      const kind = kindOfStorePath(path);
      if (kind === null) {
        failures.push(`${path}: not a store path`);
        continue;
      }
      if (record.kind !== kind) failures.push(`${path}: kind ${record.kind}, expected ${kind}`);
      for (const e of validate(kind, record)) failures.push(`${path}: ${e}`);
    }
    expect(failures).toEqual([]);
  });

  it("marks every record synthesized, with its seed page as source", () => {
    for (const [path, record] of store.records) {
      expect(record.provenance.origin, path).toBe("synthesized");
      expect(record.provenance.source, path).toMatch(/^seed pages? \d{3}_[0-9a-f]{16}\.txt/);
    }
  });

  it("keeps records where their content says they belong", () => {
    for (const [path, r] of [...byKind("timing"), ...byKind("hash-profile")])
      expect(path).toBe(
        `${r.kind === "timing" ? "records" : "profile"}/${r.algorithmId}/${r.instance}__${r.operation}.json`,
      );
    for (const [path, r] of byKind("kat")) {
      expect(path).toBe(`kat/${r.algorithmId}/${r.instance}.json`);
      expect(r.log.path).toBe(`kat/${r.algorithmId}/${r.instance}.log`);
      expect(r.log.sha256Prefix).toMatch(/^[0-9a-f]{16}$/);
    }
  });

  it("lists every file in the index with its SHA-256 and size", () => {
    const listed = new Map<string, Rec>(store.index.files.map((f: Rec) => [f.path, f]));
    const onDisk = [...store.records.keys()].filter((p) => p !== "index.json");
    expect([...listed.keys()].sort()).toEqual(onDisk.sort());
    for (const path of onDisk) {
      const bytes = readFileSync(`${systemDir}/${path}`);
      const entry = listed.get(path);
      expect(entry.kind, path).toBe(kindOfStorePath(path));
      expect(entry.sha256, path).toBe(createHash("sha256").update(bytes).digest("hex"));
      expect(entry.bytes, path).toBe(bytes.length);
    }
  });
});

describe("seed store aggregates", () => {
  it("recomputes every stored aggregate from the raw trials", () => {
    for (const [path, r] of byKind("timing")) {
      const again = computeAggregates(r.trials as Trial[], r.aggregates.unstableThreshold);
      for (const [key, value] of Object.entries(again)) {
        const stored = r.aggregates[key];
        if (typeof value === "number") closeTo(stored, value, `${path} ${key}`);
        else if (typeof value === "boolean") expect(stored, `${path} ${key}`).toBe(value);
        else {
          closeTo(stored.low, value.low, `${path} ${key}.low`);
          closeTo(stored.high, value.high, `${path} ${key}.high`);
        }
      }
    }
  });

  it("agrees with first principles: n, mean over all iterations, median of trial means, ops/s", () => {
    for (const [path, r] of byKind("timing")) {
      const trials = r.trials as Trial[];
      const a = r.aggregates;
      const n = trials.reduce((s, t) => s + t.iterations, 0);
      expect(a.n, path).toBe(n);
      expect(a.trials * a.iterationsPerTrial, path).toBe(n);
      for (const t of trials) expect(t.iterations, path).toBe(a.iterationsPerTrial);
      closeTo(a.meanNs, trials.reduce((s, t) => s + t.ns, 0) / n, `${path} meanNs`);
      closeTo(a.meanCounter, trials.reduce((s, t) => s + t.counterDelta, 0) / n, `${path} meanCounter`);
      closeTo(a.opsPerSecond, 1e9 / a.meanNs, `${path} opsPerSecond`);
      const means = trials.map((t) => t.ns / t.iterations).sort((x, y) => x - y);
      closeTo(a.medianTrialNs, means[Math.floor(means.length / 2)] ?? Number.NaN, `${path} medianTrialNs`);
      closeTo(a.minTrialNs, means[0] ?? Number.NaN, `${path} minTrialNs`);
      closeTo(a.maxTrialNs, means[means.length - 1] ?? Number.NaN, `${path} maxTrialNs`);
      expect(a.ci95Ns.low, path).toBeLessThanOrEqual(a.meanNs);
      expect(a.ci95Ns.high, path).toBeGreaterThanOrEqual(a.meanNs);
      for (const t of trials) {
        expect(Number.isInteger(t.ns), path).toBe(true);
        expect(Number.isInteger(t.counterDelta), path).toBe(true);
      }
    }
  });
});

describe("seed store against the seed pages", () => {
  it("reproduces every table, row and cell of expected-cells.json", () => {
    for (const [id, page] of Object.entries(golden.pages)) {
      const tables = tablesFromStore(store, id);
      expect(
        tables.map((t) => t.heading),
        id,
      ).toEqual(page.sections.map((s) => s.heading));
      for (const [i, section] of page.sections.entries()) {
        const want = section.tables[0];
        const got = tables[i];
        expect(got?.headers, `${id} ${section.heading}`).toEqual(want?.headers);
        expect(got?.rows.length, `${id} ${section.heading} rows`).toBe(want?.rows.length);
        for (const [j, row] of (want?.rows ?? []).entries())
          expect(got?.rows[j], `${id} ${section.heading} row ${j + 1}`).toEqual(row);
      }
    }
  });

  it("carries the survey verdict, the KAT manifest and the evidence root of every page", () => {
    for (const [id, page] of Object.entries(golden.pages)) {
      const notes = notesFromStore(store, id);
      const of = (heading: string): string[] => page.sections.find((s) => s.heading === heading)?.notes ?? [];
      expect(of("Symmetric primitives")[0]).toBe(notes.survey);
      expect(of("3. Functional testing (KAT)")).toContain(notes.manifest);
      expect(of("7. Raw evidence index")).toContain(notes.root);
    }
  });

  it("carries section 1 of every page in the index", () => {
    for (const [id, page] of Object.entries(golden.pages)) {
      const alg = store.index.algorithms.find((a: Rec) => a.id === id);
      const b = page.basicInformation;
      expect(alg.name).toBe(page.title.name);
      expect(alg.category).toBe(b.kind);
      expect(alg.instances).toEqual(b.parameterSets);
      expect(alg.implementations).toEqual(b.implementations);
      expect([alg.links.security.label, alg.links.method.label, alg.links.submission.label]).toEqual([
        b.links.securityEvaluation,
        b.links.measurementMethod,
        b.links.submission,
      ]);
      expect(store.index.systems).toEqual(page.header.systems);
      expect(store.index.system).toBe(page.header.system);
    }
  });

  it("keeps the KEX notes and the algorithm-specific wording", () => {
    const kex = store.records.get("sizes/kex-06.json");
    expect(kex.notes).toEqual([
      "Only the responder's long-term public key is required; this exchange does not authenticate the initiator as a mutually authenticated protocol would.",
    ]);
    const survey = store.records.get("survey/kem-20.json");
    expect(survey.verdict).toBe("mixed");
    expect(survey.text).toBe("all SHAKE calls are pseudoXOF shims; matrix A via own AES-128 with -D_AES128_FOR_A_");
  });
});

describe("seed store drift", () => {
  it("is exactly what make-seed-store.ts writes for the seed cells", () => {
    // The seeds live outside the repository; their pages are rendered back from expected-cells.json instead.
    const pages = Object.values(golden.pages)
      .sort((a, b) => (a.source.file < b.source.file ? -1 : 1))
      .map((p) => ({ file: p.source.file, page: parseSeedPage(renderTab(p), p.source.file) }));
    const rebuilt = buildSeedStore(pages);
    expect(rebuilt.problems).toEqual([]);
    expect(rebuilt.files.map((f) => f.path).sort()).toEqual([...store.records.keys()].sort());
    for (const f of rebuilt.files)
      expect(f.text, `${f.path} differs: run pnpm exec tsx scripts/seed-store/make-seed-store.ts`).toBe(
        readFileSync(`${systemDir}/${f.path}`, "utf8"),
      );
  });
});
