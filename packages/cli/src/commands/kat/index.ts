// ngcc-perf kat <campaign>: regenerate every instance's Known-Answer Tests and compare them with the shipped ones.
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { katCampaign } from "@ngcc-perf/kat";
import { loadCampaign, parseShard } from "@ngcc-perf/runner";
import { EXIT, type Io, UsageError } from "../../io.ts";
import { progressPrinter } from "../../progress.ts";

export const usage = `ngcc-perf kat <campaign.yaml> [--out DIR] [--only GLOB]... [--resume] [--shard K/N] [--jobs N] [--json]

For every instance and build profile: checks the submission's kat.sha256 against its .rsp files, builds the
KAT generator with the instance (NIST's AES-256 CTR_DRBG, or HQC's SHAKE256 RNG with katRng: hqc), generates
the KAT and compares it byte for byte (CRLF tolerated), or compares hashes given in the campaign (kat:) or
PQClean's published ones. Writes <out>/data/<system>/kat/<algorithm>/<instance>.json and .log.
Exit 1 when an instance fails (FAIL: mismatch or corrupt KAT file; ERROR: build error, crash, timeout).
  --out DIR     record store (default ./ngcc-perf-out)
  --only GLOB   only instances matching <algorithm-id>/<instance>, <instance> or <algorithm-id> (repeatable)
  --resume      skip instances whose PASS/FAIL record exists for identical inputs
  --shard K/N   only the K-th of N deterministic parts of the jobs (an instance × build profile each)
  --jobs N      instances verified at once (default: CPUs, at most 4)
  --json        print a summary as JSON on stdout`;

export async function katCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: "string" },
      only: { type: "string", multiple: true },
      resume: { type: "boolean", default: false },
      shard: { type: "string" },
      jobs: { type: "string" },
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
  const jobs = values.jobs === undefined ? undefined : Number(values.jobs);
  if (jobs !== undefined && !(Number.isInteger(jobs) && jobs >= 1)) {
    throw new UsageError(`--jobs takes a whole number ≥ 1, not "${values.jobs}"`);
  }
  const campaign = loadCampaign(positionals[0] as string);
  const out = resolve(values.out ?? "ngcc-perf-out");
  const summary = await katCampaign(campaign, {
    out,
    ...(values.only ? { only: values.only } : {}),
    resume: values.resume ?? false,
    ...(shard ? { shard } : {}),
    ...(jobs ? { jobs } : {}),
    onProgress: progressPrinter(io),
  });
  io.err(
    `kat: ${summary.records - summary.failed} passed, ${summary.failed} failed, ${summary.skipped} skipped → ${out}/data/${campaign.system}/kat`,
  );
  if (values.json) io.out(JSON.stringify({ out, system: campaign.system, ...summary }, null, 2));
  return summary.failed > 0 ? EXIT.measuredFailure : EXIT.ok;
}
