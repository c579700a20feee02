// A/A coverage of the published 95 % intervals (issue 26, item 2; not a test).
// Run with `pnpm exec tsx bench/aa-coverage.ts [--pairs 10] [--json FILE]` after `pnpm build` (it runs the built CLI,
// packages/cli/bin.js).
//
// 2 × N runs (default N = 10 pairs) of the same code on this machine through the real CLI,
// `ngcc-perf run <campaign> --steps build,time --out <fresh folder>`, one after the other; the campaign is PQClean
// ML-KEM-768 (keygen, enc, dec) under one profile (-O3 -fomit-frame-pointer) with a small budget, written to a
// temporary folder (or --campaign FILE). Runs 2k and 2k + 1 form pair k. For every operation it prints how often each
// run's figure lay inside the other run's 95 % interval (2 checks per pair: a in b's, b in a's), for the time
// (central.valueNs in central.ci95Ns) and the estimated core cycles (central.cycles), under two rules side by side:
//   new  the record's interval as published: the prediction interval of a repeat run's figure (samples.ts centralOf,
//        interval "prediction": max(√2 × pooled half-width, t · sd(worker figures) · √(1/W + 1/W)));
//   old  the rule before it, recomputed from the record's raw samples (the same workers, statistic and layouts):
//        the confidence interval of the run's own figure, max(pooled half-width, t · sd / √W).
// The new rule is also recomputed from the raw samples and gives the record's interval up to the workers' own counter
// rates (each driver measures its rate; the record keeps the first worker's): the largest relative difference is
// printed. Beside the coverage: the median relative half-width of each rule, the run-to-run spread
// (max / min − 1 of the figures) and the contention states of the records (contention.state / publishedFrom). A
// second table counts the same over the pairs whose two runs were in the same contention state (state and
// publishedFrom equal): what an interval can hold when the machine's state did not change between the runs. A third
// counts it over every two runs (not only the pairs) that both published from their uncontended workers
// (publishedFrom uncontended). Every run's figures follow, one line per run.
//
// With --calibrate N (or --between-run FILE), the machine's between-run component is measured first by
// `ngcc-perf calibrate <campaign> --sessions N` (A/A sessions of the time step) and every run is made with
// `--between-run` that file: a third rule, "published", is then the record's own interval (the within-run
// prediction interval with the between-run component added), and its coverage is printed beside the other two.
//
// Options: --calibrate N (sessions; none by default); --gap-s S (calibrate's idle seconds between sessions, 0);
// --between-run FILE (an earlier calibration instead); --pairs N (10); --budget-ms MS (timing.budgetMs, default 1000); --worker-ms MS (timing.workerMs, 40);
// --min-workers N (timing.minWorkers, 4); --campaign FILE (another campaign: every per-call record is used); --cli
// FILE (the ngcc-perf entry point); --json FILE (every run's figures); --from FILE (no runs: the figures of an earlier
// --json FILE, printed again); --keep (keep the temporary folder).

import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { coreClockHz, cyclesFigures, publishedWorkers, summarizeSamples } from "../packages/runner/src/samples.ts";
import type { TimingRecord } from "../packages/schema/src/index.ts";
import { type IntervalRule, perCallNs } from "../packages/stats/src/index.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const intOption = (name: string, dflt: number): number => {
  const v = option(name);
  const n = v === undefined ? dflt : Number(v);
  if (!Number.isInteger(n) || n < 1) {
    process.stderr.write(`aa-coverage: ${name} takes a positive integer (got ${v})\n`);
    process.exit(2);
  }
  return n;
};
const pairs = intOption("--pairs", 10);
const budgetMs = intOption("--budget-ms", 1000);
const workerMs = intOption("--worker-ms", 40);
const minWorkers = intOption("--min-workers", 4);
const cli = resolve(option("--cli") ?? join(root, "packages/cli/bin.js"));
const keep = args.includes("--keep");
const jsonOut = option("--json");
const from = option("--from");
const calibrateSessions = option("--calibrate") === undefined ? null : intOption("--calibrate", 8);
const gapS = option("--gap-s") ?? "0";
let betweenRunFile = option("--between-run") === undefined ? null : resolve(option("--between-run") as string);

