// Time to render the report site of a large store (not a test; run with `pnpm exec tsx bench/report-site.ts`).
// Target: ≤ 5 s here for 1,000 instances × 3 operations in Markdown and HTML, charts included.
//
// Writes a synthetic store (provenance origin "synthesized": random figures, never a measurement) of
// --algorithms A (default 100) KEMs with --instances I (default 10) parameter sets each: per instance a KAT record,
// and per operation a timing record (5 trials) and a hash/DRNG profile; per algorithm a size audit and a survey.
// Then renders it --runs times (default 3) and prints each wall time split into loading, rendering and charts.
// Options: --algorithms A, --instances I, --runs N, --no-charts, --keep (keep the store).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadStore, renderLoadedSite } from "../packages/report/src/index.ts";
import { aggregate, sha256, writeJsonAtomic } from "../packages/runner/src/index.ts";
import { recordPath, relativeRecordPath, type StoreEntry } from "../packages/schema/src/index.ts";

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const algorithms = Number(option("--algorithms") ?? "100");
const instancesPer = Number(option("--instances") ?? "10");
const runs = Number(option("--runs") ?? "3");
const charts = !args.includes("--no-charts");
const keep = args.includes("--keep");

const SYSTEM = "bench_1";
const PROFILE = "guide";
const OPS = ["keygen", "enc", "dec"] as const;
const provenance = {
  origin: "synthesized" as const,
  tool: { name: "bench/report-site.ts", version: "1" },
  createdAt: "2026-01-01T00:00:00Z",
  note: "Random figures for a rendering benchmark; not a measurement.",
};
const counter = { kind: "rdtsc" as const, unit: "tsc-ticks" as const, rateHz: 2.1e9, overhead: 40 };

let seed = 42;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};

