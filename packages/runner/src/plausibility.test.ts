// The runner's side of the timing driver's output (plausibility.ts): the shape checks that refuse what the driver
// never prints, and the cross-checks that flag figures the process could not have measured — decided on driver
// outputs recorded once (plausibility.recorded.json), then forged here as a hostile submission would forge them.
import { readFileSync } from "node:fs";
import { cyclesPerInstructionCheck, type InstructionsRecord, type TimingRecord, validate } from "@ngcc-perf/schema";
import { describe, expect, it } from "vitest";
import { DriverOutputError, type DriverSample, type DriverTime } from "./driver.ts";
import {
  checkSampleOutput,
  checkTimeOutput,
  recordPlausibility,
  type SampledWorker,
  sampleChecks,
  trialChecks,
} from "./plausibility.ts";

interface Recorded<T> {
  args: string[];
  durationMs: number;
  output: T;
}
const recorded = JSON.parse(readFileSync(new URL("./plausibility.recorded.json", import.meta.url), "utf8")) as {
  sample: Array<Recorded<DriverSample>>;
  time: Recorded<DriverTime>;
};
const copy = <T>(x: T): T => structuredClone(x);
const workers = (): SampledWorker[] => recorded.sample.map((r) => copy(r));
const flagged = (checks: ReturnType<typeof sampleChecks>) =>
  checks.filter((c) => c.outcome === "flagged").map((c) => c.check);

