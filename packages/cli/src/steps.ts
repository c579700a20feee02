// The pipeline's steps as the command line offers them: the runner's build and time, the KAT verifier, the
// hash/DRNG profiler, the size auditor and the report. Wiring only; each step's logic lives in its package.
import { resolve } from "node:path";
import { profileStep } from "@ngcc-perf/hashprof";
import { type KatOptions, katCampaign } from "@ngcc-perf/kat";
import {
  buildStep,
  constantTimeCampaign,
  emptySummary,
  instructionsCampaign,
  memoryCampaign,
  type PipelineStep,
  type StepName,
  timeStep,
} from "@ngcc-perf/runner";
import { sizesStep } from "@ngcc-perf/sizes";

export const STEP_NAMES: readonly StepName[] = [
  "build",
  "kat",
  "time",
  "memory",
  "instructions",
  "constant-time",
  "profile",
  "sizes",
  "report",
];

/**
 * The stack and heap high-water: run when `asked` (named in --steps) or when the campaign sets
 * `memory: { enabled: true }`; otherwise it plans nothing.
 */
export function memoryStepWith(asked: boolean): PipelineStep {
  return { name: "memory", run: (c, o) => memoryCampaign(c, { ...o, asked }) };
}

/**
 * The instruction counts under valgrind: run when `asked` (named in --steps) or when the campaign sets
 * `instructions: { enabled: true }`; otherwise it plans nothing.
 */
export function instructionsStepWith(asked: boolean): PipelineStep {
  return { name: "instructions", run: (c, o) => instructionsCampaign(c, { ...o, asked }) };
}

/**
 * The constant-time smoke test under valgrind's memcheck: run when `asked` (named in --steps) or when the campaign
 * sets `constantTime: { enabled: true }`; otherwise it plans nothing.
 */
export function constantTimeStepWith(asked: boolean): PipelineStep {
  return { name: "constant-time", run: (c, o) => constantTimeCampaign(c, { ...o, asked }) };
}

/** The KAT step; `jobs` instances at once (default: the step's own). */
export function katStepWith(jobs?: number): PipelineStep {
  return { name: "kat", run: (c, o) => katCampaign(c, { ...o, ...(jobs ? { jobs } : {}) } as KatOptions) };
}

/** The report over the store the steps wrote. Loaded on use: the charting libraries cost start-up time. */
export const reportStep: PipelineStep = {
  name: "report",
  run: async (campaign, options) => {
    const { renderSite } = await import("@ngcc-perf/report");
    const r = await renderSite(options.out, { out: options.out, formats: ["md", "html"] });
    return {
      ...emptySummary(),
      records: r.pages,
      pages: r.pages,
      site: resolve(r.siteDir, campaign.system, "index.html"),
      notes: r.failedRecords > 0 ? [`${r.failedRecords} failed record(s) shown as FAILED`] : [],
    };
  },
};

export function stepsNamed(names: readonly StepName[], jobs?: number, asked: readonly StepName[] = []): PipelineStep[] {
  const all: Record<StepName, PipelineStep> = {
    build: buildStep,
    kat: katStepWith(jobs),
    time: timeStep,
    memory: memoryStepWith(asked.includes("memory")),
    instructions: instructionsStepWith(asked.includes("instructions")),
    "constant-time": constantTimeStepWith(asked.includes("constant-time")),
    profile: profileStep,
    sizes: sizesStep,
    report: reportStep,
  };
  return names.map((n) => all[n]);
}
