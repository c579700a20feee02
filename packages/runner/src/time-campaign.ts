// The time step on its own (the pipeline writes the environment around it), with the decision of the published
// statistic (docs/methodology.md, "The published statistic"): whether an operation's work depends on its input
// is decided once per instance × operation for the whole campaign, from the per-call instruction counts of the
// instance's reference profile (its first build profile valgrind can count), and every profile's timing record
// uses that one decision: the mean for input-dependent work, else the median. Before anything is timed, the
// instructions step is run for the reference profiles (the same records and inputsHash the instructions step
// writes, so that step later finds them current instead of counting again). Where valgrind cannot count (not
// installed, an emulated campaign, AVX-512 flags in every profile, the count failed) the timing distribution
// decides, as the record and the page say.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type InstanceKey, type InstructionsRecord, inputDependence, recordPath, unitName } from "@ngcc-perf/schema";
import { toolchain } from "./build.ts";
import type { Campaign } from "./campaign.ts";
import type { InstanceSpec } from "./instances.ts";
import { defineInstructions, markCountedByPrepass } from "./instructions.ts";
import type { ResolvedCampaign } from "./resolved.ts";
import type { CentralDecision } from "./samples.ts";
import type { InstanceWork, MeasurementOptions } from "./step/measurement.ts";
import { runStep, type Unit } from "./step/run.ts";
import { inShard, type Shard } from "./step/types.ts";
import { readJsonOrNull } from "./store.ts";
import { emulated } from "./target.ts";
import { cpuHasAvx512, valgrindRefusal, valgrindVersion } from "./valgrind.ts";

/** How an operation's statistic is decided when the campaign does not set it, per instance. */
export type DecideCentral = (spec: InstanceSpec, operation: string) => CentralDecision | undefined;

/** The instance's reference profile: its first build profile whose flags valgrind accepts, or null. */
export function referenceProfile(spec: InstanceSpec, avx512: boolean): string | null {
  return spec.profiles.find((p) => valgrindRefusal(p.cflags, avx512) === null)?.name ?? null;
}

/** Whether this run (its shard) times the instance under any of its build profiles. */
function inThisRun(system: string, spec: InstanceSpec, shard: Shard | undefined): boolean {
  const { algorithmId, instance } = spec;
  return spec.profiles.some((p) => inShard(unitName({ system, algorithmId, instance, buildProfile: p.name }), shard));
}

/**
 * The decision of one operation from the store: by the reference profile's instructions record when it has
 * per-call counts, else by the distribution with the reason why not.
 */
export function decisionFromStore(
  campaign: Campaign,
  out: string,
  spec: InstanceSpec,
  operation: string,
  reference: string | null,
  notCounted: string | null,
): CentralDecision {
  if (notCounted) return { by: "distribution", why: notCounted };
  if (reference === null) {
    const first = spec.profiles[0];
    const why = (first && valgrindRefusal(first.cflags, cpuHasAvx512())) ?? "no build profile";
    const reason = why.replace(/^not counted: /, "");
    return {
      by: "distribution",
      why: `no build profile of the instance can be counted (${first?.name ?? ""}: ${reason})`,
    };
  }
  const key: InstanceKey = {
    system: campaign.system,
    algorithmId: spec.algorithmId,
    instance: spec.instance,
    buildProfile: reference,
  };
  const rec = readJsonOrNull<InstructionsRecord>(recordPath(out, { kind: "instructions", key: { ...key, operation } }));
  const d = rec ? inputDependence(rec) : null;
  if (!rec || !d) {
    const why =
      rec?.status === "failed"
        ? `the count under ${reference} failed: ${rec.failure?.message ?? "no message"}`
        : `no per-call instruction counts under ${reference}`;
    return { by: "distribution", why };
  }
  return {
    by: "instructions",
    profile: reference,
    calls: d.calls,
    minInstructions: d.minInstructions,
    maxInstructions: d.maxInstructions,
    relativeSpread: d.relativeSpread,
    threshold: d.threshold,
    inputDependent: d.inputDependent,
  };
}

/**
 * Counts the reference profiles of the instances this run times (its --only and shard; every instance with a
 * time unit of any profile in the shard), current records reused, and returns how each operation's statistic is
 * decided. A reference unit of another shard is counted too, into a scratch store (the decision needs it here,
 * and the host of that shard writes the store's record: a store holds each job once, and merge refuses two
 * copies that differ). Not run for the trials method (it publishes no central figure).
 */
export async function decideCentral(
  campaign: ResolvedCampaign,
  options: MeasurementOptions,
): Promise<DecideCentral | undefined> {
  if (campaign.timing.method === "trials") return undefined;
  const tc = await toolchain(campaign.context);
  const avx512 = cpuHasAvx512();
  let notCounted: string | null = null;
  let valgrind: string | null = null;
  if (emulated(campaign.target)) {
    notCounted = `valgrind runs programs of this host's architecture only, and this campaign's run under the emulator ${campaign.target.emulator[0]}`;
  } else {
    valgrind = await valgrindVersion();
    if (!valgrind) notCounted = "valgrind (callgrind) is not installed";
  }
  const decided = new Map<string, CentralDecision>();
  const keyOf = (spec: { algorithmId: string; instance: string }, operation: string) =>
    `${spec.algorithmId}/${spec.instance}/${operation}`;
  if (valgrind) {
    const { shard: _shard, ...rest } = options;
    // Into the store: the reference units of this shard; into a scratch store: those of other shards.
    const count = async (out: string, mine: boolean) => {
      const step = defineInstructions({ campaign, tc, options: { ...rest, out }, out, prepared: valgrind as string });
      const plan = step.plan;
      let units: Array<Unit<{ spec: InstanceSpec }>> = [];
      step.plan = async () => {
        units = ((await plan()) as Array<Unit<InstanceWork>>)
          .filter(
            (u) =>
              u.key.buildProfile === referenceProfile(u.work.spec, avx512) &&
              inThisRun(campaign.system, u.work.spec, options.shard) &&
              inShard(unitName(u.key as InstanceKey), options.shard) === mine,
          )
          // An operation whose statistic the campaign sets needs no decision.
          .map((u) => ({
            ...u,
            jobs: u.jobs.filter((j) => (campaign.timing.central[j.operation] ?? "auto") === "auto"),
          }))
          .filter((u) => u.jobs.length > 0);
        return units;
      };
      await runStep(step, { ...rest, out, resume: mine });
      for (const u of units) {
        for (const job of u.jobs) {
          if (mine) markCountedByPrepass(out, job);
          const d = decisionFromStore(campaign, out, u.work.spec, job.operation, u.key.buildProfile, null);
          decided.set(keyOf(u.work.spec, job.operation), d);
        }
      }
    };
    // Every host of a sharded campaign counts the reference profiles of the instances it times (the counts are
    // exact and the same everywhere); a current record is reused whether or not the run resumes.
    await count(options.out, true);
    if (options.shard && options.shard.count > 1) {
      const scratch = mkdtempSync(join(tmpdir(), "ngcc-reference-counts-"));
      try {
        await count(scratch, false);
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    }
  }
  return (spec, operation) => {
    const k = keyOf(spec, operation);
    let d = decided.get(k);
    if (!d) {
      d = decisionFromStore(campaign, options.out, spec, operation, referenceProfile(spec, avx512), notCounted);
      decided.set(k, d);
    }
    return d;
  };
}
