// One instance under one build profile: the profiling build and the timing build (the unprofiled figures; the
// time step's cache), the driver's functional check, the profiled KAT check, then a hash-profile record per
// pending operation. A build that fails fails every job of the unit once (the measurement layer).
import {
  type BuildProfile,
  type BuiltInstance,
  buildUnit,
  type Command,
  type CounterKind,
  chooseCounter,
  commandOf,
  DriverError,
  type DriverInfo,
  driverRun,
  driverTimeArgs,
  emulated,
  type InstanceSpec,
  type InstanceWork,
  infoAndCheck,
  type Job,
  MeasureError,
  type MeasureOutput,
  operationsOf,
  type Unit,
} from "@ngcc-perf/runner";
import { type HashProfileRecord, type InstanceKey, unitName } from "@ngcc-perf/schema";
import type { ProfileBuild } from "./build.ts";
import { contextOf, isBuildFailure, type ProfileContext, type ProfileEnv, profilingBuild } from "./context.ts";
import { ProfilingBuildError } from "./errors.ts";
import { checkProfiledOutput, type DriverTimeOut, ProfileShapeError, profileFigures, type Trial } from "./figures.ts";
import { groupsFor } from "./groups.ts";
import { type KatCheck, katCheck, katCheckFailure } from "./kat-check.ts";

type BuildFacts = NonNullable<HashProfileRecord["build"]>;

/** An instance's two builds under a profile, and what its records say of the profiling one. */
export interface ProfiledBuilds {
  timing: BuiltInstance;
  build: ProfileBuild;
  facts: BuildFacts;
}

/** What every operation of a unit is profiled with. */
interface OperationContext extends ProfiledBuilds {
  env: ProfileEnv;
  spec: InstanceSpec;
  key: InstanceKey;
  counter: CounterKind;
  kat: { check: KatCheck; commands: Command[] };
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

/**
 * The timing build first: one that failed earlier in the run fails here at once (nothing is compiled again), and
 * the profiling build of the same sources is not tried. A profiling build's own failure is a measured one.
 */
export async function buildProfiledUnit(
  env: ProfileEnv,
  unit: Unit<InstanceWork>,
): Promise<ProfiledBuilds & { cached: boolean }> {
  const pc = contextOf(env);
  const { spec } = unit.work;
  const key = unit.key as InstanceKey;
  const timing = await buildUnit(env, unit).catch((err: unknown) => {
    if (isBuildFailure(err)) pc.failedBuilds.add(unitName(key));
    throw err;
  });
  try {
    const build = await profilingBuild(pc, spec, key, unit.profile);
    return { timing, build, facts: profileBuildFacts(pc, spec, unit.profile, build), cached: build.cached };
  } catch (err) {
    if (!(err instanceof ProfilingBuildError)) throw err;
    throw new MeasureError({ reason: "error", message: `profiling build: ${err.message}` });
  }
}

const slim = (t: readonly Trial[]) => t.map((x) => ({ iterations: x.iterations, ns: x.ns }));

/** Times one operation with the timing build, then with the profiling build: its record's body. */
async function profileOperation(o: OperationContext, job: Job, commands: Command[]): Promise<object> {
  const { campaign } = o.env;
  const op = job.operation;
  const groups = groupsFor(campaign, o.spec);
  const time = async (driver: string, what: string) => {
    const args = driverTimeArgs(campaign, op, o.counter);
    const at = `${o.key.instance} ${op}: ${what}`;
    const r = await driverRun<DriverTimeOut>(
      campaign.context,
      driver,
      args,
      campaign.timeouts.operationMs,
      at,
      "driver-time",
    );
    commands.push(commandOf(r.result));
    try {
      return checkProfiledOutput(r.value, at);
    } catch (err) {
      if (err instanceof ProfileShapeError) throw new DriverError("driver-output", err.message, r.result);
      throw err;
    }
  };
  const common = { katCheck: o.kat.check, blindSpots: o.build.timing.interception.blindSpots };
  // Under an emulator only the calls are the target's: the profiled build runs once, for its call counts.
  if (emulated(campaign.target)) {
    const profiled = await time(o.build.driver, "calls (profiling build, emulated)");
    if (!profiled.profile) throw new Error(`${o.build.driver} printed no profile: not a profiling build`);
    const figures = profileFigures({ trials: profiled.trials, profile: profiled.profile }, null, groups);
    const calls = (figures.calls ?? []).map(({ nsPerOp: _ns, ...c }) => c);
    return { build: o.facts, emulated: true, iterations: figures.iterations, groups: [], calls, ...common, commands };
  }
  const unprofiled = await time(o.timing.driver, "time (timing build)");
  const profiled = await time(o.build.driver, "time (profiling build)");
  const profile = profiled.profile;
  if (!profile) throw new Error(`${o.build.driver} printed no profile: not a profiling build`);
  return {
    build: o.facts,
    ...profileFigures({ trials: profiled.trials, profile }, unprofiled.trials, groups),
    trials: { profiled: slim(profiled.trials), unprofiled: slim(unprofiled.trials) },
    ...common,
    commands,
  };
}

/** Profiles the pending operations of an instance under a build profile. */
export async function profileOperations(
  env: ProfileEnv,
  unit: Unit<InstanceWork>,
  built: ProfiledBuilds,
  pending: Job[],
  out: MeasureOutput,
): Promise<void> {
  const { campaign } = env;
  const { spec } = unit.work;
  let info: DriverInfo;
  try {
    info = await infoAndCheck(built.build.driver, campaign, `${spec.instance} (profiling build)`);
  } catch (err) {
    if (!(err instanceof DriverError)) throw err;
    for (const job of pending)
      out.fail(job, { reason: err.reason, message: err.message, extra: { commands: [commandOf(err.result)] } });
    return;
  }
  const passes = info.sizes.passes ?? 1;
  const kat = await katCheck(campaign.context, spec, built.build, campaign.timeouts.katMs);
  // Gated on the profiled KAT check as timing is on the KAT verdict: no shares for an instance that fails it.
  const katFailed = katCheckFailure(kat.check);
  if (katFailed) {
    for (const job of pending) out.fail(job, { ...katFailed, extra: { katCheck: kat.check, commands: kat.commands } });
    return;
  }
  const counter = chooseCounter(campaign, info.counters);
  const o: OperationContext = { ...built, env, spec, key: unit.key as InstanceKey, counter, kat };
  const measured = new Set(operationsOf(spec.category, passes));
  for (const job of pending) {
    if (!measured.has(job.operation)) {
      const message = `${job.operation}: the built instance has ${passes} pass(es), its api.h said otherwise`;
      out.fail(job, { reason: "error", message });
      continue;
    }
    const commands: Command[] = [...kat.commands];
    try {
      out.record(job, await profileOperation(o, job, commands));
    } catch (err) {
      if (!(err instanceof DriverError)) throw err;
      commands.push(commandOf(err.result));
      out.fail(job, { reason: err.reason, message: err.message, extra: { commands } });
    }
  }
}
