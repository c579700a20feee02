// Reads a record store's system folder and prints the cells of each algorithm's tables the way the seed pages do.
// A reference for the report package and the check that the seed store carries every figure of the seeds:
// its output must equal fixtures/seed-cells/expected-cells.json table for table, row for row, cell for cell.

import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { OPERATION_ORDER } from "../../packages/report/src/pages.ts";
import {
  formatCalls,
  formatCycles,
  formatKiB,
  formatN,
  formatOpsPerSecond,
  formatShare,
  formatTime,
} from "./format.ts";
import { HEADERS } from "./parse-seeds.ts";
import { computeAggregates, type Trial } from "./stats.ts";

// biome-ignore lint/suspicious/noExplicitAny: records are read untyped; the schemas validate them elsewhere.
type Rec = any;

export interface LoadedStore {
  dir: string;
  index: Rec;
  environment: Rec;
  /** Every JSON file by its path relative to the system folder. */
  records: Map<string, Rec>;
}

function walk(dir: string, out: string[]): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith(".")) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.name.endsWith(".json")) out.push(p);
  }
}

export function loadStore(systemDir: string): LoadedStore {
  const files: string[] = [];
  walk(systemDir, files);
  const records = new Map<string, Rec>();
  for (const f of files.sort())
    records.set(relative(systemDir, f).split(sep).join("/"), JSON.parse(readFileSync(f, "utf8")));
  return { dir: systemDir, index: records.get("index.json"), environment: records.get("environment.json"), records };
}

function byOperation(a: string, b: string): number {
  const ia = OPERATION_ORDER.indexOf(a);
  const ib = OPERATION_ORDER.indexOf(b);
  return (ia < 0 ? 999 : ia) - (ib < 0 ? 999 : ib) || (a < b ? -1 : a > b ? 1 : 0);
}

function recordsOf(store: LoadedStore, folder: string, algorithmId: string): Rec[] {
  const prefix = `${folder}/${algorithmId}/`;
  return [...store.records.entries()].filter(([p]) => p.startsWith(prefix)).map(([, r]) => r);
}

/** Records of one folder for an algorithm in page order: instances as in the index, operations in OPERATION_ORDER. */
function ordered(store: LoadedStore, folder: string, alg: Rec): Rec[] {
  const instances: string[] = alg.instances;
  return recordsOf(store, folder, alg.id).sort(
    (a: Rec, b: Rec) =>
      instances.indexOf(a.instance) - instances.indexOf(b.instance) || byOperation(a.operation, b.operation),
  );
}

function ghz(hz: number): string {
  return String(hz / 1e9);
}

function utc(ts: string): string {
  return ts.replace(/Z$/, "");
}

export interface StoreTable {
  heading: string;
  headers: string[];
  rows: string[][];
}

