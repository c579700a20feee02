// The distribution of calls per operation: the strict check of the profiled driver's perOperation and the
// record's callsPerOperation, on hand-made outputs.
import { describe, expect, it } from "vitest";
import {
  callsPerOperation,
  checkPerOperation,
  checkProfiledOutput,
  type DriverProfile,
  medianOf,
  ProfileShapeError,
  profileFigures,
} from "./figures.ts";

// 10 operations of a rejection sampler: 1 call 4 times, 2 calls 3 times, 3 calls twice, 7 calls once = 23 calls.
const varying = {
  operations: 10,
  min: 1,
  max: 7,
  median: 2,
  sum: 23,
  distinct: 4,
  histogram: [
    [1, 4],
    [2, 3],
    [3, 2],
    [7, 1],
  ],
};
const fixed = { operations: 10, min: 3, max: 3, median: 3, sum: 30, distinct: 1, histogram: [[3, 10]] };

const output = (perOperation: unknown, outer = 23) => ({
  trials: [
    { iterations: 6, counterDelta: 1, ns: 600 },
    { iterations: 4, counterDelta: 1, ns: 400 },
  ],
  profile: {
    clock: "rdtsc",
    totalTicks: 1000,
    groups: [{ name: "hash", ticks: 500, outer: outer + 30 }],
    symbols: [
      { name: "pseudoXOF", group: "hash", outer, nested: 0, ticks: 400, perOperation },
      { name: "pseudohash", group: "hash", outer: 30, nested: 0, ticks: 100, perOperation: fixed },
    ],
  },
});

const rejects = (perOperation: unknown, pattern: RegExp, outer = 23) =>
  expect(() => checkProfiledOutput(output(perOperation, outer), "Q-128 sign")).toThrow(pattern);

describe("checkPerOperation", () => {
  it("accepts a consistent distribution and gives the record's callsPerOperation", () => {
    const out = checkProfiledOutput(output(varying), "Q-128 sign");
    const f = profileFigures(out as { trials: typeof out.trials; profile: DriverProfile }, null, [
      { name: "hash", symbols: ["pseudoXOF", "pseudohash"], symbolLabels: {} },
    ] as never);
    expect(f.calls?.[0]).toMatchObject({
      symbol: "pseudoXOF",
      meanPerOperation: 2.3,
      callsPerOperation: { min: 1, max: 7, median: 2, mean: 2.3, operations: 10, histogram: varying.histogram },
    });
    expect(f.calls?.[1]?.callsPerOperation).toEqual({
      min: 3,
      max: 3,
      median: 3,
      mean: 3,
      operations: 10,
      histogram: [[3, 10]],
    });
  });

  it("a half median between two middle values; no histogram above 64 distinct values", () => {
    const even = {
      ...varying,
      histogram: [
        [1, 5],
        [2, 2],
        [3, 2],
        [7, 1],
      ],
      sum: 22,
      median: 1.5,
    };
    expect(checkPerOperation(even, 22, 10, "x")?.median).toBe(1.5);
    const wide = { operations: 100, min: 0, max: 99, median: 49.5, sum: 4950, distinct: 100 };
    expect(checkPerOperation(wide, 4950, 100, "x")).toEqual(wide);
    expect(callsPerOperation(wide)).toEqual({ min: 0, max: 99, median: 49.5, mean: 49.5, operations: 100 });
    expect(checkPerOperation(null, 5, 10, "x")).toBeNull();
  });

  it("rejects outputs whose counts do not add up", () => {
    rejects({ ...varying, sum: 24 }, /sum 24 is not the symbol's 23 outermost calls/);
    rejects(varying, /sum 23 is not the symbol's 22/, 22);
    rejects({ ...varying, operations: 11 }, /operations 11 is not the trials' 10 iterations/);
    rejects({ ...varying, median: 3 }, /median 3 is not the histogram's 2/);
    rejects({ ...varying, min: 2 }, /does not run from min to max/);
    rejects(
      {
        ...varying,
        histogram: [
          [1, 4],
          [2, 3],
          [3, 1],
          [7, 2],
        ],
      },
      /adds up to 27 calls, not 23/,
    );
    rejects(
      {
        ...varying,
        histogram: [
          [1, 4],
          [2, 3],
          [3, 2],
          [7, 2],
        ],
      },
      /counts 11 operations/,
    );
    rejects(
      {
        ...varying,
        histogram: [
          [1, 4],
          [3, 2],
          [2, 3],
          [7, 1],
        ],
      },
      /strictly increasing/,
    );
    rejects(
      {
        ...varying,
        histogram: [
          [1, 4],
          [2, 3],
          [3, 2],
        ],
      },
      /not an array of its 4 distinct values/,
    );
    rejects({ ...varying, max: 1 }, /min 1 <= median 2 <= max 1/);
  });

  it("rejects the wrong shape: types, keys, missing histogram, missing perOperation", () => {
    rejects({ ...varying, min: 1.5 }, /\.min is not a natural number/);
    rejects({ ...varying, median: 2.25 }, /\.median is not a natural number/);
    rejects({ ...varying, sum: "23" }, /\.sum is not a natural number/);
    rejects({ ...varying, extra: 1 }, /unknown key "extra"/);
    rejects({ ...varying, histogram: undefined }, /no histogram for 4 distinct values/);
    rejects(
      {
        ...varying,
        histogram: [
          [1, 4],
          [2, 3],
          [3, 2],
          [7, 0],
        ],
      },
      /not \[calls, operations >= 1\]/,
    );
    rejects({ ...varying, distinct: 2 }, /not an array of its 2 distinct values/);
    rejects({ ...varying, distinct: 9 }, /distinct 9 is impossible/);
    rejects([1, 2], /is not an object/);
    const noKey = output(varying);
    delete (noKey.profile.symbols[0] as Record<string, unknown>).perOperation;
    expect(() => checkProfiledOutput(noKey, "Q-128 sign")).toThrow(ProfileShapeError);
    expect(() => checkProfiledOutput(noKey, "Q-128 sign")).toThrow(/symbols\[0\] has no perOperation/);
  });

  it("medianOf: the lower and upper middle ranks averaged", () => {
    expect(medianOf([[4, 1]], 1)).toBe(4);
    expect(
      medianOf(
        [
          [1, 1],
          [9, 1],
        ],
        2,
      ),
    ).toBe(5);
    expect(
      medianOf(
        [
          [1, 2],
          [9, 1],
        ],
        3,
      ),
    ).toBe(1);
  });
});
