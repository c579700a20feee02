// The one place where ngcc-perf starts child processes: every build and every run of submission code
// goes through runProcess, which runs it in the sandbox (sandbox.ts: bubblewrap, resource limits;
// docs/security.md) unless the campaign set `sandbox: { enabled: false }` or the caller says the
// process runs no submission code (`sandbox: false`: `cc --version`, `uname -m`). Arguments are arrays, never
// a shell string; every process has a time limit and bounded captured output.
import { spawn } from "node:child_process";
import { constants } from "node:os";
import { resolve } from "node:path";
import type { Readable } from "node:stream";
import { InputError } from "./errors.ts";
import { resolveProgram, sandboxArgv, sandboxPath, sandboxSettings, signalOfStatus } from "./sandbox.ts";
import { targetArgv, withToolchainFlags } from "./target.ts";

export interface RunOptions {
  cwd?: string;
  /** Time limit in milliseconds; the process group is killed with SIGKILL when it passes. */
  timeoutMs: number;
  /** Bytes kept of stdout and of stderr (the tail beyond this is dropped, the head kept for stdout). */
  maxOutputBytes?: number;
  /** Bytes kept of stderr (its tail), when fewer than maxOutputBytes: a program whose stdout is its output. */
  maxStderrBytes?: number;
  /** Unconfined: the whole environment (default process.env). Sandboxed: variables added to the clean one. */
  env?: NodeJS.ProcessEnv;
  input?: string;
  /** Folders the process may write (sandboxed); default [cwd] when cwd is given, else none. */
  writable?: string[];
  /** false: outside the sandbox — only for processes that run no submission code (`cc --version`). */
  sandbox?: boolean;
  /**
   * A program the campaign's toolchain built: run behind its emulator prefix when it has one (target.ts), so
   * the recorded argv is the command that ran.
   */
  target?: boolean;
  /** Files and folders masked inside the sandbox for this process (e.g. a KAT's expected answers). */
  hidden?: string[];
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
  /** True when the process ran in the sandbox. */
  sandboxed: boolean;
}

const DEFAULT_MAX_OUTPUT = 4 * 1024 * 1024;
const STATUS_FD = 3;

export function runProcess(given: readonly string[], options: RunOptions): Promise<RunResult> {
  // The campaign compiler gets the toolchain's flags (sysroot, cflags, ldflags); a built program its emulator.
  const argv = withToolchainFlags(options.target ? targetArgv(given) : given);
  const [file] = argv;
  if (!file) throw new Error("runProcess: empty argv");
  const confined = options.sandbox !== false && sandboxSettings().enabled;
  if (!confined) return spawnAndWait(argv, [...argv], options, false);
  const cwd = resolve(options.cwd ?? process.cwd());
  const path = sandboxPath();
  // Unfound programs are reported as spawn reports them, not as an exit status of the sandbox.
  if (!resolveProgram(file, cwd, path)) {
    return Promise.resolve(notStarted(argv, options, `ENOENT: spawn ${file} ENOENT (PATH in the sandbox: ${path})`));
  }
  const writable = options.writable ?? (options.cwd ? [cwd] : []);
  let wrapped: string[];
  try {
    wrapped = sandboxArgv({
      argv,
      cwd,
      cwdGiven: options.cwd !== undefined,
      writable,
      timeoutMs: options.timeoutMs,
      ...(options.env ? { env: options.env } : {}),
      statusFd: STATUS_FD,
      ...(options.target && argv.length > given.length && given[0] ? { emulatedProgram: given[0] } : {}),
      ...(options.hidden ? { hidden: options.hidden } : {}),
    });
  } catch (err) {
    return Promise.reject(err);
  }
  return spawnAndWait(argv, wrapped, options, true);
}

