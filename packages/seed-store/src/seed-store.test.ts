// The committed seed store (fixtures/seed-store/data/arm_1): valid records in the layout of @ngcc-perf/schema,
// aggregates that are the runner's statistics of the raw trials, an index that matches the files, the facts of the
// seed pages carried by the records, and exactly what make-seed-store.ts writes. Whether the real report turns the
// store back into the seed cells is packages/tests/src/report-golden.test.ts.

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { aggregate, type Trial } from "@ngcc-perf/runner";
import { kindOfPath, parseRecordPath, relativeRecordPath, type StoreEntry, validateText } from "@ngcc-perf/schema";
import { describe, expect, it } from "vitest";
import { type ExpectedCells, REPO_ROOT } from "./extract-cells.ts";
import { buildSeedStore } from "./make-seed-store.ts";
import { parseSeedPage, type SeedPage, tableOf } from "./parse-seeds.ts";
import { renderTab } from "./render-seed-text.ts";
import { readSystemFolder } from "./store-files.ts";
import { BUILD_PROFILE, evidenceRootOf, harnessEvidenceEntry, katManifestOf, synthesizePage } from "./synthesize.ts";

const systemDir = join(REPO_ROOT, "fixtures/seed-store/data/arm_1");
const golden = JSON.parse(
  readFileSync(join(REPO_ROOT, "fixtures/seed-cells/expected-cells.json"), "utf8"),
) as ExpectedCells;

// biome-ignore lint/suspicious/noExplicitAny: records are read untyped and checked here.
type Rec = any;

/** Every file of the system folder by its path relative to it, with its text. */
const texts = readSystemFolder(systemDir);
const records = new Map([...texts].map(([path, text]) => [path, JSON.parse(text) as Rec]));
const index = records.get("index.json");

const byKind = (kind: string): Array<[string, Rec]> =>
  [...records.entries()].filter(([path]) => kindOfPath(path) === kind);

/** The seed pages, parsed back from the committed golden cells (the seeds themselves live outside the repository). */
const seedPages: Array<{ file: string; page: SeedPage }> = Object.values(golden.pages)
  .sort((a, b) => (a.source.file < b.source.file ? -1 : 1))
  .map((p) => ({ file: p.source.file, page: parseSeedPage(renderTab(p), p.source.file) }));

function seedPage(id: string): SeedPage {
  const p = seedPages.find((s) => s.page.header.algorithmId === id);
  if (!p) throw new Error(`no seed page ${id}`);
  return p.page;
}

