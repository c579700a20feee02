// Precision of ngcc-perf's timing against an independent reference (issue 13, item 9; not a test).
// Run with `pnpm exec tsx bench/precision.ts [--runs 5] [--quick] [--json FILE]` after `pnpm build` (it runs the
// built CLI, packages/cli/bin.js).
//
// For every operation of the campaign (default fixtures/campaigns/precision.yaml: PQClean ML-KEM-768, ML-DSA-44 and
// the deterministic-signature fixture sig-93), N runs (default 5) of three designs, alternating a, b, c in each run:
//   a  `ngcc-perf time` with the default method (per-call once it lands; until then it behaves like b);
//   b  the same with `timing: { method: trials }`: 5 trials × calibrated iterations, targetTrialMs 20 (the seeds'
//      "5 × 20 ms" design; the documented default trial is 100 ms, the precision campaign sets 20);
//   c  the reference, bench/reference/speed.c, compiled and linked in one gcc command with the scheme's own sources
//      and the campaign's build flags (no ngcc-perf artifact, no shared object), every call timed alone with rdtsc,
//      inputs varied as in the spec's §2 (4 key pairs, a pool of 64, a fresh message per sign call). It is built in
//      4 code layouts (-DSPEED_PAD=0, 16, 32, 48: the scheme's code that many bytes past a 64-byte boundary), as
//      ngcc-perf's per-call workers rotate over 4 layouts; every run runs every layout's binary (one process each),
//      and the reference figure of a run is the mean over the layouts of each process's median (or mean).
// It prints per operation the ratio of ngcc-perf's central figure (central.valueNs, else aggregates.medianTrialNs) to
// the reference's (its layout-mean median, or mean where the record's central statistic is mean), the run-to-run spread
// (max/min − 1) of each design and of the reference, and the sampling time spent per operation, beside the targets:
// ratio within [0.98, 1.02], spread ≤ 1 %. A second table does the same in estimated core cycles: a's
// central.cycles.value (per-call records whose driver probed the core clock) against the reference's median_cycles or
// mean_cycles (speed.c's own add-chain probe after every call), the spread of both, a's ± in cycles and the core clock
// range (min–max GHz over the runs) of a and of the reference; same targets; and the spread between the reference's
// layouts (max/min − 1 of the layout figures, median over the runs). The raw figures of every run go to --json FILE.
//
// Options: --runs N (5); --quick (a smoke run: `--quick` to ngcc-perf where it knows it, 2 ms trials, 201 reference
// calls; the figures mean nothing); --json FILE; --campaign FILE; --only ALGORITHM-ID (repeatable); --calls N
// (reference calls per operation, default 2001); --warmup-ms MS (reference warm-up per operation, default 50);
// --trial-ms MS (design b's targetTrialMs, default the campaign's, else 20); --pin CPU|none (pin every design to
// that CPU; default: the campaign's pinning, and the reference on the CPU a's record says it ran on); --cli FILE
// (the ngcc-perf entry point, default packages/cli/bin.js); --clock-adds N (adds of the reference's core-clock probe,
// default 16384 as ngcc-perf's driver; 0: no probe, no reference cycles); --layouts 4|1 (reference builds: 4 code
// layouts, the default, or 1: the single plain build without a pad, as a submitter builds it); --keep (keep the
// temporary folder).

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, hostname, loadavg, tmpdir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type CampaignConfig,
  type EnvironmentRecord,
  type TimingRecord,
  validateText,
} from "../packages/schema/src/index.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const speedSource = join(root, "bench/reference/speed.c");

// ---------------------------------------------------------------- options

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const options = (name: string): string[] =>
  args.flatMap((a, i) => {
    const v = args[i + 1];
    return a === name && v !== undefined ? [v] : [];
  });
