// ngcc-perf profile <campaign>: hash/DRNG profile records per operation and a survey record per algorithm.
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { profileCampaign } from "@ngcc-perf/hashprof";
import { loadCampaign, parseShard } from "@ngcc-perf/runner";
import { EXIT, type Io, UsageError } from "../../io.ts";
import { progressPrinter } from "../../progress.ts";

export const usage = `ngcc-perf profile <campaign.yaml> [--out DIR] [--only GLOB]... [--resume] [--shard K/N] [--json]

Builds every instance a second time with link-time wrappers (-Wl,--wrap) around the campaign's profiler
symbol groups (default: pseudohash, pseudoXOF, sm3hash and randombytes; PQClean: its fips202/sha2 functions
and PQCLEAN_randombytes), times every operation with and without them, and checks that the profiled KAT
generator still reproduces the KAT. Writes <out>/data/<system>/profile/<algorithm>/<instance>__<operation>.json
(share of time per group, calls per operation per symbol, wrapper overhead, blind spots) and the
symmetric-primitive survey <out>/data/<system>/survey/<algorithm>.json.
  --out DIR     record store (default ./ngcc-perf-out)
  --only GLOB   only instances matching <algorithm-id>/<instance>, <instance> or <algorithm-id> (repeatable)
  --resume      skip jobs whose record exists for identical inputs
  --shard K/N   only the K-th of N deterministic parts of the jobs (an instance × build profile each)
  --json        print a summary as JSON on stdout`;

export async function profileCommand(argv: string[], io: Io): Promise<number> {
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
  const summary = await profileCampaign(campaign, {
    out,
    ...(values.only ? { only: values.only } : {}),
    resume: values.resume ?? false,
    ...(shard ? { shard } : {}),
    onProgress: progressPrinter(io),
  });
  io.err(
    `profile: ${summary.records} record(s), ${summary.failed} failed, ${summary.skipped} skipped → ${out}/data/${campaign.system}`,
  );
  for (const f of summary.failures.filter((x) => x.operation === undefined)) {
    io.err(`  ${f.algorithmId}/${f.instance}: ${f.message}`);
  }
  if (values.json) io.out(JSON.stringify({ out, system: campaign.system, ...summary }, null, 2));
  return summary.failed > 0 ? EXIT.measuredFailure : EXIT.ok;
}