describe("the driver's sample output against its arguments", () => {
  it("accepts what the driver printed", () => {
    for (const r of recorded.sample) expect(checkSampleOutput(copy(r.output), r.args, "enc").op).toBe(r.output.op);
    // With the samples it was switched out in listed.
    const r = recorded.sample[0] as (typeof recorded.sample)[number];
    expect(checkSampleOutput({ ...copy(r.output), switchedOut: [0, 5] }, r.args, "enc").switchedOut).toEqual([0, 5]);
  });

  const refused: Array<[string, (o: DriverSample & Record<string, unknown>) => void, RegExp]> = [
    ["another operation", (o) => Object.assign(o, { op: "keygen" }), /\/op should be "\w+"/],
    ["another counter", (o) => Object.assign(o.counter, { kind: "clock_gettime" }), /\/counter\/kind/],
    ["no rate for ticks", (o) => Object.assign(o.counter, { rateHz: null }), /\/counter\/rateHz/],
    ["a negative sample", (o) => o.samples.splice(3, 1, -5), /\/samples\/3/],
    ["a sample that is text", (o) => o.samples.splice(0, 1, "12" as unknown as number), /\/samples\/0/],
    ["fewer samples than --min-samples", (o) => o.samples.splice(5), /\/samples should be 31–50000 entries/],
    ["the count off the driver's rule", (o) => o.samples.push(...o.samples), /as the driver's rule gives/],
    // Dividing the samples and the estimate by 20 leaves a count the rule would have made 20 times larger.
    ["an estimate forged with the samples", (o) => Object.assign(o, { estimateNs: o.estimateNs / 20 }), /rule/],
    ["settings not those asked", (o) => Object.assign(o.settings, { sampleNs: 1 }), /\/settings\/sampleNs/],
    ["another seed", (o) => Object.assign(o.settings, { seed: 9 }), /\/settings\/seed/],
    ["a missing elapsed time", (o) => Object.assign(o, { elapsedNs: { warmup: 1 } }), /\/elapsedNs\/sampling/],
    [
      "a clock probe of another length",
      (o) => Object.assign(o, { clockChain: { adds: 16384, deltas: [1] } }),
      /deltas/,
    ],
    [
      "a contention probe of another length",
      (o) => Object.assign(o, { throughputChain: { adds: 16384, chains: 4, deltas: [1] } }),
      /\/throughputChain\/deltas/,
    ],
    [
      "a contention probe of other adds than the clock probe's",
      (o) => Object.assign(o, { throughputChain: { ...o.throughputChain, adds: 4096 } }),
      /\/throughputChain\/adds should be 16384/,
    ],
    [
      "a contention probe of other chains",
      (o) => Object.assign(o, { throughputChain: { ...o.throughputChain, chains: 1 } }),
      /\/throughputChain\/chains/,
    ],
    [
      "no contention probe beside the clock probe",
      (o) => Reflect.deleteProperty(o, "throughputChain"),
      /\/throughputChain should be an object/,
    ],
    ["an empty list of switched-out samples", (o) => Object.assign(o, { switchedOut: [] }), /\/switchedOut should be/],
    [
      "a switched-out sample that is not one",
      (o) => Object.assign(o, { switchedOut: [2, o.samples.length] }),
      /\/switchedOut\/1 should be a sample index below/,
    ],
    [
      "switched-out samples out of order",
      (o) => Object.assign(o, { switchedOut: [4, 4] }),
      /\/switchedOut\/1 should be ascending indices, each once/,
    ],
  ];
  for (const [name, forge, message] of refused) {
    it(`refuses ${name}, naming the field`, () => {
      const r = copy(recorded.sample[0] as Recorded<DriverSample>);
      forge(r.output as DriverSample & Record<string, unknown>);
      expect(() => checkSampleOutput(r.output, r.args, "Puffin-128 enc: sample")).toThrow(DriverOutputError);
      expect(() => checkSampleOutput(r.output, r.args, "Puffin-128 enc: sample")).toThrow(message);
    });
  }

  it("refuses a document that is not an object", () => {
    const r = recorded.sample[0] as Recorded<DriverSample>;
    expect(() => checkSampleOutput([1, 2], r.args, "x")).toThrow(/\(the document\) should be an object/);
  });
});

describe("the cross-checks of sampled workers", () => {
  it("pass the recorded workers", () => {
    const checks = sampleChecks(workers());
    expect(flagged(checks)).toEqual([]);
    expect(checks.map((c) => c.check)).toEqual([
      "runner-clock",
      "requested-duration",
      "counter-vs-clock",
      "warm-up-estimate",
      "core-clock",
    ]);
  });

  it("flag a core clock no processor has: an add chain the core folded (a fifth of the ticks reads ~19 GHz)", () => {
    const w = workers();
    const second = w[1] as SampledWorker;
    const chain = second.output.clockChain as NonNullable<DriverSample["clockChain"]>;
    second.output.clockChain = { ...chain, deltas: chain.deltas.map((d) => Math.round(d / 5)) };
    const checks = sampleChecks(w);
    expect(flagged(checks)).toEqual(["core-clock"]);
    expect(checks.find((c) => c.check === "core-clock")?.message).toMatch(
      /^worker 2: its core-clock probe reads \d+(\.\d+)? GHz, outside 0\.2–7 GHz: the add chain did not run one add per cycle/,
    );
  });

  it("flag samples divided by 20 (the issue's forgery): faster than the warm-up's own estimate", () => {
    const w = workers();
    const first = w[0] as SampledWorker;
    first.output.samples = first.output.samples.map((x) => Math.round(x / 20));
    const checks = sampleChecks(w);
    expect(flagged(checks)).toContain("warm-up-estimate");
    expect(checks.find((c) => c.check === "warm-up-estimate")?.message).toMatch(/^worker 1: its median call/);
  });

  it("flag samples that add up to more than the runner's clock over the process", () => {
    const w = workers();
    (w[1] as SampledWorker).durationMs = 1; // the process lasted 1 ms by the runner's clock
    const checks = sampleChecks(w);
    expect(flagged(checks)).toEqual(["runner-clock"]);
    expect(checks[0]?.message).toMatch(/^worker 2: its samples add up to [\d.]+ ms, more than the runner's clock/);
  });

  it("flag samples that add up to less than a tenth of the duration asked for, below the cap", () => {
    const w = workers();
    const o = (w[0] as SampledWorker).output;
    // The estimate and the samples forged alike, the count kept: the rule's count check is the shape's (above);
    // here the estimate is kept and the sum alone is cut (every sample but the median's neighbours to 0).
    const sorted = [...o.samples].sort((a, b) => a - b);
    const med = sorted[Math.floor(sorted.length / 2)] as number;
    o.samples = o.samples.map((x, i) => (i < 3 ? med : Math.round(x / 1000)));
    expect(flagged(sampleChecks(w))).toContain("requested-duration");
    // At the cap the same sum is what a fast call gives: not flagged as short.
    const capped = workers();
    const c = (capped[0] as SampledWorker).output;
    const args = [...(capped[0] as SampledWorker).args, "--max-samples", String(c.samples.length)];
    (capped[0] as SampledWorker).args = args;
    c.samples = o.samples;
    expect(flagged(sampleChecks(capped))).not.toContain("requested-duration");
  });

  it("flag samples that do not fit in the sampling loop's own CLOCK_MONOTONIC time", () => {
    const w = workers();
    const o = (w[0] as SampledWorker).output;
    o.elapsedNs = { ...o.elapsedNs, sampling: o.elapsedNs.sampling / 4 };
    expect(flagged(sampleChecks(w))).toEqual(["counter-vs-clock"]);
  });
});

describe("trials", () => {
  const t = recorded.time;
  it("accept what the driver printed and pass its checks", () => {
    expect(checkTimeOutput(copy(t.output), t.args, "enc").trials).toHaveLength(3);
    expect(trialChecks(copy(t.output), t.args, t.durationMs).filter((c) => c.outcome === "flagged")).toEqual([]);
  });
  it("refuse a trial count or iterations not asked for", () => {
    const fewer = copy(t.output);
    fewer.trials.pop();
    expect(() => checkTimeOutput(fewer, t.args, "enc: time")).toThrow(/\/trials should be 3 trials/);
    const other = copy(t.output);
    (other.trials[1] as { iterations: number }).iterations = 7;
    expect(() => checkTimeOutput(other, t.args, "enc: time")).toThrow(/\/trials\/1\/iterations/);
    const est = copy(t.output);
    if (est.calibration) est.calibration.estimateNs /= 20;
    expect(() => checkTimeOutput(est, t.args, "enc: time")).toThrow(/driver's rule/);
  });
  it("flag trials divided by 20 (counter and clock alike) and a counter forged alone", () => {
    const both = copy(t.output);
    both.trials = both.trials.map((x) => ({
      ...x,
      ns: Math.round(x.ns / 20),
      counterDelta: Math.round(x.counterDelta / 20),
    }));
    const checks = trialChecks(both, t.args, t.durationMs);
    expect(checks.filter((c) => c.outcome === "flagged").map((c) => c.check)).toEqual([
      "requested-duration",
      "warm-up-estimate",
    ]);
    const counter = copy(t.output);
    counter.trials = counter.trials.map((x) => ({ ...x, counterDelta: Math.round(x.counterDelta / 20) }));
    expect(
      trialChecks(counter, t.args, t.durationMs)
        .filter((c) => c.outcome === "flagged")
        .map((c) => c.check),
    ).toEqual(["counter-vs-clock"]);
    expect(
      trialChecks(copy(t.output), t.args, 0.5)
        .filter((c) => c.outcome === "flagged")
        .map((c) => c.check),
    ).toEqual(["runner-clock"]);
  });
});

describe("cycles per instruction", () => {
  const timing = (cycles: number): TimingRecord =>
    ({
      status: "ok",
      operation: "enc",
      counter: { kind: "rdtsc", unit: "tsc-ticks", rateHz: 2.6e9, overhead: 52 },
      aggregates: { meanCounter: cycles },
    }) as unknown as TimingRecord;
  const counted = (ipc: number) => ({ status: "ok", instructionsPerCall: ipc }) as unknown as InstructionsRecord;
  it("passes 0.1–8 cycles per instruction, flags outside, says nothing without both figures", () => {
    expect(cyclesPerInstructionCheck(timing(50_000), counted(100_000))?.outcome).toBe("pass");
    const low = cyclesPerInstructionCheck(timing(5_000), counted(100_000));
    expect(low?.outcome).toBe("flagged");
    expect(low?.message).toMatch(/0\.050 cycles per instruction, below the plausible 0\.1–8/);
    expect(cyclesPerInstructionCheck(timing(900_000), counted(100_000))?.outcome).toBe("flagged");
    expect(cyclesPerInstructionCheck(timing(50_000), undefined)).toBeNull();
    const ns = { ...timing(50_000), counter: { kind: "clock_gettime", unit: "ns", rateHz: null, overhead: 20 } };
    expect(cyclesPerInstructionCheck(ns as TimingRecord, counted(100_000))).toBeNull();
  });
  it("makes a plausibility block the timing schema accepts", () => {
    const block = recordPlausibility(sampleChecks(workers()), cyclesPerInstructionCheck(timing(5_000), counted(1e5)));
    expect(block.verdict).toBe("flagged");
    const schema = validate("timing", {
      kind: "timing",
      schemaVersion: 1,
      provenance: { origin: "measured", tool: { name: "ngcc-perf", version: "0" }, createdAt: "2026-01-01T00:00:00Z" },
      system: "s",
      algorithmId: "a",
      instance: "i",
      implementation: "ref",
      buildProfile: "guide",
      operation: "enc",
      status: "failed",
      failure: { reason: "error", message: "m" },
      plausibility: block,
    });
    expect(schema.errors ?? []).toEqual([]);
  });
});
