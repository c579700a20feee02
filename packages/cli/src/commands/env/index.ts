// ngcc-perf env: the environment record of this machine, as the time step would write it.
import { parseArgs } from "node:util";
import { captureEnvironment, probeCounter } from "@ngcc-perf/runner";
import { EXIT, type Io } from "../../io.ts";

export const usage = `ngcc-perf env [--system NAME] [--cc COMPILER] [--counter KIND] [--fixed-clock-hz HZ]

Prints the environment record of this machine (processor, clock, memory, OS, compiler, and the
counter with its rate and read overhead, measured by a small probe built with the compiler) as JSON,
and a line per counter kind that this machine offers on stderr.
  --system NAME   system name to put in the record (default: local)
  --counter KIND  rdtsc, perf-cycles, cntvct, clock_gettime or fixed-clock (default: the best available)`;

export async function envCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      system: { type: "string", default: "local" },
      cc: { type: "string" },
      counter: { type: "string" },
      "fixed-clock-hz": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    io.out(usage);
    return EXIT.ok;
  }
  const cc = values.cc ?? process.env.CC ?? "gcc";
  const fixed = values["fixed-clock-hz"] ? Number(values["fixed-clock-hz"]) : undefined;
  const probe = await probeCounter(cc, values.counter, fixed);
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
