// Writes fixtures/rounding-store/data/<system>/: a small hand-made record store whose figures sit at the rounding
// edges of the report's number formats (docs/report.md, "Number formatting"): mean cycles at 9999.5 / 999949 /
// 999950, times such as 1.555 µs, 999.5 ns, 999.5 µs, ops/s at %.3g edges, shares 9.95 % / 9.949 %, calls 46.65.
//
//   pnpm --filter @ngcc-perf/seed-store make-rounding-store [storeDir]
//   (or: pnpm exec tsx packages/seed-store/src/make-rounding-store.ts [storeDir])
//
// The values are chosen by hand (ROWS, PROFILES below); the script only builds records around them: five raw
// trials per row whose aggregates (the runner's `aggregate`) are exactly the chosen mean, median and mean counter,
// valid records placed by the schema's layout module, and the index with every file's SHA-256. What the pages
// must print for them is packages/tests/src/rounding-store.test.ts.

import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { aggregate, type Trial } from "@ngcc-perf/runner";
import { SCHEMA_VERSION } from "@ngcc-perf/schema";
import { REPO_ROOT } from "./extract-cells.ts";
import {
  type AssembledStore,
  assembleStore,
  type IndexedFile,
  type JsonRecord,
  type StoreFile,
  storeFile,
  writeStore,
} from "./store-files.ts";

export const DEFAULT_ROUNDING_STORE_DIR = join(REPO_ROOT, "fixtures/rounding-store");

export const ROUNDING = {
  system: "edge_1",
  algorithmId: "kem-99",
  name: "Rounding edges",
  implementation: "reference",
  buildProfile: "guide",
  instances: ["Edge-1", "Edge-2", "Edge-3"],
  operations: ["keygen", "enc", "dec"],
} as const;

const TOOL = { name: "@ngcc-perf/seed-store (packages/seed-store/src/make-rounding-store.ts)", version: "1.0.0" };
const CREATED_AT = "2026-10-01T00:00:00Z";

function provenance(note: string): JsonRecord {
  return { origin: "curated", tool: TOOL, createdAt: CREATED_AT, note };
}

/**
 * One row of sections 4 and 5: the figures its cells are printed from. Times are given as whole nanoseconds per
 * trial (`meanTrialNs` = mean × iterations), so that every aggregate is exact in binary floating point.
 */
export interface RoundingRow {
  instance: (typeof ROUNDING.instances)[number];
  operation: (typeof ROUNDING.operations)[number];
  /** Mean counter (cycles) per operation. */
  meanCycles: number;
  /** Iterations per trial (5 trials). */
  iterations: number;
  /** meanNs × iterations: the trials' total ns / 5. */
  meanTrialNs: number;
  /** medianTrialNs × iterations: the middle trial's ns. */
  medianTrialNs: number;
}

/** The hand-chosen figures. Every one is at, or next to, an edge of its format. */
export const ROWS: readonly RoundingRow[] = [
  // 9999.4 cycles; 999.4 ns mean; 999.5 ns median trial.
  {
    instance: "Edge-1",
    operation: "keygen",
    meanCycles: 9999.4,
    iterations: 1000,
    meanTrialNs: 999_400,
    medianTrialNs: 999_500,
  },
  // 9999.5 cycles; 1.555 µs.
  {
    instance: "Edge-1",
    operation: "enc",
    meanCycles: 9999.5,
    iterations: 1000,
    meanTrialNs: 1_555_000,
    medianTrialNs: 1_555_000,
  },
  // 999949 cycles; 999.5 µs (ops/s 1000.5).
  {
    instance: "Edge-1",
    operation: "dec",
    meanCycles: 999_949,
    iterations: 10,
    meanTrialNs: 9_995_000,
    medianTrialNs: 9_995_000,
  },
  // 999950 cycles; 320 µs, so ops/s are exactly 3125 (a %.3g tie).
  {
    instance: "Edge-2",
    operation: "keygen",
    meanCycles: 999_950,
    iterations: 100,
    meanTrialNs: 32_000_000,
    medianTrialNs: 32_000_000,
  },
  // 9.995 µs.
  {
    instance: "Edge-2",
    operation: "enc",
    meanCycles: 27_086,
    iterations: 1000,
    meanTrialNs: 9_995_000,
    medianTrialNs: 9_995_000,
  },
  // 2.125 µs (exact in binary: a %.3g tie).
  {
    instance: "Edge-2",
    operation: "dec",
    meanCycles: 5759,
    iterations: 1000,
    meanTrialNs: 2_125_000,
    medianTrialNs: 2_125_000,
  },
  // 1 ms exactly: ops/s exactly 1000.
  {
    instance: "Edge-3",
    operation: "keygen",
    meanCycles: 2_710_000,
    iterations: 100,
    meanTrialNs: 100_000_000,
    medianTrialNs: 100_000_000,
  },
  // 999.95 ms, one iteration per trial.
  {
    instance: "Edge-3",
    operation: "enc",
    meanCycles: 2_709_864_500,
    iterations: 1,
    meanTrialNs: 999_950_000,
    medianTrialNs: 999_950_000,
  },
  // 99.95 µs mean, 99.949 µs median trial.
  {
    instance: "Edge-3",
    operation: "dec",
    meanCycles: 270_864,
    iterations: 100,
    meanTrialNs: 9_995_000,
    medianTrialNs: 9_994_900,
  },
];