const positive = (name: string, fallback: number): number => {
  const text = option(name);
  const v = text === undefined ? fallback : Number(text);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name}: expected a positive number, got ${text}`);
  return v;
};
const quick = args.includes("--quick");
const runs = Math.round(positive("--runs", 5));
const jsonFile = option("--json");
const campaignFile = resolve(option("--campaign") ?? join(root, "fixtures/campaigns/precision.yaml"));
const only = options("--only");
const calls = Math.round(positive("--calls", quick ? 201 : 2001));
const refWarmupMs = positive("--warmup-ms", quick ? 10 : 50);
const clockAddsText = option("--clock-adds");
const clockAdds = clockAddsText === undefined ? 16384 : Number(clockAddsText);
if (!Number.isInteger(clockAdds) || clockAdds < 0 || (clockAdds > 0 && clockAdds < 8)) {
  throw new Error(`--clock-adds: expected 0 or a whole number ≥ 8, got ${clockAddsText}`);
}
const layoutsText = option("--layouts") ?? "4";
if (layoutsText !== "4" && layoutsText !== "1") throw new Error(`--layouts: expected 4 or 1, got ${layoutsText}`);
/** The reference's code layouts: speed.c's -DSPEED_PAD (bytes past a 64-byte boundary), null for the plain build. */
const LAYOUT_PADS: Array<number | null> = layoutsText === "4" ? [0, 16, 32, 48] : [null];
const pinOption = option("--pin");
const keep = args.includes("--keep");
const cli = resolve(option("--cli") ?? join(root, "packages/cli/bin.js"));
const pinFixed: number | null | undefined =
  pinOption === undefined ? undefined : pinOption === "none" ? null : Math.round(Number(pinOption));
if (pinFixed !== undefined && pinFixed !== null && !(pinFixed >= 0)) throw new Error(`--pin: expected a CPU or none`);

const TARGET_RATIO: [number, number] = [0.98, 1.02];
const TARGET_SPREAD = 0.01;

// --------------------------------------------------------------- campaign

const campaignText = readFileSync(campaignFile, "utf8");
const parsed = validateText(campaignText, campaignFile, "campaign");
if (!parsed.valid) {
  throw new Error(`${campaignFile}: ${parsed.errors.map((e) => `${e.pointer} ${e.message}`).join("; ")}`);
}
const campaign = parsed.value as CampaignConfig;
const campaignDir = dirname(campaignFile);
const abs = (p: string): string => (isAbsolute(p) ? p : resolve(campaignDir, p));
const algorithms = campaign.algorithms.filter((a) => only.length === 0 || only.includes(a.id));
if (algorithms.length === 0) throw new Error(`--only ${only.join(", ")}: no such algorithm in ${campaignFile}`);
const profileName = campaign.defaultProfile ?? Object.keys(campaign.buildProfiles ?? {})[0] ?? "guide";
const profile = campaign.buildProfiles?.[profileName] ?? { cflags: ["-O3", "-fomit-frame-pointer"], ldflags: [] };
const cc = campaign.compiler?.cc ?? "gcc"; // the campaign's compiler (CC in the environment is not read)
const timing = campaign.timing ?? {};
const keyPairs = timing.keyPairs ?? 4;
const inputPool = timing.inputPool ?? 64;
const messageBytes = timing.messageBytes ?? 32;
const trialMs = positive("--trial-ms", quick ? 2 : (timing.targetTrialMs ?? 20));

/** The campaign with every path made absolute (the variants live in a temporary folder), one profile, the algorithms
 * asked for and the timing options of one design. */
function variant(timingOptions: NonNullable<CampaignConfig["timing"]>): CampaignConfig {
  const c = structuredClone(campaign);
  c.algorithms = structuredClone(algorithms).map((a) => {
    const s = a.source as { submission?: string; root?: string };
    if (s.submission !== undefined) s.submission = abs(s.submission);
    if (s.root !== undefined) s.root = abs(s.root);
    return { ...a, buildProfiles: [profileName] };
  });
  if (c.iccs) c.iccs.dir = abs(c.iccs.dir);
  if (c.sizes) c.sizes.catalog = abs(c.sizes.catalog);
  if (c.profiler?.notes !== undefined) c.profiler.notes = abs(c.profiler.notes);
  c.timing = timingOptions;
  return c;
}

const withPin = (t: NonNullable<CampaignConfig["timing"]>) => (pinFixed === undefined ? t : { ...t, pinCpu: pinFixed });
const { method: _campaignMethod, ...timingWithoutMethod } = timing;
const designA = withPin(quick ? { ...timingWithoutMethod, workerMs: 20 } : timingWithoutMethod);
const designB = withPin({
  ...timingWithoutMethod,
  method: "trials" as const,
  trials: timing.trials ?? 5,
  minIterations: timing.minIterations ?? 20,
  targetTrialMs: trialMs,
  ...(quick ? { warmupMs: 5 } : {}),
});

// -------------------------------------------------------- reference builds

const work = mkdtempSync(join(tmpdir(), "ngcc-bench-precision-"));
const WARNINGS = ["-Wall", "-Wextra", "-Wpedantic", "-Werror", "-Wmissing-prototypes", "-Wredundant-decls"];

/** One build of the reference: speed.c and the scheme in one code layout. */
interface ReferenceLayout {
  /** -DSPEED_PAD: the scheme's code starts this many bytes past a 64-byte boundary; null: the plain build. */
  padBytes: number | null;
  binary: string;
  argv: string[];
}

interface Reference {
  algorithmId: string;
  instance: string;
  category: "kem" | "sign";
  /** One build per layout of LAYOUT_PADS, each in its own folder. */
  layouts: ReferenceLayout[];
}

const cFiles = (dir: string): string[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".c"))
    .sort()
    .map((f) => join(dir, f));
const globRegExp = (g: string): RegExp =>
  new RegExp(
    `^${g
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")
      .replace(/\?/g, ".")}$`,
  );

function category(apiText: string): "kem" | "sign" | null {
  if (/CRYPTO_KEX_PASSES\b/.test(apiText)) return null;
  if (/CRYPTO_CIPHERTEXTBYTES\b/.test(apiText)) return "kem";
  if (/crypto_sign/.test(apiText)) return "sign";
  return null;
}

function buildReference(
  algorithmId: string,
  instance: string,
  apiDir: string,
  sources: string[],
  includeDirs: string[],
  defines: string[],
): Reference | null {
  const api = readFileSync(join(apiDir, "api.h"), "utf8");
  const cat = category(api);
  if (cat === null) {
    console.error(`precision: ${algorithmId}/${instance}: not a KEM or signature API, skipped`);
    return null;
  }
  const namespace = /#define\s+([A-Za-z0-9_]*?)CRYPTO_SECRETKEYBYTES\b/.exec(api)?.[1] ?? "";
  const lenType = /\bsize_t\s*\*\s*smlen\b/.test(api) ? "size_t" : "unsigned long long";
  const layouts = LAYOUT_PADS.map((padBytes): ReferenceLayout => {
    const dir = join(work, "reference", algorithmId, instance, padBytes === null ? "plain" : `pad-${padBytes}`);
    mkdirSync(dir, { recursive: true });
    const binary = join(dir, "speed");
    const argv = [
      "-std=c99",
      ...WARNINGS,
      ...profile.cflags,
      cat === "kem" ? "-DSPEED_KEM" : "-DSPEED_SIGN",
      `-DSPEED_NAMESPACE=${namespace}`,
      `-DSPEED_LEN_T=${lenType}`,
      ...(padBytes === null ? [] : [`-DSPEED_PAD=${padBytes}`]),
      ...defines.map((d) => (d.startsWith("-") ? d : `-D${d}`)),
      `-I${apiDir}`,
      ...includeDirs.map((d) => `-I${d}`),
      speedSource, // first on the link line: its pad moves everything after it
      ...sources,
      "-o",
      binary,
      ...(profile.ldflags ?? []),
    ];
    const r = spawnSync(cc, argv, { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${cc} ${argv.join(" ")}\n${r.stderr}`);
    return { padBytes, binary, argv: [cc, ...argv] };
  });
  return { algorithmId, instance, category: cat, layouts };
}

