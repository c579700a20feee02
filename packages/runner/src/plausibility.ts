// What the timing driver printed, checked on the runner's side (docs/methodology.md, Plausibility). The driver runs
// in one process with the submission's code, so its JSON is what that process wrote: first its shape is checked
// against what the driver prints for the arguments the runner gave (counts, settings echoed, units) — output that
// is not is refused; then its figures are cross-checked against what the process cannot touch: the runner's own
// clock over the process, the duration the runner asked for, and the driver's second clock. A figure that fails
// a cross-check is published flagged, never as if valid.
import { type PlausibilityCheck, plausibilityOf, type TimingRecord } from "@ngcc-perf/schema";
import { median, perCallNs } from "@ngcc-perf/stats";
import { type DriverMemory, DriverOutputError, type DriverSample, type DriverTime } from "./driver.ts";
import { coreClockHz } from "./samples.ts";

/** The driver's defaults (ngcc_driver.c, ngcc_parse) for options the runner may leave out. */
const SAMPLE_DEFAULTS = { "--warmup-ns": 20e6, "--min-samples": 31, "--max-samples": 50000, "--keys": 4, "--pool": 64 };
const TIME_DEFAULTS = { "--trials": 5, "--min-iterations": 20, "--max-iterations": 1e6, "--target-ns": 1e8 };
const COUNTER_UNITS = ["tsc-ticks", "core-cycles", "instructions", "timer-ticks", "ns"];

/**
 * Samples of a worker that add up to less than this share of the duration the runner asked for (--sample-ns),
 * when their count is below --max-samples, cannot come from the driver's rule: it takes n ≥ sample-ns ÷
 * (estimate × batch) samples, the estimate being the smallest batch mean of its warm-up, so n samples of calls as
 * long as the estimate last sample-ns. Calls faster than the estimate (a clock that rose after the warm-up, a
 * warm-up slowed by a neighbour on every batch) shorten that by a small factor, never by ten.
 */
export const REQUESTED_SHARE = 0.1;
/**
 * A worker whose median call is faster than this share of its own warm-up estimate: the estimate is the smallest
 * batch mean of calls made moments before, interference only adds time to it, and the median resists interference
 * in the samples; a core clock that rose after the warm-up (boost) makes calls faster by its ratio, 2–4 at most.
 */
export const ESTIMATE_SHARE = 1 / 8;
/**
 * The core clocks a probe can read: no processor these campaigns run on clocks below 0.2 GHz or above 7 GHz. A
 * reading outside means the dependent add chain did not run one add per cycle — a core that folds or eliminates
 * the adds (as Golden Cove-class Intel cores do with `add $imm`), or a forged output — so its "cycles" are not.
 */
export const CORE_CLOCK_HZ = { min: 0.2e9, max: 7e9 } as const;
/** Slack of the upper bounds (the counter's rate is the driver's own estimate): 5 %. */
const SLACK = 1.05;

/** The options of a driver argument vector (after the command), as given. */
function optionsOf(args: readonly string[]): Map<string, string> {
  const m = new Map<string, string>();
  for (let i = 1; i + 1 < args.length; i += 2) m.set(args[i] as string, args[i + 1] as string);
  return m;
}

