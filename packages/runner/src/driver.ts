// Running the native driver of a built instance (native/README.md gives its protocol).
import {
  type DriverInfoOutput,
  type DriverMemoryOutput,
  type DriverOutputKind,
  type DriverSampleOutput,
  type DriverTimeOutput,
  validateDriverOutput,
} from "@ngcc-perf/schema";
import type { Campaign, CounterKind } from "./campaign.ts";
import type { RunResult } from "./proc.ts";
import { runProcess } from "./proc.ts";
import type { RunContext } from "./run-context.ts";

/** driver-output: what the process printed is not what the driver prints (its schema, or a plausibility check). */
export type DriverFailureReason = "crash" | "timeout" | "canary" | "check-failed" | "driver-output" | "error";

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
 * (plausibility.ts) throws, turned into a DriverError ("driver-output") naming the field.
 */
export class DriverOutputError extends Error {}

// The outputs as their schemas (@ngcc-perf/schema, schemas/driver-output.ts) type them: interpret validates each
// line against its schema before it is read as one of these.

/** The counter object of `time`, `sample` and `overhead`: the fields of the timing record's counter. */
export type DriverCounter = DriverSampleOutput["counter"];

/** The output of `ngcc-driver info`. */
export type DriverInfo = DriverInfoOutput;

/** The output of `ngcc-driver time`: its trials, and how it chose iterations per trial (`calibration`). */
export type DriverTime = DriverTimeOutput;

/** How a sampled operation's inputs varied from call to call (the record's `sampling.inputs`). */
export type DriverSampleInputs = DriverSampleOutput["inputs"];

/**
 * The output of `ngcc-driver sample` (native/README.md): one worker's per-call samples — one counter delta per
 * sample of `batch` calls, overhead not subtracted; `switchedOut` the samples during which the process was
 * switched out (absent when none); `clockChain` / `throughputChain` the core-clock and contention probes after
 * every sample.
 */
export type DriverSample = DriverSampleOutput;

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

/** The output of `ngcc-driver memory` (the RSS proxies with --measure rss or all; the high-water figures with
 * highwater or all, the stack not under AddressSanitizer, the heap only from the memory executable). */
export type DriverMemory = DriverMemoryOutput;

const EXIT_RESULT = 3;
const EXIT_CANARY = 4;

/**
 * Classifies a finished driver run; returns its parsed JSON, validated against the schema of its kind (the
 * process also ran the submission's code: the line may be forged), or throws DriverError — "driver-output" naming
 * the first JSON pointer that is not what the driver prints, and what was expected there.
 */
export function interpret<T>(r: RunResult, what: string, kind: DriverOutputKind): T {
  const stderr = r.stderr.trim();
  const detail = stderr ? `: ${stderr.split("\n").slice(-3).join(" | ")}` : "";
  if (r.spawnError) throw new DriverError("error", `${what}: cannot start the driver (${r.spawnError})`, r);
  if (r.timedOut) throw new DriverError("timeout", `${what}: exceeded its time limit of ${r.timeLimitMs / 1000} s`, r);
  if (r.signal) throw new DriverError("crash", `${what}: killed by ${r.signal}${detail}`, r);
  if (r.exitCode === EXIT_CANARY) throw new DriverError("canary", `${what}: wrote past an output buffer${detail}`, r);
  if (r.exitCode === EXIT_RESULT) throw new DriverError("check-failed", `${what}: result check failed${detail}`, r);
  if (r.exitCode !== 0) throw new DriverError("error", `${what}: driver exited with ${r.exitCode}${detail}`, r);
  let value: unknown;
  try {
    value = JSON.parse(r.stdout);
  } catch {
    throw new DriverError("driver-output", `${what}: the driver printed no valid JSON`, r);
  }
  const errors = validateDriverOutput(kind, value);
  if (errors.length > 0) {
    const shown = errors.slice(0, 3).map((e) => `${e.pointer || "(the document)"} ${e.message}`);
    const more = errors.length > 3 ? ` (and ${errors.length - 3} more)` : "";
    throw new DriverError(
      "driver-output",
      `${what}: the driver's output is not what the driver prints (${kind}): ${shown.join("; ")}${more}`,
      r,
    );
  }
  return value as T;
}

/**
 * Runs the driver and reads its JSON: one document on one line (more is refused), validated against the schema of
 * `kind` (interpret). With `check`, the document is then checked against what the driver prints for these arguments
 * (plausibility.ts). Output that is not what the driver prints is a DriverError ("driver-output") naming the field,
 * never a cast.
 */
export async function driverRun<T>(
  context: RunContext,
  driver: string,
  args: string[],
  timeoutMs: number,
  what: string,
  kind: DriverOutputKind,
  check?: (value: T, args: readonly string[], what: string) => T,
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
      "driver-output",
      `${what}: the driver's output holds more than its one JSON document: something else in the process wrote to its channel`,
      result,
    );
  const value = interpret<T>(result, what, kind);
  if (!check) return { value, result };
  try {
    return { value: check(value, args, what), result };
  } catch (err) {
    if (err instanceof DriverOutputError) throw new DriverError("driver-output", err.message, result);
    throw err;
  }
}

/**
 * The API figures and the counters this machine offers (`info`), then a functional check (`check`: round trips
 * with canaries) — what every build must pass before anything of it is timed. `label` names it in messages.
 */
export async function infoAndCheck(driver: string, campaign: Campaign, label: string): Promise<DriverInfo> {
  const limit = campaign.timeouts.operationMs;
  const info = (await driverRun<DriverInfo>(campaign.context, driver, ["info"], limit, `${label}: info`, "driver-info"))
    .value;
  await driverRun(
    campaign.context,
    driver,
    ["check", "--iterations", "3", "--msg-bytes", String(campaign.timing.messageBytes)],
    limit,
    `${label}: check`,
    "driver-check",
  );
  return info;
}
