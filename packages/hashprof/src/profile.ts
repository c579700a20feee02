// The profile step: for every instance × build profile × operation, a hash-profile record (the share of the
// operation's time in each symbol group, calls per operation per symbol, the wrapper overhead, blind spots),
// or a failure record; per algorithm × build profile a survey record. A measurement over the runner's
// measurement layer: the plan (and so the progress total) is complete before the first job. The campaign goes
// on after a failure.
import {
  instanceStep,
  type Measurement,
  type MeasurementOptions,
  type PipelineStep,
  type ResolvedCampaign,
  runMeasurement,
  type StepSummary,
} from "@ngcc-perf/runner";
import type { HashProfileRecord } from "@ngcc-perf/schema";
import type { ProfilePrepared } from "./context.ts";
import { profileInputs, surveyInputs } from "./inputs.ts";
import { buildProfiledUnit, type ProfiledBuilds, profileOperations } from "./instance-unit.ts";
import { katCheckFailure } from "./kat-check.ts";
import { curatedNotes } from "./survey.ts";
import { runSurveyUnit } from "./survey-unit.ts";

/** The profile step's options: the step's, and requireKatPass (the pipeline sets it). */
export type ProfileOptions = MeasurementOptions;
export type ProfileSummary = StepSummary;

/** The profile measurement: KAT-gated; a bad notes file is bad input before anything is built. */
export const profileMeasurement: Measurement<ProfilePrepared, ProfiledBuilds> = {
  name: "profile",
  kind: "hash-profile",
  katGate: true,
  check: (campaign) => {
    curatedNotes(campaign);
  },
  prepare: async (campaign) => ({ notes: curatedNotes(campaign), failedBuilds: new Set(), hashes: new Map() }),
  inputs: profileInputs,
  build: buildProfiledUnit,
  failureFields: (_env, built) => ({ build: built.facts }),
  measureAll: profileOperations,
  // A profiled KAT build that did not reproduce the KAT fails its records (and they are made again on --resume).
  recordFailure: (record) => katCheckFailure((record as HashProfileRecord).katCheck),
  perAlgorithm: { kind: "survey", inputs: surveyInputs, run: runSurveyUnit },
};

/** The profile step on its own (the pipeline writes the environment around it). */
export const profileCampaign = (campaign: ResolvedCampaign, options: ProfileOptions): Promise<ProfileSummary> =>
  runMeasurement(profileMeasurement, campaign, options);

/** The pipeline's profile step (KAT-gated: runPipeline sets requireKatPass). */
export const profileStep: PipelineStep = instanceStep(profileMeasurement);
