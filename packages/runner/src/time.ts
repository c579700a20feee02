// The time step: for every instance × build profile × operation, a timing record with its raw trials,
// aggregates and memory figures, or a failure record. The campaign goes on after a failure.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { TimingRecord } from "@ngcc-perf/schema";
import { BuildError, type BuiltInstance, buildInstance, elfLoadSize, toolchain } from "./build.ts";
import type { Campaign, CounterKind } from "./campaign.ts";
import {
  type DriverCounter,
  DriverError,
  type DriverInfo,
  type DriverMemory,
  type DriverTime,
  driverRun,
  infoAndCheck,
} from "./driver.ts";
import { captureEnvironment } from "./env.ts";
import { type AlgorithmSpec, type InstanceSpec, matchesAny, operationsOf, resolveAlgorithms } from "./instances.ts";
import { probeCounter } from "./probe.ts";
import { commandOf } from "./proc.ts";
import { aggregate } from "./stats.ts";
import { emptySummary, inShard, type StepOptions, type StepSummary } from "./step.ts";
import { storePaths, writeJsonAtomic } from "./store.ts";
import { TOOL } from "./tool.ts";

export interface TimeOptions extends StepOptions {
  /** When the campaign began (UTC, RFC 3339), if before this step (the run command's start). */
  campaignStart?: string;
  /** Do not time an instance whose KAT record says FAIL or ERROR (the guide's functional testing first). */
  requireKatPass?: boolean;
}

export type TimeSummary = StepSummary;

export function selected(spec: InstanceSpec, only?: string[]): boolean {
  if (!only || only.length === 0) return true;
  return [`${spec.algorithmId}/${spec.instance}`, spec.instance, spec.algorithmId].some((n) => matchesAny(n, only));
}

/** The counter to ask the driver for: the campaign's choice, else the best the machine has. */
export function chooseCounter(campaign: Campaign, available: readonly string[]): CounterKind {
  if (campaign.counter.kind !== "auto") return campaign.counter.kind;
  for (const k of ["perf-cycles", "rdtsc", "cntvct"] as const) if (available.includes(k)) return k;
  return "clock_gettime";
}

function jobHash(build: BuiltInstance, campaign: Campaign, operation: string, counter: string): string {
  return createHash("sha256")
    .update(
      JSON.stringify({ build: build.inputsHash, operation, counter, timing: campaign.timing, fixed: campaign.counter }),
    )
    .digest("hex");
}

function existingHash(path: string): string | null {
  if (!existsSync(path)) return null;
  try {
    const r = JSON.parse(readFileSync(path, "utf8")) as { inputsHash?: string; status?: string };
    return r.status === "ok" ? (r.inputsHash ?? null) : null;
  } catch {
    return null;
  }
}

function readEnvironmentStart(path: string): string | null {
  if (!existsSync(path)) return null;
  try {
    return (JSON.parse(readFileSync(path, "utf8")) as { campaign?: { start?: string } }).campaign?.start ?? null;
  } catch {
    return null;
  }
}

/** The counter kind the probe should report when no timing job ran: the campaign's, or the probe's default. */
function chosenCounter(campaign: Campaign): string | undefined {
  return campaign.counter.kind === "auto" ? undefined : campaign.counter.kind;
}

function katVerdict(path: string): string | null {
  if (!existsSync(path)) return null;
  try {
    return (JSON.parse(readFileSync(path, "utf8")) as { verdict?: string }).verdict ?? null;
  } catch {
    return null;
  }
}

/** The driver's `time` arguments for an operation under the campaign's calibration (also used by the profiler). */
export function driverTimeArgs(campaign: Campaign, op: string, counter: CounterKind): string[] {
  const t = campaign.timing;
  return [
    "time",
    "--op",
    op,
    "--counter",
    counter,
    "--trials",
    String(t.trials),
    "--min-iterations",
    String(t.minIterations),
    "--max-iterations",
    String(t.maxIterations),
    "--target-ns",
    String(Math.round(t.targetTrialNs)),
    "--warmup-ns",
    String(Math.round(t.warmupNs)),
    "--msg-bytes",
    String(t.messageBytes),
    ...(t.pinCpu !== null ? ["--pin", String(t.pinCpu)] : []),
    ...(counter === "fixed-clock" && campaign.counter.fixedClockHz
      ? ["--fixed-clock-hz", String(campaign.counter.fixedClockHz)]
      : []),
  ];
}