function pqcleanTree(rootOption: string | undefined): string {
  if (rootOption !== undefined) return abs(rootOption);
  for (const base of [campaignDir, root]) {
    let d = base;
    for (;;) {
      const p = join(d, "node_modules/pqclean/deps/PQClean");
      if (existsSync(p)) return p;
      const up = dirname(d);
      if (up === d) break;
      d = up;
    }
  }
  throw new Error("the pqclean npm package is not installed");
}

interface MetaInstance {
  name: string;
  apiHeader?: string;
  folder?: string;
  sources: string[];
  includeDirs?: string[];
  defines?: string[];
}

const references: Reference[] = [];
for (const a of algorithms) {
  const s = a.source as { pqclean?: string; implementation?: string; root?: string; submission?: string };
  if (s.pqclean !== undefined) {
    const tree = pqcleanTree(s.root);
    const impl = s.implementation ?? "clean";
    const dir = [join(tree, "crypto_kem", s.pqclean, impl), join(tree, "crypto_sign", s.pqclean, impl)].find((d) =>
      existsSync(d),
    );
    if (dir === undefined) throw new Error(`${a.id}: PQClean scheme ${s.pqclean} (${impl}) not found in ${tree}`);
    const common = join(tree, "common");
    const instance = a.instances?.[0] && !/[*?]/.test(a.instances[0]) ? a.instances[0] : s.pqclean;
    const ref = buildReference(a.id, instance, dir, [...cFiles(dir), ...cFiles(common)], [dir, common], []);
    if (ref) references.push(ref);
  } else if (s.submission !== undefined) {
    const dir = abs(s.submission);
    const meta = JSON.parse(readFileSync(join(dir, "meta.json"), "utf8")) as { instances: MetaInstance[] };
    const iccs = campaign.iccs ? abs(campaign.iccs.dir) : null;
    for (const m of meta.instances) {
      if (a.instances && !a.instances.some((g) => globRegExp(g).test(m.name))) continue;
      const apiDir = resolve(dir, m.apiHeader ? dirname(m.apiHeader) : (m.folder ?? "."));
      const ref = buildReference(
        a.id,
        m.name,
        apiDir,
        [...m.sources.map((f) => resolve(dir, f)), ...(iccs ? cFiles(iccs) : [])],
        [...(m.includeDirs ?? []).map((d) => resolve(dir, d)), ...(iccs ? [iccs] : [])],
        m.defines ?? [],
      );
      if (ref) references.push(ref);
    }
  }
}

// ------------------------------------------------------------------ runs

interface DesignRun {
  exitCode: number | null;
  wallMs: number;
  stderrTail: string;
  environment: EnvironmentRecord | null;
  records: TimingRecord[];
}

interface ReferenceOp {
  op: string;
  calls: number;
  medianNs: number;
  meanNs: number;
  p5Ns: number;
  p25Ns: number;
  p75Ns: number;
  p95Ns: number;
  minNs: number;
  maxNs: number;
  warmupCalls: number;
  samplingMs: number;
  counterHz: number;
  overheadTicks: number;
  /** Adds of the core-clock probe after every call (0: no probe). */
  clockAdds: number;
  /** Median probe, counter ticks (overhead not subtracted); null without a probe. */
  probeMedianTicks: number | null;
  /** Estimated core cycles: ticks × adds ÷ (median probe − overhead); null without an estimate. */
  medianCycles: number | null;
  meanCycles: number | null;
  /** The core clock while the operation ran, Hz; null without an estimate. */
  coreHz: number | null;
  /** The binary's -DSPEED_PAD (null: none) and where its keygen function landed, address modulo 64. */
  padBytes: number | null;
  codeOffset: number | null;
}

interface ReferenceRun {
  algorithmId: string;
  instance: string;
  /** The layout this process ran (-DSPEED_PAD; null: the plain build) and its keygen function's offset mod 64. */
  padBytes: number | null;
  codeOffset: number | null;
  argv: string[];
  pinnedCpu: number | null;
  wallMs: number;
  ops: ReferenceOp[];
}

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith(".json") ? [join(dir, e.name)] : [],
  );
}

const cliHelp = spawnSync(process.execPath, [cli, "time", "--help"], { encoding: "utf8" });
const cliKnowsQuick = /--quick\b/.test(`${cliHelp.stdout}${cliHelp.stderr}`);

function runDesign(name: string, file: string, out: string): DesignRun {
  rmSync(join(out, "data"), { recursive: true, force: true }); // keep out/build: the build cache
  const argv = [cli, "time", file, "--out", out, ...(quick && cliKnowsQuick && name === "a" ? ["--quick"] : [])];
  const t0 = performance.now();
  const r = spawnSync(process.execPath, argv, { encoding: "utf8", maxBuffer: 64 << 20 });
  const wallMs = performance.now() - t0;
  const records: TimingRecord[] = [];
  let environment: EnvironmentRecord | null = null;
  const data = join(out, "data");
  for (const system of existsSync(data) ? readdirSync(data) : []) {
    const env = join(data, system, "environment.json");
    if (existsSync(env)) environment = JSON.parse(readFileSync(env, "utf8")) as EnvironmentRecord;
    for (const f of walk(join(data, system, "records"))) {
      const rec = JSON.parse(readFileSync(f, "utf8")) as TimingRecord;
      if (rec.kind === "timing" && rec.buildProfile === profileName) records.push(rec);
    }
  }
  if (r.status !== 0) console.error(`precision: design ${name}: ngcc-perf time exited ${r.status}\n${r.stderr}`);
  return { exitCode: r.status, wallMs, stderrTail: (r.stderr ?? "").slice(-2000), environment, records };
}

