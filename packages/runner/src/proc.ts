// The one place where ngcc-perf starts child processes: every build and every run of submission code
// goes through runProcess, which runs it in the sandbox (sandbox.ts: bubblewrap, resource limits;
// docs/security.md) unless the campaign set `sandbox: { enabled: false }` or the caller says the
// process runs no submission code (`sandbox: false`: `cc --version`, `uname -m`). Arguments are arrays, never
// a shell string; every process has a time limit and bounded captured output.
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, readdirSync, readFileSync } from "node:fs";
import { constants } from "node:os";
import { resolve } from "node:path";
import type { Readable } from "node:stream";
import { newPidsCgroup, type PidsCgroup } from "./cgroup.ts";
import { InputError } from "./errors.ts";
import { watchFolders } from "./folder-quota.ts";
import type { Replay, RunContext } from "./run-context.ts";
import { resolveProgram, sandboxArgv, sandboxPath, signalOfStatus } from "./sandbox.ts";
import { closeDescriptor, openSeccompProgram } from "./seccomp.ts";
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
  /** The run's sandbox settings and toolchain (a campaign's, or HOST_CONTEXT outside one). */
  context: RunContext;
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
const SECCOMP_FD = 4;
const BLOCK_FD = 5;
const O_CLOEXEC = 0o2000000;

/**
 * Closes every descriptor above 2 that this process holds without close-on-exec, except Node's IPC channel:
 * descriptors inherited from whoever started ngcc-perf (a shell's `200>file`, a parent's pipe), which every child
 * would inherit in turn — bubblewrap passes them on into the sandbox, where the code could write a host file or
 * read a secret through them. Node opens its own descriptors close-on-exec, so none of them is touched. Returns
 * the descriptors closed (Linux: read from /proc/self/fdinfo; elsewhere there is no sandbox).
 */
export function closeInheritedDescriptors(): number[] {
  let fds: string[];
  try {
    fds = readdirSync("/proc/self/fdinfo");
  } catch {
    return [];
  }
  const channel = Number(process.env.NODE_CHANNEL_FD ?? -1);
  const closed: number[] = [];
  for (const name of fds) {
    const fd = Number(name);
    if (!Number.isInteger(fd) || fd <= 2 || fd === channel) continue;
    let flags: number;
    try {
      const m = /^flags:\s*([0-7]+)/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, "utf8"));
      if (!m?.[1]) continue;
      flags = Number.parseInt(m[1], 8);
    } catch {
      continue; // closed meanwhile (the listing's own descriptor among them)
    }
    if (flags & O_CLOEXEC) continue;
    try {
      closeSync(fd);
      closed.push(fd);
    } catch {
      // not ours to close after all
    }
  }
  return closed;
}

export function runProcess(given: readonly string[], options: RunOptions): Promise<RunResult> {
  if (options.context.replay) return replayed(given, options, options.context.replay);
  // The campaign compiler gets the toolchain's flags (sysroot, cflags, ldflags); a built program its emulator.
  const { sandbox: settings, target } = options.context;
  const argv = withToolchainFlags(options.target ? targetArgv(given, target) : given, target);
  const [file] = argv;
  if (!file) throw new Error("runProcess: empty argv");
  const confined = options.sandbox !== false && settings.enabled;
  if (!confined) return spawnAndWait(argv, [...argv], options, false);
  const cwd = resolve(options.cwd ?? process.cwd());
  const path = sandboxPath();
  // Unfound programs are reported as spawn reports them, not as an exit status of the sandbox.
  if (!resolveProgram(file, cwd, path)) {
    return Promise.resolve(notStarted(argv, options, `ENOENT: spawn ${file} ENOENT (PATH in the sandbox: ${path})`));
  }
  const writable = options.writable ?? (options.cwd ? [cwd] : []);
  closeInheritedDescriptors();
  let wrapped: string[];
  let seccompFd: number | null = null;
  const processes = settings.limits.processes;
  const cgroup = processes === null ? null : newPidsCgroup(processes);
  try {
    seccompFd = openSeccompProgram();
    wrapped = sandboxArgv(
      {
        argv,
        cwd,
        cwdGiven: options.cwd !== undefined,
        writable,
        timeoutMs: options.timeoutMs,
        ...(options.env ? { env: options.env } : {}),
        statusFd: STATUS_FD,
        ...(options.target && argv.length > given.length && given[0] ? { emulatedProgram: given[0] } : {}),
        ...(options.hidden ? { hidden: options.hidden } : {}),
        ...(seccompFd === null ? {} : { seccompFd: SECCOMP_FD }),
        ...(cgroup ? { blockFd: BLOCK_FD } : {}),
      },
      settings,
    );
  } catch (err) {
    closeDescriptor(seccompFd);
    cgroup?.remove();
    return Promise.reject(err);
  }
  try {
    const limit = settings.limits.writableBytes ?? null;
    const watch =
      limit === null || writable.length === 0 ? null : { dirs: writable.map((w) => resolve(cwd, w)), limit };
    return spawnAndWait(argv, wrapped, options, true, seccompFd, cgroup, watch);
  } finally {
    // The child holds its own copy (spawn has forked by now); bubblewrap reads the filter from that.
    closeDescriptor(seccompFd);
  }
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
    sandboxed: options.sandbox !== false && options.context.sandbox.enabled,
  };
}

