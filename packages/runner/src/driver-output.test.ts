// The driver's output validated before anything is read from it (interpret, @ngcc-perf/schema's driver-output
// schemas): what the native programs printed once (driver-output.recorded.json, plausibility.recorded.json) is
// accepted; the same forged as a submission sharing the process would forge it — wrong types, fields the driver
// never prints, indices out of range, non-finite numbers, truncated JSON — is a DriverError "driver-output" naming
// the JSON pointer and what was expected there, never a cast and never an internal error.
import { readFileSync } from "node:fs";
import { DRIVER_OUTPUT_KINDS, type DriverOutputKind, validateDriverOutput } from "@ngcc-perf/schema";
import { describe, expect, it } from "vitest";
import { DriverError, type DriverMemory, interpret } from "./driver.ts";
import { checkMemoryOutput, checkRssOutput } from "./plausibility.ts";
import type { RunResult } from "./proc.ts";

type Json = Record<string, unknown>;
// biome-ignore lint/suspicious/noExplicitAny: forged outputs are edited untyped; the validation is what is tested.
type Forged = Record<string, any>;
const read = (name: string) => JSON.parse(readFileSync(new URL(name, import.meta.url), "utf8"));
const plausibility = read("./plausibility.recorded.json") as {
  sample: Array<{ output: Json }>;
  time: { output: Json };
};
const recorded: Record<DriverOutputKind, Json> = {
  ...(read("./driver-output.recorded.json") as Record<string, Json>),
  "driver-sample": plausibility.sample[0]?.output as Json,
  "driver-time": plausibility.time.output,
} as Record<DriverOutputKind, Json>;
const copy = (kind: DriverOutputKind): Forged => structuredClone(recorded[kind]);

/** A finished run of the driver that printed `stdout` and exited 0. */
const ran = (stdout: string): RunResult =>
  ({ stdout, stderr: "", exitCode: 0, signal: null, timedOut: false, durationMs: 5, timeLimitMs: 1000 }) as RunResult;

/** What interpret makes of stdout: the value, or the DriverError it throws. */
function outcome(kind: DriverOutputKind, stdout: string): unknown {
  try {
    return interpret(ran(stdout), "Puffin-128 enc: sample", kind);
  } catch (err) {
    return err;
  }
}

describe("the native programs' output as they print it", () => {
  it("has a recorded output of every kind", () => {
    expect(Object.keys(recorded).sort()).toEqual([...DRIVER_OUTPUT_KINDS].sort());
  });

  for (const kind of DRIVER_OUTPUT_KINDS)
    it(`accepts ${kind}`, () => {
      expect(validateDriverOutput(kind, copy(kind))).toEqual([]);
      expect(outcome(kind, `${JSON.stringify(recorded[kind])}\n`)).toEqual(recorded[kind]);
    });

  it("accepts every recorded worker, with and without switched-out samples", () => {
    for (const w of plausibility.sample) expect(validateDriverOutput("driver-sample", w.output)).toEqual([]);
    expect(validateDriverOutput("driver-sample", { ...copy("driver-sample"), switchedOut: [0, 5] })).toEqual([]);
  });
});

type Forgery = [string, DriverOutputKind, (o: Forged) => unknown, string, RegExp];

