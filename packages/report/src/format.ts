// Number formatting of the report pages: the rules read off the seed pages (design brief, "Report rules read
// off the seed pages"). One module, so every page, chart label and test formats a figure the same way.

// A figure is rounded as the decimal number the record holds (the shortest decimal that reads back as the same
// double: what JSON and String print), ties to even — what C's printf does with an exact value. So 1555 ns is
// 1.555 µs and prints 1.56 µs, where 1555 / 1000 (1.55499… in binary) would print 1.55; 3125 prints 3.12e+03.

/** A positive finite number as decimal digits d₀d₁… and the exponent of d₀: value = d₀.d₁… × 10^exp. */
interface Decimal {
  digits: string;
  exp: number;
}

function decimalOf(value: number): Decimal {
  const [mantissa = "0", exponent = "0"] = Math.abs(value).toExponential().split("e");
  const digits = mantissa.replace(".", "").replace(/0+$/, "") || "0";
  return { digits, exp: Number(exponent) };
}

/** The decimal shifted by 10^shift (exact: 0.0095 → 0.95 for a percentage, 1555 ns → 1.555 µs). */
const shifted = (d: Decimal, shift: number): Decimal => ({ digits: d.digits, exp: d.exp + shift });

/** Rounds to `n` digits from the first (n ≥ 0), ties to even; the result may carry into a new leading digit. */
function roundDigits(d: Decimal, n: number): Decimal {
  if (n < 0) return { digits: "0", exp: d.exp };
  if (d.digits.length <= n) return { digits: d.digits.padEnd(Math.max(n, 1), "0"), exp: d.exp };
  const keep = d.digits.slice(0, n);
  const rest = d.digits.slice(n);
  const last = keep.length ? Number(keep[keep.length - 1]) : 0;
  const first = Number(rest[0]);
  const up = first > 5 || (first === 5 && (/[1-9]/.test(rest.slice(1)) || last % 2 === 1));
  if (!up) return keep.length ? { digits: keep, exp: d.exp } : { digits: "0", exp: d.exp + 1 };
  // Add one in the last kept place: 0.5 below the first digit rounds up to 1 in the place above it.
  const digits = keep.length ? (BigInt(keep) + 1n).toString().padStart(keep.length, "0") : "1";
  return digits.length > keep.length
    ? { digits: digits.slice(0, Math.max(keep.length, 1)), exp: d.exp + 1 }
    : { digits, exp: d.exp };
}

/** The decimal with `decimals` digits after the point (ties to even), as fixed-point text. */
function fixedText(d: Decimal, decimals: number): string {
  const r = roundDigits(d, d.exp + 1 + decimals);
  if (/^0*$/.test(r.digits)) return decimals > 0 ? `0.${"0".repeat(decimals)}` : "0";
  const intDigits = r.exp + 1;
  const all = intDigits > 0 ? r.digits.padEnd(intDigits + decimals, "0") : "0".repeat(-intDigits) + r.digits;
  const split = Math.max(intDigits, 0);
  const int = all.slice(0, split) || "0";
  const frac = all.slice(split, split + decimals).padEnd(decimals, "0");
  return decimals > 0 ? `${int}.${frac}` : int;
}

/** C's `%.{p}g` of a decimal: p significant digits, exponent form when exp < -4 or exp ≥ p, trailing zeros removed. */
function gText(d: Decimal, precision: number): string {
  const r = roundDigits(d, precision);
  const trim = (t: string) => (t.includes(".") ? t.replace(/0+$/, "").replace(/\.$/, "") : t);
  if (r.exp < -4 || r.exp >= precision) {
    const mantissa = trim(`${r.digits[0]}.${r.digits.slice(1)}`);
    return `${mantissa}e${r.exp < 0 ? "-" : "+"}${String(Math.abs(r.exp)).padStart(2, "0")}`;
  }
  return trim(fixedText(r, Math.max(0, precision - 1 - r.exp)));
}

