// The profiled KAT build's check: the KAT generator linked with the same wrappers must print what the committed
// .rsp file holds (NGCC submissions) or, without one (PQClean), what the generator without wrappers prints —
// the wrappers forward every call, the DRNG's included, one for one.
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  type Command,
  commandOf,
  type InstanceSpec,
  type RunContext,
  runProcess,
  sha256,
  tail,
} from "@ngcc-perf/runner";
import { type HashProfileRecord, readSubmissionBytes } from "@ngcc-perf/schema";
import type { ProfileBuild } from "./build.ts";

export type KatCheck = NonNullable<HashProfileRecord["katCheck"]>;

/** The committed .rsp and the generators' output are read up to this size (as the kat step reads them). */
export const MAX_KAT_FILE_BYTES = 256 * 1024 * 1024;
/** What is kept of a generator's stderr: the instance's own printing goes there (native/katgen). */
const STDERR_BYTES = 64 * 1024;

/**
 * Runs one KAT generator and returns the .rsp it printed on its stdout (its own: whatever the instance prints goes
 * to stderr); throws (with its command recorded) when it fails or prints more than a KAT file may hold — not a
 * difference of the implementation's. `hidden`: the shipped KAT files, masked in its sandbox.
 */
async function generate(
  context: RunContext,
  exe: string,
  timeoutMs: number,
  commands: Command[],
  hidden: string[],
): Promise<string> {
  const r = await runProcess([exe], {
    context,
    timeoutMs,
    maxOutputBytes: MAX_KAT_FILE_BYTES + 1,
    maxStderrBytes: STDERR_BYTES,
    target: true,
    ...(hidden.length ? { hidden } : {}),
  });
  commands.push(commandOf(r));
  if (r.spawnError || r.exitCode !== 0 || r.timedOut) {
    const how = r.timedOut ? "timed out" : r.signal ? `was killed by ${r.signal}` : `exited with ${r.exitCode}`;
    throw new Error(`${exe} ${how}: ${tail(r.stderr, 500)}`);
  }
  if (Buffer.byteLength(r.stdout, "utf8") > MAX_KAT_FILE_BYTES) {
    throw new Error(
      `${exe} printed more than ${MAX_KAT_FILE_BYTES} bytes on its stdout, more than a KAT file may hold: its output was not compared`,
    );
  }
  return r.stdout;
}

/** The committed text as the kat step compares it: CRLF line endings are the one difference tolerated. */
const asLf = (text: string) => text.replace(/\r\n/g, "\n");

/**
 * The verdict of the profiled output against the committed file, or (without one) the unwrapped generator's.
 * A difference blames what differs: the wrappers when the unwrapped generator still reproduces the file, the
 * implementation (or its KAT file, which the kat step tells apart) when neither does.
 */
async function compare(
  context: RunContext,
  spec: InstanceSpec,
  katgen: { plain: string; profiled: string },
  timeoutMs: number,
  commands: Command[],
): Promise<KatCheck> {
  const committed = spec.kat?.file ? join(spec.submissionDir, spec.kat.file) : null;
  const hidden = committed ? [committed] : [];
  const profiled = await generate(context, katgen.profiled, timeoutMs, commands, hidden);
  const digest = sha256(profiled);
  if (committed && existsSync(committed)) {
    const comparedWith = spec.kat?.file ?? committed;
    // As the kat step reads it: a regular file inside the submission, capped (a folder, a FIFO, a link out or a
    // 2 GB file is not read and blames nothing of the implementation).
    const read = readSubmissionBytes(spec.submissionDir, committed, MAX_KAT_FILE_BYTES);
    if (read.error !== undefined) {
      return {
        verdict: "ERROR",
        comparedWith,
        sha256: digest,
        message: `the committed KAT file ${comparedWith} ${read.error}: nothing to compare with (the kat step reports the file as corrupt)`,
      };
    }
    const expected = asLf(read.bytes.toString("utf8"));
    if (expected === profiled) return { verdict: "PASS", comparedWith, sha256: digest };
    const plain = await generate(context, katgen.plain, timeoutMs, commands, hidden);
    const message =
      plain === profiled
        ? `the KAT generator's output differs from ${comparedWith} with and without the profiler's wrappers: the instance does not reproduce its KAT (or the file is corrupt; the kat step tells which), not the wrappers`
        : plain === expected
          ? `the profiled output differs from ${comparedWith}, which the generator without wrappers reproduces: the profiler's wrappers changed a result`
          : `the output differs from ${comparedWith} with and without the wrappers, and between the two runs: the instance's output is not deterministic (or its KAT fails; see the kat step)`;
    return { verdict: "FAIL", comparedWith, sha256: digest, message };
  }
  const plain = await generate(context, katgen.plain, timeoutMs, commands, hidden);
  return {
    verdict: plain === profiled ? "PASS" : "FAIL",
    comparedWith: "the KAT generator built from the same objects without wrappers",
    sha256: digest,
    ...(plain === profiled
      ? {}
      : {
          message:
            "the profiled output differs from the generator's without wrappers: the wrappers changed a result (or the output is not deterministic)",
        }),
  };
}

/** Runs the profiled KAT generator and compares its output (see the katCheck field); never throws. */
export async function katCheck(
  context: RunContext,
  spec: InstanceSpec,
  build: ProfileBuild,
  timeoutMs: number,
): Promise<{ check: KatCheck; commands: Command[] }> {
  const commands: Command[] = [];
  if (!build.katgen) {
    const message = `the profiled KAT generator could not be built: ${tail(build.katError ?? "", 1500)}`;
    return { check: { verdict: "ERROR", message }, commands };
  }
  try {
    return { check: await compare(context, spec, build.katgen, timeoutMs, commands), commands };
  } catch (err) {
    return { check: { verdict: "ERROR", message: (err as Error).message }, commands };
  }
}

/** The failure a non-PASS check stands for: no shares are published for the instance (records made before kept their figures). */
export function katCheckFailure(check: KatCheck | undefined): { reason: string; message: string } | null {
  if (!check || check.verdict === "PASS") return null;
  return {
    reason: "kat-failed",
    message: `profiled KAT build: ${check.verdict}${check.message ? `: ${check.message}` : ""}`,
  };
}
