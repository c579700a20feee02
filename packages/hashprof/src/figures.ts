// The figures of a hash-profile record from the driver's output: shares of the operation's time per symbol group
// (in the wrapper clock), calls per operation per symbol, the wrapper overhead against the timing build.
import type { HashProfileRecord } from "@ngcc-perf/schema";
import { quantileOfCounts } from "@ngcc-perf/stats";
import type { GroupSpec } from "./objects.ts";

export interface Trial {
  iterations: number;
  counterDelta: number;
  ns: number;
}

/** A symbol's outermost calls operation by operation, as the profiled driver counted them. */
export interface PerOperation {
  operations: number;
  min: number;
  max: number;
  median: number;
  sum: number;
  distinct: number;
  /** [calls, operations], increasing calls; printed when distinct <= HISTOGRAM_MAX. */
  histogram?: Array<[number, number]>;
}

export interface DriverProfile {
  clock: "rdtsc" | "cntvct" | "clock_gettime";
  totalTicks: number;
  groups: Array<{ name: string; ticks: number; outer: number }>;
  symbols: Array<{
    name: string;
    group: string;
    outer: number;
    nested: number;
    ticks: number;
    /** null: the driver lost the histogram (out of memory), then no distribution is recorded; checkProfiledOutput requires the key. */
    perOperation?: PerOperation | null;
  }>;
}

/** Most distinct values the driver prints a histogram for (NGCC_PROF_HIST_PRINT). */
export const HISTOGRAM_MAX = 64;

/** The profiled driver's output does not have the shape it must have. */
export class ProfileShapeError extends Error {}

const isNat = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;

/**
 * Checks a symbol's perOperation strictly (the driver shares its process with the code under test): exactly its
 * keys, integers, min <= median <= max, operations equal to the trials' iterations, sum equal to the symbol's
 * outermost calls; with a histogram: distinct entries in increasing calls from min to max whose operations add up
 * to operations and whose calls × operations add up to sum, and the median it implies. Throws ProfileShapeError.
 */
export function checkPerOperation(
  value: unknown,
  outer: number,
  iterations: number,
  where: string,
): PerOperation | null {
  const bad = (why: string): never => {
    throw new ProfileShapeError(`${where}: perOperation ${why}`);
  };
  if (value === null) return null;
  if (typeof value !== "object" || Array.isArray(value)) return bad("is not an object");
  const v = value as Record<string, unknown>;
  const keys = ["operations", "min", "max", "median", "sum", "distinct"];
  for (const k of Object.keys(v))
    if (!keys.includes(k) && k !== "histogram") bad(`has an unknown key ${JSON.stringify(k)}`);
  for (const k of keys) if (!isNat(k === "median" ? Number(v[k]) * 2 : v[k])) bad(`.${k} is not a natural number`);
  const p = v as unknown as PerOperation;
  if (p.operations !== iterations) bad(`.operations ${p.operations} is not the trials' ${iterations} iterations`);
  if (p.sum !== outer) bad(`.sum ${p.sum} is not the symbol's ${outer} outermost calls`);
  if (p.operations < 1) bad("counts no operation");
  if (!(p.min <= p.median && p.median <= p.max))
    bad(`min ${p.min} <= median ${p.median} <= max ${p.max} does not hold`);
  if (p.sum < p.min * p.operations || p.sum > p.max * p.operations)
    bad(`.sum ${p.sum} is outside min/max × operations`);
  if (p.distinct < 1 || p.distinct > Math.min(p.operations, p.max - p.min + 1))
    bad(`.distinct ${p.distinct} is impossible`);
  if ((p.min === p.max) !== (p.distinct === 1)) bad(".distinct disagrees with min/max");
  if (v.histogram === undefined) {
    if (p.distinct <= HISTOGRAM_MAX) bad(`has no histogram for ${p.distinct} distinct values`);
    return p;
  }
  const h = v.histogram;
  if (!Array.isArray(h) || h.length !== p.distinct || h.length > HISTOGRAM_MAX)
    return bad(`.histogram is not an array of its ${p.distinct} distinct values`);
  let ops = 0;
  let calls = 0;
  let prev = -1;
  for (const e of h) {
    if (!Array.isArray(e) || e.length !== 2 || !isNat(e[0]) || !isNat(e[1]) || e[1] < 1)
      bad(".histogram holds an entry that is not [calls, operations >= 1]");
    const [c, n] = e as [number, number];
    if (c <= prev) bad(".histogram is not in strictly increasing calls");
    prev = c;
    ops += n;
    calls += c * n;
  }
  if (h[0][0] !== p.min || h[h.length - 1][0] !== p.max) bad(".histogram does not run from min to max");
  if (ops !== p.operations) bad(`.histogram counts ${ops} operations, not ${p.operations}`);
  if (calls !== p.sum) bad(`.histogram adds up to ${calls} calls, not ${p.sum}`);
  const median = medianOf(h as Array<[number, number]>, ops);
  if (median !== p.median) bad(`.median ${p.median} is not the histogram's ${median}`);
  return p;
}

