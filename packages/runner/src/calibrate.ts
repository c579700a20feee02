// ngcc-perf calibrate (docs/methodology.md "Its interval"): the time step of a campaign repeated as A/A sessions on
// this machine, each into a fresh store, and the between-run file of what the sessions' figures differ by beyond
// their within-run noise (between-run.ts reads it for `run --between-run FILE`).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BetweenRunRecord, InputError, systemDir, type TimingRecord, validate } from "@ngcc-perf/schema";
import { betweenRunComponent, type SessionFigure } from "@ngcc-perf/stats";
import { type Central, type CyclesCentral, hostOf } from "./between-run.ts";
import type { Campaign } from "./campaign.ts";
import { buildStep, type PipelineOptions, runPipeline, timeStep } from "./pipeline.ts";
import { writeJsonAtomic } from "./store.ts";

/** The per-call timing records of a session store, by instance × profile × operation. */
function sessionFigures(out: string, system: string): Map<string, TimingRecord> {
  const found = new Map<string, TimingRecord>();
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".json")) {
        const r = JSON.parse(readFileSync(p, "utf8")) as TimingRecord;
        if (r.kind === "timing" && r.method === "per-call" && r.central) {
          found.set([r.algorithmId, r.instance, r.buildProfile, r.operation].join("\u0000"), r);
        }
      }
    }
  };
  walk(join(systemDir(out, system), "records"));
  return found;
}

const within = (value: number, relativeHalfWidth: number, b?: { withinRelativeHalfWidth: number }) => ({
  value,
  halfWidth: (b ? b.withinRelativeHalfWidth : relativeHalfWidth) * value,
});

export interface CalibrateOptions extends Omit<PipelineOptions, "steps" | "out" | "resume"> {
  sessions: number;
  gapSeconds: number;
  /** Called after each session with its number and seconds. */
  onSession?: (k: number, seconds: number) => void;
  /** Keep the session stores in this folder (else a temporary one, removed). */
  keep?: string;
}

/**
 * Runs the campaign's build and time steps `sessions` times, each into a fresh store, `gapSeconds` apart, and
 * returns the between-run file: each operation's figure per session and the components of the time and the
 * estimated cycles (betweenRunComponent over every operation timed in every session). A campaign that gives a
 * between-run component is timed without it (the sessions' own intervals are within-run).
 */
export async function calibrateBetweenRun(loaded: Campaign, o: CalibrateOptions): Promise<BetweenRunRecord> {
  if (!Number.isInteger(o.sessions) || o.sessions < 2) throw new InputError("calibrate: --sessions takes 2 or more");
  const { betweenRun: _ignored, ...timing } = loaded.timing;
  const campaign: Campaign = { ...loaded, timing };
  const dir = o.keep ?? mkdtempSync(join(tmpdir(), "ngcc-calibrate-"));
  const { sessions, gapSeconds, onSession, keep: _keep, ...pipeline } = o;
  const start = new Date().toISOString();
  const stores: Array<Map<string, TimingRecord>> = [];
  try {
    for (let k = 1; k <= sessions; k++) {
      if (k > 1 && gapSeconds > 0) await new Promise((r) => setTimeout(r, gapSeconds * 1000));
      const t0 = Date.now();
      const out = join(dir, `session-${k}`);
      await runPipeline(campaign, { ...pipeline, out, steps: [buildStep, timeStep] });
      stores.push(sessionFigures(out, campaign.system));
      onSession?.(k, (Date.now() - t0) / 1000);
    }
  } finally {
    if (o.keep === undefined) rmSync(dir, { recursive: true, force: true });
  }
  const keys = [...(stores[0]?.keys() ?? [])].filter((key) => stores.every((s) => s.has(key)));
  if (keys.length === 0) {
    throw new InputError(
      "calibrate: no operation was timed per call in every session (a failure, an emulated target or the trials method)",
    );
  }
  const operations = keys.map((key) => {
    const rs = stores.map((s) => s.get(key) as TimingRecord);
    const r0 = rs[0] as TimingRecord;
    const cycles = rs.every((r) => r.central?.cycles)
      ? rs.map((r) => {
          const c = r.central?.cycles as CyclesCentral;
          return within(c.value, c.relativeHalfWidth, c.betweenRun);
        })
      : null;
    return {
      algorithmId: r0.algorithmId,
      instance: r0.instance,
      buildProfile: r0.buildProfile,
      operation: r0.operation,
      time: rs.map((r) => {
        const c = r.central as Central;
        return within(c.valueNs, c.relativeHalfWidth, c.betweenRun);
      }),
      cycles,
      contention: rs.map((r) => (r.contention ? `${r.contention.state}/${r.contention.publishedFrom}` : "none")),
    };
  });
  const withCycles = operations.flatMap((x) => (x.cycles ? [x.cycles as SessionFigure[]] : []));
  return {
    kind: "between-run",
    schemaVersion: 1,
    system: campaign.system,
    campaign: campaign.name,
    host: hostOf(),
    start,
    end: new Date().toISOString(),
    gapSeconds,
    quick: !!o.quick,
    operations,
    time: betweenRunComponent(operations.map((x) => x.time)),
    cycles: withCycles.length === operations.length ? betweenRunComponent(withCycles) : null,
  };
}

/** Writes a between-run file (temporary name, then rename). */
export function writeBetweenRun(file: string, doc: BetweenRunRecord): void {
  const v = validate("between-run", doc);
  if (!v.valid)
    throw new Error(`calibrate: the between-run file is not valid: ${v.errors[0]?.pointer} ${v.errors[0]?.message}`);
  writeJsonAtomic(file, doc);
}
