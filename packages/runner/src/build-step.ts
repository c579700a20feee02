// The build step on its own (`--steps build`): compile every selected instance per build profile into the
// build cache, so later steps find their builds ready. A compile error is reported, not recorded: the
// time step records it as a failure of each operation.
import { join } from "node:path";
import { BuildError, buildInstance } from "./build.ts";
import type { Campaign } from "./campaign.ts";
import { resolveAlgorithms } from "./instances.ts";
import { emptySummary, inShard, type StepOptions, type StepSummary } from "./step.ts";
import { storePaths } from "./store.ts";
import { selected } from "./time.ts";

export async function buildCampaign(campaign: Campaign, options: StepOptions): Promise<StepSummary> {
  const summary = emptySummary();
  const progress = options.onProgress ?? (() => {});
  const paths = storePaths(options.out, campaign.system);
  const units = resolveAlgorithms(campaign).flatMap((a) =>
    a.instances
      .filter((s) => selected(s, options.only))
      .flatMap((s) => s.buildProfiles.map((p) => ({ spec: s, profile: p })))
      .filter((u) => inShard(`${u.spec.algorithmId}/${u.spec.instance}/${u.profile}`, options.shard)),
  );
  progress({ type: "plan", step: "build", total: units.length });
  let done = 0;
  for (const { spec, profile } of units) {
    const p = campaign.profiles[profile];
    if (!p) throw new Error(`unknown profile ${profile}`);
    const event = {
      type: "job" as const,
      step: "build" as const,
      algorithmId: spec.algorithmId,
      instance: spec.instance,
      profile,
      operation: "build",
    };
    try {
      const built = await buildInstance(
        spec,
        p,
        campaign.cc,
        join(paths.buildDir, spec.algorithmId),
        campaign.timeouts.buildMs,
      );
      if (built.cached) summary.skipped++;
      else summary.records++;
      progress({ ...event, status: built.cached ? "skipped" : "ok", done: ++done, total: units.length });
    } catch (err) {
      if (!(err instanceof BuildError)) throw err;
      summary.failed++;
      summary.failures.push({
        algorithmId: spec.algorithmId,
        instance: spec.instance,
        reason: "compile-error",
        message: err.message,
      });
      progress({ ...event, status: "failed", done: ++done, total: units.length, message: err.message });
    }
  }
  return summary;
}
