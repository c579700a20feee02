// The pipeline's steps as the command line offers them: one table of the steps in the order they run — the
// runner's build, time, memory, code-size, instructions and constant-time, the KAT verifier, the hash/DRNG profiler, the
// size auditor and the report. Each row is the step's pipeline object: its name, whether the KAT gates it, and
// how it runs. Wiring only; each step's logic lives in its package.
import { resolve } from "node:path";
import { profileStep } from "@ngcc-perf/hashprof";
import { katStep } from "@ngcc-perf/kat";
import {
  buildStep,
  codeSizeStep,
  constantTimeStep,
  emptySummary,
  instructionsStep,
  memoryStep,
  type PipelineStep,
  type StepName,
  timeStep,
} from "@ngcc-perf/runner";
import { sizesStep } from "@ngcc-perf/sizes";

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

/** Every step, in pipeline order: --steps names a subset, run in this order whatever order it is given in. */
export const STEPS: readonly PipelineStep[] = [
  buildStep,
  katStep,
  timeStep,
  memoryStep,
  codeSizeStep,
  instructionsStep,
  constantTimeStep,
  profileStep,
  sizesStep,
  reportStep,
];

/** The names of the steps, in pipeline order. */
export const stepNames = (): StepName[] => STEPS.map((s) => s.name);

/** The steps of the table with one of these names, in pipeline order. */
export function pipelineSteps(names: readonly StepName[]): PipelineStep[] {
  return STEPS.filter((s) => names.includes(s.name));
}