/** One row of the symmetric-primitives table: group shares (fractions) and calls per operation. */
export interface RoundingProfile {
  instance: RoundingRow["instance"];
  operation: RoundingRow["operation"];
  hash: number;
  drng: number;
  calls: Partial<Record<"pseudoXOF" | "pseudohash" | "sm3hash" | "randombytes", number>>;
}

export const PROFILES: readonly RoundingProfile[] = [
  { instance: "Edge-1", operation: "keygen", hash: 0.0995, drng: 0.09949, calls: { randombytes: 1, pseudoXOF: 46.65 } },
  { instance: "Edge-1", operation: "enc", hash: 0.995, drng: 0.00049, calls: { randombytes: 2.95, pseudoXOF: 46.75 } },
  { instance: "Edge-1", operation: "dec", hash: 0.115, drng: 0.0095, calls: { randombytes: 0.5, sm3hash: 9.95 } },
];

const GROUPS = [
  { name: "hash", label: "pseudohash/XOF/sm3", symbols: ["pseudohash", "pseudoXOF", "sm3hash"] },
  { name: "drng", label: "DRNG", symbols: ["randombytes"] },
] as const;

const COUNTER = {
  kind: "fixed-clock",
  unit: "core-cycles",
  rateHz: 2_710_000_000,
  overhead: null,
  description: "Hand-chosen mean cycles at the edges of the mean-cycles format; not a measurement.",
};

/** The order trials "ran" in: not sorted, as real trials are not. */
const RUN_ORDER = [2, 0, 4, 1, 3];

/**
 * Five trials whose means are the median ± 0.1 % and ± 0.2 % of it, the two on the mean's side shifted so that the
 * total is exactly 5 × meanTrialNs; counter deltas spread alike around 5 × meanCycles × iterations.
 */
export function trialsOf(row: RoundingRow): Trial[] {
  const d = Math.round(row.medianTrialNs / 1000);
  const shift = (5 * (row.meanTrialNs - row.medianTrialNs)) / 2;
  const what = `${row.instance} ${row.operation}`;
  if (!Number.isInteger(shift)) throw new Error(`${what}: the trials would not be on whole ns`);
  if (Math.abs(shift) >= d) throw new Error(`${what}: mean and median trial too far apart for the trial layout`);
  const m = row.medianTrialNs;
  const sorted =
    shift >= 0
      ? [m - 2 * d, m - d, m, m + d + shift, m + 2 * d + shift]
      : [m - 2 * d + shift, m - d + shift, m, m + d, m + 2 * d];
  const counter = Math.round(row.meanCycles * row.iterations);
  const g = Math.round(counter / 1000);
  const deltas = [counter - 2 * g, counter - g, counter, counter + g, counter + 2 * g];
  return RUN_ORDER.map((i) => ({
    iterations: row.iterations,
    counterDelta: deltas[i] as number,
    ns: sorted[i] as number,
  }));
}

/** A timing or hash-profile record of one row: the common head (key, implementation, status ok) and `body`. */
function measurementFile(
  kind: "timing" | "hash-profile",
  at: { instance: string; operation: string },
  note: string,
  body: JsonRecord,
): StoreFile {
  const { system, algorithmId, buildProfile, implementation } = ROUNDING;
  const key = { system, algorithmId, instance: at.instance, buildProfile, operation: at.operation };
  const head = { kind, schemaVersion: SCHEMA_VERSION, provenance: provenance(note), ...key, implementation };
  return storeFile({ kind, key }, { ...head, status: "ok", ...body });
}

