// One instance under one build profile: the profiling build and the timing build (the unprofiled figures; the
// time step's cache), the driver's functional check, the profiled KAT check, then a hash-profile record per
// pending operation. A build that fails fails every job of the unit once (the step runner's failureOf).
import {
  type BuildProfile,
  type BuiltInstance,
  buildInstance,
  type Command,
  type CounterKind,
  chooseCounter,
  commandOf,
  DriverError,
  type DriverInfo,
  driverRun,
  driverTimeArgs,
  emulated,
  type Failure,
  type InstanceSpec,
  infoAndCheck,
  type Job,
  operationsOf,
  TOOL,
  type Unit,
  type UnitContext,
} from "@ngcc-perf/runner";
import { buildPath, type HashProfileRecord, type InstanceKey, unitName } from "@ngcc-perf/schema";
import type { ProfileBuild } from "./build.ts";
import { type InstanceWork, isBuildFailure, type ProfileContext, profilingBuild } from "./context.ts";
import { checkProfiledOutput, type DriverTimeOut, ProfileShapeError, profileFigures, type Trial } from "./figures.ts";
import { type KatCheck, katCheck, katCheckFailure } from "./kat-check.ts";

type BuildFacts = NonNullable<HashProfileRecord["build"]>;

/** What every operation of a unit is profiled with. */
interface OperationContext {
  pc: ProfileContext;
  work: InstanceWork;
  key: InstanceKey;
  timing: BuiltInstance;
  build: ProfileBuild;
  facts: BuildFacts;
  counter: CounterKind;
  kat: { check: KatCheck; commands: Command[] };
}

function baseRecord(pc: ProfileContext, spec: InstanceSpec, buildProfile: string, operation: string) {
  return {
    kind: "hash-profile" as const,
    schemaVersion: 1 as const,
    provenance: { origin: "measured" as const, tool: TOOL, createdAt: new Date().toISOString() },
    system: pc.campaign.system,
    algorithmId: spec.algorithmId,
    instance: spec.instance,
    implementation: spec.implementation,
    buildProfile,
    operation,
  };
}

/** The failure record of an operation that did not run to a profile of its own. */
export function profileFailureRecord(
  pc: ProfileContext,
  unit: Unit<InstanceWork>,
  job: Job,
  f: Failure,
): HashProfileRecord {
  return {
    ...baseRecord(pc, unit.work.spec, unit.key.buildProfile, job.operation),
    status: "failed",
    failure: { reason: f.reason as "error", message: f.message },
    ...(job.inputsHash ? { inputsHash: job.inputsHash } : {}),
    ...(f.extra ?? {}),
  };
}

/** How the profiling build was made (the record's build field). */
function profileBuildFacts(pc: ProfileContext, spec: InstanceSpec, profile: BuildProfile, build: ProfileBuild) {
  return {
    compiler: pc.campaign.cc,
    compilerVersion: pc.tc.version,
    flags: profile.cflags,
    ...(spec.defines.length ? { defines: spec.defines.map((d) => (d.startsWith("-D") ? d : `-D${d}`)) } : {}),
    ...(profile.ldflags.length ? { ldflags: profile.ldflags } : {}),
    sourcesSha256: build.inputsHash,
    artifact: build.driver,
    linkage: build.linkage,
  };
}

const slim = (t: readonly Trial[]) => t.map((x) => ({ iterations: x.iterations, ns: x.ns }));

