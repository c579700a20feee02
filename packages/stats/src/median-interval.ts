// The distribution-free 95 % interval of a median from order statistics.
import { Z975 } from "./student-t.ts";

/** Largest n for which the median's interval comes from the exact binomial; beyond, the normal approximation. */
export const EXACT_BINOMIAL_MAX_N = 1000;

/** P(B ≤ l − 1) ≤ 0.025 on each side, so that P(l ≤ B < n + 1 − l) ≥ 0.95. */
const TAIL = 0.025;

/**
 * 1-based ranks [lower, upper] of the order statistics that bound a distribution-free 95 % interval of the median
 * of n samples: the largest lower rank l and the smallest upper rank u = n + 1 − l with
 * P(l ≤ B < u) ≥ 0.95, B ~ binomial(n, ½) the number of samples below the true median. Exact (summed in log
 * space) for n ≤ 1000, normal approximation with continuity correction beyond. null when no such interval
 * exists (n ≤ 5: even [X(1), X(n)] covers with less than 95 %).
 */
export function medianRanks(n: number): { lower: number; upper: number } | null {
  if (!Number.isInteger(n) || n < 1) throw new Error(`medianRanks: n must be a positive integer (got ${n})`);
  let lower: number;
  if (n <= EXACT_BINOMIAL_MAX_N) {
    // cdf(k) = P(B ≤ k); l is the first k with cdf(k) > TAIL (then cdf(l − 1) ≤ TAIL).
    const logHalfN = n * Math.log(0.5);
    let logChoose = 0; // log C(n, 0)
    let cdf = 0;
    lower = 0;
    for (let k = 0; k <= n; k++) {
      if (k > 0) logChoose += Math.log(n - k + 1) - Math.log(k);
      cdf += Math.exp(logChoose + logHalfN);
      if (cdf > TAIL) break;
      lower = k + 1;
    }
  } else {
    // P(B ≤ l − 1) ≈ Φ((l − 1 + ½ − n/2) / (√n / 2)) ≤ 0.025.
    lower = Math.floor(n / 2 + 0.5 - (Z975 * Math.sqrt(n)) / 2);
  }
  if (lower < 1) return null;
  return { lower, upper: n + 1 - lower };
}