function timingRecord(row: RoundingRow): StoreFile {
  const trials = trialsOf(row);
  const aggregates = aggregate(trials);
  const want = {
    meanNs: row.meanTrialNs / row.iterations,
    medianTrialNs: row.medianTrialNs / row.iterations,
    meanCounter: row.meanCycles,
  };
  for (const [field, value] of Object.entries(want)) {
    const got = aggregates[field as keyof typeof want];
    if (got !== value) throw new Error(`${row.instance} ${row.operation}: ${field} comes out ${got}, not ${value}`);
  }
  return measurementFile(
    "timing",
    row,
    "Hand-chosen figures at the rounding edges of the report's number formats; the trials are made to give " +
      "exactly them. Not a measurement.",
    {
      counter: COUNTER,
      trials,
      aggregates,
      memory: { elfImageBytes: 28_856, baselineRssKiB: 1436, peakRssKiB: 1500 },
    },
  );
}

function profileRecord(p: RoundingProfile): StoreFile {
  const share = { hash: p.hash, drng: p.drng };
  return measurementFile(
    "hash-profile",
    p,
    "Hand-chosen shares and calls per operation at the rounding edges of the report's formats. Not a measurement.",
    {
      groups: GROUPS.map((g) => ({ name: g.name, label: g.label, symbols: [...g.symbols], share: share[g.name] })),
      calls: Object.entries(p.calls).map(([symbol, mean]) => ({
        symbol,
        group: symbol === "randombytes" ? "drng" : "hash",
        label: symbol === "randombytes" ? "drng" : symbol,
        meanPerOperation: mean,
      })),
    },
  );
}

function environmentRecord(): StoreFile {
  return storeFile(
    { kind: "environment", key: { system: ROUNDING.system } },
    {
      kind: "environment",
      schemaVersion: SCHEMA_VERSION,
      provenance: provenance(
        "A plausible environment for the hand-made rounding-edge store; not a machine that was measured.",
      ),
      system: ROUNDING.system,
      processor: { model: "Qualcomm Oryon", architecture: "aarch64", logicalCpus: 12, pinnedCpu: 2 },
      machine: "rounding-edge fixture",
      clock: {
        fixedFrequencyHz: 2_710_000_000,
        governor: "performance",
        minFrequencyHz: 2_710_000_000,
        maxFrequencyHz: 2_710_000_000,
        boost: "off",
        smt: "none",
      },
      memory: { totalMiB: 30_562 },
      os: { name: "Ubuntu 26.04.1 LTS", kernel: "7.0.0-34-generic" },
      toolchain: { compiler: "gcc (Ubuntu 15.2.0-16ubuntu1) 15.2.0", buildTool: "cmake version 4.2.3" },
      counter: COUNTER,
      campaign: { start: "2026-09-30T23:00:00Z", end: CREATED_AT },
    },
  );
}

function indexRecord(files: IndexedFile[]): JsonRecord {
  return {
    kind: "store-index",
    schemaVersion: SCHEMA_VERSION,
    provenance: provenance("Index of the hand-made rounding-edge store: every file with its SHA-256."),
    system: ROUNDING.system,
    algorithms: [
      {
        id: ROUNDING.algorithmId,
        name: ROUNDING.name,
        category: "kem",
        implementations: [ROUNDING.implementation],
        instances: [...ROUNDING.instances],
        operations: [...ROUNDING.operations],
        links: {
          security: { label: `${ROUNDING.algorithmId} report`, href: null },
          method: { label: `${ROUNDING.system} method`, href: null },
          submission: { label: "none (fixture)", href: null },
        },
      },
    ],
    files,
    systems: [ROUNDING.system],
  };
}

/** The whole store in memory, validated. Throws when a chosen figure does not come out exactly. */
export function buildRoundingStore(): AssembledStore {
  const records = [environmentRecord(), ...ROWS.map(timingRecord), ...PROFILES.map(profileRecord)];
  return assembleStore(ROUNDING.system, records, indexRecord);
}

function main(argv: string[]): void {
  const storeDir = resolve(argv[0] ?? DEFAULT_ROUNDING_STORE_DIR);
  const store = buildRoundingStore();
  const target = writeStore(store, storeDir);
  process.stderr.write(`wrote ${target}: ${store.files.length} files, every record valid against @ngcc-perf/schema\n`);
}

if (process.argv[1] !== undefined && basename(process.argv[1]) === basename(fileURLToPath(import.meta.url))) {
  try {
    main(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 2;
  }
}
