// The frequency limits of every online CPU (cpufreq's scaling_min_freq and scaling_max_freq).
import { byValue, cpusLabel, intFile, khz } from "./helpers.ts";
import { CPU, check, type EnvCheck, type Machine } from "./types.ts";

export function frequencyCheck(m: Machine): EnvCheck {
  const id = "cpu-frequency";
  const title = "Frequency limits";
  const cpus = m.cpus ?? [0];
  const ranges: Array<[number, string]> = [];
  let fixed = true;
  for (const c of cpus) {
    const dir = `${CPU}/cpu${c}/cpufreq`;
    const lo = intFile(m.read, `${dir}/scaling_min_freq`);
    const hi = intFile(m.read, `${dir}/scaling_max_freq`);
    if (lo === null || hi === null) continue;
    const hwLo = intFile(m.read, `${dir}/cpuinfo_min_freq`);
    const hwHi = intFile(m.read, `${dir}/cpuinfo_max_freq`);
    const hw = hwLo !== null && hwHi !== null ? ` (hardware ${khz(hwLo)} – ${khz(hwHi)})` : "";
    ranges.push([c, lo === hi ? `fixed at ${khz(lo)}${hw}` : `${khz(lo)} – ${khz(hi)}${hw}`]);
    if (lo !== hi) fixed = false;
  }
  if (ranges.length === 0) {
    return check(
      id,
      title,
      "unknown",
      `no cpufreq limits (${CPU}/cpu*/cpufreq/scaling_{min,max}_freq missing)` +
        (m.vm ? ": the frequency is the host's" : ""),
      m.vm
        ? "Ask the host's operator for a fixed frequency on the host's CPUs."
        : "Load a cpufreq driver so the frequency can be fixed (`sudo cpupower frequency-set --min F --max F`).",
    );
  }
  const finding = byValue(ranges)
    .map(([r, cs]) => `${cpusLabel(cs)}: ${r}`)
    .join("; ");
  if (fixed) {
    return check(
      id,
      title,
      "ok",
      finding,
      "Nothing to do. To publish core cycles without perf counters, time with " +
        "`counter: { kind: fixed-clock, fixedClockHz: <that frequency in Hz> }` in the campaign.",
    );
  }
  const base = intFile(m.read, `${CPU}/cpu${cpus[0] ?? 0}/cpufreq/base_frequency`);
  const f = base !== null ? `${Math.round(base / 1000)}MHz` : "F";
  return check(
    id,
    title,
    "warn",
    `${finding}: the clock is not fixed, so a figure in time or TSC ticks depends on the frequency the CPU chose`,
    `Fix the frequency at one the CPU sustains without boost${base !== null ? ` (its base frequency, ${khz(base)})` : " (e.g. its nominal one)"}:\n` +
      `\`sudo cpupower frequency-set --min ${f} --max ${f}\`\n` +
      "then, to publish core cycles without perf counters, time with " +
      "`counter: { kind: fixed-clock, fixedClockHz: <that frequency in Hz> }` in the campaign.",
  );
}
