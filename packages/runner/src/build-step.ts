// The build step on its own (`--steps build`): compile every selected instance per build profile into the
// build cache, so later steps find their builds ready. A compile error is reported, not recorded: the time
// step records it as a failure of each operation.
import { buildPath } from "@ngcc-perf/schema";
import { BuildError, buildInputsHash, buildInstance, type Toolchain, toolchain } from "./build.ts";
import type { InstanceSpec } from "./instances.ts";
import type { ResolvedCampaign } from "./resolved.ts";
import { runStep, type StepDefinition } from "./step/run.ts";
import type { StepOptions, StepSummary } from "./step/types.ts";
import { instanceUnits } from "./time.ts";

/** The build step as the runner's StepDefinition: a unit per instance × build profile, one build job each. */
export function defineBuild(
  campaign: ResolvedCampaign,
  tc: Toolchain,
  options: StepOptions,
): StepDefinition<{ spec: InstanceSpec }> {
  return {
    name: "build",
    plan: () =>
      instanceUnits(
        campaign,
        (spec, profile) => ({
          operation: "build",
          entry: null,
          inputsHash: buildInputsHash(spec, profile, tc),
        }),
        async () => ["build"],
        (spec) => ({ spec }),
      ),
    outcomeOf: () => null,
    failureRecord: () => null,
    failureOf: (err) => (err instanceof BuildError ? { reason: "compile-error", message: err.message } : null),
    run: async (unit, [job], ctx) => {
      if (!job) return;
      ctx.note(unit.work.spec.notes ?? []); // before the build: said even when it fails
      const built = await buildInstance(
        unit.work.spec,
        unit.profile,
        tc,
        buildPath(options.out, unit.key),
        campaign.timeouts.buildMs,
      );
      ctx.done(job, built.cached ? "skipped" : "ok");
    },
  };
}

export async function buildCampaign(campaign: ResolvedCampaign, options: StepOptions): Promise<StepSummary> {
  return runStep(defineBuild(campaign, await toolchain(campaign.context), options), options);
}
