// What every campaign command (run, kat, time, profile, sizes) shares: the selector options, reading the
// campaign, and the closing summary with the exit code.
import { resolve } from "node:path";
import { type ParseArgsConfig, parseArgs } from "node:util";
import { type Campaign, loadCampaign, parseShard, type StepOptions, type StepSummary } from "@ngcc-perf/runner";
import { EXIT, type Io, UsageError } from "./io.ts";
import { progressPrinter } from "./progress.ts";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** The selectors of the command-line contract. */
export const SELECTOR_OPTIONS = {
  out: { type: "string" },
  only: { type: "string", multiple: true },
  resume: { type: "boolean", default: false },
  shard: { type: "string" },
  json: { type: "boolean", default: false },
  help: { type: "boolean", short: "h" },
} as const satisfies Options;

/** The selectors' lines of a command's usage text. */
export const SELECTOR_USAGE = `  --out DIR     record store (default ./ngcc-perf-out)
  --only GLOB   only instances matching <algorithm-id>/<instance>, <instance> or <algorithm-id> (repeatable)
  --resume      skip jobs whose record exists for identical inputs
  --shard K/N   only the K-th of N deterministic parts of the jobs (an instance × build profile each)
  --json        print a summary as JSON on stdout`;

export interface SelectorValues {
  out?: string;
  only?: string[];
  resume?: boolean;
  shard?: string;
}

export interface PreparedStep {
  campaign: Campaign;
  out: string;
  options: StepOptions;
}

/** Parses the command line of a campaign command; `help` is set when --help was given. */
export function parseStepArgs<E extends Options>(
  argv: string[],
  extra: E,
): ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof SELECTOR_OPTIONS & E }>> {
  return parseArgs({ args: argv, allowPositionals: true, options: { ...SELECTOR_OPTIONS, ...extra } });
}

/** Reads the campaign and turns the selectors into step options (usage errors exit 2). */
export function prepareStep(values: SelectorValues, positionals: string[], io: Io): PreparedStep {
  if (positionals.length !== 1) throw new UsageError("name exactly one campaign file");
  const shard = values.shard === undefined ? undefined : parseShard(values.shard);
  if (shard === null) throw new UsageError(`--shard takes K/N with 1 ≤ K ≤ N, not "${values.shard}"`);
  const campaign = loadCampaign(positionals[0] as string);
  const out = resolve(values.out ?? "ngcc-perf-out");
  return {
    campaign,
    out,
    options: {
      out,
      ...(values.only ? { only: values.only } : {}),
      resume: values.resume ?? false,
      ...(shard ? { shard } : {}),
      onProgress: progressPrinter(io),
    },
  };
}

/** Prints the closing line (and the JSON summary) of a step; exit 1 when something measured failed. */
export function finishStep(
  io: Io,
  step: PreparedStep,
  summary: StepSummary,
  line: string,
  json: boolean | undefined,
): number {
  io.err(line);
  if (json) io.out(JSON.stringify({ out: step.out, system: step.campaign.system, ...summary }, null, 2));
  return summary.failed > 0 ? EXIT.measuredFailure : EXIT.ok;
}

/** --help: print the usage, exit 0. */
export function printUsage(io: Io, usage: string): number {
  io.out(usage);
  return EXIT.ok;
}