/** A finite number rounded to `decimals` places as the decimal it is (ties to even): `toFixed` without binary drift. */
export function formatFixed(value: number, decimals: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return fixedText({ digits: "0", exp: 0 }, decimals);
  const t = fixedText(decimalOf(value), decimals);
  return value < 0 && /[1-9]/.test(t) ? `-${t}` : t;
}

/** C's `%.{p}g`: p significant digits, exponent form when exp < -4 or exp ≥ p, trailing zeros removed. */
export function formatG(value: number, precision = 3): string {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return "0";
  const t = gText(decimalOf(value), precision);
  return value < 0 ? `-${t}` : t;
}

/**
 * A mean counter figure (cycles or ticks): below 10,000 an integer (`4340`); below 10⁶ one decimal and ` k`
 * (`174.9 k`); else two decimals and ` M` (`29.13 M`, `742.05 M`).
 */
export function formatCounter(value: number): string {
  if (!Number.isFinite(value) || value <= 0) return formatFixed(value, 0);
  const d = decimalOf(value);
  const whole = fixedText(d, 0);
  if (Number(whole) < 10_000) return whole;
  const k = fixedText(shifted(d, -3), 1);
  if (Number(k) < 1000) return `${k} k`;
  return `${fixedText(shifted(d, -6), 2)} M`;
}

/** Each unit by the power of ten it is in ns. */
const TIME_UNITS: ReadonlyArray<{ unit: string; shift: number }> = [
  { unit: "ns", shift: 0 },
  { unit: "µs", shift: 3 },
  { unit: "ms", shift: 6 },
  { unit: "s", shift: 9 },
];

/**
 * A time in ns: three significant digits as `%.3g` prints them (trailing zeros dropped: `13 ms`, `5.4 ms`), in
 * the unit that puts the number in [1, 1000): `1.55 µs`, `64.9 µs`, `503 µs`, `10.8 ms`, `151 ms`.
 */
export function formatTime(ns: number): string {
  if (!Number.isFinite(ns)) return String(ns);
  if (ns === 0) return "0 ns";
  const d = decimalOf(ns);
  const sign = ns < 0 ? "-" : "";
  for (let i = 0; i < TIME_UNITS.length; i++) {
    const u = TIME_UNITS[i] as { unit: string; shift: number };
    const printed = gText(shifted(d, -u.shift), 3);
    const last = i === TIME_UNITS.length - 1;
    // Rounding may carry into the next unit: 999.7 µs prints as 1e+03, so it becomes 1 ms.
    if (last || (Number(printed) < 1000 && !printed.includes("e"))) return `${sign}${printed} ${u.unit}`;
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

/**
 * Calls timed per call (`method: per-call`): calls, then workers × calls per worker (`6000 (3 × 2000)`), a range
 * when the workers took different numbers (`6012 (3 × 1998–2010)`), or with batches workers × samples per
 * worker × calls per sample (`64000 (4 × 500 × 32)`). `withBatch` writes the batch even when it is 1 (a table
 * whose other rows are batched).
 */
export function formatCallsN(
  calls: number,
  samplesPerWorker: ReadonlyArray<number>,
  batch: number,
  withBatch = false,
): string {
  const w = samplesPerWorker.length;
  if (w === 0) return String(calls);
  const lo = Math.min(...samplesPerWorker);
  const hi = Math.max(...samplesPerWorker);
  const per = lo === hi ? String(lo) : `${lo}–${hi}`;
  return batch > 1 || withBatch ? `${calls} (${w} × ${per} × ${batch})` : `${calls} (${w} × ${per})`;
}

/** A percentage of a fraction with up to three significant digits, for targets and thresholds: `1%`, `0.5%`. */
export function formatPercent(fraction: number): string {
  if (!Number.isFinite(fraction)) return `${fraction}%`;
  if (fraction <= 0) return "0%";
  return `${gText(shifted(decimalOf(fraction), 2), 3)}%`;
}

/** The relative half-width of an interval: `±` and the share rules (`±0.4%`, `±12%`). */
export function formatHalfWidth(fraction: number): string {
  return `±${formatShare(fraction)}`;
}

/** A range of two times: one unit when both print in it (`1.21–3.4 ms`), else each with its own (`912 µs – 1.2 ms`). */
export function formatTimeRange(lowNs: number, highNs: number): string {
  const lo = formatTime(lowNs);
  const hi = formatTime(highNs);
  const [loNum, loUnit] = lo.split(" ");
  const [hiNum, hiUnit] = hi.split(" ");
  return loUnit === hiUnit ? `${loNum}–${hiNum} ${hiUnit}` : `${lo} – ${hi}`;
}

/** A share (a fraction): below 10% one decimal (`2.8%`, `0.0%`), else an integer (`55%`). */
export function formatShare(fraction: number): string {
  if (!Number.isFinite(fraction)) return `${fraction}%`;
  if (fraction <= 0) return "0.0%";
  const pct = shifted(decimalOf(fraction), 2);
  const one = fixedText(pct, 1);
  if (Number(one) < 10) return `${one}%`;
  return `${fixedText(pct, 0)}%`;
}

/** A mean count: an integer when whole, else one decimal (`2`, `46.6`). */
export function formatCount(count: number): string {
  return Number.isInteger(count) ? String(count) : formatFixed(count, 1);
}

/** Calls per operation: labels in alphabetical order with their mean counts, zero counts left out. */
export function formatCalls(
  calls: ReadonlyArray<{ label: string; mean: number; min?: number | undefined; max?: number | undefined }>,
): string {
  return [...calls]
    .filter((c) => c.mean > 0)
    .sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0))
    .map(
      (c) =>
        `${c.label} ${formatCount(c.mean)}${c.min !== undefined && c.max !== undefined && c.min !== c.max ? ` (${c.min}–${c.max})` : ""}`,
    )
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
  return `${String(Number(formatFixed(hz / 1e9, 3)))} GHz`;
}