const forgeries: Forgery[] = [
  ["a sample that is text", "driver-sample", (o) => o.samples.splice(0, 1, "631245"), "/samples/0", /must be number/],
  ["a negative sample", "driver-sample", (o) => o.samples.splice(2, 1, -1), "/samples/2", /must be >= 0/],
  ["a sample of null (NaN printed)", "driver-sample", (o) => o.samples.splice(1, 1, null), "/samples/1", /number/],
  ["no samples", "driver-sample", (o) => o.samples.splice(0), "/samples", /fewer than 1 item/],
  [
    "a field the driver never prints",
    "driver-sample",
    (o) => Object.assign(o, { verdict: "fast" }),
    "/verdict",
    /unknown field "verdict"/,
  ],
  [
    "an extra field in the counter",
    "driver-sample",
    (o) => Object.assign(o.counter, { scale: 20 }),
    "/counter/scale",
    /unknown field/,
  ],
  ["a count that is a fraction", "driver-sample", (o) => Object.assign(o, { batch: 1.5 }), "/batch", /must be integer/],
  [
    "a batch past the driver's cap",
    "driver-sample",
    (o) => Object.assign(o, { batch: 2e9 }),
    "/batch",
    /must be <= 1000000000/,
  ],
  ["a zero estimate", "driver-sample", (o) => Object.assign(o, { estimateNs: 0 }), "/estimateNs", /must be > 0/],
  [
    "a counter kind it has not",
    "driver-sample",
    (o) => Object.assign(o.counter, { kind: "tsc" }),
    "/counter/kind",
    /must be one of/,
  ],
  [
    "no samples array at all",
    "driver-sample",
    (o) => Reflect.deleteProperty(o, "samples"),
    "/samples",
    /required field "samples" is missing/,
  ],
  [
    "a switched-out index past the samples",
    "driver-sample",
    (o) => Object.assign(o, { switchedOut: [3, o.samples.length] }),
    "/switchedOut/1",
    /must be below \d+ \(a sample index: the sample count\)/,
  ],
  [
    "a switched-out index twice",
    "driver-sample",
    (o) => Object.assign(o, { switchedOut: [4, 4] }),
    "/switchedOut",
    /duplicate items/,
  ],
  [
    "switched-out indices descending",
    "driver-sample",
    (o) => Object.assign(o, { switchedOut: [5, 2] }),
    "/switchedOut/1",
    /above the index before it/,
  ],
  [
    "a negative switched-out index",
    "driver-sample",
    (o) => Object.assign(o, { switchedOut: [-1] }),
    "/switchedOut/0",
    /must be >= 0/,
  ],
  [
    "an empty switched-out list",
    "driver-sample",
    (o) => Object.assign(o, { switchedOut: [] }),
    "/switchedOut",
    /fewer than 1 item/,
  ],
  [
    "a clock probe of another length",
    "driver-sample",
    (o) => o.clockChain.deltas.pop(),
    "/clockChain/deltas",
    /must have \d+ entries \(one per sample\)/,
  ],
  [
    "a trial count of text",
    "driver-time",
    (o) => Object.assign(o.trials[0], { iterations: "1561" }),
    "/trials/0/iterations",
    /integer/,
  ],
  [
    "trials of another iteration count",
    "driver-time",
    (o) => Object.assign(o.trials[1], { iterations: 1 }),
    "/trials/1/iterations",
    /must be iterationsPerTrial/,
  ],
  ["no trials", "driver-time", (o) => o.trials.splice(0), "/trials", /fewer than 1 item/],
  [
    "an input index past the inputs",
    "driver-memory",
    (o) => Object.assign(o, { stackMaxInput: 3 }),
    "/stackMaxInput",
    /must be below 3/,
  ],
  [
    "a per-input array of another length",
    "driver-memory",
    (o) => o.heapPeakBytesPerInput.push(0),
    "/heapPeakBytesPerInput",
    /must have 3 entries/,
  ],
  [
    "a stack figure that is negative",
    "driver-memory",
    (o) => Object.assign(o, { stackBytes: -8 }),
    "/stackBytes",
    /must be >= 0/,
  ],
  ["a category it has not", "driver-info", (o) => Object.assign(o, { category: "pke" }), "/category", /must be one of/],
  [
    "a size that is text",
    "driver-info",
    (o) => Object.assign(o.sizes, { publicKeyBytes: "48" }),
    "/sizes/publicKeyBytes",
    /integer/,
  ],
  ["a check that did not pass", "driver-check", (o) => Object.assign(o, { ok: false }), "/ok", /must be true/],
  [
    "randombytes counts of another length",
    "driver-icount",
    (o) => o.randombytes.calls.pop(),
    "/randombytes/calls",
    /one per call/,
  ],
  [
    "a constant-time run claiming more calls than allowed",
    "driver-ct",
    (o) => Object.assign(o, { calls: 65 }),
    "/calls",
    /<= 64/,
  ],
  [
    "a constant-time run listing more declassified sites than the program keeps",
    "driver-ct",
    (o) =>
      Object.assign(o, {
        declassifySites: Array.from({ length: 65 }, () => ({ file: "a.c", line: 1, calls: 1, bytes: 4 })),
      }),
    "/declassifySites",
    /at most 64|<= 64|more than 64/,
  ],
  [
    "leak measurements with fewer times than calls",
    "driver-leak",
    (o) => Object.assign(o, { times: (o.times as number[]).slice(1) }),
    "/times",
    /must have 6 entries/,
  ],
  [
    "leak measurements with a class that is neither 0 nor 1",
    "driver-leak",
    (o) => Object.assign(o, { class: "100112" }),
    "/class",
    /pattern/,
  ],
  ["a probe with an extra field", "driver-probe", (o) => Object.assign(o, { fast: true }), "/fast", /unknown field/],
  [
    "an overhead that is text",
    "driver-overhead",
    (o) => Object.assign(o.counter, { overhead: "0" }),
    "/counter/overhead",
    /number/,
  ],
];

