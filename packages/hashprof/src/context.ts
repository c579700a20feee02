// What the profile step's units share: the campaign, the toolchain, the store, and the profiling builds that
// failed in this run (so that the survey leaves them out instead of building them a second time).
import {
  BuildError,
  type BuildProfile,
  type InstanceSpec,
  type MeasureEnv,
  type ResolvedCampaign,
  type Toolchain,
} from "@ngcc-perf/runner";
import { buildPath, type InstanceKey, unitName } from "@ngcc-perf/schema";
import { buildProfiled, type ProfileBuild } from "./build.ts";
import { ProfilingBuildError } from "./errors.ts";
import { groupsFor } from "./groups.ts";
import type { SurveyNote } from "./survey.ts";

export interface ProfileContext {
  campaign: ResolvedCampaign;
  tc: Toolchain;
  out: string;
  /** Unit names (see unitName) of instances whose profiling build failed in this run. */
  failedBuilds: Set<string>;
}

/** What the profile step prepares before planning: the curated notes, and what one run remembers. */
export interface ProfilePrepared {
  notes: Map<string, SurveyNote>;
  failedBuilds: Set<string>;
  /** The input hashes of an instance's profiling build and committed KAT file, by "<alg>/<instance>/<profile>". */
  hashes: Map<string, { profilingBuild: string; kat: string | null }>;
}

export type ProfileEnv = MeasureEnv<ProfilePrepared>;

/** The profile context of a measurement's environment. */
export function contextOf(env: ProfileEnv): ProfileContext {
  return { campaign: env.campaign, tc: env.tc, out: env.out, failedBuilds: env.prepared.failedBuilds };
}

export function instanceKey(campaign: ResolvedCampaign, spec: InstanceSpec, profile: BuildProfile): InstanceKey {
  return {
    system: campaign.system,
    algorithmId: spec.algorithmId,
    instance: spec.instance,
    buildProfile: profile.name,
  };
}

/** Whether an error is a profiling build's measured failure (a compile error, a symbol that cannot be wrapped). */
export function isBuildFailure(err: unknown): err is BuildError | ProfilingBuildError {
  return err instanceof BuildError || err instanceof ProfilingBuildError;
}

/**
 * The profiling build of an instance under a profile, cached in <out>/build/<system>/<algorithm>/<profile>/profile/.
 * A failure is remembered for the rest of the run and thrown on.
 */
export async function profilingBuild(
  pc: ProfileContext,
  spec: InstanceSpec,
  key: InstanceKey,
  profile: BuildProfile,
): Promise<ProfileBuild> {
  const { campaign } = pc;
  const root = buildPath(pc.out, key, "profile");
  const groups = groupsFor(campaign, spec);
  try {
    return await buildProfiled(spec, profile, pc.tc, groups, root, campaign.timeouts.buildMs);
  } catch (err) {
    if (isBuildFailure(err)) pc.failedBuilds.add(unitName(key));
    throw err;
  }
}