function baseRecord(campaign: Campaign, spec: InstanceSpec, profile: string, operation: string) {
  return {
    kind: "timing" as const,
    schemaVersion: 1 as const,
    provenance: { origin: "measured" as const, tool: TOOL, createdAt: new Date().toISOString() },
    system: campaign.system,
    algorithmId: spec.algorithmId,
    instance: spec.instance,
    implementation: spec.implementation,
    buildProfile: profile,
    operation,
  };
}

export async function timeCampaign(campaign: Campaign, options: TimeOptions): Promise<TimeSummary> {
  const started = options.campaignStart ?? new Date().toISOString();
  const algorithms: AlgorithmSpec[] = resolveAlgorithms(campaign);
  const paths = storePaths(options.out, campaign.system);
  const tc = await toolchain(campaign.cc);
  const progress = options.onProgress ?? (() => {});
  const summary: TimeSummary = emptySummary();
  const units = algorithms.flatMap((a) =>
    a.instances
      .filter((s) => selected(s, options.only))
      .flatMap((s) => s.buildProfiles.map((p) => ({ spec: s, profile: p })))
      .filter((u) => inShard(`${u.spec.algorithmId}/${u.spec.instance}/${u.profile}`, options.shard)),
  );
  let total = units.reduce((n, u) => n + operationsOf(u.spec.category, 2).length, 0);
  progress({ type: "plan", step: "time", total });
  let done = 0;
  let envCounter: DriverCounter | null = null;
  // The environment is written at the start (end null), so even a killed campaign records when it began,
  // and again at the end; a resumed campaign keeps its original start. Without a timing run of its own
  // (every job skipped on --resume) the counter is what the probe reports.
  const previousStart = options.resume ? readEnvironmentStart(paths.environment) : null;
  const writeEnvironment = async (measured: DriverCounter | null, end: string | null) => {
    const counter =
      measured ?? (await probeCounter(campaign.cc, chosenCounter(campaign), campaign.counter.fixedClockHz)).counter;
    const env = await captureEnvironment({
      system: campaign.system,
      cc: campaign.cc,
      counter: {
        kind: counter.kind,
        unit: counter.unit,
        rateHz: counter.rateHz,
        overhead: counter.overhead,
        ...(counter.serialization ? { serialization: counter.serialization } : {}),
      },
      campaign: { name: campaign.name, start: previousStart ?? started, end },
      pinnedCpu: campaign.timing.pinCpu,
      ...(campaign.config.machine?.machine ? { machine: campaign.config.machine.machine } : {}),
      ...(campaign.config.machine?.clockNote ? { clockNote: campaign.config.machine.clockNote } : {}),
      fixedFrequencyHz: campaign.counter.kind === "fixed-clock" ? (campaign.counter.fixedClockHz ?? null) : null,
    });
    writeJsonAtomic(paths.environment, env);
  };
  if (!previousStart) await writeEnvironment(null, null);

  // The plan counted a second pass for every key exchange; correct it once the instance's is known.
  const adjustPlan = (spec: InstanceSpec, passes: number) => {
    if (spec.category === "kex" && passes < 2) {
      total -= 1;
      progress({ type: "plan", step: "time", total });
    }
  };

  const writeFailure = (
    spec: InstanceSpec,
    profile: string,
    op: string,
    reason: string,
    message: string,
    extra: Partial<TimingRecord> = {},
  ) => {
    const record: TimingRecord = {
      ...baseRecord(campaign, spec, profile, op),
      status: "failed",
      failure: { reason: reason as "error", message },
      ...extra,
    };
    writeJsonAtomic(paths.timing(spec.algorithmId, spec.instance, op), record);
    summary.failed++;
    summary.failures.push({ algorithmId: spec.algorithmId, instance: spec.instance, operation: op, reason, message });
    done++;
    progress({
      type: "job",
      step: "time",
      algorithmId: spec.algorithmId,
      instance: spec.instance,
      profile,
      operation: op,
      status: "failed",
      done,
      total,
      message,
    });
  };

  for (const { spec, profile: profileName } of units) {
    const profile = campaign.profiles[profileName];
    if (!profile) throw new Error(`unknown profile ${profileName}`);
    if (options.requireKatPass) {
      const verdict = katVerdict(paths.katRecord(spec.algorithmId, spec.instance));
      if (verdict !== null && verdict !== "PASS") {
        adjustPlan(spec, 1);
        for (const op of operationsOf(spec.category, 1)) {
          writeFailure(
            spec,
            profileName,
            op,
            "kat-failed",
            `not timed: its KAT verdict is ${verdict} (see the KAT log)`,
          );
        }
        continue;
      }
    }
    const buildRoot = join(paths.buildDir, spec.algorithmId);
    let built: BuiltInstance;
    try {
      built = await buildInstance(spec, profile, campaign.cc, buildRoot, campaign.timeouts.buildMs);
      progress({
        type: "build",
        step: "time",
        algorithmId: spec.algorithmId,
        instance: spec.instance,
        profile: profileName,
        cached: built.cached,
      });
    } catch (err) {
      if (!(err instanceof BuildError)) throw err;
      adjustPlan(spec, 1);
      for (const op of operationsOf(spec.category, 1)) {
        writeFailure(spec, profileName, op, "compile-error", err.message, { commands: err.commands });
      }
      continue;
    }
    const build = {
      compiler: campaign.cc,
      compilerVersion: tc.version,
      flags: built.flags,
      ...(built.defines.length ? { defines: built.defines } : {}),
      ...(profile.ldflags.length ? { ldflags: profile.ldflags } : {}),
      sourcesSha256: built.inputsHash,
      artifact: built.sharedObject,
    };
    // API figures and the counters this machine offers; then a functional check before any timing.
    let info: DriverInfo;
    try {
      info = await infoAndCheck(built.driver, campaign, spec.instance);
    } catch (err) {
      if (!(err instanceof DriverError)) throw err;
      adjustPlan(spec, 1);
      for (const op of operationsOf(spec.category, 1)) {
        writeFailure(spec, profileName, op, err.reason, err.message, { build, commands: [commandOf(err.result)] });
      }
      continue;
    }
    const passes = info.sizes.passes ?? 1;
    adjustPlan(spec, passes);
    const counter = chooseCounter(campaign, info.counters);
    const elfImageBytes = elfLoadSize(built.sharedObject);
    for (const op of operationsOf(spec.category, passes)) {
      const recordPath = paths.timing(spec.algorithmId, spec.instance, op);
      const inputsHash = jobHash(built, campaign, op, counter);
      if (options.resume && existingHash(recordPath) === inputsHash) {
        summary.skipped++;
        done++;
        progress({
          type: "job",
          step: "time",
          algorithmId: spec.algorithmId,
          instance: spec.instance,
          profile: profileName,
          operation: op,
          status: "skipped",
          done,
          total,
        });
        continue;
      }
      const commands = [];
      try {
        const timed = await driverRun<DriverTime>(
          built.driver,
          driverTimeArgs(campaign, op, counter),
          campaign.timeouts.operationMs,
          `${spec.instance} ${op}: time`,
        );
        commands.push(commandOf(timed.result));
        const mem = await driverRun<DriverMemory>(
          built.driver,
          ["memory", "--op", op, "--msg-bytes", String(campaign.timing.messageBytes)],
          campaign.timeouts.operationMs,
          `${spec.instance} ${op}: memory`,
        );
        commands.push(commandOf(mem.result));
        const t = timed.value;
        envCounter ??= t.counter;
        const sig = t.lengths?.signatureBytes;
        const record: TimingRecord = {
          ...baseRecord(campaign, spec, profileName, op),
          status: "ok",
          inputsHash,
          build,
          counter: {
            kind: t.counter.kind,
            unit: t.counter.unit,
            rateHz: t.counter.rateHz,
            overhead: t.counter.overhead,
            ...(t.counter.serialization ? { serialization: t.counter.serialization } : {}),
            ...(t.counter.description ? { description: t.counter.description } : {}),
          },
          ...(spec.category === "sign" ? { messageBytes: campaign.timing.messageBytes } : {}),
          calibration: {
            targetTrialNs: campaign.timing.targetTrialNs,
            warmupIterations: t.warmupIterations,
            minIterations: campaign.timing.minIterations,
          },
          trials: t.trials,
          aggregates: aggregate(t.trials, campaign.timing.unstableThreshold),
          memory: { elfImageBytes, baselineRssKiB: mem.value.baselineRssKiB, peakRssKiB: mem.value.peakRssKiB },
          ...(sig && sig.count > 0
            ? {
                lengths: {
                  signatureBytes: { min: sig.min, max: sig.max, mean: sig.sum / sig.count, samples: sig.count },
                },
              }
            : {}),
          commands,
        };
        writeJsonAtomic(recordPath, record);
        summary.records++;
        done++;
        progress({
          type: "job",
          step: "time",
          algorithmId: spec.algorithmId,
          instance: spec.instance,
          profile: profileName,
          operation: op,
          status: "ok",
          done,
          total,
        });
      } catch (err) {
        if (!(err instanceof DriverError)) throw err;
        commands.push(commandOf(err.result));
        writeFailure(spec, profileName, op, err.reason, err.message, { build, commands, inputsHash });
      }
    }
  }
  // Environment of the system at the end: the counter as the timing runs reported it.
  await writeEnvironment(envCounter, new Date().toISOString());
  return summary;
}
