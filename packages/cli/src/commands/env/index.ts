// ngcc-perf env: the environment record of this machine, as the time step would write it; with --check, a
// report of how fit the machine is for publishing timings.
import { parseArgs } from "node:util";
import {
  captureEnvironment,
  checkMachine,
  countStatuses,
  type EnvCheck,
  HOST_CONTEXT,
  probeCounter,
} from "@ngcc-perf/runner";
import { EXIT, type Io, UsageError } from "../../io.ts";

export const usage = `ngcc-perf env [--system NAME] [--cc COMPILER] [--counter KIND] [--fixed-clock-hz HZ]
ngcc-perf env --check [--strict] [--json] [--counter KIND]

Prints the environment record of this machine (processor, clock, memory, OS, compiler, and the
counter with its rate and read overhead, measured by a small probe built with the compiler) as JSON,
and a line per counter kind that this machine offers on stderr.
  --system NAME   system name to put in the record (default: local)
  --counter KIND  rdtsc, perf-cycles, cntvct, clock_gettime or fixed-clock (default: the best available)

--check reads /proc and /sys (nothing is built or changed) and prints, per item, OK, WARN, UNFIT or ?
(unknown) with what it found and what to do: frequency governor and limits, boost, SMT, isolated CPUs,
ASLR, perf counters, NMI watchdog, load, busy processes, memory, hypervisor, steal time, TSC, clocksource.
  --json          the checks as a JSON list of { id, title, status, finding, advice }
  --strict        exit 1 when any check is UNFIT (default: exit 0 whatever the findings)
  --counter KIND  the counter the timings will use (default: what counter auto would take)`;

const COUNTERS = ["rdtsc", "perf-cycles", "perf-instructions", "cntvct", "clock_gettime", "fixed-clock"];

const WORD: Record<EnvCheck["status"], string> = { ok: "OK", warn: "WARN", unfit: "UNFIT", unknown: "?" };

/** Words of a line, a `code span` kept as one word so a command is never broken across lines. */
function words(text: string): string[] {
  return text.match(/(?:`[^`]*`|[^\s`])+/g) ?? [];
}

/** Wraps `text` to `width` columns: the first line after `first`, the others after `indent`. */
export function wrap(text: string, width: number, first: string, indent: string): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const w of words(text)) {
    if (!empty && line.length + 1 + w.length > width) {
      lines.push(line);
      line = indent;
      empty = true;
    }
    line += empty ? w : ` ${w}`;
    empty = false;
  }
  lines.push(line);
  return lines;
}

/** The readable report: a status word per check, its finding, and the advice under anything not OK. */
export function formatChecks(checks: EnvCheck[], width = 110): string {
  const titleWidth = Math.max(0, ...checks.map((c) => c.title.length));
  const indent = " ".repeat(7 + titleWidth + 2);
  const lines = ["Is this machine fit to publish timings?", ""];
  for (const c of checks) {
    lines.push(...wrap(c.finding, width, `${WORD[c.status].padEnd(6)} ${c.title.padEnd(titleWidth)}  `, indent));
    if (c.status === "ok") continue;
    c.advice.split("\n").forEach((a, i) => {
      lines.push(...wrap(a, width, `${indent}${i === 0 ? "→ " : "  "}`, `${indent}  `));
    });
  }
  const n = countStatuses(checks);
  const verdict =
    n.unfit > 0
      ? "unfit to publish: fix the UNFIT items, and the WARN ones where you can, before timing"
      : n.warn > 0
        ? "fit, with weaker figures: the WARN items add noise or bias, and the pages say so"
        : n.unknown > 0
          ? "nothing wrong found, but some items could not be read"
          : "fit to publish";
  lines.push("", `${n.ok} ok, ${n.warn} warn, ${n.unfit} unfit, ${n.unknown} unknown: ${verdict}.`);
  return lines.join("\n");
}

export async function envCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      system: { type: "string", default: "local" },
      cc: { type: "string" },
      counter: { type: "string" },
      "fixed-clock-hz": { type: "string" },
      check: { type: "boolean", default: false },
      strict: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    io.out(usage);
    return EXIT.ok;
  }
  if (values.check) {
    const counter = values.counter === "auto" ? undefined : values.counter;
    if (counter !== undefined && !COUNTERS.includes(counter)) {
      throw new UsageError(`--counter ${counter}: expected auto or one of ${COUNTERS.join(", ")}`);
    }
    const checks = await checkMachine({ ...(counter ? { counter } : {}), ...(values.cc ? { cc: values.cc } : {}) });
    io.out(values.json ? JSON.stringify(checks, null, 2) : formatChecks(checks));
    return values.strict && checks.some((c) => c.status === "unfit") ? EXIT.measuredFailure : EXIT.ok;
  }
  if (values.strict) throw new UsageError("--strict goes with --check");
  const cc = values.cc ?? process.env.CC ?? "gcc";
  const fixed = values["fixed-clock-hz"] ? Number(values["fixed-clock-hz"]) : undefined;
  const probe = await probeCounter(cc, HOST_CONTEXT, values.counter, fixed);
  io.err(`counters available here: ${probe.available.join(", ")} (default ${probe.default})`);
  const now = new Date().toISOString();
  const env = await captureEnvironment({
    system: values.system ?? "local",
    cc,
    counter: {
      kind: probe.counter.kind,
      unit: probe.counter.unit,
      rateHz: probe.counter.rateHz,
      overhead: probe.counter.overhead,
      ...(probe.counter.serialization ? { serialization: probe.counter.serialization } : {}),
      ...(probe.counter.description ? { description: probe.counter.description } : {}),
    },
    campaign: { start: now, end: now },
    fixedFrequencyHz: fixed ?? null,
  });
  io.out(JSON.stringify(env, null, 2));
  return EXIT.ok;
}
