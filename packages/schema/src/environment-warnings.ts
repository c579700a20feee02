// The warnings a page shows above its timing table: what in a system's environment record makes the
// figures weaker. Each is a short sentence that the record itself bears out: an unknown hypervisor, boost,
// SMT or pinning gives no warning, and a clock the record does not show to be fixed (no fixed frequency,
// governor not performance) is warned about in words that say what the record holds.
import type { EnvironmentRecord } from "./generated/types.ts";

/** Warnings for the environment a system was measured in, in a fixed order: VM, clock, boost, SMT, pinning. */
export function environmentWarnings(env: EnvironmentRecord): string[] {
  const out: string[] = [];
  if (env.processor.hypervisor === true) {
    out.push(
      "Measured in a virtual machine: the host can take the CPU away, so the figures are weaker than on bare metal.",
    );
  }
  const { fixedFrequencyHz, governor, boost, smt } = env.clock;
  if (fixedFrequencyHz == null && governor !== "performance") {
    const fixed =
      fixedFrequencyHz === null ? "The clock frequency was not fixed" : "No fixed clock frequency is recorded";
    const why = governor ? `the cpufreq governor was ${governor}, not performance` : "the cpufreq governor is unknown";
    out.push(`${fixed} and ${why}: the frequency may have changed during the run.`);
  }
  if (boost === "on") {
    out.push("Turbo boost was on: the clock may have risen and fallen with temperature and the load of other cores.");
  }
  if (smt === "on") {
    out.push("SMT (hyper-threading) was on: another thread may have shared the measuring core.");
  }
  if (env.processor.pinnedCpu === null) {
    out.push("The driver was not pinned to a CPU: the scheduler may have moved it between CPUs.");
  }
  return out;
}
