import { type EnvironmentRecord, recordPath, systemDir } from "@ngcc-perf/schema";
import { buildMeasurement } from "./build-step.ts";
import type { Campaign } from "./campaign.ts";
import { codeSizeMeasurement } from "./code-size.ts";
import { constantTimeMeasurement } from "./constant-time.ts";
import { captureEnvironment } from "./env.ts";
import { checkOnly } from "./instances.ts";
import { instructionsMeasurement } from "./instructions.ts";
import { memoryMeasurement } from "./memory.ts";
import { probeCounter } from "./probe.ts";
import { resolveCampaign } from "./resolved.ts";
import { instanceStep } from "./step/measurement.ts";
import type { PipelineStep, PipelineStepOptions, PipelineStepResult } from "./step/pipeline-step.ts";
import type { StepName, StepOptions } from "./step/types.ts";
import { closeWriteJournal, openWriteJournal, readJsonOrNull, removeStaleTemps, writeJsonAtomic } from "./store.ts";
import { verifyStore, writeStoreIndex } from "./store-index.ts";
import { timeMeasurement } from "./time.ts";

export type { PipelineStep, PipelineStepOptions, PipelineStepResult } from "./step/pipeline-step.ts";

export const buildStep = instanceStep(buildMeasurement);
/** The timings, KAT-gated. */
export const timeStep = instanceStep(timeMeasurement);
/** The stack and heap high-water: run when asked (named in --steps) or when the campaign sets `memory: { enabled: true }`. */
export const memoryStep = instanceStep(memoryMeasurement);
/** The code and data size by ELF section: when the memory step runs (the footprint adds them), or when asked. */
export const codeSizeStep = instanceStep(codeSizeMeasurement);
/** The instruction counts under valgrind: when asked or when the campaign sets `instructions: { enabled: true }`. */
export const instructionsStep = instanceStep(instructionsMeasurement);
/** The constant-time smoke test under memcheck: when asked or when the campaign sets `constantTime: { enabled: true }`. */
export const constantTimeStep = instanceStep(constantTimeMeasurement);

export interface PipelineOptions extends StepOptions {
  /** The steps to run, in the order given (the command line's table of steps keeps them in pipeline order). */
  steps: readonly PipelineStep[];
  /** The steps named on the command line (--steps); see PipelineStepOptions.asked. */
  asked?: readonly StepName[];
  /** Units run at once by a step that runs several (kat). */
  jobs?: number;
  /** Called when a step starts and ends (the CLI prints them). */
  onStep?: (
    e: { step: StepName; phase: "start" } | { step: StepName; phase: "end"; result: PipelineStepResult },
  ) => void;
}

export interface PipelineResult {
  out: string;
  system: string;
  /** Records of measurements that failed (KAT mismatch, compile error, crash, timeout …), over all steps. */
  failed: number;
  steps: Partial<Record<StepName, PipelineStepResult>>;
  /** The system's index page, when the report ran. */
  site: string | null;
  /** Temporary files of an interrupted run that were removed first. */
  staleRemoved: number;
  seconds: number;
}

/** Writes the system's environment record with the campaign's start and end (end null while running). */
async function writeEnvironment(campaign: Campaign, out: string, start: string, end: string | null): Promise<void> {
  const path = recordPath(out, { kind: "environment", key: { system: campaign.system } });
  const kind = campaign.counter.kind === "auto" ? undefined : campaign.counter.kind;
  const { counter } = await probeCounter(campaign.cc, campaign.context, kind, campaign.counter.fixedClockHz);
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
    campaign: { name: campaign.name, start, end },
    pinnedCpu: campaign.timing.pinCpu,
    ...(campaign.config.machine?.machine ? { machine: campaign.config.machine.machine } : {}),
    ...(campaign.config.machine?.clockNote ? { clockNote: campaign.config.machine.clockNote } : {}),
    fixedFrequencyHz: campaign.counter.kind === "fixed-clock" ? (campaign.counter.fixedClockHz ?? null) : null,
    target: campaign.target,
  });
  writeJsonAtomic(path, env);
}

/**
 * Runs the given steps of a campaign in order into `options.out`: verifies an existing store against its index
 * (and the write journal of an interrupted run) before writing anything, removes what an interrupted run left,
 * writes the environment (a resumed campaign keeps its start), runs each step with the KAT gate for time and
 * profile — every record journaled as it is written — stamps the campaign's end, writes the store index of what
 * was verified and, last, runs the report.
 */
export async function runPipeline(loaded: Campaign, options: PipelineOptions): Promise<PipelineResult> {
  const t0 = Date.now();
  const { out } = options;
  // Bad input (a missing submission, a bad meta.json) is refused before anything is written; the steps plan from
  // this one resolution (meta.json read once, build profiles as objects).
  const campaign = resolveCampaign(loaded);
  checkOnly(campaign.algorithms, options.only);
  for (const step of options.steps) await step.prepare?.(campaign);
  const ordered = options.steps;
  const measuring = ordered.filter((s) => s.name !== "report");
  const report = ordered.find((s) => s.name === "report");
  // A store edited, pruned or added to behind its index is refused before a step writes into it (never re-hashed).
  const verified = measuring.length > 0 ? verifyStore(out, campaign.system, "before") : null;
  const staleRemoved = removeStaleTemps(out);
  const envPath = recordPath(out, { kind: "environment", key: { system: campaign.system } });
  const previous = options.resume ? readJsonOrNull<EnvironmentRecord>(envPath) : null;
  const start = previous?.campaign.start ?? new Date(t0).toISOString();
  const result: PipelineResult = {
    out,
    system: campaign.system,
    failed: 0,
    steps: {},
    site: null,
    staleRemoved,
    seconds: 0,
  };
  const { steps: _steps, asked = [], onStep: _onStep, ...common } = options;
  const optionsOf = (step: PipelineStep): PipelineStepOptions => ({
    ...common,
    requireKatPass: step.katGate ?? false,
    asked: asked.includes(step.name),
  });
  if (verified) {
    const dir = systemDir(out, campaign.system);
    openWriteJournal(dir, {
      system: campaign.system,
      indexSha256: verified.indexSha256 ?? null,
      continueJournal: verified.journal === "current",
      by: `ngcc-perf ${ordered.map((s) => s.name).join(",")}${options.resume ? " --resume" : ""} (pid ${process.pid})`,
    });
    try {
      await writeEnvironment(campaign, out, start, null);
      for (const step of measuring) {
        options.onStep?.({ step: step.name, phase: "start" });
        const r = await step.run(campaign, optionsOf(step));
        result.steps[step.name] = r;
        result.failed += r.failed;
        options.onStep?.({ step: step.name, phase: "end", result: r });
      }
      await writeEnvironment(campaign, out, start, new Date().toISOString());
      writeStoreIndex(campaign, out);
    } finally {
      // Kept on disk when the run did not get to its index: the next run accepts what this one wrote.
      closeWriteJournal(dir, { remove: false });
    }
  }
  if (report) {
    options.onStep?.({ step: "report", phase: "start" });
    const r = await report.run(campaign, optionsOf(report));
    result.steps.report = r;
    result.site = r.site ?? null;
    options.onStep?.({ step: "report", phase: "end", result: r });
  }
  result.seconds = (Date.now() - t0) / 1000;
  return result;
}
