// Small record stores for the report's tests, made of seed-store records (fixtures/seed-store) and placed with the
// schema's layout module: a copy of some algorithms under another system, records edited or added per build
// profile. Every edit made through these helpers is a deliberate one, so the system's index.json is rebuilt after it
// (as `ngcc-perf index` would): the loader refuses a store whose files differ from its index. A test that removes
// files by hand calls reindex(). Also the records of the steps the seeds have none of (instructions, constant-time,
// memory), the pages rendered from an edited store, and per-call records. Test support only (not exported by the
// package).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { parseRecordPath, recordPath, type StoreEntry, storeFiles, systemDirsOf } from "@ngcc-perf/schema";
import { mean as meanOf, median as medianOf, quantile, sd as sdOf, tQuantile975 } from "@ngcc-perf/stats";
import { renderSite } from "./site.ts";

export const SEED = fileURLToPath(new URL("../../../fixtures/seed-store/data/arm_1/", import.meta.url));

// biome-ignore lint/suspicious/noExplicitAny: records are edited untyped; the loader validates them.
export type Rec = any;
export const readJson = (p: string): Rec => JSON.parse(readFileSync(p, "utf8"));

function writeRaw(p: string, v: unknown): void {
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, `${JSON.stringify(v, null, 2)}\n`);
}

/** Writes a JSON file; inside a store's system folder, that system's index.json is rebuilt after it. */
export function writeJson(p: string, v: unknown): void {
  writeRaw(p, v);
  for (const ref of systemDirsOf(p)) reindexSystem(ref.dir);
}

/** Rebuilds index.json's file list of one system folder (when it has an index) from the files on disk. */
function reindexSystem(dir: string): void {
  const file = join(dir, "index.json");
  if (!existsSync(file)) return;
  const index = readJson(file);
  index.files = storeFiles(dir);
  writeRaw(file, index);
}

/** Rebuilds the file list of every system's index.json of a store (after files were removed or copied by hand). */
export function reindex(root: string): string {
  for (const ref of systemDirsOf(root)) reindexSystem(ref.dir);
  return root;
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

/** A store at `root` holding the seed store's `ids` as system `system` (index limited to them and their files). */
export function miniStore(root: string, ids: ReadonlyArray<string>, system = "arm_1"): string {
  for (const { file, entry } of entries(SEED, "arm_1")) {
    if ("algorithmId" in entry.key && !ids.includes(entry.key.algorithmId)) continue;
    const r = readJson(file);
    if (r.system !== undefined) r.system = system;
    if (entry.kind === "store-index") {
      r.algorithms = r.algorithms.filter((a: Rec) => ids.includes(a.id));
      r.files = [];
    }
    writeRaw(recordPath(root, { ...entry, key: { ...entry.key, system } } as StoreEntry), r);
  }
  return reindex(root);
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
    writeRaw(file, r);
  }
  reindex(root);
}

/** The provenance of a record ngcc-perf (version 0.1.0) measured, made at `createdAt`. */
export function measuredProvenance(createdAt: string): Rec {
  return { origin: "measured", tool: { name: "ngcc-perf", version: "0.1.0" }, createdAt };
}

// ---------------------------------------------------------------------------------------------------------------
// Records of the steps the seed store has none of (instructions, constant-time, memory), of kem-22 on arm_1 under the
// guide profile, and the pages rendered from an edited store.

type StepKind = "instructions" | "constant-time" | "memory";

/** What every step record of kem-22 Mithril-128 on arm_1 under the guide profile shares: kind, schema version, a
 * measured provenance, its key, the implementation. */
export function stepRecordBase(kind: StepKind, operation: string) {
  return {
    kind,
    schemaVersion: 1,
    provenance: measuredProvenance("2026-12-01T00:00:00Z"),
    system: "arm_1",
    algorithmId: "kem-22",
    instance: "Mithril-128",
    implementation: "reference",
    buildProfile: "guide",
    operation,
  };
}

/** Writes a step record at the layout's path of its own kind and key; returns the file. */
export function writeStepRecord(root: string, record: Rec): string {
  const { kind, system, algorithmId, instance, buildProfile, operation } = record;
  const key = { system, algorithmId, instance, buildProfile, operation };
  const file = recordPath(root, { kind: kind as StepKind, key });
  writeJson(file, record);
  return file;
}

/** Writes a step's records of an ok keygen and a failed dec, as `record` makes them; returns their files. */
export function writeKeygenAndFailedDec(root: string, record: (operation: string, ok: boolean) => Rec): string[] {
  return [writeStepRecord(root, record("keygen", true)), writeStepRecord(root, record("dec", false))];
}

/** Renders (in Markdown) a store at `dir` of the seeds' `ids` as `edit` left it, into `<dir>-out`; then reads the
 * page of an algorithm by its id. */