/** Runs `command` (argv, or bwrap around it) to its end or its time limit; the result records `argv`. */
function spawnAndWait(
  argv: readonly string[],
  command: string[],
  options: RunOptions,
  sandboxed: boolean,
  seccompFd: number | null = null,
  cgroup: PidsCgroup | null = null,
  watch: FolderWatch | null = null,
): Promise<RunResult> {
  const [file, ...args] = command as [string, ...string[]];
  const started = process.hrtime.bigint();
  return new Promise((resolvePromise, reject) => {
    const child = spawnChild(file, args, options, sandboxed, seccompFd, cgroup);
    const status = followStatus(child, cgroup);
    const quota = watchQuota(child, watch);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, options.timeoutMs);
    const output = captureOutput(child, options);
    let settled = false;
    const finish = (code: number | null, signal: string | null, spawnError?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      quota.stop();
      status.release();
      cgroup?.remove();
      const added = quota.added();
      if (added !== null && watch) {
        output.note(
          `\nngcc-perf: stopped: the process added ${added} bytes to its writable folders, more than the sandbox allows (limits.writableBytes: ${watch.limit})\n`,
        );
      }
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      const ending = { code, signal, ...(spawnError ? { spawnError } : {}), timedOut, durationMs };
      const result = resultOf(argv, options, sandboxed, ending, output, status, cgroup);
      if (result instanceof Error) reject(result);
      else resolvePromise(result);
    };
    child.on("error", (err: NodeJS.ErrnoException) => finish(null, null, `${err.code ?? "error"}: ${err.message}`));
    child.on("close", (code, signal) => finish(code, signal));
    child.stdin?.on("error", () => {});
    child.stdin?.end(options.input ?? "");
  });
}

/** A run answered by the context's replay (tests): nothing is started. */
async function replayed(argv: readonly string[], options: RunOptions, replay: Replay): Promise<RunResult> {
  const r = await replay(argv, options.cwd);
  return {
    argv: [...argv],
    ...(options.cwd ? { cwd: options.cwd } : {}),
    exitCode: r.exitCode,
    signal: r.signal ?? null,
    timedOut: false,
    durationMs: r.durationMs ?? 0,
    timeLimitMs: options.timeoutMs,
    stdout: r.stdout,
    stderr: r.stderr ?? "",
    sandboxed: false,
  };
}

/** The folders a sandboxed process may write and the bytes it may add to them (folder-quota.ts). */
interface FolderWatch {
  dirs: string[];
  limit: number;
}

/** Kills a child's whole process group (the child alone when that fails). */
function killGroup(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
}

/** Starts the program, or bwrap around it with the status, seccomp and cgroup descriptors; in its own group. */
function spawnChild(
  file: string,
  args: string[],
  options: RunOptions,
  sandboxed: boolean,
  seccompFd: number | null,
  cgroup: PidsCgroup | null,
): ChildProcess {
  return spawn(file, args, {
    // Sandboxed, bwrap itself gets no more than a PATH: it is the sandbox's process 1, and its environment is
    // readable inside (/proc/1/environ) — the caller's variables (tokens, keys) must not be there. The program's
    // own environment is set by bwrap (--clearenv, --setenv).
    ...(sandboxed ? { env: { PATH: sandboxPath() } } : { cwd: options.cwd, env: options.env ?? process.env }),
    stdio: sandboxed
      ? ["pipe", "pipe", "pipe", "pipe", seccompFd ?? "ignore", cgroup ? "pipe" : "ignore"]
      : ["pipe", "pipe", "pipe"],
    detached: true,
  });
}

/** A process's captured output, within the limits of its options. */
interface Captured {
  /** Adds ngcc-perf's own words to the end of stderr. */
  note(text: string): void;
  stdout(): string;
  stderr(): string;
}

