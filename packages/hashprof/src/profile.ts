// The profile step: for every instance × build profile × operation, a hash-profile record (the share of the
// operation's time in each symbol group, calls per operation per symbol, the wrapper overhead, blind spots),
// or a failure record; then a survey record per algorithm. The campaign goes on after a failure.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  type AlgorithmSpec,
  BuildError,
  type BuiltInstance,
  buildInstance,
  type Campaign,
  type Command,
  chooseCounter,
  commandOf,
  DriverError,
  type DriverInfo,
  driverRun,
  driverTimeArgs,
  emptySummary,
  InputError,
  type InstanceSpec,
  infoAndCheck,
  inShard,
  operationsOf,
  resolveAlgorithms,
  runProcess,
  type StepOptions,
  type StepSummary,
  selected,
  sha256,
  storePaths,
  TOOL,
  tail,
  toolchain,
  writeJsonAtomic,
} from "@ngcc-perf/runner";
import type { HashProfileRecord } from "@ngcc-perf/schema";
import { buildProfiled, type ProfileBuild } from "./build.ts";
import { groupsFor } from "./groups.ts";
import { curatedNotes, surveyAlgorithm } from "./survey.ts";

export interface ProfileOptions extends StepOptions {}
export type ProfileSummary = StepSummary;

interface Trial {
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

interface DriverTimeOut {
  trials: Trial[];
  profile?: DriverProfile;
}

type KatCheck = NonNullable<HashProfileRecord["katCheck"]>;

const perOp = (trials: readonly Trial[]) => {
  const it = trials.reduce((n, t) => n + t.iterations, 0);
  return { iterations: it, nsPerOp: trials.reduce((n, t) => n + t.ns, 0) / it };
};

/** The figures of one hash-profile record from the profiled run (and the unprofiled one, when it ran). */
export function profileFigures(
  profiled: { trials: readonly Trial[]; profile: DriverProfile },
  unprofiled: readonly Trial[] | null,
  groups: ReadonlyArray<{ name: string; label?: string; symbols: string[]; symbolLabels: Record<string, string> }>,
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

function jobHash(build: ProfileBuild, timingHash: string, campaign: Campaign, op: string, counter: string): string {
  return createHash("sha256")
    .update(JSON.stringify({ build: build.inputsHash, timingHash, op, counter, timing: campaign.timing }))
    .digest("hex");
}

function existingHash(path: string): string | null {
  if (!existsSync(path)) return null;
  try {
    const r = JSON.parse(readFileSync(path, "utf8")) as { inputsHash?: string; status?: string };
    return r.status === "ok" ? (r.inputsHash ?? null) : null;
  } catch {
    return null;
  }
}

/** Runs the profiled KAT generator and compares its output (see the katCheck field). */
async function katCheck(
  spec: InstanceSpec,
  build: ProfileBuild,
  timeoutMs: number,
): Promise<{ check: KatCheck; commands: Command[] }> {
  const commands: Command[] = [];
  if (!build.katgen) {
    return {
      check: {
        verdict: "ERROR",
        message: `the profiled KAT generator could not be built: ${tail(build.katError ?? "", 1500)}`,
      },
      commands,
    };
  }
  const gen = async (exe: string) => {
    const r = await runProcess([exe], { timeoutMs, maxOutputBytes: 256 * 1024 * 1024 });
    commands.push(commandOf(r));
    if (r.spawnError || r.exitCode !== 0 || r.timedOut) {
      throw new Error(
        `${exe} ${r.timedOut ? "timed out" : r.signal ? `was killed by ${r.signal}` : `exited with ${r.exitCode}`}: ${tail(r.stderr, 500)}`,
      );
    }
    return r.stdout;
  };
  try {
    const profiled = await gen(build.katgen.profiled);
    const digest = sha256(profiled);
    const committed = spec.kat?.file ? join(spec.submissionDir, spec.kat.file) : null;
    if (committed && existsSync(committed)) {
      const expected = readFileSync(committed, "utf8");
      if (expected === profiled) {
        return { check: { verdict: "PASS", comparedWith: spec.kat?.file ?? committed, sha256: digest }, commands };
      }
      const plain = await gen(build.katgen.plain);
      return {
        check: {
          verdict: "FAIL",
          comparedWith: spec.kat?.file ?? committed,
          sha256: digest,
          message:
            plain === profiled
              ? "the output differs from the committed file with and without wrappers: the KAT itself fails (see the kat step), not the wrappers"
              : "the profiled output differs from the committed file and from the unprofiled generator's: the wrappers changed a result",
        },
        commands,
      };
    }
    const plain = await gen(build.katgen.plain);
    return {
      check: {
        verdict: plain === profiled ? "PASS" : "FAIL",
        comparedWith: "the KAT generator built from the same objects without wrappers",
        sha256: digest,
        ...(plain === profiled ? {} : { message: "the wrappers changed the KAT output" }),
      },
      commands,
    };
  } catch (err) {
    return { check: { verdict: "ERROR", message: (err as Error).message }, commands };
  }
}

export async function profileCampaign(campaign: Campaign, options: ProfileOptions): Promise<ProfileSummary> {
  const algorithms: AlgorithmSpec[] = resolveAlgorithms(campaign);
  curatedNotes(campaign); // a bad notes file is bad input: fail before building anything
  const paths = storePaths(options.out, campaign.system);
  const tc = await toolchain(campaign.cc);
  const progress = options.onProgress ?? (() => {});
  const summary: ProfileSummary = emptySummary();
  const unitsOf = (a: AlgorithmSpec) =>
    a.instances
      .filter((s) => selected(s, options.only))
      .flatMap((s) => s.buildProfiles.map((p) => ({ spec: s, profile: p })))
      .filter((u) => inShard(`${u.spec.algorithmId}/${u.spec.instance}/${u.profile}`, options.shard));
  let total = algorithms.reduce(
    (n, a) => n + unitsOf(a).reduce((m, u) => m + operationsOf(u.spec.category, 2).length, 0),
    0,
  );
  progress({ type: "plan", step: "profile", total });
  let done = 0;
  const adjustPlan = (spec: InstanceSpec, passes: number) => {
    if (spec.category === "kex" && passes < 2) {
      total -= 1;
      progress({ type: "plan", step: "profile", total });
    }
  };
  const base = (spec: InstanceSpec, profile: string, operation: string) => ({
    kind: "hash-profile" as const,
    schemaVersion: 1 as const,
    provenance: { origin: "measured" as const, tool: TOOL, createdAt: new Date().toISOString() },
    system: campaign.system,
    algorithmId: spec.algorithmId,
    instance: spec.instance,
    implementation: spec.implementation,
    buildProfile: profile,
    operation,
  });
  const report = (
    spec: InstanceSpec,
    profile: string,
    op: string,
    status: "ok" | "failed" | "skipped",
    message?: string,
  ) => {
    done++;
    progress({
      type: "job",
      step: "profile",
      algorithmId: spec.algorithmId,
      instance: spec.instance,
      profile,
      operation: op,
      status,
      done,
      total,
      ...(message ? { message } : {}),
    });
  };
  const writeFailure = (
    spec: InstanceSpec,
    profile: string,
    op: string,
    reason: string,
    message: string,
    extra: Partial<HashProfileRecord> = {},
  ) => {
    const record = {
      ...base(spec, profile, op),
      status: "failed",
      failure: { reason, message },
      ...extra,
    } as HashProfileRecord;
    writeJsonAtomic(paths.profile(spec.algorithmId, spec.instance, op), record);
    summary.failed++;
    summary.failures.push({ algorithmId: spec.algorithmId, instance: spec.instance, operation: op, reason, message });
    report(spec, profile, op, "failed", message);
  };

  for (const alg of algorithms) {
    const units = unitsOf(alg);
    if (units.length === 0) continue;
    const forSurvey: Array<{ spec: InstanceSpec; build: ProfileBuild }> = [];
    for (const { spec, profile: profileName } of units) {
      const profile = campaign.profiles[profileName];
      if (!profile) throw new InputError(`${campaign.file}: unknown build profile ${profileName}`);
      const groups = groupsFor(campaign, spec);
      const buildRoot = join(paths.buildDir, spec.algorithmId);
      const failAll = (reason: string, message: string, extra: Partial<HashProfileRecord> = {}) => {
        adjustPlan(spec, 1);
        for (const op of operationsOf(spec.category, 1)) writeFailure(spec, profileName, op, reason, message, extra);
      };
      // The timing build (for the unprofiled figures; shared with the time step's cache) and the profiling build.
      let timingBuild: BuiltInstance;
      let build: ProfileBuild;
      try {
        timingBuild = await buildInstance(spec, profile, campaign.cc, buildRoot, campaign.timeouts.buildMs);
        build = await buildProfiled(spec, profile, tc, groups, join(buildRoot, "profile"), campaign.timeouts.buildMs);
        progress({
          type: "build",
          step: "profile",
          algorithmId: spec.algorithmId,
          instance: spec.instance,
          profile: profileName,
          cached: build.cached,
        });
      } catch (err) {
        if (err instanceof BuildError) {
          failAll("compile-error", err.message, { commands: err.commands });
          continue;
        }
        if (err instanceof InputError) throw err;
        failAll("error", `profiling build: ${(err as Error).message}`);
        continue;
      }
      if (profileName === spec.buildProfiles[0]) forSurvey.push({ spec, build });
      const buildInfo = {
        compiler: campaign.cc,
        compilerVersion: tc.version,
        flags: profile.cflags,
        ...(spec.defines.length ? { defines: spec.defines.map((d) => (d.startsWith("-D") ? d : `-D${d}`)) } : {}),
        ...(profile.ldflags.length ? { ldflags: profile.ldflags } : {}),
        sourcesSha256: build.inputsHash,
        artifact: build.sharedObject,
      };
      let info: DriverInfo;
      try {
        info = await infoAndCheck(build.driver, campaign, `${spec.instance} (profiling build)`);
      } catch (err) {
        if (!(err instanceof DriverError)) throw err;
        failAll(err.reason, err.message, { build: buildInfo, commands: [commandOf(err.result)] });
        continue;
      }
      const kat = await katCheck(spec, build, campaign.timeouts.katMs);
      if (kat.check.verdict !== "PASS") {
        summary.failed++;
        summary.failures.push({
          algorithmId: spec.algorithmId,
          instance: spec.instance,
          reason: "kat-failed",
          message: `profiled KAT build: ${kat.check.verdict}${kat.check.message ? `: ${kat.check.message}` : ""}`,
        });
      }
      const passes = info.sizes.passes ?? 1;
      adjustPlan(spec, passes);
      const counter = chooseCounter(campaign, info.counters);
      for (const op of operationsOf(spec.category, passes)) {
        const recordPath = paths.profile(spec.algorithmId, spec.instance, op);
        const inputsHash = jobHash(build, timingBuild.inputsHash, campaign, op, counter);
        if (options.resume && existingHash(recordPath) === inputsHash) {
          summary.skipped++;
          report(spec, profileName, op, "skipped");
          continue;
        }
        const commands: Command[] = [...kat.commands];
        try {
          const unprof = await driverRun<DriverTimeOut>(
            timingBuild.driver,
            driverTimeArgs(campaign, op, counter),
            campaign.timeouts.operationMs,
            `${spec.instance} ${op}: time (timing build)`,
          );
          commands.push(commandOf(unprof.result));
          const prof = await driverRun<DriverTimeOut>(
            build.driver,
            driverTimeArgs(campaign, op, counter),
            campaign.timeouts.operationMs,
            `${spec.instance} ${op}: time (profiling build)`,
          );
          commands.push(commandOf(prof.result));
          const profile = prof.value.profile;
          if (!profile) throw new Error(`${build.driver} printed no profile: not a profiling build`);
          const slim = (t: readonly Trial[]) => t.map((x) => ({ iterations: x.iterations, ns: x.ns }));
          const record: HashProfileRecord = {
            ...base(spec, profileName, op),
            status: "ok",
            inputsHash,
            build: buildInfo,
            ...profileFigures({ trials: prof.value.trials, profile }, unprof.value.trials, groups),
            trials: { profiled: slim(prof.value.trials), unprofiled: slim(unprof.value.trials) },
            katCheck: kat.check,
            blindSpots: build.timing.interception.blindSpots,
            commands,
          };
          writeJsonAtomic(recordPath, record);
          summary.records++;
          report(spec, profileName, op, "ok");
        } catch (err) {
          if (!(err instanceof DriverError)) throw err;
          commands.push(commandOf(err.result));
          writeFailure(spec, profileName, op, err.reason, err.message, { build: buildInfo, commands, inputsHash });
        }
      }
    }
    if (forSurvey.length > 0) {
      const record = surveyAlgorithm(campaign, alg, forSurvey);
      writeJsonAtomic(paths.survey(alg.id), record);
      summary.records++;
    }
  }
  return summary;
}
