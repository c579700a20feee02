// The statistical check of the constant-time step: the fixed-vs-random timing test (dudect's method; the statistics
// in @ngcc-perf/stats' leakage.ts, the measurements by native/leak/ngcc_leak.c). Per operation that has input
// classes, worker processes one after another, each pinned to the campaign's timing.pinCpu, each measuring a batch
// of calls of both classes interleaved in random order; every batch goes into one test, and the run stops at a
// leak (|t| >= 10) or when its time or measurement budget is spent. Every worker's raw samples go into the record.
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { buildPath, type ConstantTimeRecord, type InstanceKey } from "@ngcc-perf/schema";
import { ENOUGH_MEASUREMENTS, hash32, LEAK_T, LeakageTest, LIKELY_T, leakEstablished } from "@ngcc-perf/stats";
import type { Campaign } from "./campaign.ts";
import type { CheckProgram } from "./check-program.ts";
import { DriverError, interpret } from "./driver.ts";
import { type InstanceSpec, matchesAny } from "./instances.ts";
import { nativeDir } from "./native.ts";
import { commandOf, runProcess } from "./proc.ts";

export type Statistical = NonNullable<ConstantTimeRecord["statistical"]>;

/** The operations that have input classes, per category (ngcc_leak.c's). */
export const LEAK_OPERATIONS: Record<string, readonly string[]> = {
  kem: ["keygen", "enc", "dec"],
  sign: ["keygen", "sign"],
  kex: [],
};

/** What the campaign's constantTime.statistical sets, with defaults. */
export interface LeakSettings {
  enabled: boolean;
  seconds: number;
  maxMeasurements: number;
  /** Differences accepted, per operation and instance globs, with the reason. */
  accepted: Array<{ operation: string; reason: string; only?: string[] }>;
}

export function leakSettings(c: { statistical?: Partial<LeakSettings> } | undefined): LeakSettings {
  const s = c?.statistical ?? {};
  return {
    enabled: s.enabled ?? true,
    seconds: s.seconds ?? 10,
    maxMeasurements: s.maxMeasurements ?? 1_000_000,
    accepted: s.accepted ?? [],
  };
}

/** The campaign's reason for accepting a leak (or leak likely) of this operation of an instance (its names). */
export function leakAccepted(s: LeakSettings, operation: string, names: readonly string[]): string | undefined {
  return s.accepted.find((a) => a.operation === operation && (!a.only || names.some((n) => matchesAny(n, a.only))))
    ?.reason;
}

/** ngcc-leak's harness files. */
export const leakFiles = () => ({
  main: join(nativeDir(), "leak", "ngcc_leak.c"),
  more: [join(nativeDir(), "driver", "ngcc_counter.c")],
  headers: [join(nativeDir(), "driver", "ngcc_counter.h")],
});

/** ngcc-leak for an instance: its objects built with the build profile's flags, as timed. */
export function leakProgram(spec: InstanceSpec): CheckProgram {
  return {
    name: "ngcc-leak",
    folder: `leak-${spec.instance}`,
    ...leakFiles(),
    mainOpt: ["-O2"],
    drbgPrefix: "ngcc_leak_drbg",
    instanceDefines: [],
    what: `${spec.algorithmId}/${spec.instance} for the statistical timing test`,
  };
}

/** Why an operation is not tested, or null when it is. */
export function leakNotRun(category: string, operation: string, s: LeakSettings): string | null {
  if (!s.enabled) return "off in this campaign (constantTime.statistical.enabled: false)";
  if ((LEAK_OPERATIONS[category] ?? []).includes(operation)) return null;
  if (category === "kex") return "no input classes for key-exchange operations yet";
  if (operation === "verify") return "verify has no secret input";
  return `no input classes for ${operation}`;
}

/** The first batch, which also sets the cropping thresholds; later ones are sized to about a fifth of the budget. */
const FIRST_BATCH = 2_000;
const MAX_BATCH = 200_000;