const tmp = mkdtempSync(join(tmpdir(), "ngcc-aa-"));
const campaignFile =
  option("--campaign") !== undefined ? resolve(option("--campaign") as string) : join(tmp, "aa.yaml");
if (option("--campaign") === undefined) {
  writeFileSync(
    campaignFile,
    [
      "name: aa-coverage",
      "system: x86_1",
      "defaultProfile: guide",
      "buildProfiles:",
      "  guide:",
      '    cflags: ["-O3", "-fomit-frame-pointer"]',
      "timing:",
      `  budgetMs: ${budgetMs}`,
      `  workerMs: ${workerMs}`,
      `  minWorkers: ${minWorkers}`,
      "algorithms:",
      "  - { id: ml-kem-768, name: ML-KEM-768, source: { pqclean: ml-kem-768 } }",
      "",
    ].join("\n"),
  );
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith(".json") ? [join(dir, e.name)] : [],
  );
}

interface Interval {
  value: number;
  low: number;
  high: number;
}
/** The two rules recomputed from the samples, and the record's own interval as published (with --between-run: the
 * between-run component added). */
type Rule = IntervalRule | "published";
const RULES = ["prediction", "confidence", "published"] as const;
interface Figures {
  time: Record<Rule, Interval>;
  cycles: Record<Rule, Interval> | null;
  /** Largest relative difference between the record's interval ends and the new rule recomputed from the samples. */
  recomputeError: number;
  contention: string;
}

/** The record's figures under both rules, recomputed from its raw samples as the runner computes them. */
function figuresOf(r: TimingRecord): Figures {
  const samples = r.samples ?? [];
  const central = r.central;
  const sampling = r.sampling;
  if (!central || !sampling || samples.length === 0 || !r.counter) throw new Error("not a per-call record");
  const chosen = r.contention ? publishedWorkers(r.contention) : samples.map((_, i) => i);
  const counter = { unit: r.counter.unit, rateHz: r.counter.rateHz ?? null, overhead: r.counter.overhead ?? null };
  const ns = chosen.map((i) => perCallNs(samples[i] as { counterDeltas: number[] }, sampling.batch, counter));
  const raw = chosen.map((i) => (samples[i]?.counterDeltas ?? []).map((d) => d / sampling.batch));
  const pads = sampling.layouts?.workerPadBytes;
  const groups = pads ? chosen.map((i) => pads[i] as number) : undefined;
  const statistic = central.statistic;
  const target = sampling.target.relativeHalfWidth;
  const time = {} as Record<Rule, Interval>;
  let cycles: Record<Rule, Interval> | null = null;
  const adds = r.distribution?.coreClock?.adds;
  const hz =
    adds !== undefined
      ? chosen.map((i) => coreClockHz({ adds, deltas: samples[i]?.clockDeltas ?? [] }, counter))
      : undefined;
  for (const rule of ["new", "old"] as const) {
    const interval: IntervalRule = rule === "new" ? "prediction" : "confidence";
    const c = summarizeSamples(ns, raw, sampling.batch, {
      statistic,
      target,
      interval,
      ...(groups ? { groups } : {}),
    }).central;
    time[interval] = { value: c.valueNs, low: c.ci95Ns.low, high: c.ci95Ns.high };
    if (adds !== undefined && hz?.every((h): h is number => h !== null) && central.cycles) {
      const y = cyclesFigures(ns, hz, adds, statistic, target, groups, interval).central;
      cycles ??= {} as Record<Rule, Interval>;
      cycles[interval] = { value: y.value, low: y.ci95.low, high: y.ci95.high };
    }
  }
  const rel = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(b), 1e-12);
  // The recomputed new rule is the record's within-run interval: its ci95 unless a between-run component was added.
  const withinOf = (value: number, ci: { low: number; high: number }, b?: { withinRelativeHalfWidth: number }) =>
    b
      ? { low: value * (1 - b.withinRelativeHalfWidth), high: value * (1 + b.withinRelativeHalfWidth) }
      : { low: ci.low, high: ci.high };
  const tw = withinOf(central.valueNs, central.ci95Ns, central.betweenRun);
  time.published = { value: central.valueNs, low: central.ci95Ns.low, high: central.ci95Ns.high };
  let recomputeError = Math.max(rel(time.prediction.low, tw.low), rel(time.prediction.high, tw.high));
  if (cycles && central.cycles) {
    const cw = withinOf(central.cycles.value, central.cycles.ci95, central.cycles.betweenRun);
    cycles.published = { value: central.cycles.value, low: central.cycles.ci95.low, high: central.cycles.ci95.high };
    recomputeError = Math.max(recomputeError, rel(cycles.prediction.low, cw.low), rel(cycles.prediction.high, cw.high));
  }
  return {
    time,
    cycles,
    recomputeError,
    contention: r.contention ? `${r.contention.state}/${r.contention.publishedFrom}` : "no probe",
  };
}

