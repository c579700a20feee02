// Running the native driver of a built instance (native/README.md gives its protocol).
import type { Campaign, CounterKind } from "./campaign.ts";
import type { RunResult } from "./proc.ts";
import { runProcess } from "./proc.ts";
import type { RunContext } from "./run-context.ts";

export type DriverFailureReason = "crash" | "timeout" | "canary" | "check-failed" | "error";

export class DriverError extends Error {
  constructor(
    readonly reason: DriverFailureReason,
    message: string,
    readonly result: RunResult,
  ) {
    super(message);
  }
}

/**
 * Output of the driver that is not what the driver prints for the arguments given: what a `driverRun` check
 * (plausibility.ts) throws, turned into a DriverError ("error") naming the field.
 */
export class DriverOutputError extends Error {}

export interface DriverCounter {
  kind: "rdtsc" | "perf-cycles" | "perf-instructions" | "cntvct" | "clock_gettime" | "fixed-clock";
  unit: "tsc-ticks" | "core-cycles" | "instructions" | "timer-ticks" | "ns";
  rateHz: number | null;
  overhead: number | null;
  serialization?: string;
  description?: string;
}

export interface DriverInfo {
  category: "kem" | "sign" | "kex";
  algname?: string | null;
  namespace?: string | null;
  sizes: Record<string, number>;
  counters: string[];
}

export interface DriverTime {
  op: string;
  counter: DriverCounter;
  warmupIterations: number;
  iterationsPerTrial: number;
  /** How the driver chose iterations per trial (ngcc_driver.c): its estimate and the rule that decided. */
  calibration?: {
    targetNs: number;
    warmupNs: number;
    minIterations: number;
    maxIterations: number;
    estimateNs: number;
    limitedBy: "min-iterations" | "target-ns" | "counter-overhead" | "max-iterations";
  };
  trials: Array<{ iterations: number; counterDelta: number; ns: number }>;
  lengths?: { signatureBytes?: { min: number; max: number; sum: number; count: number } };
  pinnedCpu: number | null;
  messageBytes?: number;
}

/** How a sampled operation's inputs varied from call to call (the record's `sampling.inputs`). */
export interface DriverSampleInputs {
  /** Key pairs in rotation; 0 when the operation takes none. */
  keyPairs: number;
  /** Inputs in the pool the calls rotate over; 0 when none. */
  pool: number;
  messages: "fresh" | "pool" | "none";
  description: string;
}

/** The output of `ngcc-driver sample` (native/README.md): one worker's per-call samples. */
export interface DriverSample {
  op: string;
  counter: DriverCounter;
  /** Time per call from the warm-up (its smallest batch mean), CLOCK_MONOTONIC ns. */
  estimateNs: number;
  warmupCalls: number;
  /** Calls per sample: 1 unless a call is shorter than 1000 × the counter overhead (or --batch said so). */
  batch: number;
  batchReason: string;
  /** Which rule fixed the number of samples. */
  samplesLimitedBy: "sample-ns" | "min-samples" | "max-samples";
  settings: {
    sampleNs: number;
    warmupNs: number;
    minSamples: number;
    maxSamples: number;
    batch: number | "auto";
    keys: number;
    pool: number;
    seed: number;
  };
  inputs: DriverSampleInputs;
  pinnedCpu: number | null;
  messageBytes: number;
  /** CLOCK_MONOTONIC ns spent in the warm-up's timed calls and in the sampling loop. */
  elapsedNs: { warmup: number; sampling: number };
  /** One counter delta per sample (batch calls), in the counter's unit, in the order taken; overhead not subtracted. */
  samples: number[];
  /** The samples (0-based, ascending) during which the process was switched out (its context switches changed):
   * they hold another task's time too. Absent when none. */
  switchedOut?: number[];
  /** The core-clock probe after every sample (a dependent chain of one-cycle adds), when the counter runs at a
   * reference rate: its adds and one counter delta per sample, overhead not subtracted. */
  clockChain?: { adds: number; deltas: number[] };
  /** The contention probe after every sample, with clockChain: `adds` one-cycle adds on `chains` independent
   * chains (fewer adds per cycle when a sibling hyperthread shares the core), one counter delta per sample. */
  throughputChain?: { adds: number; chains: number; deltas: number[] };
  /** Sign only: smlen − mlen over every sign call of the process (warm-up and samples). */
  lengths?: { signatureBytes?: { min: number; max: number; sum: number; count: number } };
}

/** What a caller of `sample` chooses per worker; the rest comes from the campaign. */
export interface DriverSampleOptions {
  /** Target duration of the worker's sampling, ns (default: the campaign's `timing.workerMs`). */
  sampleNs?: number;
  /** Seeds the driver's own choices (the messages): give each worker its own. Default 1. */
  seed?: number;
  /** Warm-up, ns (default: the driver's, 20 ms). */
  warmupNs?: number;
  minSamples?: number;
  maxSamples?: number;
  /** Calls per sample; default "auto" (the driver's rule). */
  batch?: number | "auto";
}

