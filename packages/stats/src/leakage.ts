// The fixed-vs-random timing leakage test (dudect's method: Reparaz, Balasch and Verbauwhede, "Dude, is my code
// constant time?", 2017): per-call times of two input classes, fixed and random, measured interleaved in random
// order; Welch's t-statistic between the classes on the raw times, on the times below each of a set of
// percentiles (cropping away the upper tail, where a noisy machine puts most of its noise), and on the squared
// distance to the class mean (second order: a difference of spread, not of level). The largest |t| over the tests
// that have enough measurements decides. The test detects: a |t| below the thresholds says that no leak was found
// at that many measurements, never that there is none.

/** |t| at or above: "leak" (dudect's threshold for "probably not constant time"). */
export const LEAK_T = 10;
/** |t| at or above (and below LEAK_T): "leak likely" (the TVLA threshold of side-channel evaluation labs). */
export const LIKELY_T = 4.5;
/** Cropping percentiles (dudect's number). */
export const CROPS = 100;
/** Measurements (both classes) before a verdict other than "too few measurements", and before second order. */
export const ENOUGH_MEASUREMENTS = 10_000;
/** Measurements of each class a test needs to take part in the maximum. */
export const MIN_PER_CLASS = 1_000;

export type LeakVerdict = "leak" | "leak likely" | "no leak detected" | "too few measurements";

/** Welch's t-test between two classes, accumulated online (Welford's mean and sum of squares per class). */
export class Welch {
  readonly n: [number, number] = [0, 0];
  private readonly m: [number, number] = [0, 0];
  private readonly s: [number, number] = [0, 0];

  push(x: number, cls: 0 | 1): void {
    const n = ++this.n[cls];
    const d = x - this.m[cls];
    this.m[cls] += d / n;
    this.s[cls] += d * (x - this.m[cls]);
  }

  /** The class's mean (NaN without values). */
  mean(cls: 0 | 1): number {
    return this.n[cls] ? this.m[cls] : Number.NaN;
  }

  /** Welch's t of class 0 against class 1; 0 while a class has fewer than 2 values or both have no spread. */
  t(): number {
    const [n0, n1] = this.n;
    if (n0 < 2 || n1 < 2) return 0;
    const v = this.s[0] / (n0 - 1) / n0 + this.s[1] / (n1 - 1) / n1;
    return v > 0 ? (this.m[0] - this.m[1]) / Math.sqrt(v) : 0;
  }
}

/**
 * The cropping thresholds from a first set of times (both classes): dudect's percentiles 1 − 0.5^(10 (k+1) / CROPS),
 * k = 0 … CROPS − 1, from about the 6.7th up to the 99.9th, denser towards the top.
 */
export function cropThresholds(times: ArrayLike<number>): number[] {
  if (times.length === 0) throw new Error("cropping thresholds of no times");
  const sorted = Float64Array.from(times).sort();
  return Array.from({ length: CROPS }, (_, k) => {
    const p = 1 - 0.5 ** ((10 * (k + 1)) / CROPS);
    return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;
  });
}

/** Which test gave the maximum. */
export type LeakTestName = "raw" | "second order" | `cropped below p${string}`;

export interface LeakResult {
  /** The largest |t| over the tests with at least MIN_PER_CLASS measurements of each class (0 when none has). */
  maxT: number;
  /** The test it came from. */
  test: LeakTestName;
  /** Measurements that test used (both classes). */
  testMeasurements: number;
  /** Measurements in all (both classes). */
  measurements: number;
  /** Of each class: fixed, random. */
  perClass: [number, number];
  /** |t| of the raw times. */
  rawT: number;
  /** |t| of second order (0 until it has run). */
  secondOrderT: number;
  verdict: LeakVerdict;
}

/** The verdict of a maximum |t| over `measurements` measurements. */
export function leakVerdict(maxT: number, measurements: number): LeakVerdict {
  if (measurements < ENOUGH_MEASUREMENTS) return "too few measurements";
  if (maxT >= LEAK_T) return "leak";
  if (maxT >= LIKELY_T) return "leak likely";
  return "no leak detected";
}

const cropName = (k: number): LeakTestName => {
  const p = (1 - 0.5 ** ((10 * (k + 1)) / CROPS)) * 100;
  return `cropped below p${p.toFixed(p < 99 ? 1 : 2)}`;
};

/**
 * The test over a run: the raw, cropped and second-order Welch tests, fed batch by batch (each measurement a time and
 * its class, 0 fixed or 1 random). The cropping thresholds come from the first batch (as dudect takes them from its
 * first measurements, which are then also tested). Second order starts once the raw test has ENOUGH_MEASUREMENTS,
 * each time centred on its class's mean so far.
 */
export class LeakageTest {
  private readonly raw = new Welch();
  private readonly second = new Welch();
  private crops: Welch[] = [];
  private thresholds: number[] | null = null;

  push(times: ArrayLike<number>, classes: ArrayLike<number>): void {
    if (times.length !== classes.length) throw new Error("times and classes differ in length");
    if (times.length === 0) return;
    if (!this.thresholds) {
      this.thresholds = cropThresholds(times);
      this.crops = this.thresholds.map(() => new Welch());
    }
    const thresholds = this.thresholds;
    for (let i = 0; i < times.length; i++) {
      const x = times[i] as number;
      const c = classes[i];
      if (c !== 0 && c !== 1) throw new Error(`class ${String(c)} at ${i}: expected 0 (fixed) or 1 (random)`);
      if (this.raw.n[0] + this.raw.n[1] >= ENOUGH_MEASUREMENTS) {
        const d = x - this.raw.mean(c);
        this.second.push(d * d, c);
      }
      this.raw.push(x, c);
      for (let k = 0; k < thresholds.length; k++) if (x < (thresholds[k] as number)) this.crops[k]?.push(x, c);
    }
  }

  result(): LeakResult {
    const counts = (w: Welch) => w.n[0] + w.n[1];
    const eligible = (w: Welch) => w.n[0] >= MIN_PER_CLASS && w.n[1] >= MIN_PER_CLASS;
    const tests: Array<[LeakTestName, Welch]> = [
      ["raw", this.raw],
      ...this.crops.map((w, k) => [cropName(k), w] as [LeakTestName, Welch]),
      ["second order", this.second],
    ];
    let best: [LeakTestName, Welch] = ["raw", this.raw];
    let maxT = 0;
    for (const [name, w] of tests) {
      const t = Math.abs(w.t());
      if (eligible(w) && t > maxT) {
        maxT = t;
        best = [name, w];
      }
    }
    const measurements = counts(this.raw);
    return {
      maxT,
      test: best[0],
      testMeasurements: counts(best[1]),
      measurements,
      perClass: [this.raw.n[0], this.raw.n[1]],
      rawT: Math.abs(this.raw.t()),
      secondOrderT: Math.abs(this.second.t()),
      verdict: leakVerdict(maxT, measurements),
    };
  }
}

/** Whether a run can stop before its budget: a leak is established (|t| ≥ LEAK_T over enough measurements). */
export function leakEstablished(r: LeakResult): boolean {
  return r.verdict === "leak";
}
