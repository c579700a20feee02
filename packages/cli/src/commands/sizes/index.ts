// ngcc-perf sizes <campaign>: the size audit — catalog vs API vs measured lengths, section-6 tables.
import { sizesCampaign } from "@ngcc-perf/sizes";
import type { Io } from "../../io.ts";
import { finishStep, parseStepArgs, prepareStep, printUsage, SELECTOR_USAGE } from "../../step-args.ts";

export const usage = `ngcc-perf sizes <campaign.yaml> [--out DIR] [--only GLOB]... [--resume] [--shard K/N] [--json]

Reads every instance's API sizes from its api.h (a tiny program compiled against it), the output lengths
the KAT and timing steps recorded in the store, and the campaign's size catalog (sizes.catalog), and
audits them against each other. Writes <out>/data/<system>/sizes/<algorithm>.json, one per algorithm:
the section-6 table (key exchange: passes, messages, public keys A / B, bandwidth) and every disagreement.
${SELECTOR_USAGE}
Exit codes: 0 done (catalog disagreements are findings, not failures); 1 an instance's api.h could not
be read, or a measured length exceeds its API cap; 2 bad input (campaign, catalog).`;

export async function sizesCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseStepArgs(argv, {});
  if (values.help) return printUsage(io, usage);
  const step = prepareStep(values, positionals, io);
  const summary = await sizesCampaign(step.campaign, step.options);
  const found = Object.entries(summary.findings)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${kind}`);
  return finishStep(
    io,
    step,
    summary,
    `sizes: ${summary.records} record(s), ${summary.failed} failed, ${summary.skipped} skipped; findings: ${found.length ? found.join(", ") : "none"} → ${step.out}/data/${step.campaign.system}/sizes`,
    values.json,
  );
}
