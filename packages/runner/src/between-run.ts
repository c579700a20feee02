// The between-run component of a machine (docs/methodology.md "Its interval"): `ngcc-perf calibrate` repeats the
// time step of a campaign as A/A sessions and writes what the sessions' figures differ by beyond the within-run
// noise (a between-run file); `ngcc-perf run --between-run FILE` reads it and adds it to every per-call interval,
// so that a run's interval holds for the figure the next run on this machine publishes, not only for this run's
// workers.
import { readFileSync } from "node:fs";
import { cpus, hostname, release } from "node:os";
import {
  type BetweenRunRecord,
  formatFileProblem,
  InputError,
  type TimingRecord,
  validateText,
} from "@ngcc-perf/schema";
import { type BetweenRunComponent, withBetweenRun } from "@ngcc-perf/stats";
import { processorModel } from "./env.ts";
import { sha256 } from "./store.ts";

/** The between-run component a run adds to its intervals: the file's two components and where they came from. */
export interface BetweenRunGiven {
  time: BetweenRunComponent;
  cycles: BetweenRunComponent | null;
  sha256: string;
  /** The file's system, host and end, in words (the records say it). */
  measured: string;
}

function cpuinfoText(): string {
  try {
    return readFileSync("/proc/cpuinfo", "utf8");
  } catch {
    return "";
  }
}

/** This machine, as a between-run file names it. */
export function hostOf(): BetweenRunRecord["host"] {
  return { hostname: hostname(), cpuModel: processorModel(cpuinfoText()), cpus: cpus().length, kernel: release() };
}

/**
 * Reads and checks a between-run file for a campaign run on this machine: the schema, then the same system, the
 * same processor model and not a --quick calibration for a run that is not --quick. Bad input names the file, the
 * line and the JSON pointer.
 */
export function readBetweenRun(file: string, campaign: { system: string }, quick = false): BetweenRunGiven {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    const why = err instanceof Error ? ((err as NodeJS.ErrnoException).code ?? err.message) : String(err);
    throw new InputError(formatFileProblem(file, { message: `cannot read the between-run file: ${why}` }));
  }
  const v = validateText(text, file, "between-run");
  const first = v.errors[0];
  if (!v.valid || first) {
    throw new InputError(
      formatFileProblem(file, first ?? { message: "not a between-run file (ngcc-perf calibrate writes one)" }),
    );
  }
  const doc = v.value as BetweenRunRecord;
  const at = (pointer: string, message: string) => new InputError(formatFileProblem(file, { pointer, message }));
  if (doc.system !== campaign.system) {
    throw at(
      "/system",
      `is "${doc.system}", but the campaign measures "${campaign.system}": a machine's component is its own`,
    );
  }
  const here = hostOf();
  if (doc.host.cpuModel !== here.cpuModel) {
    throw at(
      "/host/cpuModel",
      `is "${doc.host.cpuModel}", but this machine's processor is "${here.cpuModel}": calibrate on this machine`,
    );
  }
  if (doc.quick && !quick) {
    throw at(
      "/quick",
      "is true: a --quick calibration (one short worker per session) is a test, not a component to publish with",
    );
  }
  return {
    time: doc.time,
    cycles: doc.cycles,
    sha256: sha256(text),
    measured: `${doc.system} on ${doc.host.hostname} (${doc.host.cpuModel}), ${doc.time.sessions} sessions ending ${doc.end}`,
  };
}

export type Central = NonNullable<TimingRecord["central"]>;
export type CyclesCentral = NonNullable<Central["cycles"]>;

/** An interval widened by a component: the within-run half-width kept beside it. */
function widened(value: number, half: number, c: BetweenRunComponent, given: BetweenRunGiven) {
  const total = withBetweenRun(half, value, c);
  return {
    // A time is not negative: a component wide enough to reach below zero (few sessions, a host in two states)
    // gives an interval from 0.
    interval: { low: Math.max(0, value - total), high: value + total },
    relativeHalfWidth: value > 0 ? total / value : 0,
    betweenRun: {
      relativeSd: c.relativeSd,
      df: c.df,
      sessions: c.sessions,
      withinRelativeHalfWidth: value > 0 ? half / value : 0,
      sha256: given.sha256,
      measured: given.measured,
    },
  };
}

/**
 * A record's central block with the between-run component added to the time's interval and, where both have
 * cycles, to the cycles' own; metTarget stays the within-run judgement (what sampling could narrow).
 */
export function withBetweenRunComponent(central: Central, given: BetweenRunGiven | undefined): Central {
  if (!given) return central;
  const t = widened(central.valueNs, central.relativeHalfWidth * central.valueNs, given.time, given);
  const next: Central = {
    ...central,
    ci95Ns: t.interval,
    relativeHalfWidth: t.relativeHalfWidth,
    betweenRun: t.betweenRun,
  };
  const c = central.cycles;
  if (c && given.cycles) {
    const y = widened(c.value, c.relativeHalfWidth * c.value, given.cycles, given);
    next.cycles = {
      ...c,
      ci95: y.interval,
      relativeHalfWidth: y.relativeHalfWidth,
      betweenRun: y.betweenRun,
    } as CyclesCentral;
  }
  return next;
}
