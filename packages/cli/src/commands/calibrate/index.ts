// ngcc-perf calibrate <campaign>: the machine's between-run component (runner calibrateBetweenRun) — the time step
// repeated as A/A sessions — written to a between-run file for `run --between-run FILE`; this file parses
// arguments and prints, nothing else.
import { parseArgs } from "node:util";
import { calibrateBetweenRun, loadCampaign, writeBetweenRun } from "@ngcc-perf/runner";
import type { BetweenRunRecord } from "@ngcc-perf/schema";
import { EXIT, type Io, UsageError } from "../../io.ts";
import { checkOutDir } from "../../out-dir.ts";
import { progressPrinter } from "../../progress.ts";
import { printUsage } from "../../step-args.ts";

export const usage = `ngcc-perf calibrate <campaign.yaml> --out FILE [--sessions N] [--gap-s S] [--only GLOB]... [--keep DIR] [--quick] [--json]

Measures this machine's between-run component: builds the campaign's instances (or those --only names) and
runs the time step N times (A/A sessions, each into a fresh store, S seconds apart), then writes to FILE each
operation's published figure per session and the relative sd by which a session's figure moves beyond its own
95 % interval (time, and estimated core cycles when the core clock was probed). \`ngcc-perf run --between-run
FILE\` adds it to every per-call interval of a run on this machine, so that the interval holds for the figure
the next run publishes (docs/methodology.md, "Its interval").
  --out FILE    the between-run file to write (JSON, schema kind between-run)
  --sessions N  sessions (default 8; at least 2; the component has N − 1 degrees of freedom)
  --gap-s S     idle seconds between sessions (default 0): spread the sessions over a longer span of time
  --only GLOB   only instances matching <algorithm-id>/<instance>, <instance> or <algorithm-id> (repeatable)
  --keep DIR    keep the session stores under DIR (default: a temporary folder, removed)
  --quick       smoke sessions (one short worker per operation): a test of the command; run refuses such a file
  --json        print the between-run file on stdout as well
Exit codes: 0 written; 2 bad input; 70 an internal error of ngcc-perf.`;

function count(text: string | undefined, name: string, dflt: number, min: number): number {
  if (text === undefined) return dflt;
  const n = Number(text);
  if (!Number.isFinite(n) || n < min || (name === "--sessions" && !Number.isInteger(n))) {
    throw new UsageError(
      `${name} takes ${name === "--sessions" ? "a whole number" : "a number"} ≥ ${min}, not "${text}"`,
    );
  }
  return n;
}

const pct = (x: number) => `${(x * 100).toFixed(2)} %`;

/** One line per component. */
function componentLine(name: string, c: BetweenRunRecord["time"] | null): string {
  return c
    ? `${name}: between-run sd ${pct(c.relativeSd)} of the figure (${c.operations} operation(s), ${c.sessions} sessions, ${c.df} df)`
    : `${name}: not probed (no core-clock probe in the sessions)`;
}

export async function calibrateCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: "string" },
      sessions: { type: "string" },
      "gap-s": { type: "string" },
      only: { type: "string", multiple: true },
      keep: { type: "string" },
      quick: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      debug: { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return printUsage(io, usage);
  if (positionals.length !== 1) throw new UsageError("name exactly one campaign file");
  if (values.out === undefined) throw new UsageError("--out FILE: where to write the between-run file");
  const sessions = count(values.sessions, "--sessions", 8, 2);
  const gapSeconds = count(values["gap-s"], "--gap-s", 0, 0);
  const keep = values.keep === undefined ? undefined : checkOutDir(values.keep, "--keep");
  const campaign = loadCampaign(positionals[0] as string);
  const doc = await calibrateBetweenRun(campaign, {
    sessions,
    gapSeconds,
    ...(values.only ? { only: values.only } : {}),
    ...(values.quick ? { quick: true } : {}),
    ...(keep ? { keep } : {}),
    onProgress: progressPrinter(io),
    onSession: (k, s) => io.err(`session ${k}/${sessions}: ${s.toFixed(0)} s`),
  });
  writeBetweenRun(values.out, doc);
  io.err(componentLine("time", doc.time));
  io.err(componentLine("estimated cycles", doc.cycles));
  io.err(`wrote ${values.out}`);
  if (values.json) io.out(JSON.stringify(doc, null, 2));
  return EXIT.ok;
}
