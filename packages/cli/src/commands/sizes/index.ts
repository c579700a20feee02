// ngcc-perf sizes <campaign>: the size audit — catalog vs API vs measured lengths, section-6 tables.
import type { Io } from "../../io.ts";
import { parseStepArgs, printUsage, runCampaignSteps, SELECTOR_USAGE } from "../../step-args.ts";

export const usage = `ngcc-perf sizes <campaign.yaml> [--out DIR] [--only GLOB]... [--resume] [--shard K/N] [--json]

Reads every instance's API sizes from its api.h (a tiny program compiled against it), the output lengths
the KAT and timing steps recorded in the store, and the campaign's size catalog (sizes.catalog), and
audits them against each other. Writes <out>/data/<system>/sizes/<algorithm>/<profile>.json, one per
algorithm and build profile:
the section-6 table (key exchange: passes, messages, public keys A / B, bandwidth) and every disagreement.
${SELECTOR_USAGE}
Exit codes: 0 done (catalog disagreements are findings, not failures); 1 an instance's api.h could not
be read, or a measured length exceeds its API cap; 2 bad input (campaign, catalog).`;

export async function sizesCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseStepArgs(argv, {});
  if (values.help) return printUsage(io, usage);
  return runCampaignSteps(io, values, positionals, ["sizes"]);
}
