// Number formatting as the seed pages print it (design brief, "Report rules read off the seed pages"), and the
// inverse: the interval of values that a printed figure stands for. Used to synthesize raw figures whose
// formatted aggregates give back the seeds' strings exactly, and to check that they do.

/** A half-open interval [low, high). */
export interface Interval {
  low: number;
  high: number;
}

// The forward rules are the report's own (@ngcc-perf/report, the one tested formatting module), so the seed store
// is synthesized against exactly what the pages print.
import { formatCounter } from "@ngcc-perf/report";

export { formatN, formatOpsPerSecond, formatShare, formatTime } from "@ngcc-perf/report";

/** Mean cycles: below 10,000 an integer; below 10⁶ one decimal and ` k`; else two decimals and ` M`. */
export const formatCycles = formatCounter;

const TIME_UNITS: ReadonlyArray<{ unit: string; ns: number }> = [
  { unit: "ns", ns: 1 },
  { unit: "µs", ns: 1e3 },
  { unit: "ms", ns: 1e6 },
  { unit: "s", ns: 1e9 },
];

// ---------------------------------------------------------------------------------------------------------------
// Inverses: the interval of values a printed figure stands for.

/** Half a unit in the last printed digit of a decimal or `%g` string: `10.8` → 0.05, `1.54e+04` → 50. */
function halfUlp(printed: string): number {
  const m = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(printed);
  if (!m) throw new Error(`not a printed number: ${printed}`);
  const decimals = m[2]?.length ?? 0;
  const exp = m[3] === undefined ? 0 : Number(m[3]);
  return 0.5 * 10 ** (exp - decimals);
}

/**
 * Values that `%.3g` prints as `printed`. `%.3g` drops trailing zeros, so `13` stands for [12.95, 13.05):
 * the half-width follows from three significant digits, not from the digits shown.
 */
export function gInterval(printed: string, precision = 3): Interval {
  const v = Number(printed);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`not a positive number: ${printed}`);
  const exp = Math.floor(Math.log10(v));
  const h = 0.5 * 10 ** (exp - (precision - 1));
  return { low: v - h, high: v + h };
}

/** Nanoseconds that formatTime prints as `printed` (`10.8 ms` → [10.75e6, 10.85e6)). */
export function timeInterval(printed: string): Interval {
  const m = /^([\d.]+) (ns|µs|ms|s)$/.exec(printed);
  if (!m || m[1] === undefined) throw new Error(`not a time: ${printed}`);
  const unit = TIME_UNITS.find((u) => u.unit === m[2]);
  if (!unit) throw new Error(`unknown unit in ${printed}`);
  const i = gInterval(m[1]);
  return { low: i.low * unit.ns, high: i.high * unit.ns };
}

/** Mean cycles that formatCycles prints as `printed` (`29.13 M`, `174.9 k`, `4340`). */
export function cyclesInterval(printed: string): Interval {
  const m = /^(\d+(?:\.\d+)?)(?: (k|M))?$/.exec(printed);
  if (!m || m[1] === undefined) throw new Error(`not a cycle count: ${printed}`);
  const scale = m[2] === "k" ? 1e3 : m[2] === "M" ? 1e6 : 1;
  const h = halfUlp(m[1]);
  const v = Number(m[1]);
  return { low: (v - h) * scale, high: (v + h) * scale };
}

/** Operations per second that `%.3g` prints as `printed`. */
export function opsInterval(printed: string): Interval {
  return gInterval(printed);
}

/** Fractions that formatShare prints as `printed` (`2.8%` → [0.0275, 0.0285), `0.0%` → [0, 0.0005)). */
export function shareInterval(printed: string): Interval {
  const m = /^(\d+(?:\.\d)?)%$/.exec(printed);
  if (!m || m[1] === undefined) throw new Error(`not a share: ${printed}`);
  const h = halfUlp(m[1]);
  const v = Number(m[1]);
  return { low: Math.max(0, (v - h) / 100), high: (v + h) / 100 };
}

export function intersect(a: Interval, b: Interval): Interval | null {
  const low = Math.max(a.low, b.low);
  const high = Math.min(a.high, b.high);
  return low < high ? { low, high } : null;
}

export function midpoint(i: Interval): number {
  return (i.low + i.high) / 2;
}

/** Parses `285 (5 × 57)`. */
export function parseN(printed: string): { n: number; trials: number; iterationsPerTrial: number } {
  const m = /^(\d+) \((\d+) × (\d+)\)$/.exec(printed);
  if (!m) throw new Error(`not an n cell: ${printed}`);
  return { n: Number(m[1]), trials: Number(m[2]), iterationsPerTrial: Number(m[3]) };
}

/** Parses `drng 1, pseudoXOF 46.6` into labels and counts. */
export function parseCalls(printed: string): Array<{ label: string; mean: number }> {
  if (printed === "") return [];
  return printed.split(", ").map((part) => {
    const m = /^(\S+) (\d+(?:\.\d+)?)$/.exec(part);
    if (!m || m[1] === undefined) throw new Error(`not a calls entry: ${part}`);
    return { label: m[1], mean: Number(m[2]) };
  });
}

export function parseKiB(printed: string): number {
  const m = /^(\d+) KiB$/.exec(printed);
  if (!m) throw new Error(`not a KiB figure: ${printed}`);
  return Number(m[1]);
}
