// The frequency governor of every online CPU (cpufreq's scaling_governor).
import { byValue, cpusLabel, trimmed } from "./helpers.ts";
import { CPU, check, type EnvCheck, type Machine } from "./types.ts";

const FIX_GOVERNOR =
  "Set the performance governor on every CPU:\n" +
  "`sudo cpupower frequency-set --governor performance`\n" +
  "or, without cpupower: `echo performance | sudo tee /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor`";

export function governorCheck(m: Machine): EnvCheck {
  const id = "cpu-governor";
  const title = "Frequency governor";
  const cpus = m.cpus ?? [0];
  const values: Array<[number, string]> = [];
  for (const c of cpus) {
    const g = trimmed(m.read, `${CPU}/cpu${c}/cpufreq/scaling_governor`);
    if (g) values.push([c, g]);
  }
  if (values.length === 0) {
    return check(
      id,
      title,
      "unknown",
      `no cpufreq governor (${CPU}/cpu*/cpufreq/scaling_governor missing)` +
        (m.vm ? ": in a VM the host sets the frequency, and this kernel cannot see it" : ""),
      m.vm
        ? "Ask the host's operator to run the host's CPUs with the performance governor (or a fixed frequency)."
        : "Load a cpufreq driver (intel_pstate, amd-pstate or acpi-cpufreq), then set the performance governor:\n" +
            "`sudo cpupower frequency-set --governor performance`",
    );
  }
  const groups = byValue(values);
  const finding = groups.map(([g, cs]) => `${g} on ${cpusLabel(cs)}`).join("; ");
  const missing = cpus.filter((c) => !values.some(([v]) => v === c));
  const tail = missing.length > 0 ? `; no governor on ${cpusLabel(missing)}` : "";
  if (groups.every(([g]) => g === "performance")) {
    return check(id, title, "ok", finding + tail, "Nothing to do.");
  }
  return check(
    id,
    title,
    "warn",
    `${finding}${tail}: the frequency follows the load, so the first samples of every run (and any after a pause) run slower`,
    FIX_GOVERNOR,
  );
}