function writeStore(root: string): number {
  let files = 0;
  // Every file goes where the schema's layout puts it.
  const put = (entry: StoreEntry, value: unknown) => {
    writeJsonAtomic(recordPath(root, entry), value);
    files++;
  };
  const system = { system: SYSTEM };
  put(
    { kind: "environment", key: system },
    {
      kind: "environment",
      schemaVersion: 1,
      provenance,
      system: SYSTEM,
      processor: { model: "Synthetic CPU", architecture: "x86_64", logicalCpus: 2, pinnedCpu: 1 },
      machine: "bench",
      clock: { fixedFrequencyHz: null, governor: null, boost: "unknown", smt: "unknown" },
      memory: { totalMiB: 16384 },
      os: { name: "Bench OS", kernel: "6.0" },
      toolchain: { compiler: "gcc 12", buildTool: null },
      counter,
      campaign: { start: "2026-01-01T00:00:00Z", end: "2026-01-01T01:00:00Z" },
    },
  );
  const index = [];
  for (let a = 0; a < algorithms; a++) {
    const id = `kem-${String(a).padStart(3, "0")}`;
    const instances = Array.from({ length: instancesPer }, (_, i) => `Bench${a}-${128 + i * 64}`);
    index.push({
      id,
      name: `Bench KEM ${a}`,
      category: "kem",
      implementations: ["reference"],
      instances,
      katManifest: `${id}/kat.sha256`,
    });
    for (const [i, instance] of instances.entries()) {
      const key = { system: SYSTEM, algorithmId: id, instance, buildProfile: PROFILE };
      put(
        { kind: "kat", key },
        {
          kind: "kat",
          schemaVersion: 1,
          provenance,
          system: SYSTEM,
          algorithmId: id,
          instance,
          implementation: "reference",
          buildProfile: PROFILE,
          verdict: "PASS",
          log: { path: relativeRecordPath({ kind: "kat-log", key }), sha256: sha256(`${id}/${instance}`) },
        },
      );
      for (const [o, op] of OPS.entries()) {
        const base = 5e4 * (1 + i) * (1 + o * 0.3) * (0.5 + random());
        const trials = Array.from({ length: 5 }, () => {
          const ns = Math.round(base * 20 * (1 + (random() - 0.5) * 0.02));
          return { iterations: 20, ns, counterDelta: Math.round(ns * 2.1) };
        });
        const agg = aggregate(trials);
        put(
          { kind: "timing", key: { ...key, operation: op } },
          {
            kind: "timing",
            schemaVersion: 1,
            provenance,
            system: SYSTEM,
            algorithmId: id,
            instance,
            implementation: "reference",
            buildProfile: PROFILE,
            operation: op,
            status: "ok",
            counter,
            trials,
            aggregates: agg,
            memory: { elfImageBytes: 30000 + i, baselineRssKiB: 1400, peakRssKiB: 1500 + 10 * i },
          },
        );
        const hash = 0.2 + 0.5 * random();
        put(
          { kind: "hash-profile", key: { ...key, operation: op } },
          {
            kind: "hash-profile",
            schemaVersion: 1,
            provenance,
            system: SYSTEM,
            algorithmId: id,
            instance,
            implementation: "reference",
            buildProfile: PROFILE,
            operation: op,
            status: "ok",
            groups: [
              { name: "hash", label: "pseudohash/XOF/sm3", symbols: ["pseudoXOF"], share: hash },
              { name: "drng", label: "DRNG", symbols: ["randombytes"], share: op === "dec" ? 0 : 0.02 },
            ],
            calls: [
              { symbol: "pseudoXOF", group: "hash", label: "pseudoXOF", meanPerOperation: 4 + i },
              ...(op === "dec" ? [] : [{ symbol: "randombytes", group: "drng", label: "drng", meanPerOperation: 1 }]),
            ],
          },
        );
      }
    }
    const algorithmKey = { system: SYSTEM, algorithmId: id, buildProfile: PROFILE };
    put(
      { kind: "size-audit", key: algorithmKey },
      {
        kind: "size-audit",
        schemaVersion: 1,
        provenance,
        system: SYSTEM,
        algorithmId: id,
        category: "kem",
        instances: instances.map((instance, i) => {
          const t = {
            publicKeyBytes: 800 + 64 * i,
            secretKeyBytes: 1600 + 64 * i,
            ciphertextBytes: 768 + 64 * i,
            sharedSecretBytes: 32,
          };
          return { instance, api: t, table: t };
        }),
        findings: [],
      },
    );
    put(
      { kind: "survey", key: algorithmKey },
      {
        kind: "survey",
        schemaVersion: 1,
        provenance,
        algorithmId: id,
        verdict: "ICCS-only",
        system: SYSTEM,
      },
    );
  }
  put(
    { kind: "store-index", key: system },
    {
      kind: "store-index",
      schemaVersion: 1,
      provenance,
      system: SYSTEM,
      algorithms: index,
      files: [],
    },
  );
  return files;
}

const root = mkdtempSync(join(tmpdir(), "ngcc-bench-report-"));
try {
  const files = writeStore(root);
  console.log(
    `store: ${algorithms} algorithms × ${instancesPer} instances × ${OPS.length} operations = ${algorithms * instancesPer * OPS.length} timing records, ${files} files`,
  );
  const times: number[] = [];
  for (let r = 1; r <= runs; r++) {
    const t0 = performance.now();
    const store = loadStore(root);
    const t1 = performance.now();
    const summary = await renderLoadedSite(store, { charts });
    const t2 = performance.now();
    times.push(t2 - t0);
    console.log(
      `run ${r}: ${((t2 - t0) / 1000).toFixed(2)} s (load + validate ${((t1 - t0) / 1000).toFixed(2)} s, render + write ${((t2 - t1) / 1000).toFixed(2)} s): ${summary.pages} pages, ${summary.charts} charts`,
    );
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `median ${((sorted[Math.floor(sorted.length / 2)] ?? 0) / 1000).toFixed(2)} s, best ${((sorted[0] ?? 0) / 1000).toFixed(2)} s (target ≤ 5 s)`,
  );
} finally {
  if (keep) console.log(`kept ${root}`);
  else rmSync(root, { recursive: true, force: true });
}
