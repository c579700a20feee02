// The figures of a hash-profile record from the driver's output: shares of the operation's time per symbol group
// (in the wrapper clock), calls per operation per symbol, the wrapper overhead against the timing build.
import type { HashProfileRecord } from "@ngcc-perf/schema";
import type { GroupSpec } from "./objects.ts";

export interface Trial {
  iterations: number;
  counterDelta: number;
  ns: number;
}

export interface DriverProfile {
  clock: "rdtsc" | "cntvct" | "clock_gettime";
  totalTicks: number;
  groups: Array<{ name: string; ticks: number; outer: number }>;
  symbols: Array<{ name: string; group: string; outer: number; nested: number; ticks: number }>;
}

export interface DriverTimeOut {
  trials: Trial[];
  profile?: DriverProfile;
}

const perOp = (trials: readonly Trial[]) => {
  const it = trials.reduce((n, t) => n + t.iterations, 0);
  return { iterations: it, nsPerOp: trials.reduce((n, t) => n + t.ns, 0) / it };
};

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
          nsPerOp: share(s.ticks) * p.nsPerOp,
        };
      }),
  };
}