function numberOption(o: Map<string, string>, name: string, defaults: Record<string, number>): number {
  const v = o.get(name);
  if (v !== undefined) return Number(v);
  const d = defaults[name];
  if (d === undefined) throw new Error(`plausibility: no default for ${name}`);
  return d;
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

class Shape {
  constructor(readonly what: string) {}
  fail(pointer: string, expected: string, got: unknown): never {
    const shown = JSON.stringify(got);
    throw new DriverOutputError(
      `${this.what}: the driver's output is not what the driver prints: ${pointer} should be ${expected}, got ${shown === undefined ? "nothing" : shown.length > 60 ? `${shown.slice(0, 60)}…` : shown}`,
    );
  }
  object(v: unknown, pointer: string): Json {
    return isObject(v) ? v : this.fail(pointer, "an object", v);
  }
  number(v: unknown, pointer: string, o: { min?: number; integer?: boolean; positive?: boolean } = {}): number {
    const ok =
      typeof v === "number" &&
      Number.isFinite(v) &&
      (o.min === undefined || v >= o.min) &&
      (!o.positive || v > 0) &&
      (!o.integer || Number.isInteger(v));
    return ok
      ? (v as number)
      : this.fail(
          pointer,
          `a finite ${o.integer ? "integer" : "number"}${o.positive ? " > 0" : o.min !== undefined ? ` ≥ ${o.min}` : ""}`,
          v,
        );
  }
  equal(v: unknown, pointer: string, expected: unknown): void {
    if (v !== expected) this.fail(pointer, JSON.stringify(expected), v);
  }
  oneOf(v: unknown, pointer: string, values: readonly unknown[]): void {
    if (!values.includes(v)) this.fail(pointer, `one of ${values.map((x) => JSON.stringify(x)).join(", ")}`, v);
  }
  string(v: unknown, pointer: string): string {
    return typeof v === "string" ? v : this.fail(pointer, "a string", v);
  }
  counter(v: unknown, requested: string): void {
    const c = this.object(v, "/counter");
    this.equal(c.kind, "/counter/kind", requested);
    this.oneOf(c.unit, "/counter/unit", COUNTER_UNITS);
    if (c.unit !== "ns" || c.rateHz !== null) this.number(c.rateHz, "/counter/rateHz", { positive: true });
    if (c.overhead !== null) this.number(c.overhead, "/counter/overhead", { min: 0 });
  }
  numbers(v: unknown, pointer: string, length?: { min: number; max: number } | number): number[] {
    if (!Array.isArray(v)) return this.fail(pointer, "an array", v);
    if (typeof length === "number" && v.length !== length)
      this.fail(pointer, `${length} entries`, `${v.length} entries`);
    if (typeof length === "object" && (v.length < length.min || v.length > length.max))
      this.fail(pointer, `${length.min}–${length.max} entries (--min-samples, --max-samples)`, `${v.length} entries`);
    v.forEach((x, i) => {
      this.number(x, `${pointer}/${i}`, { min: 0 });
    });
    return v as number[];
  }
  lengths(v: unknown): void {
    if (v === undefined) return;
    const l = this.object(v, "/lengths");
    if (l.signatureBytes === undefined) return;
    const s = this.object(l.signatureBytes, "/lengths/signatureBytes");
    for (const k of ["min", "max", "sum", "count"])
      this.number(s[k], `/lengths/signatureBytes/${k}`, { min: 0, integer: true });
  }
}

/**
 * What a check of a timed output (`sample`, `time`) starts with: its shape, its arguments (numbers by their
 * `defaults` when not given), and the document, an object whose op and counter are the ones it was run with.
 */
function timedDocument(value: unknown, args: readonly string[], what: string, defaults: Record<string, number>) {
  const s = new Shape(what);
  const o = optionsOf(args);
  const num = (name: string) => numberOption(o, name, defaults);
  const v = s.object(value, "(the document)");
  s.equal(v.op, "/op", o.get("--op"));
  s.counter(v.counter, o.get("--counter") ?? "");
  return { s, o, num, v };
}

/**
 * A `sample` output checked against the arguments it was run with (driverSampleArgs): what the driver prints, or
 * DriverOutputError naming the first field that is not.
 */
export function checkSampleOutput(value: unknown, args: readonly string[], what: string): DriverSample {
  const { s, o, num, v } = timedDocument(value, args, what, SAMPLE_DEFAULTS);
  s.number(v.estimateNs, "/estimateNs", { positive: true });
  s.number(v.warmupCalls, "/warmupCalls", { integer: true, min: 1 });
  const batch = s.number(v.batch, "/batch", { integer: true, min: 1 });
  const askedBatch = o.get("--batch");
  if (askedBatch !== undefined && askedBatch !== "auto") s.equal(batch, "/batch", Number(askedBatch));
  s.string(v.batchReason, "/batchReason");
  s.oneOf(v.samplesLimitedBy, "/samplesLimitedBy", ["sample-ns", "min-samples", "max-samples"]);
  const settings = s.object(v.settings, "/settings");
  s.equal(settings.sampleNs, "/settings/sampleNs", Number(o.get("--sample-ns")));
  s.equal(settings.warmupNs, "/settings/warmupNs", num("--warmup-ns"));
  const minSamples = num("--min-samples");
  const maxSamples = num("--max-samples");
  s.equal(settings.minSamples, "/settings/minSamples", minSamples);
  s.equal(settings.maxSamples, "/settings/maxSamples", maxSamples);
  s.equal(settings.batch, "/settings/batch", askedBatch === undefined || askedBatch === "auto" ? "auto" : batch);
  s.equal(settings.keys, "/settings/keys", num("--keys"));
  s.equal(settings.pool, "/settings/pool", num("--pool"));
  s.equal(settings.seed, "/settings/seed", Number(o.get("--seed") ?? 1));
  const inputs = s.object(v.inputs, "/inputs");
  s.number(inputs.keyPairs, "/inputs/keyPairs", { integer: true, min: 0 });
  s.number(inputs.pool, "/inputs/pool", { integer: true, min: 0 });
  s.oneOf(inputs.messages, "/inputs/messages", ["fresh", "pool", "none"]);
  s.string(inputs.description, "/inputs/description");
  s.equal(v.pinnedCpu, "/pinnedCpu", o.has("--pin") ? Number(o.get("--pin")) : null);
  s.equal(v.messageBytes, "/messageBytes", Number(o.get("--msg-bytes") ?? 32));
  const elapsed = s.object(v.elapsedNs, "/elapsedNs");
  s.number(elapsed.warmup, "/elapsedNs/warmup", { min: 0 });
  s.number(elapsed.sampling, "/elapsedNs/sampling", { min: 0 });
  const samples = s.numbers(v.samples, "/samples", { min: minSamples, max: maxSamples });
  // The driver's rule: n = ceil(sample-ns ÷ (estimate × batch)) within [--min-samples, --max-samples] (the estimate
  // is printed to 10 digits: one sample either way at a boundary).
  const need = Math.ceil(Number(o.get("--sample-ns")) / ((v.estimateNs as number) * batch));
  const rule = Math.min(Math.max(need, minSamples), maxSamples);
  if (Math.abs(samples.length - rule) > 1)
    s.fail(
      "/samples (length)",
      `${rule} samples, as the driver's rule gives from its estimate and batch (ceil(sample-ns ÷ (estimateNs × batch)) within the bounds)`,
      `${samples.length} samples`,
    );
  if (v.samplesLimitedBy === "max-samples") s.equal(samples.length, "/samples (length)", maxSamples);
  if (v.samplesLimitedBy === "min-samples") s.equal(samples.length, "/samples (length)", minSamples);
  if (v.clockChain !== undefined && o.get("--clock-chain") !== "none") {
    const chain = s.object(v.clockChain, "/clockChain");
    const adds = s.number(chain.adds, "/clockChain/adds", { integer: true, min: 8 });
    s.numbers(chain.deltas, "/clockChain/deltas", samples.length);
    // The contention probe comes with the clock probe: the same adds rounded down to 32 (at least 32).
    const thr = s.object(v.throughputChain, "/throughputChain");
    s.equal(thr.adds, "/throughputChain/adds", Math.max(32, adds - (adds % 32)));
    s.equal(thr.chains, "/throughputChain/chains", 4);
    s.numbers(thr.deltas, "/throughputChain/deltas", samples.length);
  } else {
    if (o.get("--clock-chain") === "none" && v.clockChain !== undefined)
      s.fail("/clockChain", "absent (--clock-chain none)", v.clockChain);
    if (v.throughputChain !== undefined) s.fail("/throughputChain", "absent (no clockChain)", v.throughputChain);
  }
  if (v.switchedOut !== undefined) {
    // The samples the process was switched out in: ascending indices of samples, at least one (else omitted).
    if (!Array.isArray(v.switchedOut) || v.switchedOut.length === 0)
      s.fail("/switchedOut", "a non-empty array of sample indices", v.switchedOut);
    (v.switchedOut as unknown[]).forEach((x, i, all) => {
      const at = s.number(x, `/switchedOut/${i}`, { integer: true, min: 0 });
      if (at >= samples.length) s.fail(`/switchedOut/${i}`, `a sample index below ${samples.length}`, x);
      if (i > 0 && at <= (all[i - 1] as number)) s.fail(`/switchedOut/${i}`, "ascending indices, each once", x);
    });
  }
  s.lengths(v.lengths);
  return value as DriverSample;
}

/** A `time` output checked against the arguments it was run with (driverTimeArgs). */
export function checkTimeOutput(value: unknown, args: readonly string[], what: string): DriverTime {
  const { s, o, num, v } = timedDocument(value, args, what, TIME_DEFAULTS);
  s.number(v.warmupIterations, "/warmupIterations", { integer: true, min: 1 });
  const perTrial = s.number(v.iterationsPerTrial, "/iterationsPerTrial", { integer: true, min: 1 });
  const minIterations = num("--min-iterations");
  const maxIterations = num("--max-iterations");
  if (perTrial < minIterations || perTrial > maxIterations)
    s.fail(
      "/iterationsPerTrial",
      `within ${minIterations}–${maxIterations} (--min-iterations, --max-iterations)`,
      perTrial,
    );
  const cal = s.object(v.calibration, "/calibration");
  s.equal(cal.targetNs, "/calibration/targetNs", num("--target-ns"));
  s.equal(cal.minIterations, "/calibration/minIterations", minIterations);
  s.equal(cal.maxIterations, "/calibration/maxIterations", maxIterations);
  s.number(cal.estimateNs, "/calibration/estimateNs", { positive: true });
  s.oneOf(cal.limitedBy, "/calibration/limitedBy", [
    "min-iterations",
    "target-ns",
    "counter-overhead",
    "max-iterations",
  ]);
  // The driver's rule: at least ceil(target-ns ÷ estimate) iterations (capped), more for the counter overhead.
  const need = Math.min(Math.ceil(num("--target-ns") / (cal.estimateNs as number)), maxIterations);
  if (perTrial < need - 1)
    s.fail(
      "/iterationsPerTrial",
      `at least ${need}, as the driver's rule gives from its estimate (ceil(target-ns ÷ estimateNs), capped)`,
      perTrial,
    );
  if (cal.limitedBy === "max-iterations") s.equal(perTrial, "/iterationsPerTrial", maxIterations);
  if (cal.limitedBy === "min-iterations") s.equal(perTrial, "/iterationsPerTrial", minIterations);
  const trials = v.trials;
  if (!Array.isArray(trials) || trials.length !== num("--trials"))
    s.fail(
      "/trials",
      `${num("--trials")} trials (--trials)`,
      Array.isArray(trials) ? `${trials.length} trials` : trials,
    );
  (trials as unknown[]).forEach((t, i) => {
    const x = s.object(t, `/trials/${i}`);
    s.equal(x.iterations, `/trials/${i}/iterations`, perTrial);
    s.number(x.counterDelta, `/trials/${i}/counterDelta`, { min: 0 });
    s.number(x.ns, `/trials/${i}/ns`, { min: 0 });
  });
  s.equal(v.pinnedCpu, "/pinnedCpu", o.has("--pin") ? Number(o.get("--pin")) : null);
  s.lengths(v.lengths);
  return value as DriverTime;
}

/** A `memory` output whose RSS proxies are there (--measure rss or all). */
export type RssMemory = DriverMemory & { baselineRssKiB: number; peakRssKiB: number; hwmReset: boolean };

/**
 * A `memory` output checked against the arguments it was run with (the schema has every figure optional, as each
 * comes with one --measure only): the operation, the RSS proxies with rss or all, the inputs with highwater or all
 * and as many as asked for.
 */
export function checkMemoryOutput(value: DriverMemory, args: readonly string[], what: string): DriverMemory {
  const s = new Shape(what);
  const o = optionsOf(args);
  s.equal(value.op, "/op", o.get("--op"));
  const measure = o.get("--measure") ?? "all";
  if (measure !== "highwater") {
    for (const k of ["baselineRssKiB", "peakRssKiB"] as const) s.number(value[k], `/${k}`, { integer: true, min: 0 });
    if (typeof value.hwmReset !== "boolean") s.fail("/hwmReset", "true or false", value.hwmReset);
  }
  if (measure !== "rss") {
    const inputs = s.object(value.inputs, "/inputs");
    s.equal(inputs.asked, "/inputs/asked", Number(o.get("--inputs") ?? 1));
  }
  return value;
}

/** A `memory --measure rss` output checked (checkMemoryOutput): its RSS proxies are there. */
export function checkRssOutput(value: DriverMemory, args: readonly string[], what: string): RssMemory {
  return checkMemoryOutput(value, args, what) as RssMemory;
}

const ms = (x: number) => `${(x / 1e6).toPrecision(3)} ms`;
const ns = (x: number) => (x >= 1e5 ? `${(x / 1e3).toPrecision(3)} µs` : `${x.toPrecision(3)} ns`);

/** One worker of the per-call method as the cross-checks see it: its output, its arguments, the runner's clock. */
export interface SampledWorker {
  output: DriverSample;
  args: readonly string[];
  /** The runner's clock over the worker's process (RunResult.durationMs). */
  durationMs: number;
}

type WorkerCheck = "runner-clock" | "requested-duration" | "counter-vs-clock" | "warm-up-estimate" | "core-clock";

/** What is wrong with a worker's core-clock reading (null when it has none, or a plausible one). */
function clockFinding(out: DriverSample): string | null {
  const hz = out.clockChain ? coreClockHz(out.clockChain, out.counter) : null;
  if (hz === null || (hz >= CORE_CLOCK_HZ.min && hz <= CORE_CLOCK_HZ.max)) return null;
  return `its core-clock probe reads ${(hz / 1e9).toPrecision(3)} GHz, outside ${CORE_CLOCK_HZ.min / 1e9}–${CORE_CLOCK_HZ.max / 1e9} GHz: the add chain did not run one add per cycle, so its estimated cycles are not cycles`;
}

/** Per worker, what is wrong with its figures (null when nothing is), for each check. */
function workerFindings(w: SampledWorker): Record<WorkerCheck, string | null> {
  const out = w.output;
  const sampledNs =
    perCallNs({ counterDeltas: out.samples }, out.batch, out.counter).reduce((a, b) => a + b, 0) * out.batch;
  const wallNs = w.durationMs * 1e6;
  const claimedNs = out.elapsedNs.warmup + out.elapsedNs.sampling;
  const o = optionsOf(w.args);
  const asked = Number(o.get("--sample-ns"));
  const cap = numberOption(o, "--max-samples", SAMPLE_DEFAULTS);
  const runner =
    sampledNs > wallNs * SLACK
      ? `its samples add up to ${ms(sampledNs)}, more than the runner's clock over its whole process (${ms(wallNs)})`
      : claimedNs > wallNs * SLACK
        ? `its warm-up and sampling lasted ${ms(claimedNs)} by its own clock, more than the runner's clock over its whole process (${ms(wallNs)})`
        : null;
  const requested =
    out.samples.length < cap && sampledNs < asked * REQUESTED_SHARE
      ? `its ${out.samples.length} samples add up to ${ms(sampledNs)}, less than a tenth of the ${ms(asked)} the runner asked for, though their count is below the cap of ${cap}`
      : null;
  const clocks =
    sampledNs > out.elapsedNs.sampling * SLACK + 1e5
      ? `its samples add up to ${ms(sampledNs)}, more than its sampling loop lasted by CLOCK_MONOTONIC (${ms(out.elapsedNs.sampling)})`
      : null;
  const perCall = perCallNs({ counterDeltas: out.samples }, out.batch, out.counter);
  const typical = median(perCall);
  const fast =
    typical < out.estimateNs * ESTIMATE_SHARE
      ? `its median call (${ns(typical)}) is faster than an 8th of its own warm-up's estimate (${ns(out.estimateNs)})`
      : null;
  return {
    "runner-clock": runner,
    "requested-duration": requested,
    "counter-vs-clock": clocks,
    "warm-up-estimate": fast,
    "core-clock": clockFinding(out),
  };
}

const PASS_MESSAGES = {
  "runner-clock": "every worker's samples add up to no more than the runner's clock over its process",
  "requested-duration":
    "every worker's samples add up to at least a tenth of the duration the runner asked for (or reach the cap on their count)",
  "counter-vs-clock": "every worker's samples fit in its sampling loop as CLOCK_MONOTONIC timed it",
  "warm-up-estimate": "every worker's median call is at least an 8th of its warm-up's estimate",
  "core-clock": "every worker's core-clock probe reads 0.2–7 GHz (or the counter gives no clock)",
  "trials-warm-up-estimate": "the median trial's time per iteration is at least an 8th of the warm-up's estimate",
  "trials-runner-clock": "the trials add up to no more than the runner's clock over the process",
  "trials-requested-duration":
    "every trial lasted at least a tenth of the target trial duration the runner asked for (or reached the cap on iterations)",
  "trials-counter-vs-clock": "every trial's counter delta agrees with its CLOCK_MONOTONIC time within 20 %",
} as const;

/** The cross-checks of an operation sampled per call, one per check over all its workers. */
export function sampleChecks(workers: readonly SampledWorker[]): PlausibilityCheck[] {
  const findings = workers.map(workerFindings);
  const checks = ["runner-clock", "requested-duration", "counter-vs-clock", "warm-up-estimate", "core-clock"] as const;
  return checks.map((check) => {
    const bad = findings.flatMap((f, i) => (f[check] ? [`worker ${i + 1}: ${f[check]}`] : []));
    return bad.length
      ? {
          check,
          outcome: "flagged" as const,
          message: bad.slice(0, 3).join("; ") + (bad.length > 3 ? `; and ${bad.length - 3} more workers` : ""),
        }
      : { check, outcome: "pass" as const, message: PASS_MESSAGES[check] };
  });
}

/** The cross-checks of an operation timed by trials. */
export function trialChecks(output: DriverTime, args: readonly string[], durationMs: number): PlausibilityCheck[] {
  const o = optionsOf(args);
  const target = numberOption(o, "--target-ns", TIME_DEFAULTS);
  const totalNs = output.trials.reduce((a, t) => a + t.ns, 0);
  const wallNs = durationMs * 1e6;
  const capped = output.calibration?.limitedBy === "max-iterations";
  const short = output.trials.findIndex((t) => t.ns < target * REQUESTED_SHARE);
  const rate = output.counter.unit === "ns" ? 1e9 : output.counter.rateHz;
  const clockUnit = ["tsc-ticks", "timer-ticks", "ns"].includes(output.counter.unit) && rate !== null && rate > 0;
  const off = clockUnit
    ? output.trials.findIndex((t) => {
        const r = t.ns > 0 ? (t.counterDelta * 1e9) / (rate as number) / t.ns : 1;
        return r < 0.8 || r > 1.25;
      })
    : -1;
  const trial = output.trials[off];
  const est = output.calibration?.estimateNs;
  const typical = median(output.trials.map((t) => t.ns / t.iterations));
  const fast = est !== undefined && typical < est * ESTIMATE_SHARE;
  return [
    totalNs > wallNs * SLACK
      ? {
          check: "runner-clock",
          outcome: "flagged",
          message: `the trials add up to ${ms(totalNs)}, more than the runner's clock over the whole process (${ms(wallNs)})`,
        }
      : { check: "runner-clock", outcome: "pass", message: PASS_MESSAGES["trials-runner-clock"] },
    short >= 0 && !capped
      ? {
          check: "requested-duration",
          outcome: "flagged",
          message: `trial ${short + 1} lasted ${ms(output.trials[short]?.ns ?? 0)}, less than a tenth of the ${ms(target)} target trial duration the runner asked for, though its iterations are below the cap`,
        }
      : { check: "requested-duration", outcome: "pass", message: PASS_MESSAGES["trials-requested-duration"] },
    fast
      ? {
          check: "warm-up-estimate",
          outcome: "flagged",
          message: `the median trial's time per iteration (${ns(typical)}) is faster than an 8th of the warm-up's estimate (${ns(est ?? 0)})`,
        }
      : { check: "warm-up-estimate", outcome: "pass", message: PASS_MESSAGES["trials-warm-up-estimate"] },
    ...(clockUnit
      ? [
          trial
            ? {
                check: "counter-vs-clock" as const,
                outcome: "flagged" as const,
                message: `trial ${off + 1}: its counter delta gives ${ms((trial.counterDelta * 1e9) / (rate as number))}, its CLOCK_MONOTONIC time ${ms(trial.ns)}`,
              }
            : {
                check: "counter-vs-clock" as const,
                outcome: "pass" as const,
                message: PASS_MESSAGES["trials-counter-vs-clock"],
              },
        ]
      : []),
  ] as PlausibilityCheck[];
}

/** The record's plausibility block: the runner's checks and, when given, the cycles-per-instruction check. */
export function recordPlausibility(
  checks: readonly PlausibilityCheck[],
  cpi: PlausibilityCheck | null,
): NonNullable<TimingRecord["plausibility"]> {
  return plausibilityOf(cpi ? [...checks, cpi] : checks);
}