/** Times one operation with the timing build, then with the profiling build; its record or failure record. */
async function profileOperation(o: OperationContext, job: Job): Promise<HashProfileRecord> {
  const { pc, work, key } = o;
  const { campaign } = pc;
  const op = job.operation;
  const base = baseRecord(pc, work.spec, key.buildProfile, op);
  const hash = job.inputsHash ? { inputsHash: job.inputsHash } : {};
  const commands: Command[] = [...o.kat.commands];
  const time = async (driver: string, what: string) => {
    const args = driverTimeArgs(campaign, op, o.counter);
    const r = await driverRun<DriverTimeOut>(
      campaign.context,
      driver,
      args,
      campaign.timeouts.operationMs,
      `${key.instance} ${op}: ${what}`,
      "driver-time",
    );
    commands.push(commandOf(r.result));
    try {
      return checkProfiledOutput(r.value, `${key.instance} ${op}: ${what}`);
    } catch (err) {
      if (err instanceof ProfileShapeError) throw new DriverError("driver-output", err.message, r.result);
      throw err;
    }
  };
  try {
    // Under an emulator only the calls are the target's: the profiled build runs once, for its call counts.
    if (emulated(campaign.target)) {
      const profiled = await time(o.build.driver, "calls (profiling build, emulated)");
      if (!profiled.profile) throw new Error(`${o.build.driver} printed no profile: not a profiling build`);
      const figures = profileFigures({ trials: profiled.trials, profile: profiled.profile }, null, work.groups);
      return {
        ...base,
        status: "ok",
        ...hash,
        build: o.facts,
        emulated: true,
        iterations: figures.iterations,
        groups: [],
        calls: (figures.calls ?? []).map(({ nsPerOp: _ns, ...c }) => c),
        katCheck: o.kat.check,
        blindSpots: o.build.timing.interception.blindSpots,
        commands,
      };
    }
    const unprofiled = await time(o.timing.driver, "time (timing build)");
    const profiled = await time(o.build.driver, "time (profiling build)");
    const profile = profiled.profile;
    if (!profile) throw new Error(`${o.build.driver} printed no profile: not a profiling build`);
    return {
      ...base,
      status: "ok",
      ...hash,
      build: o.facts,
      ...profileFigures({ trials: profiled.trials, profile }, unprofiled.trials, work.groups),
      trials: { profiled: slim(profiled.trials), unprofiled: slim(unprofiled.trials) },
      katCheck: o.kat.check,
      blindSpots: o.build.timing.interception.blindSpots,
      commands,
    };
  } catch (err) {
    if (!(err instanceof DriverError)) throw err;
    commands.push(commandOf(err.result));
    const failure = { reason: err.reason as "error", message: err.message };
    return { ...base, status: "failed", failure, ...hash, build: o.facts, commands };
  }
}

/** Profiles the pending operations of an instance under a build profile. */
export async function runInstanceUnit(
  pc: ProfileContext,
  unit: Unit<InstanceWork>,
  pending: Job[],
  ctx: UnitContext,
): Promise<void> {
  const { campaign } = pc;
  const { spec } = unit.work;
  const key = unit.key as InstanceKey;
  const { profile } = unit;
  // The timing build first: one that failed earlier in the run fails here at once (nothing is compiled again),
  // and the profiling build of the same sources is not tried.
  const timing = await buildInstance(spec, profile, pc.tc, buildPath(pc.out, key), campaign.timeouts.buildMs).catch(
    (err: unknown) => {
      if (isBuildFailure(err)) pc.failedBuilds.add(unitName(key));
      throw err;
    },
  );
  const build = await profilingBuild(pc, spec, key, profile);
  ctx.built(build.cached);
  const facts = profileBuildFacts(pc, spec, profile, build);
  let info: DriverInfo;
  try {
    info = await infoAndCheck(build.driver, campaign, `${spec.instance} (profiling build)`);
  } catch (err) {
    if (!(err instanceof DriverError)) throw err;
    ctx.failRest({
      reason: err.reason,
      message: err.message,
      extra: { build: facts, commands: [commandOf(err.result)] },
    });
    return;
  }
  const passes = info.sizes.passes ?? 1;
  const kat = await katCheck(campaign.context, spec, build, campaign.timeouts.katMs);
  // Gated on the profiled KAT check as timing is on the KAT verdict: no shares for an instance that fails it.
  const katFailed = katCheckFailure(kat.check);
  if (katFailed) {
    const extra = { build: facts, katCheck: kat.check, commands: kat.commands };
    for (const job of pending) ctx.write(job, profileFailureRecord(pc, unit, job, { ...katFailed, extra }));
    return;
  }
  const o: OperationContext = {
    pc,
    work: unit.work,
    key,
    timing,
    build,
    facts,
    counter: chooseCounter(campaign, info.counters),
    kat,
  };
  const measured = new Set(operationsOf(spec.category, passes));
  for (const job of pending) {
    if (measured.has(job.operation)) {
      ctx.write(job, await profileOperation(o, job));
      continue;
    }
    const message = `${job.operation}: the built instance has ${passes} pass(es), its api.h said otherwise`;
    ctx.write(job, profileFailureRecord(pc, unit, job, { reason: "error", message, extra: { build: facts } }));
  }
}
