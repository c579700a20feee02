// The one place where ngcc-perf starts child processes: every build and every run of submission code
// goes through runProcess, so a sandbox can later wrap them all here. Arguments are arrays, never a
// shell string; every process has a time limit and bounded captured output.
import { spawn } from "node:child_process";

export interface RunOptions {
  cwd?: string;
  /** Time limit in milliseconds; the process group is killed with SIGKILL when it passes. */
  timeoutMs: number;
  /** Bytes kept of stdout and of stderr (the tail beyond this is dropped, the head kept for stdout). */
  maxOutputBytes?: number;
  env?: NodeJS.ProcessEnv;
  input?: string;
}

export interface RunResult {
  argv: string[];
  cwd?: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  timeLimitMs: number;
  stdout: string;
  stderr: string;
  /** Set when the program could not be started at all (e.g. ENOENT: not installed). */
  spawnError?: string;
}

const DEFAULT_MAX_OUTPUT = 4 * 1024 * 1024;

export function runProcess(argv: readonly string[], options: RunOptions): Promise<RunResult> {
  const [file, ...args] = argv;
  if (!file) throw new Error("runProcess: empty argv");
  const max = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    const out: Buffer[] = [];
    let outBytes = 0;
    let errTail = Buffer.alloc(0);
    let timedOut = false;
    let settled = false;
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    const finish = (exitCode: number | null, signal: string | null, spawnError?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      resolve({
        argv: [...argv],
        ...(options.cwd ? { cwd: options.cwd } : {}),
        exitCode,
        signal,
        timedOut,
        durationMs,
        timeLimitMs: options.timeoutMs,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: errTail.toString("utf8"),
        ...(spawnError ? { spawnError } : {}),
      });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    }, options.timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => {
      if (outBytes >= max) return;
      const part = chunk.subarray(0, max - outBytes);
      out.push(part);
      outBytes += part.length;
    });
    child.stderr.on("data", (chunk: Buffer) => {
      errTail = Buffer.concat([errTail, chunk]);
      if (errTail.length > max) errTail = errTail.subarray(errTail.length - max);
    });
    child.on("error", (err: NodeJS.ErrnoException) => finish(null, null, `${err.code ?? "error"}: ${err.message}`));
    child.on("close", (code, signal) => finish(code, signal));
    child.stdin.on("error", () => {});
    child.stdin.end(options.input ?? "");
  });
}

/** The last `n` characters of a text, for messages and records. */
export function tail(text: string, n = 2000): string {
  return text.length <= n ? text : `…${text.slice(text.length - n)}`;
}

/** A command entry for a record (the schema's `command`). */
export function commandOf(r: RunResult) {
  return {
    argv: r.argv,
    ...(r.cwd ? { cwd: r.cwd } : {}),
    exitCode: r.exitCode,
    signal: r.signal,
    durationMs: Math.round(r.durationMs * 1000) / 1000,
    timedOut: r.timedOut,
    timeLimitMs: r.timeLimitMs,
    ...(r.stderr ? { stderrTail: tail(r.stderr) } : {}),
  };
}