function parseReference(stdout: string): ReferenceOp[] {
  return stdout
    .split("\n")
    .filter((l) => l.startsWith("op="))
    .map((line) => {
      const kv = new Map(line.split(/\s+/).map((w) => w.split("=", 2) as [string, string]));
      const n = (k: string): number => Number(kv.get(k));
      const opt = (k: string): number | null => {
        const v = Number(kv.get(k));
        return kv.has(k) && Number.isFinite(v) ? v : null;
      };
      return {
        op: kv.get("op") ?? "?",
        calls: n("calls"),
        medianNs: n("median_ns"),
        meanNs: n("mean_ns"),
        p5Ns: n("p5_ns"),
        p25Ns: n("p25_ns"),
        p75Ns: n("p75_ns"),
        p95Ns: n("p95_ns"),
        minNs: n("min_ns"),
        maxNs: n("max_ns"),
        warmupCalls: n("warmup_calls"),
        samplingMs: n("sampling_ms"),
        counterHz: n("counter_hz"),
        overheadTicks: n("overhead_ticks"),
        clockAdds: opt("clock_adds") ?? 0,
        probeMedianTicks: opt("probe_median_ticks"),
        medianCycles: opt("median_cycles"),
        meanCycles: opt("mean_cycles"),
        coreHz: opt("core_hz"),
        padBytes: (opt("pad_bytes") ?? -1) >= 0 ? opt("pad_bytes") : null,
        codeOffset: opt("code_offset"),
      };
    });
}