export async function renderEdited(
  dir: string,
  ids: ReadonlyArray<string>,
  edit: (root: string) => void,
): Promise<(id: string) => string> {
  const root = miniStore(dir, ids);
  edit(root);
  const out = `${dir}-out`;
  await renderSite(root, { out, formats: ["md"] });
  return (id) => readFileSync(join(out, "site", "arm_1", `${id}.md`), "utf8");
}

/** The text of one section of a Markdown page, from its heading to the next (or to the end). */
export function sectionOf(md: string, heading: string): string {
  const start = md.indexOf(`## ${heading}`);
  const end = md.indexOf("\n## ", start + 3);
  return md.slice(start, end < 0 ? undefined : end);
}

// ---------------------------------------------------------------------------------------------------------------
// Per-call records (method "per-call"), made from a seed record: samples per worker, the distribution and central
// figure computed from them as the schema defines them, each worker's totals as one trial, the aggregates from
// those trials. Test data, not a model of the runner's statistics (it only has to be valid and consistent).

/** A deterministic PRNG in [0, 1) (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sum = (xs: ReadonlyArray<number>) => xs.reduce((a, b) => a + b, 0);

export interface PerCallOptions {
  /** Per-call ns of every sample, per worker. */
  workersNs: number[][];
  batch?: number;
  batchReason?: string;
  statistic?: "median" | "mean";
  reason?: string;
  target?: number;
  budgetMs?: number;
  minWorkers?: number;
  stoppedBy?: "target" | "budget" | "quick";
  pinnedCpu?: number | null;
  inputs?: { keyPairs: number; pool: number; messages: "fresh" | "pool" | "none"; description: string };
  overheadShare?: number;
  elapsedMs?: number;
}

/** Counter increments per ns of the per-call test records (a 2.71 GHz fixed clock, as the seed's). */
export const PER_CALL_RATE = 2.71;

/** A seed timing record rewritten as a measured per-call record. */
export function perCallRecord(base: Rec, o: PerCallOptions): Rec {
  const batch = o.batch ?? 1;
  const statistic = o.statistic ?? "median";
  const target = o.target ?? 0.01;
  const r = structuredClone(base);
  r.provenance = measuredProvenance("2026-10-02T10:00:00Z");
  r.counter = { ...r.counter, overhead: 12, description: "test counter" };
  r.calibration = undefined;
  r.method = "per-call";
  const distribution = distributionOf(o.workersNs, batch, statistic);
  const central = centralOf(distribution, o.workersNs.length, statistic, target, batch, o.reason);
  r.sampling = samplingOf(o, batch, target, central.metTarget);
  r.samples = o.workersNs.map((ns, i) => ({
    worker: i + 1,
    counterDeltas: ns.map((x) => Math.round(x * PER_CALL_RATE * batch)),
  }));
  r.distribution = distribution;
  r.central = central;
  r.trials = o.workersNs.map((ns, i) => ({
    iterations: ns.length * batch,
    counterDelta: sum(r.samples[i].counterDeltas),
    ns: Math.round(sum(ns) * batch),
  }));
  r.aggregates = aggregatesOf(r.trials);
  return r;
}

/** The record's sampling block: the options given, else the defaults of the test records. */
function samplingOf(o: PerCallOptions, batch: number, target: number, metTarget: boolean): Rec {
  return {
    batch,
    batchReason: o.batchReason ?? "single calls: a call is ≥ 1000 × the counter overhead",
    workers: o.workersNs.length,
    samplesPerWorker: o.workersNs.map((x) => x.length),
    inputs: o.inputs ?? { keyPairs: 0, pool: 0, messages: "none", description: "fresh randomness per call" },
    pinnedCpu: o.pinnedCpu === undefined ? 1 : o.pinnedCpu,
    target: { relativeHalfWidth: target, budgetMs: o.budgetMs ?? 2000, minWorkers: o.minWorkers ?? 3 },
    stoppedBy: o.stoppedBy ?? (metTarget ? "target" : "budget"),
    elapsedMs: o.elapsedMs ?? 400,
    overheadShare: o.overheadShare ?? 0.0002,
  };
}

