import { describe, expect, it } from "vitest";
import { keptSamples, SWITCHED_OUT_CAP } from "./switched-out.ts";

describe("keptSamples (samples during which the process was switched out)", () => {
  it("keeps every sample when none was switched out", () => {
    expect(keptSamples(5, undefined)).toEqual({ kept: [0, 1, 2, 3, 4], dropped: 0, overCap: false });
    expect(keptSamples(3, [])).toEqual({ kept: [0, 1, 2], dropped: 0, overCap: false });
  });
  it("leaves out the samples listed, up to a quarter of them", () => {
    expect(SWITCHED_OUT_CAP).toBe(0.25);
    expect(keptSamples(8, [1, 6])).toEqual({ kept: [0, 2, 3, 4, 5, 7], dropped: 2, overCap: false });
    // Exactly a quarter is still left out.
    expect(keptSamples(4, [3]).kept).toEqual([0, 1, 2]);
  });
  it("keeps all of a worker switched out in more than the cap (and says so)", () => {
    expect(keptSamples(8, [0, 1, 2])).toEqual({ kept: [0, 1, 2, 3, 4, 5, 6, 7], dropped: 0, overCap: true });
    expect(keptSamples(8, [0, 1, 2], 0.5).dropped).toBe(3);
  });
  it("ignores indices that are not samples of the worker, and counts a repeated one once", () => {
    expect(keptSamples(8, [2, 2, 9, -1, 1.5])).toEqual({ kept: [0, 1, 3, 4, 5, 6, 7], dropped: 1, overCap: false });
  });
});
