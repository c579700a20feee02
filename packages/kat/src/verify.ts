// One KAT verification of an instance under a build profile: the shipped KAT against its manifest, the
// generator's build, one generation in every form, the comparison and the verdict. What it saw is returned
// whole, for the KAT log and the kat record; a failure of the instance is a verdict, never an exception.
import {
  BuildError,
  type BuildProfile,
  type Campaign,
  type Command,
  type InstanceSpec,
  type Toolchain,
} from "@ngcc-perf/runner";
import type { KatRecord } from "@ngcc-perf/schema";
import { compare } from "./compare.ts";
import type { KatPlan } from "./expect.ts";
import { type BuiltKatgen, buildKatgen, type KatBuildPlan, type KatgenRun, runKatgen } from "./generator.ts";
import { checkManifestFor, type ManifestCheck } from "./manifest.ts";
import { checkShippedRsp, type KatProblem, problemText } from "./rsp-check.ts";

export type KatVerdict = "PASS" | "FAIL" | "ERROR";
export type KatOutcome = NonNullable<KatRecord["outcome"]>;
export type KatError = NonNullable<KatRecord["error"]>;

/** Everything one verification found. */
export interface Verification {
  started: Date;
  manifest: ManifestCheck | undefined;
  built: BuiltKatgen | undefined;
  run: KatgenRun | null;
  commands: Command[];
  checks: NonNullable<KatRecord["checks"]>;
  verdict: KatVerdict;
  outcome: KatOutcome;
  /** Why the verdict is not PASS, in words (the log's reason and the failure message). */
  message: string | undefined;
  diagnosis: KatRecord["diagnosis"];
  error?: KatError;
  /** What makes the shipped KAT unusable (a malformed or missing .rsp, a corrupt manifest): outcome corrupt-kat. */
  corruption: KatProblem[];
  warnings: string[];
}

/** What one verification needs, all of it known when the step is planned. */
export interface KatWork {
  spec: InstanceSpec;
  profile: BuildProfile;
  /** What the output is compared with, or why there is nothing to compare with. */
  expect: KatPlan | { error: string };
  /** The generator's build (null when nothing is compared, so nothing is built). */
  build: KatBuildPlan | null;
}

/** Where a verification builds and generates, and whom it tells that the generator is built. */
export interface VerifyPlace {
  campaign: Campaign;
  tc: Toolchain;
  /** The build profile's build folder (the generator's cached build goes below it). */
  buildRoot: string;
  /** Where the generated forms are written (replaced on every run). */
  outputDir: string;
  onBuilt(cached: boolean): void;
}

/** A verification that got nowhere: ERROR until something says otherwise. */
export function unverified(started: Date, error?: KatError): Verification {
  return {
    started,
    manifest: undefined,
    built: undefined,
    run: null,
    commands: [],
    checks: [],
    verdict: "ERROR",
    outcome: "error",
    message: error?.message,
    diagnosis: undefined,
    ...(error ? { error } : {}),
    corruption: [],
    warnings: [],
  };
}

/** The shipped .rsp against the submission's manifest (expected hashes have none). */
function shippedManifest(plan: KatPlan): ManifestCheck | undefined {
  const rsp = plan.expectations.find((e) => e.path);
  const m = plan.manifest;
  return m && rsp?.path ? checkManifestFor(m.path, rsp.path, m.display, m.used, m.root) : undefined;
}

async function tryBuild(
  w: KatWork,
  build: KatBuildPlan,
  at: VerifyPlace,
): Promise<BuiltKatgen | { error: KatError; commands: Command[] }> {
  try {
    return await buildKatgen(w.spec, w.profile, at.tc, at.buildRoot, at.campaign.timeouts.buildMs, build);
  } catch (err) {
    if (!(err instanceof BuildError)) throw err;
    const r = err.result;
    const error: KatError = { reason: "compile-error", message: err.message, exitCode: r.exitCode, signal: r.signal };
    return { error, commands: err.commands };
  }
}

/** The shipped .rsp files of a plan checked as NIST KAT files (expected hashes have none). */
function shippedRsp(plan: KatPlan, category: KatWork["spec"]["category"]): KatProblem[] {
  return plan.expectations.flatMap((e) => (e.path ? checkShippedRsp(e.path, category, e.entries, e.root) : []));
}

/** The corrupt-KAT message: the first problems with file and line, the rest counted (all are in the log). */
export function corruptMessage(problems: readonly KatProblem[]): string {
  const shown = problems.slice(0, 3).map(problemText);
  const more = problems.length - shown.length;
  return `corrupt KAT file (the submission's, not the implementation's fault): ${shown.join("; ")}${more > 0 ? `; and ${more} more (see the KAT log)` : ""}`;
}

/** Exit status of the KAT generator when a guard byte around a buffer was overwritten (native/katgen). */
export const KATGEN_EXIT_CANARY = 3;