describe("forged output is refused, naming the pointer and what was expected", () => {
  for (const [name, kind, forge, pointer, message] of forgeries)
    it(`${kind}: ${name}`, () => {
      const o = copy(kind);
      forge(o);
      const errors = validateDriverOutput(kind, o);
      expect(errors.map((e) => e.pointer)).toContain(pointer);
      expect(errors.find((e) => e.pointer === pointer)?.message).toMatch(message);
      const err = outcome(kind, JSON.stringify(o));
      expect(err).toBeInstanceOf(DriverError);
      expect((err as DriverError).reason).toBe("driver-output");
      expect((err as DriverError).message).toMatch(
        /^Puffin-128 enc: sample: the driver's output is not what the driver prints/,
      );
      expect((err as DriverError).message).toContain(pointer);
    });

  it("refuses non-finite numbers (1e999 parses as Infinity)", () => {
    const text = JSON.stringify(copy("driver-sample")).replace(/"estimateNs":[^,]+/, '"estimateNs":1e999');
    const err = outcome("driver-sample", text) as DriverError;
    expect(err.reason).toBe("driver-output");
    expect(err.message).toMatch(/\/estimateNs/);
    const samples = JSON.stringify(copy("driver-sample")).replace(/"samples":\[\d+/, '"samples":[-1e999');
    expect((outcome("driver-sample", samples) as DriverError).message).toMatch(/\/samples\/0/);
  });

  it("refuses truncated JSON and a document that is not an object", () => {
    const text = JSON.stringify(copy("driver-sample"));
    const cut = outcome("driver-sample", text.slice(0, text.length / 2)) as DriverError;
    expect(cut).toBeInstanceOf(DriverError);
    expect(cut.reason).toBe("driver-output");
    expect(cut.message).toBe("Puffin-128 enc: sample: the driver printed no valid JSON");
    for (const doc of ["[]", "null", "42", '"ok"']) {
      const err = outcome("driver-sample", doc) as DriverError;
      expect(err.reason, doc).toBe("driver-output");
      expect(err.message, doc).toMatch(/\(the document\) must be object/);
    }
  });

  it("names at most three errors, and how many more", () => {
    const o = copy("driver-sample");
    Object.assign(o, { a: 1, b: 2, c: 3, d: 4, e: 5 });
    expect((outcome("driver-sample", JSON.stringify(o)) as DriverError).message).toMatch(/\(and 2 more\)$/);
  });
});

describe("a memory output against the --measure it was run with", () => {
  const args = (measure: string) => ["memory", "--op", "sign", "--measure", measure, "--inputs", "3"];

  it("accepts what the driver printed", () => {
    expect(checkMemoryOutput(copy("driver-memory") as DriverMemory, args("all"), "sign").op).toBe("sign");
    expect(checkRssOutput(copy("driver-memory") as DriverMemory, args("rss"), "sign").peakRssKiB).toBeGreaterThan(0);
  });

  it("refuses RSS proxies left out under rss, inputs left out under highwater, and another input count", () => {
    const noRss = copy("driver-memory");
    delete noRss.peakRssKiB;
    expect(validateDriverOutput("driver-memory", noRss)).toEqual([]); // each figure is optional in the schema
    expect(() => checkRssOutput(noRss as DriverMemory, args("rss"), "sign")).toThrow(
      /sign: the driver's output is not what the driver prints: \/peakRssKiB should be a finite integer/,
    );
    const noInputs = copy("driver-memory");
    delete noInputs.inputs;
    expect(() => checkMemoryOutput(noInputs as DriverMemory, args("highwater"), "sign")).toThrow(/\/inputs/);
    expect(() =>
      checkMemoryOutput(copy("driver-memory") as DriverMemory, [...args("all"), "--inputs", "5"], "sign"),
    ).toThrow(/\/inputs\/asked should be 5/);
  });
});
