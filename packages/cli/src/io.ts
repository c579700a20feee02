// Output helpers shared by the commands: results on stdout, progress and logs on stderr.
import { visibleLines } from "@ngcc-perf/schema";

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

export const processIo: Io = {
  out: (line) => process.stdout.write(`${line}\n`),
  // Messages quote names, paths and stderr of submissions: bidi and control characters are shown as escapes.
  err: (line) => process.stderr.write(`${visibleLines(line)}\n`),
};

/** Exit codes of the command-line contract (docs/architecture.md). */
export const EXIT = { ok: 0, measuredFailure: 1, badInput: 2, internal: 70 } as const;

/** A user error: printed as one message, exit code 2, never a stack trace. */
export class UsageError extends Error {}