/** The distribution block of every worker's samples pooled (per-call ns), as the schema defines it. */
function distributionOf(workersNs: number[][], batch: number, statistic: "median" | "mean"): Rec {
  const pooled = workersNs.flat();
  const sorted = [...pooled].sort((a, b) => a - b);
  const n = sorted.length;
  const median = quantile(sorted, 0.5);
  const mean = meanOf(pooled);
  const sd = sdOf(pooled);
  const p25 = quantile(sorted, 0.25);
  const p75 = quantile(sorted, 0.75);
  const iqr = p75 - p25;
  const k = Math.max(0, Math.floor(n / 2 - 0.98 * Math.sqrt(n)));
  const workerMediansNs = workersNs.map(medianOf);
  const workerMeansNs = workersNs.map(meanOf);
  const figures = statistic === "mean" ? workerMeansNs : workerMediansNs;
  return {
    n,
    calls: n * batch,
    meanNs: mean,
    medianNs: median,
    minNs: sorted[0],
    maxNs: sorted[n - 1],
    p1Ns: quantile(sorted, 0.01),
    p5Ns: quantile(sorted, 0.05),
    p25Ns: p25,
    p75Ns: p75,
    p95Ns: quantile(sorted, 0.95),
    p99Ns: quantile(sorted, 0.99),
    madNs: medianOf(pooled.map((x) => Math.abs(x - median))),
    sdNs: sd,
    medianCi95Ns: { low: sorted[k] as number, high: sorted[n - 1 - k] as number },
    meanCi95Ns: { low: mean - (1.96 * sd) / Math.sqrt(n), high: mean + (1.96 * sd) / Math.sqrt(n) },
    outliers: {
      low: pooled.filter((x) => x < p25 - 1.5 * iqr).length,
      high: pooled.filter((x) => x > p75 + 1.5 * iqr).length,
      fences: { low: p25 - 1.5 * iqr, high: p75 + 1.5 * iqr },
    },
    workerMediansNs,
    workerMeansNs,
    workerSpread: (Math.max(...figures) - Math.min(...figures)) / medianOf(figures),
    meanCounter: mean * PER_CALL_RATE,
    medianCounter: median * PER_CALL_RATE,
  };
}

/** The central block: the statistic with its 95 % interval, the larger of the pooled interval and the workers'. */
function centralOf(
  d: Rec,
  w: number,
  statistic: "median" | "mean",
  target: number,
  batch: number,
  reason: string | undefined,
): Rec {
  const mean = statistic === "mean";
  const valueNs: number = mean ? d.meanNs : d.medianNs;
  const pooledCi = mean ? d.meanCi95Ns : d.medianCi95Ns;
  const figures = mean ? d.workerMeansNs : d.workerMediansNs;
  const workersHalf = w >= 2 ? (tQuantile975(w - 1) * sdOf(figures)) / Math.sqrt(w) : 0;
  const half = Math.max(valueNs - pooledCi.low, pooledCi.high - valueNs, workersHalf);
  const relativeHalfWidth = half / valueNs;
  return {
    statistic,
    valueNs,
    valueCounter: valueNs * PER_CALL_RATE,
    ci95Ns: { low: valueNs - half, high: valueNs + half },
    relativeHalfWidth,
    metTarget: relativeHalfWidth <= target,
    reason:
      reason ??
      `${statistic} of ${d.n} ${batch === 1 ? "single calls" : `samples of ${batch} calls`} over ${w} worker${w === 1 ? "" : "s"}`,
  };
}

/** The aggregates block over the trials (each worker's totals), as the trials method computes it. */
function aggregatesOf(trials: Array<{ iterations: number; counterDelta: number; ns: number }>): Rec {
  const w = trials.length;
  const means = trials.map((t) => t.ns / t.iterations);
  const ms = [...means].sort((a, b) => a - b);
  const calls = sum(trials.map((t) => t.iterations));
  const meanNs = sum(trials.map((t) => t.ns)) / calls;
  const avg = meanOf(means);
  const tsd = sdOf(means);
  const th = w > 1 ? (tQuantile975(w - 1) * tsd) / Math.sqrt(w) : 0;
  const iters = trials.map((t) => t.iterations);
  return {
    n: calls,
    trials: w,
    iterationsPerTrial: iters.every((i: number) => i === iters[0]) ? iters[0] : Math.round(calls / w),
    meanCounter: sum(trials.map((t) => t.counterDelta)) / calls,
    meanNs,
    opsPerSecond: 1e9 / meanNs,
    medianTrialNs: quantile(ms, 0.5),
    medianTrialCounter: quantile(ms, 0.5) * PER_CALL_RATE,
    minTrialNs: ms[0],
    maxTrialNs: ms[w - 1],
    q1TrialNs: quantile(ms, 0.25),
    q3TrialNs: quantile(ms, 0.75),
    stddevTrialNs: tsd,
    cv: tsd / avg,
    ci95Ns: { low: avg - th, high: avg + th },
    unstable: ((ms[w - 1] as number) - (ms[0] as number)) / quantile(ms, 0.5) > 0.05,
    unstableThreshold: 0.05,
  };
}

/** Samples of one worker: `count` calls around `centerNs` with a relative jitter (uniform ± jitter). */
export function jittered(rand: () => number, count: number, centerNs: number, jitter: number): number[] {
  return Array.from({ length: count }, () => Math.round(centerNs * (1 + (rand() * 2 - 1) * jitter)));
}
