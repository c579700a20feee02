// One algorithm under one build profile: the survey record from its instances' profiling builds under that
// profile (cached by the instance units before it; built here for instances another shard profiles). An
// instance whose build failed is left out; with none left there is nothing to survey, and the job fails.
import type { BuildProfile, InstanceSpec, Job, Unit, UnitContext } from "@ngcc-perf/runner";
import { type AlgorithmKey, unitName } from "@ngcc-perf/schema";
import type { ProfileBuild } from "./build.ts";
import { instanceKey, isBuildFailure, type ProfileContext, profilingBuild, type SurveyWork } from "./context.ts";
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

export async function runSurveyUnit(
  pc: ProfileContext,
  unit: Unit<SurveyWork>,
  pending: Job[],
  ctx: UnitContext,
): Promise<void> {
  const key = unit.key as AlgorithmKey;
  const built: Array<{ spec: InstanceSpec; build: ProfileBuild }> = [];
  for (const spec of unit.work.specs) {
    const build = await builtForSurvey(pc, spec, unit.profile);
    if (build) built.push({ spec, build });
  }
  for (const job of pending) {
    if (built.length > 0) {
      const record = surveyAlgorithm(pc.campaign, unit.work.algorithm, built, key.buildProfile);
      ctx.write(job, job.inputsHash ? { ...record, inputsHash: job.inputsHash } : record);
    } else {
      const message = `no instance of ${key.algorithmId} could be built under ${key.buildProfile}: nothing to survey`;
      ctx.done(job, "failed", { reason: "compile-error", message });
    }
  }
}
