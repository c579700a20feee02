// ngcc-perf profile <campaign>: hash/DRNG profile records per operation and a survey record per algorithm.
import type { Io } from "../../io.ts";
import { parseStepArgs, printUsage, runCampaignSteps, SELECTOR_USAGE } from "../../step-args.ts";

export const usage = `ngcc-perf profile <campaign.yaml> [--out DIR] [--only GLOB]... [--resume] [--shard K/N] [--json]

Builds every instance a second time with link-time wrappers (-Wl,--wrap) around the campaign's profiler
symbol groups (default: pseudohash, pseudoXOF, sm3hash and randombytes; PQClean: its fips202/sha2 functions
and PQCLEAN_randombytes), times every operation with and without them, and checks that the profiled KAT
generator still reproduces the KAT. Writes <out>/data/<system>/profile/<algorithm>/<profile>/<instance>__<operation>.json
(share of time per group, calls per operation per symbol, wrapper overhead, blind spots) and the
symmetric-primitive survey <out>/data/<system>/survey/<algorithm>/<profile>.json.
${SELECTOR_USAGE}`;

export async function profileCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseStepArgs(argv, {});
  if (values.help) return printUsage(io, usage);
  return runCampaignSteps(io, values, positionals, ["profile"]);
}
