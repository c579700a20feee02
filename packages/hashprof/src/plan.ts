// The profile step's plan, made before the first job: a unit per instance × build profile with a job per
// operation (a key exchange's pass2 only when its api.h has two passes), then per algorithm a survey unit per
// build profile over the instances --only selects; every job's inputsHash from the inputs alone, nothing built.
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  type BuildProfile,
  buildInputsHash,
  type InstanceSpec,
  instanceNames,
  instanceUnits,
  type Job,
  plannedOperations,
  selectUnits,
  sha256,
  type Unit,
} from "@ngcc-perf/runner";
import { readSubmissionBytes } from "@ngcc-perf/schema";
import { PROFILE_RECIPE, profileInputsHash } from "./build.ts";
import type { InstanceWork, ProfileContext, ProfileWork } from "./context.ts";
import { groupsFor } from "./groups.ts";
import { MAX_KAT_FILE_BYTES } from "./kat-check.ts";
import { curatedNotes, type SurveyNote } from "./survey.ts";

/**
 * The committed KAT file's SHA-256 for an inputs hash: read as the kat step reads it (a regular file inside the
 * submission, at most MAX_KAT_FILE_BYTES; a folder, a FIFO, a link out or a 2 GB file is not read), or the hash
 * of why not; null when there is none.
 */
function katFileHash(root: string, file: string): string | null {
  if (!existsSync(file)) return null;
  const r = readSubmissionBytes(root, file, MAX_KAT_FILE_BYTES);
  return r.error === undefined ? sha256(r.bytes) : sha256(`unreadable: ${r.error}`);
}

type Hashes = (spec: InstanceSpec, profile: BuildProfile) => { build: string; timingBuild: string; kat: string | null };

/** The input hashes of an instance under a profile (its profiling and timing builds, its committed KAT file). */
function buildHashes(pc: ProfileContext): Hashes {
  const known = new Map<string, ReturnType<Hashes>>();
  return (spec, profile) => {
    const name = `${spec.algorithmId}/${spec.instance}/${profile.name}`;
    const cached = known.get(name);
    if (cached) return cached;
    const katFile = spec.kat?.file ? join(spec.submissionDir, spec.kat.file) : null;
    const hashes = {
      build: profileInputsHash(spec, profile, pc.tc, groupsFor(pc.campaign, spec)),
      timingBuild: buildInputsHash(spec, profile, pc.tc),
      kat: katFile ? katFileHash(spec.submissionDir, katFile) : null,
    };
    known.set(name, hashes);
    return hashes;
  };
}

/** The survey units of one algorithm: one per build profile of the chosen instances. */
function surveyUnits(
  pc: ProfileContext,
  algorithmId: string,
  chosen: ReadonlyArray<Unit<InstanceWork>>,
  note: SurveyNote | null,
  hashes: Hashes,
): Array<Unit<ProfileWork>> {
  const profiles = [...new Set(chosen.map((u) => u.profile))];
  return profiles.map((profile) => {
    const specs = chosen.filter((u) => u.profile === profile).map((u) => u.work.spec);
    const key = { system: pc.campaign.system, algorithmId, buildProfile: profile.name };
    const builds = specs.map((s) => [s.instance, hashes(s, profile).build]);
    const job: Job = {
      operation: "survey",
      entry: { kind: "survey", key },
      inputsHash: sha256(JSON.stringify({ recipe: PROFILE_RECIPE, builds, note })),
    };
    return {
      key,
      profile,
      names: [algorithmId, ...specs.flatMap((s) => instanceNames(algorithmId, s.instance))],
      jobs: [job],
      work: { kind: "survey", algorithm: { id: algorithmId }, specs },
    };
  });
}

/** Every unit of the campaign, each algorithm's survey units right after its instance units. */
export async function planProfile(pc: ProfileContext, only: string[] | undefined): Promise<Array<Unit<ProfileWork>>> {
  const { campaign, tc } = pc;
  const notes = curatedNotes(campaign); // a bad notes file is bad input: fail before building anything
  const hashes = buildHashes(pc);
  const instances = await instanceUnits<InstanceWork>(
    campaign,
    (spec, profile, operation, key) => ({
      operation,
      entry: { kind: "hash-profile", key: { ...key, operation } },
      inputsHash: sha256(
        JSON.stringify({ ...hashes(spec, profile), operation, counter: campaign.counter, timing: campaign.timing }),
      ),
    }),
    (spec) => plannedOperations(spec, tc, campaign.timeouts.buildMs),
    (spec) => ({ kind: "instance", spec, groups: groupsFor(campaign, spec) }),
  );
  const chosen = selectUnits(instances, { out: pc.out, ...(only ? { only } : {}) });
  const algorithms = [...new Set(instances.map((u) => u.key.algorithmId))];
  return algorithms.flatMap((id) => [
    ...instances.filter((u) => u.key.algorithmId === id),
    ...surveyUnits(
      pc,
      id,
      chosen.filter((u) => u.key.algorithmId === id),
      notes.get(id) ?? null,
      hashes,
    ),
  ]);
}