function runReference(ref: Reference, layout: ReferenceLayout, round: number, pin: number | null): ReferenceRun {
  const speedArgs = [
    ...["-n", String(calls), "-w", String(refWarmupMs), "-k", String(keyPairs), "-p", String(inputPool)],
    ...["-m", String(messageBytes), "-s", String(round), "-c", String(clockAdds)],
  ];
  const [cmd, argv] =
    pin === null ? [layout.binary, speedArgs] : ["taskset", ["-c", String(pin), layout.binary, ...speedArgs]];
  const t0 = performance.now();
  const r = spawnSync(cmd, argv, { encoding: "utf8" });
  const wallMs = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(" ")} exited ${r.status}: ${r.stderr}`);
  const ops = parseReference(r.stdout);
  if (ops.some((o) => o.padBytes !== layout.padBytes)) {
    throw new Error(`${layout.binary}: built with pad ${layout.padBytes}, says pad ${ops[0]?.padBytes}`);
  }
  return {
    algorithmId: ref.algorithmId,
    instance: ref.instance,
    padBytes: layout.padBytes,
    codeOffset: ops[0]?.codeOffset ?? null,
    argv: [cmd, ...argv],
    pinnedCpu: pin,
    wallMs,
    ops,
  };
}

const fileA = join(work, "campaign-a.json");
const fileB = join(work, "campaign-b.json");
writeFileSync(fileA, `${JSON.stringify(variant(designA), null, 2)}\n`);
writeFileSync(fileB, `${JSON.stringify(variant(designB), null, 2)}\n`);

const startedAt = new Date().toISOString();
const loadStart = loadavg()[0] ?? 0;
interface Round {
  round: number;
  a: DesignRun;
  b: DesignRun;
  c: ReferenceRun[];
}
const rounds: Round[] = [];
for (let round = 1; round <= runs; round++) {
  console.error(`precision: run ${round}/${runs}: a (default method)`);
  const a = runDesign("a", fileA, join(work, "out-a"));
  console.error(`precision: run ${round}/${runs}: b (trials, ${trialMs} ms)`);
  const b = runDesign("b", fileB, join(work, "out-b"));
  console.error(
    `precision: run ${round}/${runs}: c (reference${LAYOUT_PADS.length > 1 ? `, ${LAYOUT_PADS.length} layouts` : ""})`,
  );
  const c = references.flatMap((ref) => {
    const rec = a.records.find((x) => x.algorithmId === ref.algorithmId && x.instance === ref.instance);
    const pin =
      pinFixed !== undefined ? pinFixed : (rec?.sampling?.pinnedCpu ?? a.environment?.processor.pinnedCpu ?? null);
    // every layout, one process each; run r starts at layout (r − 1) mod L, so no layout always runs first
    const n = ref.layouts.length;
    return ref.layouts.map((_, i) => {
      const layout = ref.layouts[(i + round - 1) % n] as ReferenceLayout;
      return runReference(ref, layout, round, pin);
    });
  });
  rounds.push({ round, a, b, c });
}
const loadEnd = loadavg()[0] ?? 0;

// -------------------------------------------------------------- analysis

type Statistic = "median" | "mean" | "median-trial";

interface DesignFigure {
  valueNs: number;
  statistic: Statistic;
  method: "per-call" | "trials";
  samplingMs: number;
  driverProcessMs: number;
  trialsPlusWarmupMs: number | null;
  relativeHalfWidth: number | null;
  stoppedBy: string | null;
  /** central.cycles.value: estimated core cycles per call, same statistic; null when the record has none. */
  cycles: number | null;
  cyclesHalfWidth: number | null;
  /** distribution.coreClock: the slowest and fastest worker's core clock, Hz. */
  coreMinHz: number | null;
  coreMaxHz: number | null;
  /** sampling.target.figure: what the stopping rule's target applied to. */
  targetFigure: "cycles" | "time" | null;
  /** sampling.layouts.padBytes: the code layouts a's workers rotated over; null when the record has none. */
  layoutPads: number[] | null;
}

function figure(rec: TimingRecord | undefined): DesignFigure | null {
  if (rec?.status !== "ok") return null;
  const method = rec.method ?? "trials";
  const driverProcessMs = (rec.commands ?? [])
    .filter((c) => c.argv[1] === "time" || c.argv[1] === "sample")
    .reduce((s, c) => s + c.durationMs, 0);
  const trialsNs = (rec.trials ?? []).reduce((s, t) => s + t.ns, 0);
  const trialsPlusWarmupMs = rec.trials ? (trialsNs + (rec.calibration?.warmupNs ?? 0)) / 1e6 : null;
  const valueNs = rec.central?.valueNs ?? rec.aggregates?.medianTrialNs;
  if (valueNs === undefined) return null;
  return {
    valueNs,
    statistic: rec.central ? rec.central.statistic : "median-trial",
    method,
    samplingMs: rec.sampling?.elapsedMs ?? (driverProcessMs || (trialsPlusWarmupMs ?? Number.NaN)),
    driverProcessMs,
    trialsPlusWarmupMs,
    relativeHalfWidth: rec.central?.relativeHalfWidth ?? null,
    stoppedBy: rec.sampling?.stoppedBy ?? null,
    cycles: rec.central?.cycles?.value ?? null,
    cyclesHalfWidth: rec.central?.cycles?.relativeHalfWidth ?? null,
    coreMinHz: rec.distribution?.coreClock?.minHz ?? null,
    coreMaxHz: rec.distribution?.coreClock?.maxHz ?? null,
    targetFigure: rec.sampling ? (rec.sampling.target.figure ?? "time") : null,
    layoutPads: (rec.sampling as { layouts?: { padBytes?: number[] } } | undefined)?.layouts?.padBytes ?? null,
  };
}

const median = (xs: number[]): number => {
  const s = xs.filter(Number.isFinite).sort((x, y) => x - y);
  if (s.length === 0) return Number.NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? Number.NaN) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};
const spread = (xs: number[]): number => {
  const s = xs.filter(Number.isFinite);
  return s.length < 2 ? Number.NaN : Math.max(...s) / Math.min(...s) - 1;
};
const finite = (xs: Array<number | null | undefined>): number[] =>
  xs.filter((x): x is number => typeof x === "number" && Number.isFinite(x));

/** One layout's figures of an operation in one run (one speed process). */
interface ReferenceLayoutFigure {
  padBytes: number | null;
  codeOffset: number | null;
  medianNs: number;
  meanNs: number;
  medianCycles: number | null;
  meanCycles: number | null;
  samplingMs: number;
  coreHz: number | null;
}

/** The reference's figures of an operation in one run: the mean over its layouts of each process's figure. */
interface ReferenceFigure {
  medianNs: number;
  meanNs: number;
  /** null unless every layout gave cycles. */
  medianCycles: number | null;
  meanCycles: number | null;
  /** Warm-up plus calls, summed over the layouts. */
  samplingMs: number;
  /** The core clock range over the layouts' processes. */
  coreMinHz: number | null;
  coreMaxHz: number | null;
  layouts: ReferenceLayoutFigure[];
}

const meanOf = (xs: number[]): number => xs.reduce((t, x) => t + x, 0) / xs.length;
const meanOrNull = (xs: Array<number | null>): number | null =>
  xs.length > 0 && xs.every((x) => x !== null) ? meanOf(xs as number[]) : null;

/** The layout-mean figure of one operation from the processes of one run; null unless every layout gave it. */
function referenceFigure(runsOfInstance: ReferenceRun[], operation: string): ReferenceFigure | null {
  const layouts = runsOfInstance
    .flatMap((run) => {
      const o = run.ops.find((x) => x.op === operation);
      return o === undefined
        ? []
        : [
            {
              padBytes: run.padBytes,
              codeOffset: run.codeOffset,
              medianNs: o.medianNs,
              meanNs: o.meanNs,
              medianCycles: o.medianCycles,
              meanCycles: o.meanCycles,
              samplingMs: o.samplingMs,
              coreHz: o.coreHz,
            },
          ];
    })
    .sort((x, y) => (x.padBytes ?? -1) - (y.padBytes ?? -1));
  if (layouts.length === 0 || layouts.length !== LAYOUT_PADS.length) return null;
  const hz = finite(layouts.map((l) => l.coreHz));
  return {
    medianNs: meanOf(layouts.map((l) => l.medianNs)),
    meanNs: meanOf(layouts.map((l) => l.meanNs)),
    medianCycles: meanOrNull(layouts.map((l) => l.medianCycles)),
    meanCycles: meanOrNull(layouts.map((l) => l.meanCycles)),
    samplingMs: layouts.reduce((t, l) => t + l.samplingMs, 0),
    coreMinHz: hz.length ? Math.min(...hz) : null,
    coreMaxHz: hz.length ? Math.max(...hz) : null,
    layouts,
  };
}

type RefFigures = Pick<ReferenceLayoutFigure, "medianNs" | "meanNs" | "medianCycles" | "meanCycles">;
const refValue = (op: RefFigures | null | undefined, stat: Statistic): number =>
  op === null || op === undefined ? Number.NaN : stat === "mean" ? op.meanNs : op.medianNs;
const refCycles = (op: RefFigures | null | undefined, stat: Statistic): number =>
  (op === null || op === undefined ? null : stat === "mean" ? op.meanCycles : op.medianCycles) ?? Number.NaN;
/** The range [min, max] of some values, or nulls when there are none. */
const range = (lows: Array<number | null | undefined>, highs: Array<number | null | undefined>) => {
  const lo = finite(lows);
  const hi = finite(highs);
  return {
    minHz: lo.length ? Math.min(...lo) : null,
    maxHz: hi.length ? Math.max(...hi) : null,
  };
};

interface OperationSummary {
  key: string;
  algorithmId: string;
  instance: string;
  operation: string;
  perRun: Array<{
    round: number;
    a: DesignFigure | null;
    b: DesignFigure | null;
    /** The layout-mean reference of the run, with each layout's figures. */
    reference: ReferenceFigure | null;
    ratioA: number;
    ratioB: number;
    cyclesRatioA: number;
  }>;
  a: { statistic: string; ratio: number; spread: number; samplingMs: number; method: string; halfWidth: number };
  b: { statistic: string; ratio: number; spread: number; samplingMs: number; method: string; halfWidth: number };
  reference: {
    comparedWithA: string;
    valueNs: number;
    spreadMedian: number;
    spreadMean: number;
    samplingMs: number;
    /** The layouts' pads (null: the plain build). */
    padBytes: Array<number | null>;
    /** Spread between the layouts (max/min − 1 of the layout figures, comparedWithA's statistic), median over runs. */
    layoutSpread: number;
    /** Each layout's figures, median over the runs. */
    layouts: Array<{ padBytes: number | null; codeOffset: number | null; valueNs: number; valueCycles: number }>;
  };
  /** The same comparison in estimated core cycles (a: per-call records with central.cycles; the reference's probe). */
  cycles: {
    a: {
      valueCycles: number;
      ratio: number;
      spread: number;
      halfWidth: number;
      targetFigure: string;
      coreClock: { minHz: number | null; maxHz: number | null };
    };
    reference: {
      valueCycles: number;
      spreadMedian: number;
      spreadMean: number;
      /** As reference.layoutSpread, in cycles. */
      layoutSpread: number;
      coreClock: { minHz: number | null; maxHz: number | null };
    };
  };
}

const summaries: OperationSummary[] = [];
for (const ref of references) {
  const opNames = ref.category === "kem" ? ["keygen", "enc", "dec"] : ["keygen", "sign", "verify"];
  for (const operation of opNames) {
    const find = (d: DesignRun) =>
      d.records.find(
        (r) => r.algorithmId === ref.algorithmId && r.instance === ref.instance && r.operation === operation,
      );
    const perRun = rounds.map((r) => {
      const a = figure(find(r.a));
      const b = figure(find(r.b));
      const reference = referenceFigure(
        r.c.filter((c) => c.algorithmId === ref.algorithmId && c.instance === ref.instance),
        operation,
      );
      const ratio = (f: DesignFigure | null): number =>
        f === null || reference === null ? Number.NaN : f.valueNs / refValue(reference, f.statistic);
      const cyclesRatioA =
        a?.cycles === null || a?.cycles === undefined ? Number.NaN : a.cycles / refCycles(reference, a.statistic);
      return { round: r.round, a, b, reference, ratioA: ratio(a), ratioB: ratio(b), cyclesRatioA };
    });
    const label = (fs: Array<DesignFigure | null>, pick: (f: DesignFigure) => string): string => {
      const seen = [...new Set(fs.flatMap((f) => (f ? [pick(f)] : [])))];
      return seen.length === 0 ? "–" : seen.length === 1 ? (seen[0] ?? "–") : "mixed";
    };
    const design = (fs: Array<DesignFigure | null>, ratios: number[]) => ({
      statistic: label(fs, (f) => f.statistic),
      method: label(fs, (f) => f.method),
      ratio: median(ratios),
      spread: spread(fs.map((f) => f?.valueNs ?? Number.NaN)),
      samplingMs: median(fs.map((f) => f?.samplingMs ?? Number.NaN)),
      halfWidth: median(fs.map((f) => f?.relativeHalfWidth ?? Number.NaN)),
    });
    const as = perRun.map((p) => p.a);
    const meanCount = as.filter((f) => f?.statistic === "mean").length;
    const comparedWithA: Statistic = meanCount > as.length / 2 ? "mean" : "median";
    const refs = perRun.map((p) => p.reference);
    summaries.push({
      key: `${ref.algorithmId}/${ref.instance} ${operation}`,
      algorithmId: ref.algorithmId,
      instance: ref.instance,
      operation,
      perRun,
      a: design(
        as,
        perRun.map((p) => p.ratioA),
      ),
      b: design(
        perRun.map((p) => p.b),
        perRun.map((p) => p.ratioB),
      ),
      reference: {
        comparedWithA,
        valueNs: median(refs.map((o) => (o ? refValue(o, comparedWithA) : Number.NaN))),
        spreadMedian: spread(refs.map((o) => o?.medianNs ?? Number.NaN)),
        spreadMean: spread(refs.map((o) => o?.meanNs ?? Number.NaN)),
        samplingMs: median(refs.map((o) => o?.samplingMs ?? Number.NaN)),
        padBytes: ref.layouts.map((l) => l.padBytes),
        layoutSpread: median(
          refs.map((o) => (o ? spread(o.layouts.map((l) => refValue(l, comparedWithA))) : Number.NaN)),
        ),
        layouts: ref.layouts.map((l) => {
          const mine = refs.map((o) => o?.layouts.find((x) => x.padBytes === l.padBytes));
          return {
            padBytes: l.padBytes,
            codeOffset: mine.find((x) => x !== undefined)?.codeOffset ?? null,
            valueNs: median(mine.map((x) => refValue(x, comparedWithA))),
            valueCycles: median(mine.map((x) => refCycles(x, comparedWithA))),
          };
        }),
      },
      cycles: {
        a: {
          valueCycles: median(as.map((f) => f?.cycles ?? Number.NaN)),
          ratio: median(perRun.map((p) => p.cyclesRatioA)),
          spread: spread(as.map((f) => f?.cycles ?? Number.NaN)),
          halfWidth: median(as.map((f) => f?.cyclesHalfWidth ?? Number.NaN)),
          targetFigure: label(as, (f) => f.targetFigure ?? "–"),
          coreClock: range(
            as.map((f) => f?.coreMinHz),
            as.map((f) => f?.coreMaxHz),
          ),
        },
        reference: {
          valueCycles: median(refs.map((o) => refCycles(o, comparedWithA))),
          spreadMedian: spread(refs.map((o) => o?.medianCycles ?? Number.NaN)),
          spreadMean: spread(refs.map((o) => o?.meanCycles ?? Number.NaN)),
          layoutSpread: median(
            refs.map((o) => (o ? spread(o.layouts.map((l) => refCycles(l, comparedWithA))) : Number.NaN)),
          ),
          coreClock: range(
            refs.map((o) => o?.coreMinHz),
            refs.map((o) => o?.coreMaxHz),
          ),
        },
      },
    });
  }
}

// ---------------------------------------------------------------- output

const pct = (x: number): string => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : "–");
const fix = (x: number, d: number): string => (Number.isFinite(x) ? x.toFixed(d) : "–");
const ratioCell = (x: number): string =>
  `${fix(x, 3)}${Number.isFinite(x) && (x < TARGET_RATIO[0] || x > TARGET_RATIO[1]) ? " !" : ""}`;
const spreadCell = (x: number): string => `${pct(x)}${Number.isFinite(x) && x > TARGET_SPREAD ? " !" : ""}`;
const statShort = (s: string): string => (s === "median-trial" ? "trial" : s === "median" ? "med" : s);

const firstEnv = rounds.find((r) => r.a.environment)?.a.environment ?? null;
const methodsA = [...new Set(summaries.map((s) => s.a.method))].join("/");
const refHz = median(rounds.flatMap((r) => r.c.flatMap((c) => c.ops.map((o) => o.counterHz))));
const envHz = firstEnv?.counter.rateHz ?? Number.NaN;
const refPins = [...new Set(rounds.flatMap((r) => r.c.map((c) => c.pinnedCpu)))];
const aPins = [
  ...new Set(
    rounds.flatMap((r) => r.a.records.map((x) => x.sampling?.pinnedCpu ?? r.a.environment?.processor.pinnedCpu)),
  ),
];
const flags = [...profile.cflags, ...(profile.ldflags ?? [])].join(" ");
const padList = (pads: Array<number | null>): string => pads.map((p) => p ?? "plain").join("/");
const aLayouts = [
  ...new Set(summaries.flatMap((s) => s.perRun.map((p) => (p.a?.layoutPads ? p.a.layoutPads.join("/") : "none")))),
];
// where the scheme's code landed in each reference build: its keygen function's address modulo 64, per instance
const offsets = references.map((ref) => {
  const seen = ref.layouts.map((l) => {
    const run = rounds
      .flatMap((r) => r.c)
      .find((c) => c.algorithmId === ref.algorithmId && c.instance === ref.instance && c.padBytes === l.padBytes);
    return run?.codeOffset ?? null;
  });
  // each layout's code must sit its pad (less the first layout's) past the first layout's, modulo 64
  const o0 = seen[0];
  const p0 = ref.layouts[0]?.padBytes ?? 0;
  const shifted =
    typeof o0 === "number" &&
    ref.layouts.every((l, i) => {
      const o = seen[i];
      return l.padBytes === null || (typeof o === "number" && (o - o0 - (l.padBytes - p0) + 128) % 64 === 0);
    });
  return { key: `${ref.algorithmId}/${ref.instance}`, seen, shifted };
});
const layoutLine =
  LAYOUT_PADS.length > 1
    ? `     built in ${LAYOUT_PADS.length} code layouts (--layouts 4): -DSPEED_PAD=${padList(LAYOUT_PADS)} (the scheme's code that many bytes past a 64-byte boundary), one binary each, every one run in every run (one process each); the reference figure of a run is the mean over the layouts of each process's median (or mean); keygen function at ${offsets.map((o) => `${o.key} +${o.seen.map((x) => x ?? "?").join("/+")}`).join(", ")} mod 64${offsets.every((o) => o.shifted) ? " (each moved by its pad)" : " (! not moved by the pads as asked)"}`
    : `     one plain build (--layouts 1: no pad, the single binary a submitter builds); keygen function at ${offsets.map((o) => `${o.key} +${o.seen[0] ?? "?"}`).join(", ")} mod 64`;
const lines: string[] = [];
lines.push(
  `precision bench (issue 13): ${runs} run(s), a, b, c alternating in each; ${relative(root, campaignFile)}, profile ${profileName} (${flags})${quick ? "; QUICK smoke run: the figures mean nothing" : ""}`,
);
lines.push(
  `  a  ngcc-perf time, default method; records seen: ${methodsA}${methodsA === "trials" ? " (the per-call method is not in this build: a measures what b does)" : ""}; code layouts (sampling.layouts.padBytes): ${aLayouts.join(", ")}`,
);
lines.push(
  `  b  ngcc-perf time, timing.method trials: ${designB.trials} trials × calibrated iterations (≥ ${designB.minIterations}), targetTrialMs ${trialMs}, warm-up ${designB.warmupMs ?? timing.warmupMs ?? 50} ms`,
);
lines.push(
  `  c  reference bench/reference/speed.c, linked with the scheme's sources in one ${cc} command (no shared object): ${calls} single calls per operation after a ${refWarmupMs} ms warm-up, rdtsc; ${keyPairs} key pairs, pool of ${inputPool}, fresh ${messageBytes}-byte messages`,
);
lines.push(layoutLine);
lines.push(
  `machine: ${hostname()}, ${cpus().length} CPUs${firstEnv?.processor.hypervisor ? ", VM" : ""}, load average ${loadStart.toFixed(2)} at start, ${loadEnd.toFixed(2)} at end; ngcc-perf pinned to ${aPins.map((p) => p ?? "none").join("/")}, reference to ${refPins.map((p) => p ?? "none").join("/")}`,
);
lines.push(
  `TSC rate: reference ${fix(refHz / 1e9, 6)} GHz (against CLOCK_MONOTONIC), ngcc-perf environment ${fix(envHz / 1e9, 6)} GHz (${fix((refHz / envHz - 1) * 1e6, 0)} ppm)`,
);
lines.push(
  `targets: ratio to the reference within [${TARGET_RATIO[0]}, ${TARGET_RATIO[1]}], run-to-run spread (max/min − 1) ≤ ${pct(TARGET_SPREAD)}; "!" marks a miss`,
);
lines.push(
  `ratio: median over the runs of ngcc-perf's central figure ÷ the reference's ${LAYOUT_PADS.length > 1 ? "layout-mean " : ""}median of the same run (its mean where a's central statistic is mean); spread: run to run${LAYOUT_PADS.length > 1 ? ", of the layout-mean reference" : ""}; ms/op: sampling time per operation (per-call: sampling.elapsedMs; trials: the driver's time process; ref: warm-up and calls${LAYOUT_PADS.length > 1 ? ", total over the layouts" : ""}); ± a: the 95 % interval of a's central figure (per-call records only)`,
);
lines.push("");
const header = [
  "operation".padEnd(26),
  "a stat".padEnd(6),
  "ref".padStart(5),
  "ref µs".padStart(9),
  "± a".padStart(7),
  "ratio a".padStart(9),
  "ratio b".padStart(9),
  "spread a".padStart(9),
  "spread b".padStart(9),
  "ref med".padStart(9),
  "ref mean".padStart(9),
  "ms/op a".padStart(8),
  "ms/op b".padStart(8),
  "ms/op ref".padStart(9),
];
lines.push(header.join(" "));
for (const s of summaries) {
  lines.push(
    [
      `${s.algorithmId} ${s.operation}`.padEnd(26),
      statShort(s.a.statistic).padEnd(6),
      statShort(s.reference.comparedWithA).padStart(5),
      fix(s.reference.valueNs / 1e3, 1).padStart(9),
      (Number.isFinite(s.a.halfWidth) ? `±${pct(s.a.halfWidth)}` : "–").padStart(7),
      ratioCell(s.a.ratio).padStart(9),
      ratioCell(s.b.ratio).padStart(9),
      spreadCell(s.a.spread).padStart(9),
      spreadCell(s.b.spread).padStart(9),
      spreadCell(s.reference.spreadMedian).padStart(9),
      spreadCell(s.reference.spreadMean).padStart(9),
      fix(s.a.samplingMs, 0).padStart(8),
      fix(s.b.samplingMs, 0).padStart(8),
      fix(s.reference.samplingMs, 0).padStart(9),
    ].join(" "),
  );
}
lines.push("");
lines.push(
  `estimated core cycles (the same comparison in cycles): a's central.cycles.value (the driver's add-chain probe; a's stopping target applied to: ${[...new Set(summaries.map((s) => s.cycles.a.targetFigure))].join("/")}) ÷ the reference's ${LAYOUT_PADS.length > 1 ? "layout-mean " : ""}median_cycles (mean_cycles where a's statistic is mean), ${clockAdds > 0 ? `the reference probing a chain of ${clockAdds} adds after every call` : "the reference's probe off (--clock-adds 0)"}; cycles = time × the core clock, which assumes one add per cycle; GHz: core clock range over the runs (min–max); layout: spread between the reference's layouts (max/min − 1 of the layout figures, median over the runs; no target)`,
);
const ghz = (c: { minHz: number | null; maxHz: number | null }): string =>
  c.minHz === null || c.maxHz === null ? "–" : `${fix(c.minHz / 1e9, 2)}–${fix(c.maxHz / 1e9, 2)}`;