/** Why a generator run failed: a timeout, a crash, a failed check inside the generator, or another exit. */
export function runFailure(run: KatgenRun, timeoutMs: number): KatError {
  const r = run.result;
  const stderr = r.stderr.trim();
  const last = stderr ? `: ${stderr.split("\n").slice(-3).join(" | ")}` : "";
  const tailOf = stderr ? { stderrTail: stderr.slice(-2000) } : {};
  if (r.spawnError) return { reason: "error", message: `cannot start the KAT generator (${r.spawnError})` };
  if (r.timedOut) {
    const at = run.info?.failed ? ` (in ${run.info.failed.operation})` : "";
    const message = `KAT generation exceeded its time limit of ${timeoutMs / 1000} s${at}`;
    return { reason: "timeout", message, signal: r.signal, exitCode: null, ...tailOf };
  }
  if (r.signal) {
    const message = `KAT generator killed by ${r.signal}${last}`;
    return { reason: "crash", message, signal: r.signal, exitCode: null, ...tailOf };
  }
  if (r.exitCode === KATGEN_EXIT_CANARY) {
    const line = stderr.split("\n").find((l) => l.includes("canary overwritten")) ?? stderr.split("\n").pop() ?? "";
    const message = `wrote past a buffer: ${line.replace(/^katgen: /, "")}`;
    return { reason: "canary", message, signal: null, exitCode: r.exitCode, ...tailOf };
  }
  if (r.exitCode === 1) {
    return { reason: "check-failed", message: `KAT generation failed${last}`, signal: null, exitCode: 1, ...tailOf };
  }
  const message = `KAT generator exited with ${r.exitCode}${last}`;
  return { reason: "error", message, signal: null, exitCode: r.exitCode, ...tailOf };
}

/** The verdict of a generation that ran to its end: the manifest first, then every comparison. */
function judge(plan: KatPlan, run: KatgenRun, corruption: readonly KatProblem[], warnings: string[]) {
  const c = compare(plan, run, warnings);
  const found = { checks: c.checks, diagnosis: c.diagnosis, warnings: c.warnings };
  if (corruption.length) {
    // Where a corrupt file first differs says nothing about the implementation: no diagnosis.
    const message = corruptMessage(corruption);
    return { ...found, diagnosis: undefined, verdict: "FAIL" as const, outcome: "corrupt-kat" as const, message };
  }
  if (c.checks.every((check) => check.match)) {
    return { ...found, verdict: "PASS" as const, outcome: "match" as const, message: undefined };
  }
  const message = `KAT mismatch: ${c.text ?? "the generated output differs from the expected one"}`;
  return { ...found, verdict: "FAIL" as const, outcome: "output-differs" as const, message };
}

/** The shipped KAT files of a plan (the .rsp files and the manifest): masked in the generator's sandbox. */
function shippedFiles(plan: KatPlan): string[] {
  return [
    ...plan.expectations.flatMap((e) => (e.path ? [e.path] : [])),
    ...(plan.manifest ? [plan.manifest.path] : []),
  ];
}

/**
 * The verdict when the generator's outputs disagree (crossCheck): FAIL, never compared — what was read from its
 * stdout and what it left in its folder are not the same output, so one of them was tampered with (or the
 * generator's output was cut). `error` says why, as the page and the time step's gate show it.
 */
function inconsistent(problems: readonly string[], also: string) {
  const shown = problems.slice(0, 3).join("; ");
  const more = problems.length > 3 ? `; and ${problems.length - 3} more` : "";
  const message = `tampered or inconsistent KAT output (the generator's forms disagree, so none is compared): ${shown}${more}${also}`;
  const error: KatError = { reason: "check-failed", message, signal: null, exitCode: 0 };
  return {
    checks: [],
    diagnosis: undefined,
    verdict: "FAIL" as const,
    outcome: "output-differs" as const,
    message,
    error,
  };
}

/** Verifies one instance under one build profile. Throws only what is not the instance's fault. */
export async function verify(w: KatWork, at: VerifyPlace): Promise<Verification> {
  const started = unverified(new Date());
  if ("error" in w.expect || !w.build) {
    const message = "error" in w.expect ? w.expect.error : "nothing to compare with";
    return { ...unverified(started.started, { reason: "error", message }), outcome: "no-expected-kat" };
  }
  const manifest = shippedManifest(w.expect);
  const corruption = [...(manifest?.corruption ?? []), ...shippedRsp(w.expect, w.spec.category)];
  const checked = { ...started, manifest, corruption, warnings: [...(manifest?.warnings ?? [])] };
  // The implementation's own failures stay ERROR; a corrupt KAT file found as well is named beside them.
  const also = corruption.length ? `; also: ${corruptMessage(corruption)}` : "";
  const built = await tryBuild(w, w.build, at);
  if ("error" in built) {
    return { ...checked, commands: built.commands, error: built.error, message: `${built.error.message}${also}` };
  }
  at.onBuilt(built.cached);
  const run = await runKatgen(built.exe, {
    entries: w.expect.entries,
    rng: w.expect.rng,
    algname: w.spec.instance,
    outDir: at.outputDir,
    timeoutMs: at.campaign.timeouts.katMs,
    hidden: shippedFiles(w.expect),
    context: at.campaign.context,
  });
  const ran = { ...checked, built, run, commands: [...built.commands, run.command] };
  if (run.result.exitCode !== 0 || run.result.timedOut || run.result.signal) {
    const error = runFailure(run, at.campaign.timeouts.katMs);
    return { ...ran, error, message: `${error.message}${also}` };
  }
  if (run.inconsistencies.length) return { ...ran, ...inconsistent(run.inconsistencies, also) };
  return { ...ran, ...judge(w.expect, run, corruption, ran.warnings) };
}
