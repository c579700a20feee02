// ngcc-perf time <campaign>: timing and memory records for every operation of every instance.
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { loadCampaign, parseShard, resolveAlgorithms, timeCampaign, writeStoreIndex } from "@ngcc-perf/runner";
import { EXIT, type Io, UsageError } from "../../io.ts";
import { progressPrinter } from "../../progress.ts";

export const usage = `ngcc-perf time <campaign.yaml> [--out DIR] [--only GLOB]... [--resume] [--shard K/N] [--json]

Builds every instance of the campaign per build profile, checks it, and times every operation
(5 trials of calibrated iterations by default), with baseline and peak RSS from a fresh process.
Writes <out>/data/<system>/records/<algorithm>/<instance>__<operation>.json and environment.json.
  --out DIR     record store (default ./ngcc-perf-out)
  --only GLOB   only instances matching <algorithm-id>/<instance>, <instance> or <algorithm-id> (repeatable)
  --resume      skip jobs whose record exists for identical inputs
  --shard K/N   only the K-th of N deterministic parts of the jobs (an instance × build profile each)
  --json        print a summary as JSON on stdout`;

export async function timeCommand(argv: string[], io: Io): Promise<number> {
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
  const summary = await timeCampaign(campaign, {
    out,
    ...(values.only ? { only: values.only } : {}),
    resume: values.resume ?? false,
    ...(shard ? { shard } : {}),
    onProgress: progressPrinter(io),
  });
  writeStoreIndex(campaign, resolveAlgorithms(campaign), out);
  io.err(
    `time: ${summary.records} record(s), ${summary.failed} failed, ${summary.skipped} skipped → ${out}/data/${campaign.system}`,
  );
  if (values.json) io.out(JSON.stringify({ out, system: campaign.system, ...summary }, null, 2));
  return summary.failed > 0 ? EXIT.measuredFailure : EXIT.ok;
}
