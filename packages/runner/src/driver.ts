// Running the native driver of a built instance (native/README.md gives its protocol).
import type { Campaign } from "./campaign.ts";
import type { RunResult } from "./proc.ts";
import { runProcess } from "./proc.ts";

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

export interface DriverMemory {
  op: string;
  baselineRssKiB: number;
  peakRssKiB: number;
  hwmReset: boolean;
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

export async function driverRun<T>(
  driver: string,
  args: string[],
  timeoutMs: number,
  what: string,
): Promise<{ value: T; result: RunResult }> {
  const result = await runProcess([driver, ...args], { timeoutMs });
  return { value: interpret<T>(result, what), result };
}

/**
 * The API figures and the counters this machine offers (`info`), then a functional check (`check`: round trips
 * with canaries) — what every build must pass before anything of it is timed. `label` names it in messages.
 */
export async function infoAndCheck(driver: string, campaign: Campaign, label: string): Promise<DriverInfo> {
  const limit = campaign.timeouts.operationMs;
  const info = (await driverRun<DriverInfo>(driver, ["info"], limit, `${label}: info`)).value;
  await driverRun(
    driver,
    ["check", "--iterations", "3", "--msg-bytes", String(campaign.timing.messageBytes)],
    limit,
    `${label}: check`,
  );
  return info;
}