/** Captures the head of stdout (maxOutputBytes) and the tail of stderr (maxStderrBytes, at most as much). */
function captureOutput(child: ChildProcess, options: RunOptions): Captured {
  const max = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  const maxErr = Math.min(max, options.maxStderrBytes ?? max);
  const out: Buffer[] = [];
  let outBytes = 0;
  // The tail of stderr: chunks kept while the newer ones hold fewer than `maxErr` bytes (linear in the output,
  // however much a process writes).
  const err: Buffer[] = [];
  let errBytes = 0;
  child.stdout?.on("data", (chunk: Buffer) => {
    if (outBytes >= max) return;
    const part = chunk.subarray(0, max - outBytes);
    out.push(part);
    outBytes += part.length;
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    err.push(chunk);
    errBytes += chunk.length;
    while (err.length > 1 && errBytes - (err[0] as Buffer).length >= maxErr) errBytes -= (err.shift() as Buffer).length;
  });
  return {
    note: (text) => {
      err.push(Buffer.from(text));
    },
    stdout: () => Buffer.concat(out).toString("utf8"),
    stderr: () => {
      const errAll = Buffer.concat(err);
      return errAll.subarray(Math.max(0, errAll.length - maxErr)).toString("utf8");
    },
  };
}

/** What bwrap says of the sandbox (its JSON status), and the pids cgroup its first process waits to be put in. */
interface SandboxStatus {
  /** The status so far (its first 4 KiB and a chunk). */
  text(): string;
  /** Whether the child could not be moved into its cgroup (the sandbox was killed then). */
  cgroupFailed(): boolean;
  /** Lets bwrap's first process go on (once; nothing without a cgroup). */
  release(): void;
}

/**
 * Reads bwrap's status: with a pids cgroup, bwrap's first process waits on BLOCK_FD until it is in the cgroup (so
 * all it forks is counted); it is let go once moved (or at once when bwrap reports no child: its own error then
 * shows), and the sandbox is killed when it cannot be moved.
 */
function followStatus(child: ChildProcess, cgroup: PidsCgroup | null): SandboxStatus {
  const block = cgroup ? ((child.stdio as unknown[])[BLOCK_FD] as NodeJS.WritableStream | null | undefined) : null;
  let released = false;
  const release = () => {
    if (released || !block) return;
    released = true;
    block.on?.("error", () => {});
    block.end("go");
  };
  let status = "";
  let cgroupFailed = false;
  const statusStream = child.stdio[STATUS_FD] as Readable | null | undefined;
  statusStream?.on("data", (chunk: Buffer) => {
    if (status.length < 4096) status += chunk.toString("utf8");
    const pid = /"child-pid"\s*:\s*(\d+)/.exec(status)?.[1];
    if (cgroup && pid && !released) {
      if (!cgroup.enter(Number(pid))) {
        // Not let go uncounted: the sandbox ends here, reported as the sandbox's failure.
        cgroupFailed = true;
        killGroup(child);
      }
      release();
    }
  });
  return { text: () => status, cgroupFailed: () => cgroupFailed, release };
}

/** Above the sandbox's writableBytes the process group is killed (and its stderr says why: `added`). */
function watchQuota(child: ChildProcess, watch: FolderWatch | null): { stop: () => void; added: () => number | null } {
  let overQuota: number | null = null;
  const stop = watch
    ? watchFolders(watch.dirs, watch.limit, (added) => {
        overQuota = added;
        killGroup(child);
      })
    : () => {};
  return { stop, added: () => overQuota };
}

/** How a process ended, as its close or error event says. */
interface Ending {
  code: number | null;
  signal: string | null;
  spawnError?: string;
  timedOut: boolean;
  durationMs: number;
}

/** The run's result, or the error of a sandbox that could not start the program or count its processes. */
function resultOf(
  argv: readonly string[],
  options: RunOptions,
  sandboxed: boolean,
  end: Ending,
  output: Captured,
  status: SandboxStatus,
  cgroup: PidsCgroup | null,
): RunResult | Error {
  const stderr = output.stderr();
  if (status.cgroupFailed()) {
    return new Error(`the sandbox of ${argv[0]} could not be placed in its pids cgroup (${cgroup?.dir})`);
  }
  let exitCode = end.code;
  let signal = end.signal;
  if (sandboxed && !end.spawnError && !end.timedOut) {
    // bwrap reports the child's end as an exit status (128 + n for signal n); before the child ran
    // (no child-pid in its status), a failure is the sandbox's, not the program's.
    if (!/"child-pid"/.test(status.text())) {
      return new InputError(
        `the sandbox could not start ${argv[0]}: ${stderr.trim().split("\n").slice(-3).join(" | ") || `bwrap exited with ${end.code ?? end.signal}`}` +
          " (bubblewrap needs namespaces; see docs/security.md — or set sandbox: { enabled: false } in the campaign)",
      );
    }
    const named = signalOfStatus(end.code, constants.signals as unknown as Record<string, number>);
    if (named) {
      exitCode = null;
      signal = named;
    }
  }
  return {
    argv: [...argv],
    ...(options.cwd ? { cwd: options.cwd } : {}),
    exitCode,
    signal,
    timedOut: end.timedOut,
    durationMs: end.durationMs,
    timeLimitMs: options.timeoutMs,
    stdout: output.stdout(),
    stderr,
    ...(end.spawnError ? { spawnError: end.spawnError } : {}),
    sandboxed,
  };
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
