// The build step on its own (`--steps build`): compile every selected instance per build profile into the
// build cache, so later steps find their builds ready. A compile error is reported, not recorded: the time
// step records it as a failure of each operation.
import type { ResolvedCampaign } from "./resolved.ts";
import { buildUnit, type Measurement, type MeasurementOptions, runMeasurement } from "./step/measurement.ts";

/** The build step as a measurement whose one job per instance × build profile is the build, writing no record. */
export const buildMeasurement: Measurement<undefined, undefined> = {
  name: "build",
  kind: null,
  operations: async () => ["build"],
  measureAll: async (env, unit, _built, [job], ctx) => {
    if (!job) return;
    const built = await buildUnit(env, unit);
    ctx.done(job, built.cached ? "skipped" : "ok");
  },
};

export const buildCampaign = (campaign: ResolvedCampaign, options: MeasurementOptions) =>
  runMeasurement(buildMeasurement, campaign, options);