lines.push(
  [
    "operation".padEnd(26),
    "a stat".padEnd(6),
    "ref".padStart(5),
    "ref kcyc".padStart(9),
    "a kcyc".padStart(9),
    "± a".padStart(7),
    "ratio a".padStart(9),
    "spread a".padStart(9),
    "ref med".padStart(9),
    "ref mean".padStart(9),
    "layout".padStart(7),
    "GHz a".padStart(10),
    "GHz ref".padStart(10),
  ].join(" "),
);
for (const s of summaries) {
  const c = s.cycles;
  lines.push(
    [
      `${s.algorithmId} ${s.operation}`.padEnd(26),
      statShort(s.a.statistic).padEnd(6),
      statShort(s.reference.comparedWithA).padStart(5),
      fix(c.reference.valueCycles / 1e3, 1).padStart(9),
      fix(c.a.valueCycles / 1e3, 1).padStart(9),
      (Number.isFinite(c.a.halfWidth) ? `±${pct(c.a.halfWidth)}` : "–").padStart(7),
      ratioCell(c.a.ratio).padStart(9),
      spreadCell(c.a.spread).padStart(9),
      spreadCell(c.reference.spreadMedian).padStart(9),
      spreadCell(c.reference.spreadMean).padStart(9),
      pct(c.reference.layoutSpread).padStart(7),
      ghz(c.a.coreClock).padStart(10),
      ghz(c.reference.coreClock).padStart(10),
    ].join(" "),
  );
}
const failures = rounds.flatMap((r) =>
  (["a", "b"] as const).flatMap((d) =>
    r[d].exitCode === 0 ? [] : [`run ${r.round} design ${d}: ngcc-perf time exited ${r[d].exitCode}`],
  ),
);
if (failures.length > 0) lines.push("", ...failures);
console.log(lines.join("\n"));

