// What the pipeline runs: a step's name, whether the KAT gates it, what it checks before anything is written,
// and how it runs over a resolved campaign. The runner's measurements are made into such steps by instanceStep
// (measurement.ts); kat, hashprof, sizes and report define theirs in their packages.
import type { ResolvedCampaign } from "../resolved.ts";
import type { StepName, StepOptions, StepSummary } from "./types.ts";

export interface PipelineStepOptions extends StepOptions {
  /** Measure an instance under a profile only when its KAT under that profile passed (or was not run). */
  requireKatPass: boolean;
  /** The step was named in --steps: memory, instructions and constant-time then run whatever the campaign says. */
  asked: boolean;
  /** Units run at once by a step that runs several (kat; absent: the step's own default). */
  jobs?: number;
}

/** What a step reports: a step summary, and for the report the site it wrote. */
export interface PipelineStepResult extends StepSummary {
  /** The report: pages written and the system index page. */
  pages?: number;
  site?: string;
  /** Lines worth telling the user (e.g. "3 failed record(s) shown as FAILED"). */
  notes?: string[];
}

/**
 * A step the pipeline can run: the runner's own (build, time, memory, instructions, constant-time) or one of kat,
 * hashprof, sizes and report. The command line's table of steps (packages/cli/src/steps.ts) lists them in order.
 */
export interface PipelineStep {
  name: StepName;
  /** Run with requireKatPass: an instance is measured under a profile only when its KAT there passed (or did not run). */
  katGate?: boolean;
  /** Checks the step's own input (a size catalog, a notes file) before the pipeline writes anything. */
  prepare?(campaign: ResolvedCampaign): void | Promise<void>;
  run(campaign: ResolvedCampaign, options: PipelineStepOptions): Promise<PipelineStepResult>;
}
