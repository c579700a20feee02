// What every campaign command (run, kat, time, profile, sizes) shares: the selector options, reading the
// campaign, running the pipeline's steps and printing their summaries with the exit code.
import { type ParseArgsConfig, parseArgs } from "node:util";
import {
  type Campaign,
  loadCampaign,
  MAX_SHARDS,
  type PipelineResult,
  type PipelineStepResult,
  parseShard,
  readBetweenRun,
  runPipeline,
  type StepName,
  type StepOptions,
} from "@ngcc-perf/runner";
import { shortText } from "@ngcc-perf/schema";
import { EXIT, type Io, UsageError } from "./io.ts";
import { checkOutDir } from "./out-dir.ts";
import { progressPrinter } from "./progress.ts";
import { pipelineSteps } from "./steps.ts";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** The selectors of the command-line contract. */
export const SELECTOR_OPTIONS = {
  out: { type: "string" },
  only: { type: "string", multiple: true },
  resume: { type: "boolean", default: false },
  shard: { type: "string" },
  json: { type: "boolean", default: false },
  debug: { type: "boolean", default: false },
  quick: { type: "boolean", default: false },
  "between-run": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const satisfies Options;

/** The selectors' lines of a command's usage text. */
export const SELECTOR_USAGE = `  --out DIR     record store (default ./ngcc-perf-out)
  --only GLOB   only instances matching <algorithm-id>/<instance>, <instance> or <algorithm-id> (repeatable)
  --resume      skip jobs whose record exists for identical inputs
  --shard K/N   only the K-th of N deterministic parts of the units (an instance × build profile each)
  --quick       time: a smoke run (one short worker per operation, no precision target; the records say so)
  --between-run FILE
                time: add this machine's between-run component (ngcc-perf calibrate) to every per-call 95 %
                interval, so that it holds for the next run's figure, not only this run's workers
  --json        print a summary as JSON on stdout
  --debug       print the stack of an internal error`;

export interface SelectorValues {
  out?: string;
  only?: string[];
  resume?: boolean;
  shard?: string;
  json?: boolean;
  quick?: boolean;
  "between-run"?: string;
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
  if (shard === null) {
    throw new UsageError(
      `--shard takes K/N, whole numbers with 1 ≤ K ≤ N ≤ ${MAX_SHARDS} (e.g. 2/4), not "${shortText(values.shard ?? "", 60)}"`,
    );
  }
  const out = checkOutDir(values.out ?? "ngcc-perf-out", values.out === undefined ? "the default --out" : "--out");
  const campaign = loadCampaign(positionals[0] as string);
  const file = values["between-run"];
  if (file !== undefined) campaign.timing.betweenRun = readBetweenRun(file, campaign, values.quick ?? false);
  return {
    campaign,
    out,
    options: {
      out,
      ...(values.only ? { only: values.only } : {}),
      resume: values.resume ?? false,
      ...(shard ? { shard } : {}),
      ...(values.quick ? { quick: true } : {}),
      onProgress: progressPrinter(io),
    },
  };
}

/** The closing line of one step. */
export function stepLine(step: StepName, r: PipelineStepResult): string {
  const counts =
    step === "report"
      ? `${r.pages ?? r.records} page(s)`
      : `${r.records} done, ${r.failed} failed, ${r.skipped} skipped (of ${r.planned})`;
  return `${step}: ${counts}${r.notes?.length ? `; ${r.notes.join("; ")}` : ""}`;
}

/** Runs the named steps of the campaign through the pipeline and prints what they did; the exit code. */
export async function runCampaignSteps(
  io: Io,
  values: SelectorValues,
  positionals: string[],
  names: readonly StepName[],
  jobs?: number,
  asked: readonly StepName[] = [],
): Promise<number> {
  const prepared = prepareStep(values, positionals, io);
  const result: PipelineResult = await runPipeline(prepared.campaign, {
    ...prepared.options,
    steps: pipelineSteps(names),
    asked,
    ...(jobs ? { jobs } : {}),
    onStep: (e) => {
      if (e.phase === "end") io.err(stepLine(e.step, e.result));
    },
  });
  if (result.staleRemoved > 0) io.err(`removed ${result.staleRemoved} temporary file(s) left by an interrupted run`);
  const s = Math.round(result.seconds);
  io.err(
    `finished in ${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s, ${result.failed} failure(s) → ${prepared.out}/data/${prepared.campaign.system}`,
  );
  if (result.site) io.err(`site: ${result.site}`);
  if (values.json) io.out(JSON.stringify(result, null, 2));
  return result.failed > 0 ? EXIT.measuredFailure : EXIT.ok;
}

/** --help: print the usage, exit 0. */
export function printUsage(io: Io, usage: string): number {
  io.out(usage);
  return EXIT.ok;
}