/** A ratio of two figures for side-by-side comparisons: three significant digits and `×` (`1.23×`, `0.5×`). */
export function formatRatio(ratio: number): string {
  return `${formatG(ratio, 3)}×`;
}

/** A relative deviation as a signed percentage with one decimal (`+0.4%`, `−6.0%`). */
export function formatDeviation(fraction: number): string {
  const pct = Number.isFinite(fraction) && fraction !== 0 ? fixedText(shifted(decimalOf(fraction), 2), 1) : "0.0";
  return fraction < 0 && Number(pct) !== 0 ? `−${pct}%` : `+${pct}%`;
}

/** An RFC 3339 UTC timestamp as the pages print it: seconds, no fraction, no zone letter (`2026-09-28T15:05:46`). */
export function formatUtc(timestamp: string): string {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.exec(timestamp);
  if (!m) return timestamp;
  if (m[3] === "Z") return m[1] as string;
  const d = new Date(timestamp);
  return Number.isNaN(d.getTime()) ? timestamp : d.toISOString().slice(0, 19);
}

/**
 * A compiler as a page shows it: its `--version` line alone when that line already names it
 * (`gcc (Debian 12.2.0-14+deb12u1) 12.2.0`, not `gcc (gcc (Debian …) 12.2.0)`), else `name (version)`.
 */
export function formatCompiler(compiler: string, version: string | undefined): string {
  const v = (version ?? "").trim();
  if (!v) return compiler;
  const name = compiler.split("/").pop() ?? compiler;
  return v.toLowerCase().includes(name.toLowerCase()) ? v : `${compiler} (${v})`;
}

/** The kernel's SMT control word (/sys/devices/system/cpu/smt/control) in words. */
export function formatSmt(control: string | undefined | null): string {
  switch (control) {
    case "on":
      return "on";
    case "off":
      return "off";
    case "forceoff":
      return "off (forced)";
    case "notsupported":
      return "not supported (one thread per core)";
    case "notimplemented":
      return "not reported by the kernel";
    case undefined:
    case null:
    case "":
    case "unknown":
      return "unknown";
    default:
      return control;
  }
}
