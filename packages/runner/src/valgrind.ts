// What valgrind can run here: programs of this host's architecture, x86-64 code up to AVX2 (x86-64-v3). The
// instructions and constant-time measurements gate on it (step/measurement.ts) and the time step's decision of
// the published statistic asks it which profile to count (time-campaign.ts).
import { copyFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { buildPath, type InstanceKey } from "@ngcc-perf/schema";
import type { Campaign } from "./campaign.ts";
import { InputError } from "./errors.ts";
import { type RunResult, runProcess } from "./proc.ts";
import { HOST_CONTEXT, type RunContext } from "./run-context.ts";

/** -march values whose code uses AVX-512 (valgrind decodes up to AVX2: x86-64-v3). */
const AVX512_MARCH =
  /^-march=(x86-64-v4|knl|knm|skylake-avx512|cannonlake|cascadelake|cooperlake|icelake-client|icelake-server|tigerlake|rocketlake|alderlake-avx512|sapphirerapids|emeraldrapids|graniterapids(-d)?|znver4|znver5)$/;

/**
 * Why valgrind cannot run code built with these flags, or null: AVX-512 (-mavx512*, an -march that implies
 * it, -march=native on a processor that has it) is beyond what valgrind decodes.
 */
export function valgrindRefusal(flags: readonly string[], cpuHasAvx512: boolean): string | null {
  const bad = flags.filter(
    (f) => /^-mavx512|^-mamx/.test(f) || AVX512_MARCH.test(f) || (f === "-march=native" && cpuHasAvx512),
  );
  return bad.length
    ? `not counted: valgrind decodes x86-64 up to AVX2 (x86-64-v3), and ${bad.join(" ")} ${bad.includes("-march=native") ? "on this AVX-512 processor " : ""}allows AVX-512 instructions`
    : null;
}

export function cpuHasAvx512(): boolean {
  try {
    return /\bavx512f\b/.test(readFileSync("/proc/cpuinfo", "utf8"));
  } catch {
    return false;
  }
}

/** The first line of `valgrind --version`, or null when valgrind is not installed. */
export async function valgrindVersion(): Promise<string | null> {
  const r = await runProcess(["valgrind", "--version"], { timeoutMs: 20_000, sandbox: false, context: HOST_CONTEXT });
  if (r.spawnError || r.exitCode !== 0) return null;
  return r.stdout.trim().split("\n")[0] ?? null;
}

/** valgrind's version for a step that needs it (`tool`: callgrind, memcheck); InputError (exit 2) when it is missing. */
export async function requireValgrind(step: string, tool: string): Promise<string> {
  const valgrind = await valgrindVersion();
  if (!valgrind) {
    throw new InputError(
      `the ${step} step needs valgrind (${tool}), which is not installed: install it (apt-get install valgrind) or leave the step out`,
    );
  }
  return valgrind;
}

/** The measurements run under valgrind: the tool each runs, what it does and what a unit it refuses is. */
const UNDER_VALGRIND = {
  instructions: { tool: "callgrind", doing: "count instructions", refused: "not counted" },
  "constant-time": { tool: "memcheck", doing: "run the constant-time test", refused: "not tested" },
} as const;

/**
 * What a measurement run under valgrind shares: its name and record kind, off unless its settings enable it,
 * valgrind's version before planning (env.prepared; InputError, exit 2, without it), its gates (no emulated
 * campaign, no flags valgrind cannot decode) and the inputs of its records: valgrind's version, the operation,
 * the message length and what `own` gives of its settings (its sources' hash with them).
 */
export function valgrindMeasurement<C extends { timing: { messageBytes: number } }, S extends { enabled: boolean }>(
  name: keyof typeof UNDER_VALGRIND,
  settings: (campaign: C) => S,
  own: (s: S) => object,
) {
  const { tool, doing, refused } = UNDER_VALGRIND[name];
  return {
    name,
    kind: name,
    enabled: (campaign: C) => settings(campaign).enabled,
    prepare: () => requireValgrind(name, tool),
    valgrind: { doing, refused },
    inputs: (env: { campaign: C; prepared: string }, _spec: unknown, _profile: unknown, operation: string) => ({
      ...own(settings(env.campaign)),
      valgrind: env.prepared,
      operation,
      messageBytes: env.campaign.timing.messageBytes,
    }),
  };
}

/** Where and for how long one operation of a measurement runs under valgrind. */
export interface ValgrindOperation {
  context: RunContext;
  program: string;
  /** A folder of the run's own (made empty, removed after): the one folder the sandboxed run sees of the store. */
  scratch: string;
  operation: string;
  messageBytes: number;
  timeoutMs: number;
}

/** One operation of a unit's program under valgrind: a scratch folder in the unit's build folder, 20 × the timeout. */
export function valgrindOperation(
  campaign: Pick<Campaign, "context" | "timing" | "timeouts">,
  at: { out: string; key: InstanceKey; name: string },
  program: string,
  operation: string,
): ValgrindOperation {
  return {
    context: campaign.context,
    program,
    scratch: buildPath(at.out, at.key, `${at.name}-run-${process.pid}`),
    operation,
    messageBytes: campaign.timing.messageBytes,
    timeoutMs: campaign.timeouts.operationMs * 20,
  };
}

/** One run of a built program under valgrind. */
export interface ValgrindRun<T> extends ValgrindOperation {
  /** The valgrind launcher, when not the system's (the variable-latency memcheck's). */
  valgrind?: string;
  /** valgrind's options, given the scratch folder (where its output file goes). */
  options(scratch: string): string[];
  /** The program's own arguments, between --op and --msg-bytes. */
  args: string[];
  /** Reads what the run printed and what valgrind wrote into the scratch folder, before the folder is removed. */
  read(result: RunResult, scratch: string): T;
}

/** Runs a program under valgrind, the program copied into the scratch folder; what `read` makes of it. */
export async function underValgrind<T>(r: ValgrindRun<T>): Promise<T> {
  rmSync(r.scratch, { recursive: true, force: true });
  mkdirSync(r.scratch, { recursive: true });
  try {
    const copy = join(r.scratch, basename(r.program));
    copyFileSync(r.program, copy);
    const args = ["--op", r.operation, ...r.args, "--msg-bytes", String(r.messageBytes)];
    const argv = [r.valgrind ?? "valgrind", ...r.options(r.scratch), copy, ...args];
    const result = await runProcess(argv, {
      timeoutMs: r.timeoutMs,
      cwd: r.scratch,
      writable: [r.scratch],
      context: r.context,
    });
    return r.read(result, r.scratch);
  } finally {
    rmSync(r.scratch, { recursive: true, force: true });
  }
}
