// Is the core shared with a busy sibling thread? The contention probe's adds per cycle, window by window.
import type { ContentionProbe } from "../probe.ts";
import { addsPerCycle, aloneFloor, CONTENDED_SHARE, cpuVendorOf } from "../samples.ts";
import { check, type EnvCheck, type Machine } from "./types.ts";

/** Consecutive rounds judged together by the shared-core check: one round alone is too noisy (an interrupt). */
const CONTENTION_WINDOW = 10;

const ID = "shared-core";
const TITLE = "Core shared with a busy sibling thread";
const ADVICE =
  "Another thread (on a VM: possibly another tenant's) runs on this core's sibling hyperthread and takes its issue slots: " +
  "the same code runs 10–40 % slower. The time step sets such workers aside (the record's contention block); " +
  "ask for dedicated host cores (no shared siblings), or measure when the host is quiet.";

/** The probe's figures: adds per cycle over the whole probe and over each window of CONTENTION_WINDOW rounds. */
interface ProbeFigures {
  rounds: number;
  all: number | null;
  windows: number[];
}

function probeFigures(probe: ContentionProbe): ProbeFigures {
  const rounds = Math.min(probe.clockDeltas.length, probe.throughputDeltas.length);
  const windows: number[] = [];
  for (let at = 0; at + CONTENTION_WINDOW <= rounds; at += CONTENTION_WINDOW) {
    const f = addsPerCycle(
      { adds: probe.adds, deltas: probe.clockDeltas.slice(at, at + CONTENTION_WINDOW) },
      {
        adds: probe.throughputAdds,
        chains: probe.chains,
        deltas: probe.throughputDeltas.slice(at, at + CONTENTION_WINDOW),
      },
      { overhead: probe.overhead },
    );
    if (f !== null) windows.push(f);
  }
  const all = addsPerCycle(
    { adds: probe.adds, deltas: probe.clockDeltas },
    { adds: probe.throughputAdds, chains: probe.chains, deltas: probe.throughputDeltas },
    { overhead: probe.overhead },
  );
  return { rounds, all, windows };
}

/** Where a core alone has an absolute figure (AMD x86-64): below its share, a window is a shared core. */
function floorVerdict(windows: number[], all: number, floor: number, finding: (verdict: string) => string): EnvCheck {
  const threshold = CONTENDED_SHARE * floor;
  const below = windows.filter((w) => w < threshold).length;
  if (all < threshold)
    return check(ID, TITLE, "unfit", finding(`below ${threshold.toFixed(2)}: the core is shared throughout`), ADVICE);
  if (below > 0)
    return check(
      ID,
      TITLE,
      "warn",
      finding(`${below} of ${windows.length} windows below ${threshold.toFixed(2)}: a sibling thread comes and goes`),
      ADVICE,
    );
  return check(
    ID,
    TITLE,
    "ok",
    finding(`at least ${threshold.toFixed(2)} throughout: no busy sibling thread seen`),
    "Nothing to do.",
  );
}

/** Elsewhere (Intel, ARM) only the change between windows tells: windows apart by more than the share warn. */
function relativeVerdict(lo: number, hi: number, finding: (verdict: string) => string): EnvCheck {
  if (lo < CONTENDED_SHARE * hi)
    return check(
      ID,
      TITLE,
      "warn",
      finding(
        `windows differ by more than ${Math.round((1 - CONTENDED_SHARE) * 100)} %: a sibling thread comes and goes`,
      ),
      ADVICE,
    );
  return check(
    ID,
    TITLE,
    "unknown",
    finding(
      "steady, but no fixed figure for a core alone is known here (Intel x86-64, ARM), so a sibling busy throughout cannot be told",
    ),
    "Compare with `lscpu` (Thread(s) per core) and the host's core assignment.",
  );
}

/**
 * Is the core shared with a busy sibling thread? The contention probe's adds per cycle (independent chains over
 * the dependent chain, the figure the time step records per worker) over windows of consecutive rounds. On AMD
 * x86-64 (aloneFloor) a window below CONTENDED_SHARE × the floor is a shared core: unfit when the whole probe is
 * (the sibling is busy throughout), warn when only some windows are (it comes and goes). Elsewhere there is no
 * absolute figure: windows that differ by more than the share warn, steady ones are unknown.
 */
export function contentionCheck(m: Machine, probe: ContentionProbe | null | undefined): EnvCheck {
  if (!probe) {
    return check(
      ID,
      TITLE,
      "unknown",
      "the contention probe could not run (no compiler, or no counter with a core-clock chain here)",
      "Check that gcc works (`ngcc-perf env` builds the probe with it).",
    );
  }
  const { rounds, all, windows } = probeFigures(probe);
  if (all === null || windows.length === 0) {
    return check(
      ID,
      TITLE,
      "unknown",
      `the contention probe gave no figure (${rounds} rounds)`,
      "Run `ngcc-perf env --check` again.",
    );
  }
  const lo = Math.min(...windows);
  const hi = Math.max(...windows);
  const finding = (verdict: string) =>
    `${all.toFixed(2)} adds per cycle on ${probe.chains} independent chains over ${rounds} rounds ` +
    `(windows of ${CONTENTION_WINDOW}: ${lo.toFixed(2)}–${hi.toFixed(2)}; ${probe.arch}): ${verdict}`;
  const floor = probe.arch === "x86_64" ? aloneFloor(cpuVendorOf(m.cpuinfo?.text ?? "")) : 0;
  return floor > 0 ? floorVerdict(windows, all, floor, finding) : relativeVerdict(lo, hi, finding);
}