/** The tables of one algorithm's page, in the seeds' order, from the store alone. */
export function tablesFromStore(store: LoadedStore, algorithmId: string): StoreTable[] {
  const alg = store.index.algorithms.find((a: Rec) => a.id === algorithmId);
  if (!alg) throw new Error(`${algorithmId} is not in the store index`);
  const env = store.environment;
  const c = env.clock;
  const environment: StoreTable = {
    heading: "2. Assessment environment",
    headers: [...HEADERS.environment],
    rows: [
      ["processor", `${env.processor.model} (CPU ${env.processor.pinnedCpu}, one core)`],
      ["machine", env.machine],
      [
        "clock",
        `fixed ${ghz(c.fixedFrequencyHz)} GHz (governor ${c.governor}, minimum = maximum), boost ${c.boost}, SMT ${c.smt}`,
      ],
      ["memory", `${env.memory.totalMiB} MiB`],
      ["OS / kernel", `${env.os.name} / ${env.os.kernel}`],
      ["compiler / build tool", `${env.toolchain.compiler} / ${env.toolchain.buildTool}`],
      ["campaign start / end (UTC)", `${utc(env.campaign.start)} / ${utc(env.campaign.end)}`],
    ],
  };

  const instances: string[] = alg.instances;
  const kats = recordsOf(store, "kat", alg.id).sort(
    (a: Rec, b: Rec) => instances.indexOf(a.instance) - instances.indexOf(b.instance),
  );
  const kat: StoreTable = {
    heading: "3. Functional testing (KAT)",
    headers: [...HEADERS.kat],
    rows: kats.map((k: Rec) => [k.instance, k.buildProfile, k.verdict]),
  };

  const timings = ordered(store, "records", alg);
  const performance: StoreTable = {
    heading: "4. Performance",
    headers: [...HEADERS.performance],
    rows: timings.map((t: Rec) => {
      const a = computeAggregates(t.trials as Trial[]);
      return [
        t.instance,
        t.operation,
        formatCycles(a.meanCounter),
        formatTime(a.meanNs),
        formatOpsPerSecond(a.opsPerSecond),
        formatTime(a.medianTrialNs),
        formatN(a.trials, a.iterationsPerTrial),
      ];
    }),
  };
  const resources: StoreTable = {
    heading: "5. Resource consumption",
    headers: [...HEADERS.resources],
    rows: timings.map((t: Rec) => [
      t.instance,
      t.operation,
      String(t.memory.elfImageBytes),
      formatKiB(t.memory.baselineRssKiB),
      formatKiB(t.memory.peakRssKiB),
    ]),
  };

  const audit = store.records.get(`sizes/${alg.id}.json`);
  const sizeRows: string[][] = audit.instances.map((i: Rec) => {
    if (alg.category === "kex") {
      const k = i.kex;
      return [
        i.instance,
        String(k.passes),
        k.messageBytes.join(" + "),
        String(k.protocolMessageBytes),
        `${k.publicKeyABytes} / ${k.publicKeyBBytes}`,
        String(k.bandwidthBytes),
        String(k.longTermSecretKeyBytes),
        String(k.sharedSecretBytes),
      ];
    }
    const t = i.table;
    return alg.category === "kem"
      ? [i.instance, t.publicKeyBytes, t.secretKeyBytes, t.ciphertextBytes, t.sharedSecretBytes].map(String)
      : [i.instance, t.publicKeyBytes, t.secretKeyBytes, t.signatureBytes].map(String);
  });
  const sizes: StoreTable = {
    heading: "6. Transmission and storage overhead",
    headers: [
      ...(alg.category === "kex" ? HEADERS.sizesKex : alg.category === "kem" ? HEADERS.sizesKem : HEADERS.sizesSign),
    ],
    rows: sizeRows,
  };

  const profiles = ordered(store, "profile", alg);
  const share = (p: Rec, name: string): string => formatShare(p.groups.find((g: Rec) => g.name === name)?.share ?? 0);
  const symmetric: StoreTable = {
    heading: "Symmetric primitives",
    headers: [...HEADERS.symmetric],
    rows: profiles.map((p: Rec) => [
      p.instance,
      p.operation,
      share(p, "hash"),
      share(p, "drng"),
      formatCalls(p.calls.map((x: Rec) => ({ label: x.label ?? x.symbol, mean: x.meanPerOperation }))),
    ]),
  };

  const evidence: StoreTable = { heading: "7. Raw evidence index", headers: [...HEADERS.evidence], rows: [] };
  const alphabetical = (a: Rec, b: Rec): number => (a.operation < b.operation ? -1 : a.operation > b.operation ? 1 : 0);
  for (const instance of instances) {
    const k = kats.find((x: Rec) => x.instance === instance);
    if (k) {
      const prefix: string = k.log.sha256Prefix ?? String(k.log.sha256).slice(0, 16);
      evidence.rows.push([instance, `KAT log (sha256 ${prefix}…)`, k.log.path]);
    }
    for (const t of timings.filter((x: Rec) => x.instance === instance).sort(alphabetical))
      evidence.rows.push([instance, `timing ${t.operation}`, `records/${alg.id}/${instance}__${t.operation}.json`]);
    for (const p of profiles.filter((x: Rec) => x.instance === instance).sort(alphabetical))
      evidence.rows.push([
        instance,
        `hash profile ${p.operation}`,
        `profile/${alg.id}/${instance}__${p.operation}.json`,
      ]);
  }
  return [environment, kat, performance, resources, sizes, symmetric, evidence];
}

/** The lines of an algorithm's page that come from records rather than from the page template. */
export function notesFromStore(
  store: LoadedStore,
  algorithmId: string,
): { survey: string; manifest: string; root: string } {
  const alg = store.index.algorithms.find((a: Rec) => a.id === algorithmId);
  const survey = store.records.get(`survey/${algorithmId}.json`);
  return {
    survey: `Survey verdict: ${survey.verdict}${survey.text ? ` — ${survey.text}` : ""}`,
    manifest: `Each library was checked against the submitted KAT vectors (SHA-256 manifest ${alg.katManifest} in the harness) before timing.`,
    root: `Paths are relative to ${store.index.evidenceRoot} in the harness; each JSON file records its commands, environment and trials.`,
  };
}