if (jsonFile !== undefined) {
  const out = {
    bench: "precision",
    startedAt,
    finishedAt: new Date().toISOString(),
    quick,
    runs,
    campaign: relative(root, campaignFile),
    profile: { name: profileName, ...profile },
    targets: { ratio: TARGET_RATIO, spread: TARGET_SPREAD, cycles: { ratio: TARGET_RATIO, spread: TARGET_SPREAD } },
    machine: { hostname: hostname(), cpus: cpus().length, loadAverage: { start: loadStart, end: loadEnd } },
    designs: {
      a: { timing: designA, cliQuick: quick && cliKnowsQuick },
      b: { timing: designB },
      c: {
        calls,
        warmupMs: refWarmupMs,
        keyPairs,
        inputPool,
        messageBytes,
        clockAdds,
        layouts: { padBytes: LAYOUT_PADS, codeOffsets: offsets },
        builds: references,
      },
    },
    environment: firstEnv,
    operations: summaries,
    rounds: rounds.map((r) => ({
      round: r.round,
      a: { exitCode: r.a.exitCode, wallMs: r.a.wallMs, stderrTail: r.a.exitCode === 0 ? undefined : r.a.stderrTail },
      b: { exitCode: r.b.exitCode, wallMs: r.b.wallMs, stderrTail: r.b.exitCode === 0 ? undefined : r.b.stderrTail },
      c: r.c,
    })),
    table: lines,
  };
  mkdirSync(dirname(resolve(jsonFile)), { recursive: true });
  writeFileSync(jsonFile, `${JSON.stringify(out, null, 2)}\n`);
  console.error(`precision: raw figures in ${jsonFile}`);
}

if (keep) console.error(`precision: work folder kept: ${work}`);
else rmSync(work, { recursive: true, force: true });
