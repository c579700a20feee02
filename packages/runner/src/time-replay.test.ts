// The time measurement on recorded driver output, no C compiled and nothing timed: every worker's `sample` output
// is made from the samples six real workers printed once (testdata/contention.recorded.json), echoing the
// arguments the runner asked for, as the driver does; the statistic's decision comes from recorded instruction
// counts. What the records say follows from those samples alone, so the verdicts are asserted exactly.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { recordPath, validate } from "@ngcc-perf/schema";
import { afterAll, describe, expect, it } from "vitest";
import type { Replay } from "./run-context.ts";
import type { CentralDecision } from "./samples.ts";
import { recordedFacts, recordedOutput, replayedEnv, runReplayed } from "./step/replay-kit.ts";
import { timeMeasurement } from "./time.ts";
import type { DecideCentral } from "./time-campaign.ts";

const tmp = mkdtempSync(join(tmpdir(), "ngcc-time-replay-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const driver = recordedOutput("driver-output");
const contention = JSON.parse(
  readFileSync(new URL("./testdata/contention.recorded.json", import.meta.url), "utf8"),
) as {
  workers: Array<{ batch: number; counter: object; samples: number[]; clockChain: Chain; throughputChain: Chain }>;
};
type Chain = { adds: number; chains?: number; deltas: number[] };
const template = (recordedOutput("plausibility").sample as Array<{ output: Record<string, unknown> }>)[0]
  ?.output as Record<string, unknown>;

const cycle = <T>(xs: readonly T[], n: number) => Array.from({ length: n }, (_, i) => xs[i % xs.length] as T);

/** What `ngcc-driver sample` prints for these arguments, from recorded worker (seed − 1) mod 6. */
function sampleOutput(argv: readonly string[]) {
  const opt = (name: string, d?: string) => (argv.includes(name) ? (argv[argv.indexOf(name) + 1] as string) : d);
  const seed = Number(opt("--seed", "1"));
  const w = contention.workers[(seed - 1) % contention.workers.length] as (typeof contention.workers)[number];
  const counter = { ...(template.counter as object), ...w.counter };
  const rateHz = (counter as { rateHz: number }).rateHz;
  const asked = opt("--batch");
  const batch = asked !== undefined && asked !== "auto" ? Number(asked) : w.batch;
  const sorted = [...w.samples].sort((a, b) => a - b);
  const estimateNs = Number(((((sorted[0] as number) / batch) * 1e9) / rateHz).toPrecision(10));
  const sampleNs = Number(opt("--sample-ns"));
  const [minSamples, maxSamples] = [Number(opt("--min-samples", "31")), Number(opt("--max-samples", "50000"))];
  const n = Math.min(Math.max(Math.ceil(sampleNs / (estimateNs * batch)), minSamples), maxSamples);
  const samples = cycle(w.samples, n);
  const chains =
    opt("--clock-chain") === "none"
      ? {}
      : {
          clockChain: { adds: w.clockChain.adds, deltas: cycle(w.clockChain.deltas, n) },
          throughputChain: { adds: w.throughputChain.adds, chains: 4, deltas: cycle(w.throughputChain.deltas, n) },
        };
  const samplingNs = (samples.reduce((a, x) => a + x, 0) / rateHz) * 1e9;
  const out = {
    ...template,
    op: opt("--op"),
    counter,
    estimateNs,
    batch,
    samplesLimitedBy: n === minSamples ? "min-samples" : n === maxSamples ? "max-samples" : "sample-ns",
    settings: {
      sampleNs,
      warmupNs: Number(opt("--warmup-ns", "20000000")),
      minSamples,
      maxSamples,
      batch: asked === undefined || asked === "auto" ? "auto" : batch,
      keys: Number(opt("--keys", "4")),
      pool: Number(opt("--pool", "64")),
      seed,
    },
    pinnedCpu: opt("--pin") === undefined ? null : Number(opt("--pin")),
    messageBytes: Number(opt("--msg-bytes", "32")),
    elapsedNs: { warmup: (template.elapsedNs as { warmup: number }).warmup, sampling: samplingNs * 1.01 },
    samples,
    ...chains,
  };
  // The runner's clock over the process: the samples' time and a warm-up, as a real run reads it.
  const durationMs = samplingNs / 1e6 + 20;
  return { out, durationMs };
}

/** The time step's processes, every one replayed; forge changes a sample output before it is printed. */
const timeReplay =
  (forge: (op: string, out: Record<string, unknown>) => Record<string, unknown> = (_op, o) => o): Replay =>
  async (argv) => {
    const line = (doc: unknown, durationMs = 5) => ({ stdout: `${JSON.stringify(doc)}\n`, exitCode: 0, durationMs });
    const op = argv[argv.indexOf("--op") + 1] as string;
    switch (argv[1]) {
      case "info":
        return line(driver["driver-info"]);
      case "check":
        return line(driver["driver-check"]);
      case "memory":
        return line({ ...driver["driver-memory"], op });
      case "sample": {
        const s = sampleOutput(argv);
        return line(forge(op, s.out), s.durationMs);
      }
      default:
        throw new Error(`not replayed: ${argv.join(" ")}`);
    }
  };

/** The instruction counts' decision for every operation: input-dependent or not. */
const decidedBy =
  (inputDependent: boolean): DecideCentral =>
  () =>
    ({
      by: "instructions",
      profile: "guide",
      calls: 16,
      minInstructions: 651_506,
      maxInstructions: inputDependent ? 812_000 : 651_634,
      relativeSpread: inputDependent ? 0.25 : 0.0002,
      threshold: 0.1,
      inputDependent,
    }) satisfies CentralDecision;

const built = async () =>
  ({
    cached: true,
    facts: recordedFacts,
    driver: recordedFacts.artifact,
    sharedObject: process.execPath, // any ELF: the image figure is its PT_LOAD segments
    layouts: [],
  }) as never;

async function run(name: string, decide: DecideCentral, replay = timeReplay()) {
  const out = join(tmp, name);
  const recorded = replayedEnv(out, replay, decide, ["sig-91/Quill-V-192"]);
  // The workers were recorded on an AMD EPYC VM: its contention floor applies, whatever this machine is.
  const campaign = { ...recorded.campaign, context: { ...recorded.campaign.context, hostVendor: "AuthenticAMD" } };
  const env = { ...recorded, campaign };
  const r = await runReplayed(timeMeasurement, env, built);
  const summary = await r.run();
  const key = r.units[0]?.key as object;
  const read = (operation: string) =>
    JSON.parse(readFileSync(recordPath(out, { kind: "timing", key: { ...key, operation } as never }), "utf8"));
  return { summary, read, units: r.units.length };
}

describe("the time measurement on recorded samples", () => {
  it("publishes the median when the instruction counts say the work does not depend on the input", async () => {
    const r = await run("median", decidedBy(false));
    expect(r.units).toBe(1);
    expect(r.summary).toMatchObject({ planned: 3, records: 3, failed: 0 });
    const rec = r.read("sign");
    expect(validate("timing", rec).errors).toEqual([]);
    expect(rec).toMatchObject({ status: "ok", method: "per-call", build: recordedFacts, operation: "sign" });
    expect(rec.central.statistic).toBe("median");
    expect(rec.central.decision).toMatchObject({ by: "instructions", inputDependent: false });
    // The published figure is the median of the raw deltas the record keeps, divided by the batch and the rate.
    const deltas = (rec.samples as Array<{ counterDeltas: number[] }>).flatMap((w) => w.counterDeltas);
    const perCall = deltas.map((d) => (d / rec.sampling.batch / rec.counter.rateHz) * 1e9).sort((a, b) => a - b);
    expect(rec.distribution.n).toBeLessThanOrEqual(perCall.length);
    expect(rec.central.valueNs).toBeGreaterThanOrEqual(perCall[0] as number);
    expect(rec.central.valueNs).toBeLessThanOrEqual(perCall[perCall.length - 1] as number);
    expect(rec.central.valueNs).toBeCloseTo(rec.distribution.medianNs, 6);
    // Every worker's command is kept, each with the seed of the recorded worker it replays.
    const seeds = rec.commands
      .filter((c: { argv: string[] }) => c.argv[1] === "sample")
      .map((c: { argv: string[] }) => Number(c.argv[c.argv.indexOf("--seed") + 1]));
    expect(seeds).toEqual(Array.from({ length: rec.sampling.workers }, (_, i) => i + 1));
  });

  it("publishes the mean of the same samples when the counts say the work depends on the input", async () => {
    const r = await run("mean", decidedBy(true));
    const rec = r.read("sign");
    expect(rec.central.statistic).toBe("mean");
    expect(rec.central.decision).toMatchObject({ by: "instructions", inputDependent: true });
    expect(rec.central.valueNs).toBeCloseTo(rec.distribution.meanNs, 6);
  });

  it("names every recorded worker contended and spends the contended allowance on top of the budget", async () => {
    const rec = (await run("contention", decidedBy(false))).read("keygen");
    expect(rec.plausibility.verdict).toBe("plausible");
    // The six recorded workers read 3.07–3.39 adds per cycle on four chains: below 0.95 × the AMD floor, all
    // contended.
    expect(rec.contention).toMatchObject({ floor: 3.75, reference: 3.75 });
    expect(rec.contention.threshold).toBeGreaterThan(3.39);
    expect(rec.contention.workers.length).toBe(rec.sampling.workers);
    expect(rec.contention.workers.every((w: { contended: boolean }) => w.contended)).toBe(true);
    expect(rec.sampling.stoppedBy).toBe("budget");
    expect(rec.sampling.contendedMs).toBeGreaterThan(0);
    expect(rec.sampling.elapsedMs).toBeGreaterThan(1000); // the demo's budget: spent on uncontended sampling only
  });

  it("makes a forged sample output a driver-output failure of that operation alone", async () => {
    const forged = timeReplay((op, o) => (op === "verify" ? { ...o, samples: [...(o.samples as number[]), -1] } : o));
    const r = await run("forged", decidedBy(false), forged);
    expect(r.summary.failed).toBe(1);
    const rec = r.read("verify");
    expect(validate("timing", rec).errors).toEqual([]);
    expect(rec).toMatchObject({ status: "failed", failure: { reason: "driver-output" }, build: recordedFacts });
    expect(rec.commands.at(-1).argv).toEqual(expect.arrayContaining(["sample", "--op", "verify"]));
    expect(r.read("sign").status).toBe("ok");
  });
});