function notStarted(argv: readonly string[], options: RunOptions, spawnError: string): RunResult {
  return {
    argv: [...argv],
    ...(options.cwd ? { cwd: options.cwd } : {}),
    exitCode: null,
    signal: null,
    timedOut: false,
    durationMs: 0,
    timeLimitMs: options.timeoutMs,
    stdout: "",
    stderr: "",
    spawnError,
    sandboxed: options.sandbox !== false && sandboxSettings().enabled,
  };
}

function spawnAndWait(
  argv: readonly string[],
  command: string[],
  options: RunOptions,
  sandboxed: boolean,
): Promise<RunResult> {
  const [file, ...args] = command as [string, ...string[]];
  const max = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  const maxErr = Math.min(max, options.maxStderrBytes ?? max);
  const started = process.hrtime.bigint();
  return new Promise((resolvePromise, reject) => {
    const out: Buffer[] = [];
    let outBytes = 0;
    // The tail of stderr: chunks kept while the newer ones hold fewer than `max` bytes (linear in the output,
    // however much a process writes).
    const err: Buffer[] = [];
    let errBytes = 0;
    let status = "";
    let timedOut = false;
    let settled = false;
    const child = spawn(file, args, {
      // Sandboxed, bwrap itself gets no more than a PATH: it is the sandbox's process 1, and its environment is
      // readable inside (/proc/1/environ) — the caller's variables (tokens, keys) must not be there. The program's
      // own environment is set by bwrap (--clearenv, --setenv).
      ...(sandboxed ? { env: { PATH: sandboxPath() } } : { cwd: options.cwd, env: options.env ?? process.env }),
      stdio: sandboxed ? ["pipe", "pipe", "pipe", "pipe"] : ["pipe", "pipe", "pipe"],
      detached: true,
    });
    const finish = (code: number | null, signal: string | null, spawnError?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      const errAll = Buffer.concat(err);
      const stderr = errAll.subarray(Math.max(0, errAll.length - maxErr)).toString("utf8");
      let exitCode = code;
      let sig = signal;
      if (sandboxed && !spawnError && !timedOut) {
        // bwrap reports the child's end as an exit status (128 + n for signal n); before the child ran
        // (no child-pid in its status), a failure is the sandbox's, not the program's.
        if (!/"child-pid"/.test(status)) {
          reject(
            new InputError(
              `the sandbox could not start ${argv[0]}: ${stderr.trim().split("\n").slice(-3).join(" | ") || `bwrap exited with ${code ?? signal}`}` +
                " (bubblewrap needs namespaces; see docs/security.md — or set sandbox: { enabled: false } in the campaign)",
            ),
          );
          return;
        }
        const named = signalOfStatus(code, constants.signals as unknown as Record<string, number>);
        if (named) {
          exitCode = null;
          sig = named;
        }
      }
      resolvePromise({
        argv: [...argv],
        ...(options.cwd ? { cwd: options.cwd } : {}),
        exitCode,
        signal: sig,
        timedOut,
        durationMs,
        timeLimitMs: options.timeoutMs,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr,
        ...(spawnError ? { spawnError } : {}),
        sandboxed,
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
    child.stdout?.on("data", (chunk: Buffer) => {
      if (outBytes >= max) return;
      const part = chunk.subarray(0, max - outBytes);
      out.push(part);
      outBytes += part.length;
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      err.push(chunk);
      errBytes += chunk.length;
      while (err.length > 1 && errBytes - (err[0] as Buffer).length >= maxErr)
        errBytes -= (err.shift() as Buffer).length;
    });
    const statusStream = child.stdio[STATUS_FD] as Readable | null | undefined;
    statusStream?.on("data", (chunk: Buffer) => {
      if (status.length < 4096) status += chunk.toString("utf8");
    });
    child.on("error", (err: NodeJS.ErrnoException) => finish(null, null, `${err.code ?? "error"}: ${err.message}`));
    child.on("close", (code, signal) => finish(code, signal));
    child.stdin?.on("error", () => {});
    child.stdin?.end(options.input ?? "");
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
    sandboxed: r.sandboxed,
    ...(r.stderr ? { stderrTail: tail(r.stderr) } : {}),
  };
}
