import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { environmentWarnings } from "./environment-warnings.ts";
import type { EnvironmentRecord } from "./generated/types.ts";
import { validate } from "./validate.ts";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const seed = JSON.parse(
  readFileSync(join(repo, "fixtures/seed-store/data/arm_1/environment.json"), "utf8"),
) as EnvironmentRecord;

/** A record as `ngcc-perf time` writes it on an untuned VM: every warning applies. */
function untunedVm(): EnvironmentRecord {
  return {
    ...seed,
    provenance: {
      origin: "measured",
      tool: { name: "ngcc-perf", version: "0.1.0" },
      createdAt: "2026-10-02T10:00:00Z",
    },
    system: "x86_1",
    processor: {
      model: "Intel(R) Xeon(R) Processor",
      architecture: "x86_64",
      logicalCpus: 2,
      pinnedCpu: null,
      hypervisor: true,
    },
    clock: {
      fixedFrequencyHz: null,
      governor: "powersave",
      minFrequencyHz: 800_000_000,
      maxFrequencyHz: 4_700_000_000,
      boost: "on",
      smt: "on",
    },
  };
}

describe("environmentWarnings", () => {
  it("gives none for the seeds' tuned machine (fixed clock, boost off, no SMT, pinned)", () => {
    expect(validate("environment", seed).valid).toBe(true);
    expect(environmentWarnings(seed)).toEqual([]);
  });

  it("warns, in order, about a VM, a clock that was not fixed, boost, SMT and no pinning", () => {
    const env = untunedVm();
    expect(validate("environment", env).valid).toBe(true);
    expect(environmentWarnings(env)).toEqual([
      "Measured in a virtual machine: the host can take the CPU away, so the figures are weaker than on bare metal.",
      "The clock frequency was not fixed and the cpufreq governor was powersave, not performance: the frequency may have changed during the run.",
      "Turbo boost was on: the clock may have risen and fallen with temperature and the load of other cores.",
      "SMT (hyper-threading) was on: another thread may have shared the measuring core.",
      "The driver was not pinned to a CPU: the scheduler may have moved it between CPUs.",
    ]);
  });

  it("does not call the clock unfixed under the performance governor or at a fixed frequency", () => {
    const env = untunedVm();
    expect(environmentWarnings({ ...env, clock: { ...env.clock, governor: "performance" } })).toHaveLength(4);
    expect(environmentWarnings({ ...env, clock: { ...env.clock, fixedFrequencyHz: 2.1e9 } })).toHaveLength(4);
  });

  it("says what is missing rather than guessing", () => {
    const env = untunedVm();
    const noGovernor = { ...env, clock: { ...env.clock, governor: null } };
    expect(environmentWarnings(noGovernor)[1]).toBe(
      "The clock frequency was not fixed and the cpufreq governor is unknown: the frequency may have changed during the run.",
    );
    const bare: EnvironmentRecord = {
      ...env,
      processor: { model: "x", architecture: "x86_64", logicalCpus: 2 },
      clock: {},
    };
    expect(environmentWarnings(bare)).toEqual([
      "No fixed clock frequency is recorded and the cpufreq governor is unknown: the frequency may have changed during the run.",
    ]);
    const unknown = {
      ...env,
      processor: { ...env.processor, hypervisor: null },
      clock: { ...env.clock, boost: "unknown" as const, smt: "unknown" },
    };
    expect(environmentWarnings(unknown)).not.toContainEqual(expect.stringMatching(/virtual machine|boost|SMT/));
    expect(
      environmentWarnings({
        ...env,
        clock: { ...env.clock, smt: "off" },
        processor: { ...env.processor, pinnedCpu: 1 },
      }),
    ).toHaveLength(3);
  });
});