interface LeakOutput {
  measurements: number;
  pinnedCpu: number | null;
  counter: { kind: string; unit: string; rateHz: number | null };
  classes: { fixed: string; random: string };
  times: number[];
  class: string;
}

/** Thrown when a worker fails: the reason and the commands so far, for the record's failure. */
export class LeakError extends Error {
  constructor(
    readonly reason: string,
    message: string,
    readonly commands: ReturnType<typeof commandOf>[],
  ) {
    super(message);
  }
}

/** Runs the test of one operation: workers until a leak, the time budget or the measurement budget. */
export async function leakTest(
  campaign: Campaign,
  at: { out: string; key: InstanceKey; program: string; flags: readonly string[] },
  operation: string,
  s: LeakSettings,
  what: string,
): Promise<Statistical> {
  const test = new LeakageTest();
  const workers: Statistical["workers"] = [];
  const commands: ReturnType<typeof commandOf>[] = [];
  const scratch = buildPath(at.out, at.key, `leak-run-${process.pid}`);
  const seed0 = hash32(`${at.key.instance}/${operation}`);
  let spentMs = 0;
  let measured = 0;
  let first: LeakOutput | undefined;
  let stoppedBy: Statistical["stoppedBy"] = "time budget";
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  try {
    for (let w = 0; ; w++) {
      const perCallMs = measured ? spentMs / measured : 0;
      const left = s.maxMeasurements - measured;
      const batch = Math.min(
        left,
        w === 0 ? FIRST_BATCH : Math.max(FIRST_BATCH, Math.min(MAX_BATCH, Math.round((s.seconds * 200) / perCallMs))),
      );
      const seed = (seed0 + w) >>> 0;
      const argv = [at.program, "--op", operation, "--measurements", String(batch), "--seed", String(seed)];
      if (campaign.timing.pinCpu !== null) argv.push("--pin", String(campaign.timing.pinCpu));
      argv.push("--msg-bytes", String(campaign.timing.messageBytes));
      const timeoutMs = campaign.timeouts.operationMs * 20 + (perCallMs ? perCallMs * batch * 10 : 0);
      const r = await runProcess(argv, {
        timeoutMs,
        cwd: scratch,
        writable: [scratch],
        maxOutputBytes: 64 * 1024 * 1024,
        context: campaign.context,
      });
      commands.push(commandOf(r));
      let o: LeakOutput;
      try {
        o = interpret<LeakOutput>(r, `${what} (worker ${w + 1})`, "driver-leak");
      } catch (err) {
        if (err instanceof DriverError) throw new LeakError(err.reason, err.message, commands);
        throw err;
      }
      first ??= o;
      const classes = Uint8Array.from(o.class, (c) => (c === "1" ? 1 : 0));
      test.push(o.times, classes);
      workers.push({ seed, measurements: o.measurements, times: o.times, class: o.class, command: commandOf(r) });
      spentMs += r.durationMs;
      measured += o.measurements;
      const result = test.result();
      if (leakEstablished(result)) {
        stoppedBy = "leak";
        break;
      }
      if (measured >= s.maxMeasurements) {
        stoppedBy = "measurement budget";
        break;
      }
      if (spentMs >= s.seconds * 1000) break;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const r = test.result();
  return {
    status: r.verdict,
    maxT: r.maxT,
    test: r.test,
    testMeasurements: r.testMeasurements,
    measurements: r.measurements,
    perClass: r.perClass,
    rawT: r.rawT,
    secondOrderT: r.secondOrderT,
    thresholds: { leak: LEAK_T, likely: LIKELY_T, enoughMeasurements: ENOUGH_MEASUREMENTS },
    budget: { seconds: s.seconds, maxMeasurements: s.maxMeasurements },
    stoppedBy,
    seconds: spentMs / 1000,
    ...(first ? { classes: first.classes, counter: first.counter, pinnedCpu: first.pinnedCpu } : {}),
    flags: [...at.flags],
    workers,
  };
}
