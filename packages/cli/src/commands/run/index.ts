// ngcc-perf run <campaign>: the whole pipeline — build, KAT, time and memory, hash/DRNG profile, sizes,
// report — each step reading the records of the steps before it from the store.
import { resolve } from "node:path";
import { profileCampaign } from "@ngcc-perf/hashprof";
import { katCampaign } from "@ngcc-perf/kat";
import {
  buildCampaign,
  removeStaleTemps,
  resolveAlgorithms,
  type StepSummary,
  setCampaignEnd,
  timeCampaign,
  writeStoreIndex,
} from "@ngcc-perf/runner";
import { sizesCampaign } from "@ngcc-perf/sizes";
import { EXIT, type Io, UsageError } from "../../io.ts";
import { parseStepArgs, prepareStep, printUsage, SELECTOR_USAGE } from "../../step-args.ts";

export const STEPS = ["build", "kat", "time", "profile", "sizes", "report"] as const;
type Step = (typeof STEPS)[number];

export const usage = `ngcc-perf run <campaign.yaml> [--out DIR] [--only GLOB]... [--steps LIST] [--resume] [--shard K/N] [--json]

Runs the pipeline: build → kat → time (+ memory) → profile → sizes → report. An instance whose KAT
fails is not timed. Records go to <out>/data/<system>/, pages to <out>/site/<system>/.
  --steps LIST  comma-separated subset of ${STEPS.join(",")} (default: all)
${SELECTOR_USAGE}
Exit codes: 0 all good; 1 something measured failed; 2 bad input.`;

export function parseSteps(text: string | undefined): Step[] {
  if (text === undefined) return [...STEPS];
  const steps = text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = steps.filter((s) => !(STEPS as readonly string[]).includes(s));
  if (bad.length > 0 || steps.length === 0) {
    throw new UsageError(
      `--steps takes a comma-separated list of ${STEPS.join(", ")}; not ${bad.join(", ") || "(empty)"}`,
    );
  }
  return STEPS.filter((s) => steps.includes(s));
}

export async function runCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseStepArgs(argv, { steps: { type: "string" } });
  if (values.help) return printUsage(io, usage);
  const steps = parseSteps(values.steps);
  const { campaign, out, options } = prepareStep(values, positionals, io);
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const stale = removeStaleTemps(out);
  if (stale > 0) io.err(`run: removed ${stale} temporary file(s) left by an interrupted run`);
  const summaries: Partial<Record<Step, StepSummary | { pages: number }>> = {};
  let failed = 0;
  const record = (step: Step, s: StepSummary) => {
    summaries[step] = s;
    failed += s.failed;
    io.err(`${step}: ${s.records} done, ${s.failed} failed, ${s.skipped} skipped`);
  };
  if (steps.includes("build")) record("build", await buildCampaign(campaign, options));
  if (steps.includes("kat")) record("kat", await katCampaign(campaign, options));
  if (steps.includes("time"))
    record("time", await timeCampaign(campaign, { ...options, requireKatPass: true, campaignStart: startedAt }));
  if (steps.includes("profile")) record("profile", await profileCampaign(campaign, options));
  if (steps.includes("sizes")) record("sizes", await sizesCampaign(campaign, options));
  setCampaignEnd(out, campaign.system, new Date().toISOString());
  writeStoreIndex(campaign, resolveAlgorithms(campaign), out);
  let site: string | null = null;
  if (steps.includes("report")) {
    // Loaded only here: the charting libraries cost start-up time that other steps need not pay.
    const { renderSite } = await import("@ngcc-perf/report");
    const r = await renderSite(out, { out, formats: ["md", "html"] });
    summaries.report = { pages: r.pages };
    site = resolve(r.siteDir, campaign.system, "index.html");
    io.err(
      `report: ${r.pages} page(s)${r.failedRecords > 0 ? `, ${r.failedRecords} failed record(s) shown as FAILED` : ""}`,
    );
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  io.err(
    `run: finished in ${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, "0")}s, ${failed} failure(s)`,
  );
  if (site) io.err(`site: ${site}`);
  if (values.json) io.out(JSON.stringify({ out, system: campaign.system, site, failed, steps: summaries }, null, 2));
  return failed > 0 ? EXIT.measuredFailure : EXIT.ok;
}
