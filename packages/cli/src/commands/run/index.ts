// ngcc-perf run <campaign>: the whole pipeline — build, KAT, time and memory, hash/DRNG profile, sizes,
// report — through runPipeline; this file parses arguments and prints, nothing else.
import type { StepName } from "@ngcc-perf/runner";
import { type Io, UsageError } from "../../io.ts";
import { parseStepArgs, printUsage, runCampaignSteps, SELECTOR_USAGE } from "../../step-args.ts";
import { stepNames } from "../../steps.ts";

export const usage = `ngcc-perf run <campaign.yaml> [--out DIR] [--only GLOB]... [--steps LIST] [--resume] [--shard K/N] [--json]

Runs the pipeline: build → kat → time (+ RSS proxies) → memory (stack and heap high-water; when asked for or
enabled in the campaign) → instructions (valgrind; likewise) → constant-time (valgrind memcheck; likewise) →
profile → sizes → report. An instance whose KAT
fails under a build profile is not timed or profiled under it. Records go to <out>/data/<system>/,
pages to <out>/site/<system>/. An existing store is checked against its index before anything is written: a
file edited, deleted or added behind it is named and the run exits 2 (a run never re-hashes; ngcc-perf index does).
  --steps LIST  comma-separated subset of ${stepNames().join(",")} (default: all)
${SELECTOR_USAGE}
Exit codes: 0 all good; 1 something measured failed; 2 bad input; 70 an internal error of ngcc-perf.`;

export function parseSteps(text: string | undefined): StepName[] {
  const names = stepNames();
  if (text === undefined) return names;
  const steps = text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = steps.filter((s) => !(names as string[]).includes(s));
  if (bad.length > 0 || steps.length === 0) {
    throw new UsageError(
      `--steps takes a comma-separated list of ${stepNames().join(", ")}; not ${bad.join(", ") || "(empty)"}`,
    );
  }
  return names.filter((s) => steps.includes(s));
}

export async function runCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseStepArgs(argv, { steps: { type: "string" } });
  if (values.help) return printUsage(io, usage);
  // A step named in --steps is asked for (the memory and instructions steps then run whatever the campaign says).
  const asked = values.steps === undefined ? [] : parseSteps(values.steps);
  return runCampaignSteps(io, values, positionals, parseSteps(values.steps), undefined, asked);
}
