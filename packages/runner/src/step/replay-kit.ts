// What the seam tests share (tests only; not exported): the demo campaign with every process it starts answered
// by a replay, a measurement's environment over it, and the measurement run on the units --only names with a
// recorded build in place of compiling C.
import { readFileSync } from "node:fs";
import { loadCampaign } from "../campaign.ts";
import { resolveCampaign } from "../resolved.ts";
import type { Replay } from "../run-context.ts";
import { defineMeasurement, type MeasureEnv, type Measurement } from "./measurement.ts";
import { runStep } from "./run.ts";

const demo = new URL("../../../../fixtures/campaigns/demo.yaml", import.meta.url).pathname;

/** What the native programs printed once (driver-output.recorded.json, plausibility.recorded.json). */
export const recordedOutput = (name: "driver-output" | "plausibility") =>
  JSON.parse(readFileSync(new URL(`../${name}.recorded.json`, import.meta.url), "utf8"));

/** The build facts of a recorded build. */
export const recordedFacts = {
  compiler: "gcc",
  compilerVersion: "gcc (recorded) 12.2.0",
  flags: ["-O2"],
  sourcesSha256: "0".repeat(64),
  artifact: "/recorded/ngcc-driver",
  linkage: "static-objects" as const,
};

/**
 * A measurement's environment over the demo campaign: the replay answers every command but the preprocessor that
 * planning runs over a key exchange's api.h, which prints nothing (one pass).
 */
export function replayedEnv<P>(out: string, replay: Replay, prepared: P, only: string[], requireKatPass = false) {
  const loaded = resolveCampaign(loadCampaign(demo));
  const answer: Replay = (argv, cwd) =>
    argv.includes("-E") ? Promise.resolve({ stdout: "", exitCode: 0 }) : replay(argv, cwd);
  const campaign = { ...loaded, context: { ...loaded.context, replay: answer } };
  const options = { out, only, requireKatPass };
  const tc = { cc: "gcc", context: campaign.context, version: recordedFacts.compilerVersion };
  return { campaign, tc, options, out, prepared } satisfies MeasureEnv<P>;
}

/** Runs a measurement over the units --only names, its build replaced by `build`; the summary and those units. */
export async function runReplayed<P, B>(
  m: Measurement<P, B>,
  env: MeasureEnv<P>,
  build: () => Promise<B & { cached: boolean }>,
) {
  const step = defineMeasurement({ ...m, build }, env);
  const only = env.options.only ?? [];
  const units = (await step.plan()).filter((u) => u.names.some((n) => only.includes(n)));
  return { units, run: () => runStep(step, env.options) };
}
