// ngcc-perf kat <campaign>: regenerate every instance's Known-Answer Tests and compare them with the shipped ones.
import { type Io, UsageError } from "../../io.ts";
import { parseStepArgs, printUsage, runCampaignSteps } from "../../step-args.ts";

export const usage = `ngcc-perf kat <campaign.yaml> [--out DIR] [--only GLOB]... [--resume] [--shard K/N] [--jobs N] [--json]

For every instance and build profile: checks the submission's kat.sha256 against its .rsp files, builds the
KAT generator with the instance (NIST's AES-256 CTR_DRBG, or HQC's SHAKE256 RNG with katRng: hqc), generates
the KAT and compares it byte for byte (CRLF tolerated), or compares hashes given in the campaign (kat:) or
PQClean's published ones. Writes <out>/data/<system>/kat/<algorithm>/<profile>/<instance>.json and .log.
Exit 1 when an instance fails (FAIL: mismatch or corrupt KAT file; ERROR: build error, crash, timeout, or a
write past an output buffer — reason canary: the guard bytes around every buffer were changed).
  --out DIR     record store (default ./ngcc-perf-out)
  --only GLOB   only instances matching <algorithm-id>/<instance>, <instance> or <algorithm-id> (repeatable)
  --resume      skip instances whose PASS/FAIL record exists for identical inputs
  --shard K/N   only the K-th of N deterministic parts of the jobs (an instance × build profile each)
  --jobs N      instances verified at once (default: CPUs, at most 4)
  --json        print a summary as JSON on stdout
  --debug       print the stack of an internal error`;

export async function katCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseStepArgs(argv, { jobs: { type: "string" } });
  if (values.help) return printUsage(io, usage);
  const jobs = values.jobs === undefined ? undefined : Number(values.jobs);
  if (jobs !== undefined && !(Number.isInteger(jobs) && jobs >= 1)) {
    throw new UsageError(`--jobs takes a whole number ≥ 1, not "${values.jobs}"`);
  }
  return runCampaignSteps(io, values, positionals, ["kat"], jobs);
}
