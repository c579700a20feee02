// ngcc-perf sizes <campaign>: the size audit — catalog vs API vs measured lengths, section-6 tables.
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { loadCampaign, parseShard } from "@ngcc-perf/runner";
import { sizesCampaign } from "@ngcc-perf/sizes";
import { EXIT, type Io, UsageError } from "../../io.ts";
import { progressPrinter } from "../../progress.ts";

export const usage = `ngcc-perf sizes <campaign.yaml> [--out DIR] [--only GLOB]... [--resume] [--shard K/N] [--json]

Reads every instance's API sizes from its api.h (a tiny program compiled against it), the output lengths
the KAT and timing steps recorded in the store, and the campaign's size catalog (sizes.catalog), and
audits them against each other. Writes <out>/data/<system>/sizes/<algorithm>.json, one per algorithm:
the section-6 table (key exchange: passes, messages, public keys A / B, bandwidth) and every disagreement.
  --out DIR     record store (default ./ngcc-perf-out); measured lengths are read from it
  --only GLOB   only algorithms with an instance matching <algorithm-id>/<instance>, <instance> or
                <algorithm-id> (repeatable); an algorithm is always audited whole
  --resume      skip algorithms whose record exists for identical inputs
  --shard K/N   only the K-th of N deterministic parts of the algorithms
  --json        print a summary as JSON on stdout
Exit codes: 0 done (catalog disagreements are findings, not failures); 1 an instance's api.h could not
be read, or a measured length exceeds its API cap; 2 bad input (campaign, catalog).`;

export async function sizesCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: "string" },
      only: { type: "string", multiple: true },
      resume: { type: "boolean", default: false },
      shard: { type: "string" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    io.out(usage);
    return EXIT.ok;
  }
  if (positionals.length !== 1) throw new UsageError("name exactly one campaign file");
  const shard = values.shard === undefined ? undefined : parseShard(values.shard);
  if (shard === null) throw new UsageError(`--shard takes K/N with 1 ≤ K ≤ N, not "${values.shard}"`);
  const campaign = loadCampaign(positionals[0] as string);
  const out = resolve(values.out ?? "ngcc-perf-out");
  const summary = await sizesCampaign(campaign, {
    out,
    ...(values.only ? { only: values.only } : {}),
    resume: values.resume ?? false,
    ...(shard ? { shard } : {}),
    onProgress: progressPrinter(io),
  });
  const found = Object.entries(summary.findings)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${kind}`);
  io.err(
    `sizes: ${summary.records} record(s), ${summary.failed} failed, ${summary.skipped} skipped; findings: ${found.length ? found.join(", ") : "none"} → ${out}/data/${campaign.system}/sizes`,
  );
  if (values.json) io.out(JSON.stringify({ out, system: campaign.system, ...summary }, null, 2));
  return summary.failed > 0 ? EXIT.measuredFailure : EXIT.ok;
}