/** The driver's `sample` arguments for one worker of an operation under the campaign's settings. */
export function driverSampleArgs(
  campaign: Campaign,
  op: string,
  counter: CounterKind,
  opts: DriverSampleOptions = {},
): string[] {
  const t = campaign.timing;
  const n = (v: number) => String(Math.max(0, Math.round(v)));
  return [
    "sample",
    "--op",
    op,
    "--counter",
    counter,
    "--sample-ns",
    n(opts.sampleNs ?? t.workerNs),
    ...(opts.warmupNs !== undefined ? ["--warmup-ns", n(opts.warmupNs)] : []),
    ...(opts.minSamples !== undefined ? ["--min-samples", n(opts.minSamples)] : []),
    ...(opts.maxSamples !== undefined ? ["--max-samples", n(opts.maxSamples)] : []),
    ...(opts.batch !== undefined ? ["--batch", opts.batch === "auto" ? "auto" : n(opts.batch)] : []),
    "--keys",
    String(t.keyPairs),
    "--pool",
    String(t.inputPool),
    "--msg-bytes",
    String(t.messageBytes),
    "--seed",
    n(opts.seed ?? 1),
    ...(t.pinCpu !== null ? ["--pin", String(t.pinCpu)] : []),
    ...(t.clockProbe ? [] : ["--clock-chain", "none"]),
    ...(counter === "fixed-clock" && campaign.counter.fixedClockHz
      ? ["--fixed-clock-hz", String(campaign.counter.fixedClockHz)]
      : []),
  ];
}

export interface DriverMemory {
  op: string;
  /** With --measure rss or all (the default). */
  baselineRssKiB: number;
  peakRssKiB: number;
  hwmReset: boolean;
  /** With --measure highwater or all; not under AddressSanitizer. */
  stackBytes?: number;
  stackBaselineBytes?: number;
  stackRegionBytes?: number;
  stackPattern?: string;
  /** Only from the memory executable (BuiltInstance.memoryDriver), not under -flto. */
  heapPeakBytes?: number;
  heapAllocations?: number;
  /** The high-water run's inputs (--measure highwater or all), and each input's figures (stackBytes and the heap
   * figures above are their maxima; stackMaxInput / heapMaxInput the first input that gave them). */
  inputs?: {
    count: number;
    asked: number;
    limitedBy: "inputs" | "time-limit";
    source: "kat-seeds" | "build-randomness";
  };
  stackMaxInput?: number;
  stackBytesPerInput?: number[];
  heapMaxInput?: number;
  heapPeakBytesPerInput?: number[];
  heapAllocationsPerInput?: number[];
}

const EXIT_RESULT = 3;
const EXIT_CANARY = 4;

/** Classifies a finished driver run; returns its parsed JSON or throws DriverError. */
export function interpret<T>(r: RunResult, what: string): T {
  const stderr = r.stderr.trim();
  const detail = stderr ? `: ${stderr.split("\n").slice(-3).join(" | ")}` : "";
  if (r.spawnError) throw new DriverError("error", `${what}: cannot start the driver (${r.spawnError})`, r);
  if (r.timedOut) throw new DriverError("timeout", `${what}: exceeded its time limit of ${r.timeLimitMs / 1000} s`, r);
  if (r.signal) throw new DriverError("crash", `${what}: killed by ${r.signal}${detail}`, r);
  if (r.exitCode === EXIT_CANARY) throw new DriverError("canary", `${what}: wrote past an output buffer${detail}`, r);
  if (r.exitCode === EXIT_RESULT) throw new DriverError("check-failed", `${what}: result check failed${detail}`, r);
  if (r.exitCode !== 0) throw new DriverError("error", `${what}: driver exited with ${r.exitCode}${detail}`, r);
  try {
    return JSON.parse(r.stdout) as T;
  } catch {
    throw new DriverError("error", `${what}: the driver printed no valid JSON`, r);
  }
}

/**
 * Runs the driver and reads its JSON: one document on one line (more is refused). With `check`, the document is checked against what the driver prints for
 * these arguments (plausibility.ts): output that is not is a DriverError ("error") naming the field, never a cast.
 */
export async function driverRun<T>(
  context: RunContext,
  driver: string,
  args: string[],
  timeoutMs: number,
  what: string,
  check?: (value: unknown, args: readonly string[], what: string) => T,
): Promise<{ value: T; result: RunResult }> {
  const result = await runProcess([driver, ...args], { timeoutMs, target: true, context });
  // The driver writes one document of one line; a second is not its own (something else in the process wrote).
  if (
    !result.spawnError &&
    !result.timedOut &&
    !result.signal &&
    result.exitCode === 0 &&
    result.stdout.trim().includes("\n")
  )
    throw new DriverError(
      "error",
      `${what}: the driver's output holds more than its one JSON document: something else in the process wrote to its channel`,
      result,
    );
  if (!check) return { value: interpret<T>(result, what), result };
  const value = interpret<unknown>(result, what);
  try {
    return { value: check(value, args, what), result };
  } catch (err) {
    if (err instanceof DriverOutputError) throw new DriverError("error", err.message, result);
    throw err;
  }
}

/**
 * The API figures and the counters this machine offers (`info`), then a functional check (`check`: round trips
 * with canaries) — what every build must pass before anything of it is timed. `label` names it in messages.
 */
export async function infoAndCheck(driver: string, campaign: Campaign, label: string): Promise<DriverInfo> {
  const limit = campaign.timeouts.operationMs;
  const info = (await driverRun<DriverInfo>(campaign.context, driver, ["info"], limit, `${label}: info`)).value;
  await driverRun(
    campaign.context,
    driver,
    ["check", "--iterations", "3", "--msg-bytes", String(campaign.timing.messageBytes)],
    limit,
    `${label}: check`,
  );
  return info;
}
