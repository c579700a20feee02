// ngcc-perf time <campaign>: timing and memory records for every operation of every instance.
import { resolveAlgorithms, timeCampaign, writeStoreIndex } from "@ngcc-perf/runner";
import type { Io } from "../../io.ts";
import { finishStep, parseStepArgs, prepareStep, printUsage, SELECTOR_USAGE } from "../../step-args.ts";

export const usage = `ngcc-perf time <campaign.yaml> [--out DIR] [--only GLOB]... [--resume] [--shard K/N] [--json]

Builds every instance of the campaign per build profile, checks it, and times every operation
(5 trials of calibrated iterations by default), with baseline and peak RSS from a fresh process.
Writes <out>/data/<system>/records/<algorithm>/<instance>__<operation>.json and environment.json.
${SELECTOR_USAGE}`;

export async function timeCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseStepArgs(argv, {});
  if (values.help) return printUsage(io, usage);
  const step = prepareStep(values, positionals, io);
  const summary = await timeCampaign(step.campaign, step.options);
  writeStoreIndex(step.campaign, resolveAlgorithms(step.campaign), step.out);
  return finishStep(
    io,
    step,
    summary,
    `time: ${summary.records} record(s), ${summary.failed} failed, ${summary.skipped} skipped → ${step.out}/data/${step.campaign.system}`,
    values.json,
  );
}