/** The median of a histogram of n operations (the mean of the two middle values when n is even). */
export function medianOf(histogram: ReadonlyArray<readonly [number, number]>, n: number): number {
  return quantileOfCounts(histogram, n, 0.5);
}

/**
 * The profiled driver's `time` output with its profile checked: the symbols an array, every symbol's
 * perOperation (see checkPerOperation). Throws ProfileShapeError.
 */
export function checkProfiledOutput(value: unknown, what: string): DriverTimeOut {
  const out = value as DriverTimeOut;
  const prof = out?.profile as unknown as Record<string, unknown> | undefined;
  if (!prof) return out;
  if (!Array.isArray(out.trials)) throw new ProfileShapeError(`${what}: the output has no trials`);
  const iterations = out.trials.reduce((n, t) => n + (isNat(t?.iterations) ? t.iterations : Number.NaN), 0);
  if (!Array.isArray(prof.symbols)) throw new ProfileShapeError(`${what}: profile.symbols is not an array`);
  prof.symbols.forEach((s: unknown, i: number) => {
    const sym = s as Record<string, unknown>;
    const where = `${what}: profile.symbols[${i}]`;
    if (typeof sym !== "object" || sym === null || !isNat(sym.outer) || !isNat(sym.nested))
      throw new ProfileShapeError(`${where} has no natural outer/nested counts`);
    if (!("perOperation" in sym)) throw new ProfileShapeError(`${where} has no perOperation`);
    checkPerOperation(sym.perOperation, sym.outer, iterations, where);
  });
  return out;
}

export interface DriverTimeOut {
  trials: Trial[];
  profile?: DriverProfile;
}

const perOp = (trials: readonly Trial[]) => {
  const it = trials.reduce((n, t) => n + t.iterations, 0);
  return { iterations: it, nsPerOp: trials.reduce((n, t) => n + t.ns, 0) / it };
};

/** A record's callsPerOperation from the driver's (checked) perOperation. */
export function callsPerOperation(p: PerOperation) {
  return {
    min: p.min,
    max: p.max,
    median: p.median,
    mean: p.sum / p.operations,
    operations: p.operations,
    ...(p.histogram ? { histogram: p.histogram.map(([c, n]) => [c, n]) } : {}),
  };
}

/** The figures of one hash-profile record from the profiled run (and the unprofiled one, when it ran). */
export function profileFigures(
  profiled: { trials: readonly Trial[]; profile: DriverProfile },
  unprofiled: readonly Trial[] | null,
  groups: ReadonlyArray<GroupSpec>,
): Pick<
  HashProfileRecord,
  | "iterations"
  | "totalNsPerOp"
  | "unprofiledNsPerOp"
  | "wrapperOverhead"
  | "wrapperClock"
  | "totalTicks"
  | "groups"
  | "calls"
> {
  const p = perOp(profiled.trials);
  const u = unprofiled ? perOp(unprofiled) : null;
  const prof = profiled.profile;
  const total = prof.totalTicks;
  const share = (ticks: number) => (total > 0 ? Math.min(1, ticks / total) : 0);
  return {
    iterations: p.iterations,
    totalNsPerOp: p.nsPerOp,
    unprofiledNsPerOp: u ? u.nsPerOp : null,
    wrapperOverhead: u && u.nsPerOp > 0 ? p.nsPerOp / u.nsPerOp - 1 : null,
    wrapperClock: prof.clock,
    totalTicks: total,
    groups: groups.map((g) => {
      const ticks = prof.groups.find((x) => x.name === g.name)?.ticks ?? 0;
      return {
        name: g.name,
        ...(g.label ? { label: g.label } : {}),
        ...(g.kind ? { kind: g.kind } : {}),
        ...(g.iccs !== undefined ? { iccs: g.iccs } : {}),
        ...(g.source ? { source: g.source } : {}),
        symbols: g.symbols,
        share: share(ticks),
        nsPerOp: share(ticks) * p.nsPerOp,
        ticks,
      };
    }),
    calls: prof.symbols
      .filter((s) => s.outer + s.nested > 0)
      .map((s) => {
        const g = groups.find((x) => x.name === s.group);
        const label = g?.symbolLabels[s.name];
        return {
          symbol: s.name,
          group: s.group,
          ...(label ? { label } : {}),
          meanPerOperation: s.outer / p.iterations,
          ...(s.nested > 0 ? { nestedPerOperation: s.nested / p.iterations } : {}),
          ...(s.perOperation ? { callsPerOperation: callsPerOperation(s.perOperation) } : {}),
          nsPerOp: share(s.ticks) * p.nsPerOp,
        };
      }),
  };
}
