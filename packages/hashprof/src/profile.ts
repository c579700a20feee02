// The profile step: for every instance × build profile × operation, a hash-profile record (the share of the
// operation's time in each symbol group, calls per operation per symbol, the wrapper overhead, blind spots),
// or a failure record; per algorithm × build profile a survey record. One step definition run by the runner's
// runStep: the plan (and so the progress total) is complete before the first job. The campaign goes on after
// a failure.

import {
  buildOrDriverFailure,
  katGate,
  type PipelineStep,
  type ResolvedCampaign,
  runStep,
  type StepDefinition,
  type StepOptions,
  type StepSummary,
  type Toolchain,
  toolchain,
  type Unit,
} from "@ngcc-perf/runner";
import type { HashProfileRecord, InstanceKey } from "@ngcc-perf/schema";
import type { InstanceWork, ProfileContext, ProfileWork, SurveyWork } from "./context.ts";
import { ProfilingBuildError } from "./errors.ts";
import { profileFailureRecord, runInstanceUnit } from "./instance-unit.ts";
import { katCheckFailure } from "./kat-check.ts";
import { planProfile } from "./plan.ts";
import { curatedNotes } from "./survey.ts";
import { runSurveyUnit } from "./survey-unit.ts";

export interface ProfileOptions extends StepOptions {
  /** Do not profile an instance under a profile whose KAT record says FAIL or ERROR (the pipeline sets it). */
  requireKatPass?: boolean;
}
export type ProfileSummary = StepSummary;

const isInstance = (u: Unit<ProfileWork>): u is Unit<InstanceWork> => u.work.kind === "instance";

/** A hash-profile record's failure: its own, or a profiled KAT build that did not reproduce the KAT. */
function outcomeOf(record: unknown): { reason: string; message: string } | null {
  const r = record as Partial<HashProfileRecord> & { kind: string };
  if (r.kind !== "hash-profile") return null; // a survey record has no failure form
  if (r.status !== "ok") return { reason: r.failure?.reason ?? "error", message: r.failure?.message ?? "" };
  return katCheckFailure(r.katCheck);
}

/** The profile step as the runner's StepDefinition. */
export function defineProfile(
  campaign: ResolvedCampaign,
  tc: Toolchain,
  options: ProfileOptions,
): StepDefinition<ProfileWork> {
  const pc: ProfileContext = { campaign, tc, out: options.out, failedBuilds: new Set() };
  return {
    name: "profile",
    plan: () => planProfile(pc, options.only),
    gate: (unit) => (options.requireKatPass && isInstance(unit) ? katGate(pc.out, unit.key as InstanceKey) : null),
    failureOf: (err) =>
      err instanceof ProfilingBuildError
        ? { reason: "error", message: `profiling build: ${err.message}` }
        : buildOrDriverFailure(err),
    outcomeOf,
    // On --resume a record stands when its inputs are the same and it passed, the profiled KAT check included
    // (a survey record carries no inputsHash: it is made again, from the cached builds).
    isCurrent: (record, job) => {
      const r = record as { inputsHash?: string } | null;
      return !!r && job.inputsHash !== null && r.inputsHash === job.inputsHash && outcomeOf(r) === null;
    },
    failureRecord: (unit, job, f) => {
      if (!isInstance(unit)) throw new Error(`profile: the survey of ${unit.key.algorithmId} has no failure record`);
      return profileFailureRecord(pc, unit, job, f);
    },
    run: (unit, pending, ctx) =>
      isInstance(unit)
        ? runInstanceUnit(pc, unit, pending, ctx)
        : runSurveyUnit(pc, unit as Unit<SurveyWork>, pending, ctx),
  };
}

/** The profile step on its own (the pipeline writes the environment around it). */
export async function profileCampaign(campaign: ResolvedCampaign, options: ProfileOptions): Promise<ProfileSummary> {
  return runStep(defineProfile(campaign, await toolchain(campaign.context), options), options);
}

/** The pipeline's profile step (KAT-gated: runPipeline sets requireKatPass). */
export const profileStep: PipelineStep = {
  name: "profile",
  katGate: true,
  prepare: (campaign) => {
    curatedNotes(campaign);
  },
  run: (c, o) => profileCampaign(c, o),
};
