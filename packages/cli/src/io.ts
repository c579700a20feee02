// Output helpers shared by the commands: results on stdout, progress and logs on stderr.
export interface Io {
  out(line: string): void;
  err(line: string): void;
}

export const processIo: Io = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** Exit codes of the command-line contract (docs/architecture.md). */
export const EXIT = { ok: 0, measuredFailure: 1, badInput: 2, internal: 70 } as const;

/** A user error: printed as one message, exit code 2, never a stack trace. */
export class UsageError extends Error {}
