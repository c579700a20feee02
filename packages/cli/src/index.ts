// The ngcc-perf command: argument handling, exit codes and output only; the work lives in the packages.

import { InputError } from "@ngcc-perf/schema";
import { calibrateCommand, usage as calibrateUsage } from "./commands/calibrate/index.ts";
import { compareCommand, usage as compareUsage } from "./commands/compare/index.ts";
import { envCommand, usage as envUsage } from "./commands/env/index.ts";
import { indexCommand, usage as indexUsage } from "./commands/index-store/index.ts";
import { initCommand, usage as initUsage } from "./commands/init/index.ts";
import { katCommand, usage as katUsage } from "./commands/kat/index.ts";
import { mergeCommand, usage as mergeUsage } from "./commands/merge/index.ts";
import { profileCommand, usage as profileUsage } from "./commands/profile/index.ts";
import { reportCommand, usage as reportUsage } from "./commands/report/index.ts";
import { runCommand, usage as runUsage } from "./commands/run/index.ts";
import { sizesCommand, usage as sizesUsage } from "./commands/sizes/index.ts";
import { timeCommand, usage as timeUsage } from "./commands/time/index.ts";
import { validateCommand, usage as validateUsage } from "./commands/validate/index.ts";
import { EXIT, type Io, processIo, UsageError } from "./io.ts";
import { fsErrorLine } from "./out-dir.ts";

export { EXIT, type Io, UsageError } from "./io.ts";

type Command = (argv: string[], io: Io) => number | Promise<number>;

const commands: Record<string, { run: Command; summary: string; usage: string }> = {
  run: { run: runCommand, summary: "the whole pipeline: build, KAT, time, profile, sizes, report", usage: runUsage },
  time: { run: timeCommand, summary: "build, check and time every operation; memory; environment", usage: timeUsage },
  calibrate: {
    run: calibrateCommand,
    summary: "this machine's between-run component (A/A sessions of the time step) for run --between-run",
    usage: calibrateUsage,
  },
  env: {
    run: envCommand,
    summary: "this machine's environment record and counters; --check: is it fit to publish timings?",
    usage: envUsage,
  },
  init: {
    run: initCommand,
    summary: "draft a submission's meta.json from its folder (NIST/NGCC layout), KAT manifest, catalog rows",
    usage: initUsage,
  },
  kat: { run: katCommand, summary: "regenerate and compare Known-Answer Tests; KAT logs", usage: katUsage },
  compare: {
    run: compareCommand,
    summary: "two stores (or two build profiles) measurement by measurement: B/A, 95% interval, verdict",
    usage: compareUsage,
  },
  merge: { run: mergeCommand, summary: "merge record stores (e.g. shards) into one", usage: mergeUsage },
  index: {
    run: indexCommand,
    summary: "rebuild a store's index.json after records were edited on purpose",
    usage: indexUsage,
  },
  profile: {
    run: profileCommand,
    summary: "hash/DRNG share per operation with link-time wrappers; symmetric-primitive survey",
    usage: profileUsage,
  },
  report: {
    run: reportCommand,
    summary: "render the Markdown and HTML report site of a record store",
    usage: reportUsage,
  },
  sizes: { run: sizesCommand, summary: "audit sizes: catalog vs API vs measured; section-6 tables", usage: sizesUsage },
  validate: { run: validateCommand, summary: "check records and campaigns against the schemas", usage: validateUsage },
};

export const help = `ngcc-perf — independent performance measurement of post-quantum public-key algorithms

Usage: ngcc-perf <command> [options]

Commands:
${Object.entries(commands)
  .map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`)
  .join("\n")}

Exit codes: 0 all good; 1 something measured failed; 2 bad input or usage; 70 an internal error of ngcc-perf.
Run "ngcc-perf <command> --help" for a command's options.`;

/** Runs the command line; returns the exit code. Never throws. */
export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.out(help);
    return name === undefined ? EXIT.badInput : EXIT.ok;
  }
  if (name === "--version" || name === "-v") {
    io.out(VERSION);
    return EXIT.ok;
  }
  const command = commands[name];
  if (!command) {
    io.err(`ngcc-perf: unknown command "${name}"\n\n${help}`);
    return EXIT.badInput;
  }
  try {
    return await command.run(rest, io);
  } catch (err) {
    if (err instanceof InputError) {
      io.err(`ngcc-perf ${name}: ${err.message}`);
      return EXIT.badInput;
    }
    // The file system refused a write or a read (a file where a folder goes, a read-only or full disk): the
    // user's to fix, not a bug.
    const fsLine = fsErrorLine(err);
    if (fsLine) {
      io.err(`ngcc-perf ${name}: ${fsLine}`);
      return EXIT.badInput;
    }
    if (err instanceof UsageError || isArgError(err)) {
      io.err(`ngcc-perf ${name}: ${(err as Error).message}\n\n${command.usage}`);
      return EXIT.badInput;
    }
    // A bug of ours, not a measured failure: one line that says so, the stack only with --debug.
    const e = err instanceof Error ? err : new Error(String(err));
    const where = e.stack?.split("\n")[1]?.trim();
    io.err(
      `ngcc-perf ${name}: internal error: ${e.message.split("\n")[0]}${where ? ` (${where})` : ""}` +
        " — this is a bug of ngcc-perf; please report it with the command line" +
        (rest.includes("--debug") ? `\n${e.stack ?? ""}` : " (add --debug for the stack)"),
    );
    return EXIT.internal;
  }
}

function isArgError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === "string" && code.startsWith("ERR_PARSE_ARGS");
}

declare const __VERSION__: string;
const VERSION = typeof __VERSION__ === "string" ? __VERSION__ : "0.0.0-dev";
