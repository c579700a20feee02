// Number formatting of the report pages: the rules read off the seed pages (design brief, "Report rules read
// off the seed pages"). One module, so every page, chart label and test formats a figure the same way.

/** C's `%.{p}g`: p significant digits, exponent form when exp < -4 or exp ≥ p, trailing zeros removed. */
export function formatG(value: number, precision = 3): string {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return "0";
  const [mantissa = "", exponent = "0"] = value.toExponential(precision - 1).split("e");
  const exp = Number(exponent);
  if (exp < -4 || exp >= precision) {
    const m = mantissa.includes(".") ? mantissa.replace(/0+$/, "").replace(/\.$/, "") : mantissa;
    return `${m}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  const fixed = value.toFixed(Math.max(0, precision - 1 - exp));
  return fixed.includes(".") ? fixed.replace(/0+$/, "").replace(/\.$/, "") : fixed;
}

/**
 * A mean counter figure (cycles or ticks): below 10,000 an integer (`4340`); below 10⁶ one decimal and ` k`
 * (`174.9 k`); else two decimals and ` M` (`29.13 M`, `742.05 M`).
 */
export function formatCounter(value: number): string {
  if (Math.round(value) < 10_000) return String(Math.round(value));
  const k = (value / 1e3).toFixed(1);
  if (Number(k) < 1000) return `${k} k`;
  return `${(value / 1e6).toFixed(2)} M`;
}

const TIME_UNITS: ReadonlyArray<{ unit: string; ns: number }> = [
  { unit: "ns", ns: 1 },
  { unit: "µs", ns: 1e3 },
  { unit: "ms", ns: 1e6 },
  { unit: "s", ns: 1e9 },
];

/**
 * A time in ns: three significant digits as `%.3g` prints them (trailing zeros dropped: `13 ms`, `5.4 ms`), in
 * the unit that puts the number in [1, 1000): `1.55 µs`, `64.9 µs`, `503 µs`, `10.8 ms`, `151 ms`.
 */
export function formatTime(ns: number): string {
  if (!Number.isFinite(ns)) return String(ns);
  for (let i = 0; i < TIME_UNITS.length; i++) {
    const u = TIME_UNITS[i] as { unit: string; ns: number };
    const printed = formatG(ns / u.ns, 3);
    const last = i === TIME_UNITS.length - 1;
    // Rounding may carry into the next unit: 999.7 µs prints as 1e+03, so it becomes 1 ms.
    if (last || (Math.abs(Number(printed)) < 1000 && !printed.includes("e"))) return `${printed} ${u.unit}`;
  }
  throw new Error("unreachable");
}

/** Operations per second: C's `%.3g` (`92.5`, `915`, `1.54e+04`, `6.45e+05`). */
export function formatOpsPerSecond(ops: number): string {
  return formatG(ops, 3);
}

/** `285 (5 × 57)`: operations timed, trials × iterations per trial. */
export function formatN(trials: number, iterationsPerTrial: number): string {
  return `${trials * iterationsPerTrial} (${trials} × ${iterationsPerTrial})`;
}

/** A share (a fraction): below 10% one decimal (`2.8%`, `0.0%`), else an integer (`55%`). */
export function formatShare(fraction: number): string {
  const pct = fraction * 100;
  const one = pct.toFixed(1);
  if (Number(one) < 10) return `${one}%`;
  return `${pct.toFixed(0)}%`;
}

/** A mean count: an integer when whole, else one decimal (`2`, `46.6`). */
export function formatCount(count: number): string {
  return Number.isInteger(count) ? String(count) : count.toFixed(1);
}

/** Calls per operation: labels in alphabetical order with their mean counts, zero counts left out. */
export function formatCalls(calls: ReadonlyArray<{ label: string; mean: number }>): string {
  return [...calls]
    .filter((c) => c.mean > 0)
    .sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0))
    .map((c) => `${c.label} ${formatCount(c.mean)}`)
    .join(", ");
}

/** RSS in KiB: `1436 KiB`. */
export function formatKiB(kib: number): string {
  return `${kib} KiB`;
}

/** Sizes and ELF images in bytes: a plain integer (`28856`). */
export function formatBytes(bytes: number): string {
  return String(bytes);
}

/** A frequency in Hz as GHz with up to three decimals, trailing zeros dropped: `2.71 GHz`. */
export function formatGHz(hz: number): string {
  return `${String(Number((hz / 1e9).toFixed(3)))} GHz`;
}

/** A ratio of two figures for side-by-side comparisons: three significant digits and `×` (`1.23×`, `0.5×`). */
export function formatRatio(ratio: number): string {
  return `${formatG(ratio, 3)}×`;
}

/** A relative deviation as a signed percentage with one decimal (`+0.4%`, `−6.0%`). */
export function formatDeviation(fraction: number): string {
  const pct = (fraction * 100).toFixed(1);
  return Number(pct) < 0 ? `−${pct.slice(1)}%` : `+${pct}%`;
}

/** An RFC 3339 UTC timestamp as the pages print it: seconds, no fraction, no zone letter (`2026-09-28T15:05:46`). */
export function formatUtc(timestamp: string): string {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.exec(timestamp);
  if (!m) return timestamp;
  if (m[3] === "Z") return m[1] as string;
  const d = new Date(timestamp);
  return Number.isNaN(d.getTime()) ? timestamp : d.toISOString().slice(0, 19);
}