// ---------------------------------------------------------------- the runs

const runs: Array<Map<string, Figures>> = [];
const started = Date.now();
if (from !== undefined) {
  const saved = JSON.parse(readFileSync(from, "utf8")) as { runs: Array<Record<string, Figures>> };
  for (const r of saved.runs) runs.push(new Map(Object.entries(r)));
} else
  process.stderr.write(
    `aa-coverage: ${2 * pairs} runs of ${campaignFile} (${cpus().length} CPUs, load ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")})\n`,
  );
if (from === undefined && calibrateSessions !== null) {
  betweenRunFile = join(tmp, "between-run.json");
  const t0 = Date.now();
  const args = [cli, "calibrate", campaignFile, "--out", betweenRunFile, "--sessions", String(calibrateSessions)];
  const r = spawnSync(process.execPath, [...args, "--gap-s", gapS], { cwd: root, encoding: "utf8" });
  if (r.status !== 0) {
    process.stderr.write(`aa-coverage: calibrate exited ${r.status}:\n${r.stderr}\n`);
    process.exit(1);
  }
  const lines = r.stderr.split("\n").filter((l) => /^(time|estimated cycles): (between-run sd|not probed)/.test(l));
  process.stderr.write(`  calibrate: ${calibrateSessions} sessions, ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
  for (const l of lines) console.log(`calibrate: ${l}`);
}
const withBetweenRun = betweenRunFile !== null ? ["--between-run", betweenRunFile] : [];
for (let i = 0; from === undefined && i < 2 * pairs; i++) {
  const out = join(tmp, `run-${i + 1}`);
  const t0 = Date.now();
  const runArgs = [cli, "run", campaignFile, "--out", out, "--steps", "build,time", ...withBetweenRun];
  const r = spawnSync(process.execPath, runArgs, {
    cwd: root,
    encoding: "utf8",
  });
  if (r.status !== 0) {
    process.stderr.write(`aa-coverage: run ${i + 1} exited ${r.status}:\n${r.stderr}\n`);
    process.exit(1);
  }
  const figures = new Map<string, Figures>();
  for (const f of walk(join(out, "data"))) {
    const rec = JSON.parse(readFileSync(f, "utf8")) as TimingRecord & { kind?: string };
    if (rec.kind !== "timing" || rec.method !== "per-call" || rec.status !== "ok") continue;
    figures.set(`${rec.instance} ${rec.operation} [${rec.buildProfile}]`, figuresOf(rec));
  }
  runs.push(figures);
  if (!keep) rmSync(out, { recursive: true, force: true });
  process.stderr.write(
    `  run ${i + 1}/${2 * pairs}: ${figures.size} operations, ${((Date.now() - t0) / 1000).toFixed(0)} s\n`,
  );
}

// ---------------------------------------------------------------- coverage

const inside = (x: number, i: Interval) => x >= i.low && x <= i.high;
const half = (i: Interval) => (i.value > 0 ? Math.max(i.high - i.value, i.value - i.low) / i.value : 0);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

const npairs = Math.floor(runs.length / 2);
const ops = [...new Set(runs.flatMap((m) => [...m.keys()]))].sort();
const rows: string[][] = [];
const sameRows: string[][] = [];
const summary: Record<string, unknown> = {};
let worstRecompute = 0;
for (const op of ops) {
  for (const figure of ["time", "cycles"] as const) {
    const cover: Record<Rule, number> = { prediction: 0, confidence: 0, published: 0 };
    const same: Record<Rule, number> = { prediction: 0, confidence: 0, published: 0 };
    let checks = 0;
    let sameChecks = 0;
    const halves: Record<Rule, number[]> = { prediction: [], confidence: [], published: [] };
    const values: number[] = [];
    for (let k = 0; k < npairs; k++) {
      const a = runs[2 * k]?.get(op);
      const b = runs[2 * k + 1]?.get(op);
      const fa = a?.[figure];
      const fb = b?.[figure];
      if (!a || !b || !fa || !fb) continue;
      worstRecompute = Math.max(worstRecompute, a.recomputeError, b.recomputeError);
      checks += 2;
      const alike = a.contention === b.contention;
      if (alike) sameChecks += 2;
      for (const rule of RULES) {
        if (!fa[rule] || !fb[rule]) continue;
        const hits = Number(inside(fa[rule].value, fb[rule])) + Number(inside(fb[rule].value, fa[rule]));
        cover[rule] += hits;
        if (alike) same[rule] += hits;
        halves[rule].push(half(fa[rule]), half(fb[rule]));
      }
      values.push(fa.prediction.value, fb.prediction.value);
    }
    if (checks === 0) continue;
    const states = new Map<string, number>();
    for (const m of runs) {
      const s = m.get(op)?.contention;
      if (s) states.set(s, (states.get(s) ?? 0) + 1);
    }
    const spread = Math.max(...values) / Math.min(...values) - 1;
    rows.push([
      op,
      figure,
      `${cover.confidence}/${checks} (${pct(cover.confidence / checks)})`,
      `${cover.prediction}/${checks} (${pct(cover.prediction / checks)})`,
      `±${pct(median(halves.confidence))}`,
      `±${pct(median(halves.prediction))}`,
      ...(betweenRunFile !== null
        ? [`${cover.published}/${checks} (${pct(cover.published / checks)})`, `±${pct(median(halves.published))}`]
        : []),
      pct(spread),
      [...states].map(([s, n]) => `${s} ×${n}`).join(", "),
    ]);
    const of = (n: number, d: number) => (d > 0 ? `${n}/${d} (${pct(n / d)})` : "—");
    sameRows.push([
      op,
      figure,
      of(same.confidence, sameChecks),
      of(same.prediction, sameChecks),
      ...(betweenRunFile !== null ? [of(same.published, sameChecks)] : []),
    ]);
    summary[`${op} ${figure}`] = {
      sameStateChecks: sameChecks,
      sameStateOld: sameChecks > 0 ? same.confidence / sameChecks : null,
      sameStateNew: sameChecks > 0 ? same.prediction / sameChecks : null,
      checks,
      old: cover.confidence / checks,
      new: cover.prediction / checks,
      medianHalfOld: median(halves.confidence),
      medianHalfNew: median(halves.prediction),
      ...(betweenRunFile !== null
        ? { published: cover.published / checks, medianHalfPublished: median(halves.published) }
        : {}),
      spread,
    };
  }
}

const head = [
  "operation",
  "figure",
  "old: inside the other's",
  "new: inside the other's",
  "old ± (median)",
  "new ± (median)",
  ...(betweenRunFile !== null ? ["published: inside the other's", "published ± (median)"] : []),
  "run-to-run spread",
  "contention (runs)",
];
const table = (h: string[], body: string[][]) => {
  const widths = h.map((x, i) => Math.max(x.length, ...body.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  console.log(line(h));
  for (const r of body) console.log(line(r));
};
console.log(
  `A/A coverage over ${npairs} pairs of runs${from ? ` (from ${from})` : ` (${((Date.now() - started) / 60000).toFixed(1)} min)`}:`,
);
table(head, rows);
console.log("\nthe same over the pairs whose two runs were in the same contention state (state/publishedFrom):");
table(
  [
    "operation",
    "figure",
    "old: inside the other's",
    "new: inside the other's",
    ...(betweenRunFile !== null ? ["published: inside the other's"] : []),
  ],
  sameRows,
);
const freeRows: string[][] = [];
for (const op of ops) {
  for (const figure of ["time", "cycles"] as const) {
    const free = runs.flatMap((m) => {
      const f = m.get(op);
      return f?.[figure] && f.contention.endsWith("/uncontended") ? [f[figure] as Record<Rule, Interval>] : [];
    });
    let checks = 0;
    const hits: Record<Rule, number> = { prediction: 0, confidence: 0, published: 0 };
    for (let i = 0; i < free.length; i++) {
      for (let j = i + 1; j < free.length; j++) {
        const a = free[i] as Record<Rule, Interval>;
        const b = free[j] as Record<Rule, Interval>;
        checks += 2;
        for (const rule of RULES) {
          if (!a[rule] || !b[rule]) continue; // an earlier --json without the published interval
          hits[rule] += Number(inside(a[rule].value, b[rule])) + Number(inside(b[rule].value, a[rule]));
        }
      }
    }
    const of = (n: number) => (checks > 0 ? `${n}/${checks} (${pct(n / checks)})` : "—");
    freeRows.push([
      op,
      figure,
      String(free.length),
      of(hits.confidence),
      of(hits.prediction),
      ...(betweenRunFile !== null ? [of(hits.published)] : []),
    ]);
  }
}
console.log("\nthe same over every two runs that both published from their uncontended workers:");
table(
  [
    "operation",
    "figure",
    "runs",
    "old: inside the other's",
    "new: inside the other's",
    ...(betweenRunFile !== null ? ["published: inside the other's"] : []),
  ],
  freeRows,
);
console.log("\nevery run: figure (µs, estimated kcycles) ± new rule, contention state/publishedFrom");
runs.forEach((m, i) => {
  const cells = [...m.entries()]
    .sort(([x], [y]) => x.localeCompare(y))
    .map(([op, f]) => {
      const t = f.time.prediction;
      const c = f.cycles?.prediction;
      return `${op.split(" ")[1]} ${(t.value / 1000).toFixed(1)} µs ±${pct(half(t))}${c ? ` ${(c.value / 1000).toFixed(0)} k` : ""} ${f.contention}`;
    });
  console.log(`  run ${String(i + 1).padStart(2)}: ${cells.join("; ")}`);
});
console.log(
  `the new rule recomputed from the raw samples gives the records' intervals within ${(worstRecompute * 100).toExponential(1)} % (largest relative difference)`,
);
if (jsonOut) {
  writeFileSync(
    jsonOut,
    `${JSON.stringify({ pairs: npairs, campaign: campaignFile, summary, runs: runs.map((m) => Object.fromEntries(m)) }, null, 2)}\n`,
  );
}
if (!keep) rmSync(tmp, { recursive: true, force: true });
else process.stderr.write(`aa-coverage: kept ${tmp}\n`);
