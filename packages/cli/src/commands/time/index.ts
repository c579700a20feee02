// ngcc-perf time <campaign>: timing and memory records for every operation of every instance.
import type { Io } from "../../io.ts";
import { parseStepArgs, printUsage, runCampaignSteps, SELECTOR_USAGE } from "../../step-args.ts";

export const usage = `ngcc-perf time <campaign.yaml> [--out DIR] [--only GLOB]... [--resume] [--shard K/N] [--json]

Builds every instance of the campaign per build profile, checks it, and times every operation
(5 trials of calibrated iterations by default), with baseline and peak RSS from a fresh process.
Writes <out>/data/<system>/records/<algorithm>/<profile>/<instance>__<operation>.json, environment.json
and index.json. An instance whose KAT record under a profile says FAIL or ERROR is not timed under it.
${SELECTOR_USAGE}`;

export async function timeCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseStepArgs(argv, {});
  if (values.help) return printUsage(io, usage);
  return runCampaignSteps(io, values, positionals, ["time"]);
}
