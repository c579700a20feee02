// What the profile step's records depend on, hashed before anything is built: an instance's profiling build
// (beside the timing build the measurement layer hashes), its committed KAT file, the operation, the counter and
// the timing settings; a survey's profiling builds of its instances and its curated note.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type BuildProfile, type InstanceSpec, sha256 } from "@ngcc-perf/runner";
import { readSubmissionBytes } from "@ngcc-perf/schema";
import { PROFILE_RECIPE, profileInputsHash } from "./build.ts";
import type { ProfileEnv } from "./context.ts";
import { groupsFor } from "./groups.ts";
import { MAX_KAT_FILE_BYTES } from "./kat-check.ts";

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

/** The input hashes of an instance's profiling build and committed KAT file under a profile (once per run). */
function hashesOf(env: ProfileEnv, spec: InstanceSpec, profile: BuildProfile) {
  const name = `${spec.algorithmId}/${spec.instance}/${profile.name}`;
  const known = env.prepared.hashes.get(name);
  if (known) return known;
  const katFile = spec.kat?.file ? join(spec.submissionDir, spec.kat.file) : null;
  const hashes = {
    profilingBuild: profileInputsHash(spec, profile, env.tc, groupsFor(env.campaign, spec)),
    kat: katFile ? katFileHash(spec.submissionDir, katFile) : null,
  };
  env.prepared.hashes.set(name, hashes);
  return hashes;
}

/** What a hash-profile record depends on beside the timing build. */
export function profileInputs(env: ProfileEnv, spec: InstanceSpec, profile: BuildProfile, operation: string) {
  const { counter, timing } = env.campaign;
  return { ...hashesOf(env, spec, profile), operation, counter, timing };
}

/** What a survey record depends on: the profiling builds of its instances and the algorithm's curated note. */
export function surveyInputs(
  env: ProfileEnv,
  algorithmId: string,
  profile: BuildProfile,
  specs: readonly InstanceSpec[],
) {
  const builds = specs.map((s) => [s.instance, hashesOf(env, s, profile).profilingBuild]);
  return { recipe: PROFILE_RECIPE, builds, note: env.prepared.notes.get(algorithmId) ?? null };
}
