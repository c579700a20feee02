// One algorithm under one build profile: the survey record from its instances' profiling builds under that
// profile (cached by the instance units before it; built here for instances another shard profiles). An
// instance whose build failed is left out; with none left there is nothing to survey, and the job fails.
import type { AlgorithmWork, BuildProfile, InstanceSpec, Job, Unit, UnitContext } from "@ngcc-perf/runner";
import { type AlgorithmKey, unitName } from "@ngcc-perf/schema";
import type { ProfileBuild } from "./build.ts";
import {
  contextOf,
  instanceKey,
  isBuildFailure,
  type ProfileContext,
  type ProfileEnv,
  profilingBuild,
} from "./context.ts";
import { surveyAlgorithm } from "./survey.ts";

/** The profiling build of an instance for the survey, or null when it failed (in this run or now). */
async function builtForSurvey(pc: ProfileContext, spec: InstanceSpec, profile: BuildProfile) {
  const key = instanceKey(pc.campaign, spec, profile);
  if (pc.failedBuilds.has(unitName(key))) return null;
  try {
    return await profilingBuild(pc, spec, key, profile);
  } catch (err) {
    if (isBuildFailure(err)) return null;
    throw err;
  }
}

export async function runSurveyUnit(env: ProfileEnv, unit: Unit<AlgorithmWork>, job: Job, ctx: UnitContext) {
  const pc = contextOf(env);
  const key = unit.key as AlgorithmKey;
  const built: Array<{ spec: InstanceSpec; build: ProfileBuild }> = [];
  for (const spec of unit.work.specs) {
    const build = await builtForSurvey(pc, spec, unit.profile);
    if (build) built.push({ spec, build });
  }
  if (built.length === 0) {
    const message = `no instance of ${key.algorithmId} could be built under ${key.buildProfile}: nothing to survey`;
    return ctx.done(job, "failed", { reason: "compile-error", message });
  }
  const record = surveyAlgorithm(pc.campaign, { id: unit.work.algorithmId }, built, key.buildProfile);
  ctx.write(job, job.inputsHash ? { ...record, inputsHash: job.inputsHash } : record);
}
