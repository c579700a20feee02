// The TSC: constant_tsc and nonstop_tsc in /proc/cpuinfo, judged against the counter that will time.
import { check, type EnvCheck, type Machine } from "./types.ts";

export function tscCheck(m: Machine, counter: string): EnvCheck {
  const id = "tsc";
  const title = "TSC (rdtsc)";
  const ci = m.cpuinfo;
  if (ci === null) return check(id, title, "unknown", "/proc/cpuinfo cannot be read", "Nothing to do.");
  if (ci.x86 === false) {
    return check(
      id,
      title,
      "ok",
      "not x86: the generic timer (cntvct) counts at a constant rate by design",
      "Nothing to do; for core cycles use perf-cycles or a fixed clock.",
    );
  }
  if (ci.x86 === null || !ci.flags.has("tsc")) {
    return check(id, title, "unknown", "no TSC flags in /proc/cpuinfo", "Use `counter: clock_gettime` or perf-cycles.");
  }
  const constant = ci.flags.has("constant_tsc");
  const nonstop = ci.flags.has("nonstop_tsc");
  const flags = `constant_tsc ${constant ? "yes" : "no"}, nonstop_tsc ${nonstop ? "yes" : "no"}`;
  const uses = counter === "rdtsc" ? "rdtsc is the counter" : `the counter is ${counter}`;
  if (!constant) {
    return check(
      id,
      title,
      counter === "rdtsc" ? "unfit" : "warn",
      `${flags}: the TSC follows the core clock, so its ticks are neither time nor a constant rate (${uses})`,
      "Time with another counter: `counter: { kind: perf-cycles }` or `counter: { kind: clock_gettime }` in the campaign.",
    );
  }
  if (!nonstop) {
    return check(
      id,
      title,
      "warn",
      `${flags}: the TSC may stop in deep idle states; harmless while a CPU is busy timing, but the rate measurement can drift`,
      "Keep the measuring CPU out of deep idle states (`cpupower idle-set -D 0`), or time with perf-cycles.",
    );
  }
  return check(
    id,
    title,
    "ok",
    `${flags}: ticks at a constant reference rate (not core cycles; ${uses})`,
    "Nothing to do; remember that TSC ticks are not core cycles.",
  );
}