function closeTo(actual: number, expected: number, what: string): void {
  const tol = Math.max(Math.abs(expected) * 1e-12, 1e-9);
  expect(Math.abs(actual - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(tol);
}

/** The store entry a record's own fields name. */
function entryOf(r: Rec): StoreEntry {
  const key = { system: r.system, algorithmId: r.algorithmId, buildProfile: r.buildProfile };
  switch (r.kind) {
    case "timing":
    case "hash-profile":
      return { kind: r.kind, key: { ...key, instance: r.instance, operation: r.operation } };
    case "kat":
      return { kind: "kat", key: { ...key, instance: r.instance } };
    case "size-audit":
    case "survey":
      return { kind: r.kind, key };
    default:
      return { kind: r.kind, key: { system: r.system } };
  }
}

describe("seed store files", () => {
  it("has the layout of @ngcc-perf/schema, build profile guide", () => {
    expect(records.size).toBe(213);
    expect(byKind("environment")).toHaveLength(1);
    expect(byKind("store-index")).toHaveLength(1);
    expect(byKind("timing")).toHaveLength(99);
    expect(byKind("hash-profile")).toHaveLength(74);
    expect(byKind("kat")).toHaveLength(28);
    expect(byKind("size-audit")).toHaveLength(5);
    expect(byKind("survey")).toHaveLength(5);
    for (const path of records.keys()) {
      const entry = parseRecordPath("arm_1", path);
      expect(entry, path).not.toBeNull();
      if (entry && "buildProfile" in entry.key) expect(entry.key.buildProfile, path).toBe("guide");
    }
  });

  it("validates every file against the schema of the kind its place holds", () => {
    const failures: string[] = [];
    for (const [path, text] of texts) {
      const kind = kindOfPath(path);
      if (kind === null || kind === "kat-log") {
        failures.push(`${path}: not a record's place in the store`);
        continue;
      }
      const result = validateText(text, path, kind);
      for (const e of result.errors) failures.push(`${path}:${e.line}:${e.column}: ${e.pointer} ${e.message}`);
      if (records.get(path).kind !== kind) failures.push(`${path}: kind ${records.get(path).kind}, expected ${kind}`);
    }
    expect(failures).toEqual([]);
  });

  it("marks every record synthesized, with its seed page as source and this package as the tool", () => {
    for (const [path, record] of records) {
      expect(record.provenance.origin, path).toBe("synthesized");
      expect(record.provenance.source, path).toMatch(/^seed pages? \d{3}_[0-9a-f]{16}\.txt/);
      expect(record.provenance.tool.name, path).toMatch(/^@ngcc-perf\/seed-store /);
    }
  });

  it("keeps every record at the path the layout module gives its own key", () => {
    for (const [path, r] of records) {
      if (r.kind !== "environment" && r.kind !== "store-index") expect(r.buildProfile, path).toBe(BUILD_PROFILE);
      const entry = entryOf(r);
      expect(relativeRecordPath(entry), path).toBe(path);
      expect(parseRecordPath("arm_1", path), path).toEqual(entry);
    }
    for (const [path, r] of byKind("kat")) {
      const key = { system: r.system, algorithmId: r.algorithmId, instance: r.instance, buildProfile: r.buildProfile };
      expect(r.log.path, path).toBe(relativeRecordPath({ kind: "kat-log", key }));
      expect(r.log.path, path).toMatch(/^kat\/[^/]+\/guide\/[^/]+\.log$/);
      expect(r.log.sha256Prefix, path).toMatch(/^[0-9a-f]{16}$/);
    }
  });

  it("lists every file in the index with its kind, SHA-256 and size", () => {
    const listed = new Map<string, Rec>(index.files.map((f: Rec) => [f.path, f]));
    const onDisk = [...records.keys()].filter((p) => p !== "index.json");
    expect([...listed.keys()].sort()).toEqual(onDisk.sort());
    for (const path of onDisk) {
      const bytes = readFileSync(join(systemDir, path));
      const entry = listed.get(path);
      expect(entry.kind, path).toBe(kindOfPath(path));
      expect(entry.sha256, path).toBe(createHash("sha256").update(bytes).digest("hex"));
      expect(entry.bytes, path).toBe(bytes.length);
    }
  });
});

describe("seed store aggregates", () => {
  it("holds exactly the runner's aggregates of the raw trials", () => {
    for (const [path, r] of byKind("timing"))
      expect(r.aggregates, path).toEqual(aggregate(r.trials as Trial[], r.aggregates.unstableThreshold));
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
      // Equal iterations per trial: the 95 % interval is centred on the mean over all iterations.
      closeTo((a.ci95Ns.low + a.ci95Ns.high) / 2, a.meanNs, `${path} ci95Ns centre`);
      expect(a.ci95Ns.low, path).toBeLessThan(a.ci95Ns.high);
      for (const t of trials) {
        expect(Number.isInteger(t.ns), path).toBe(true);
        expect(Number.isInteger(t.counterDelta), path).toBe(true);
      }
    }
  });
});

describe("seed store against the seed pages", () => {
  it("carries the survey verdict and wording, the KAT manifest and the evidence root of every page", () => {
    for (const { page } of seedPages) {
      const id = page.header.algorithmId;
      const survey = records.get(
        relativeRecordPath({ kind: "survey", key: { system: "arm_1", algorithmId: id, buildProfile: "guide" } }),
      );
      const printed = golden.pages[id]?.sections.find((s) => s.heading === "Symmetric primitives")?.notes[0];
      expect(printed, id).toBe(`Survey verdict: ${survey.verdict}${survey.text ? ` — ${survey.text}` : ""}`);
      const alg = index.algorithms.find((a: Rec) => a.id === id);
      expect(alg.katManifest, id).toBe(katManifestOf(page));
      expect(index.evidenceRoot, id).toBe(evidenceRootOf(page));
    }
  });

  it("has one record for every evidence row of the seeds (read in the earlier harness's layout), and no other", () => {
    const named = new Set<string>();
    const logs = new Set(byKind("kat").map(([, r]) => r.log.path));
    for (const { page } of seedPages) {
      for (const [instance, item = "", path = ""] of tableOf(page, "Raw evidence index").rows) {
        const entry = harnessEvidenceEntry("arm_1", path);
        expect(entry, path).not.toBeNull();
        if (entry === null) continue;
        expect("instance" in entry.key ? entry.key.instance : null, path).toBe(instance);
        const ours = relativeRecordPath(entry);
        if (item.startsWith("KAT log")) expect(logs.has(ours), path).toBe(true);
        else expect(records.has(ours), `${path} → ${ours}`).toBe(true);
        expect(named.has(ours), `${path} listed twice`).toBe(false);
        named.add(ours);
      }
    }
    expect(named.size).toBe(byKind("kat").length + byKind("timing").length + byKind("hash-profile").length);
  });

  it("carries section 1 of every page in the index", () => {
    for (const [id, page] of Object.entries(golden.pages)) {
      const alg = index.algorithms.find((a: Rec) => a.id === id);
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
      expect(index.systems).toEqual(page.header.systems);
      expect(index.system).toBe(page.header.system);
    }
  });

  it("keeps the KEX notes and the algorithm-specific wording", () => {
    const kex = records.get("sizes/kex-06/guide.json");
    expect(kex.notes).toEqual([
      "Only the responder's long-term public key is required; this exchange does not authenticate the initiator as a mutually authenticated protocol would.",
    ]);
    const survey = records.get("survey/kem-20/guide.json");
    expect(survey.verdict).toBe("mixed");
    expect(survey.text).toBe("all SHAKE calls are pseudoXOF shims; matrix A via own AES-128 with -D_AES128_FOR_A_");
  });
});

describe("seed store synthesis", () => {
  it("reports an evidence row that names no record written", () => {
    const page = structuredClone(seedPage("kem-22"));
    const evidence = tableOf(page, "Raw evidence index");
    const row = evidence.rows.find((r) => r[1] === "timing keygen");
    if (!row) throw new Error("no timing keygen row");
    row[2] = "records/kem-22/Mithril-128__nosuch.json";
    const { problems } = synthesizePage(page, "004.txt");
    expect(problems.map((p) => p.message)).toEqual(["evidence records/kem-22/Mithril-128__nosuch.json not written"]);
    expect(synthesizePage(seedPage("kem-22"), "004.txt").problems).toEqual([]);
  });

  it("reads the earlier harness's evidence paths, and only those", () => {
    expect(harnessEvidenceEntry("arm_1", "records/kem-22/Mithril-128__keygen.json")).toEqual({
      kind: "timing",
      key: {
        system: "arm_1",
        algorithmId: "kem-22",
        instance: "Mithril-128",
        buildProfile: "guide",
        operation: "keygen",
      },
    });
    expect(harnessEvidenceEntry("arm_1", "kat/kem-22/Mithril-128.log")).toEqual({
      kind: "kat-log",
      key: { system: "arm_1", algorithmId: "kem-22", instance: "Mithril-128", buildProfile: "guide" },
    });
    expect(harnessEvidenceEntry("arm_1", "records/kem-22/guide/Mithril-128__keygen.json")).toBeNull();
    expect(harnessEvidenceEntry("arm_1", "kat/kem-22/Mithril-128.json")).toBeNull();
  });
});

describe("seed store drift", () => {
  it("is exactly what make-seed-store.ts writes for the seed cells", () => {
    const rebuilt = buildSeedStore(seedPages);
    expect(rebuilt.problems).toEqual([]);
    expect(rebuilt.files.map((f) => f.path).sort()).toEqual([...records.keys()].sort());
    for (const f of rebuilt.files)
      expect(f.text, `${f.path} differs: run pnpm --filter @ngcc-perf/seed-store make-seed-store`).toBe(
        texts.get(f.path),
      );
  });
});
