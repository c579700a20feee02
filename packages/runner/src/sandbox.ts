// The sandbox every process that builds or runs submission code runs in (docs/security.md): bubblewrap with
// its own user (no capabilities, no further user namespaces), PID, network, IPC, UTS and cgroup namespaces; a
// root made of the system folders read-only (everything else — $HOME, /root, /tmp, /var, /run, /srv, /mnt … —
// absent); the files of /etc and /opt no one else may read masked, and the writable or revealing parts of /proc
// and /sys covered; only the job's own folders writable; a private /tmp; a clean environment; resource limits
// (prlimit). runProcess (proc.ts) wraps its children with `sandboxArgv`; the campaign sets the limits (its run
// context, run-context.ts, passed to every runProcess).
import {
  accessSync,
  constants,
  existsSync,
  lstatSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  statSync,
} from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, isAbsolute, join, resolve, sep } from "node:path";
import { InputError } from "./errors.ts";
import { nativeDir } from "./native.ts";

export interface SandboxLimits {
  /** RLIMIT_AS in bytes; null: none. */
  addressSpaceBytes: number | null;
  /** RLIMIT_CPU in seconds; undefined: twice the process's time limit; null: none. */
  cpuSeconds?: number | null;
  /** RLIMIT_FSIZE in bytes (the largest file a process may write); null: none. */
  fileSizeBytes: number | null;
  /** RLIMIT_NPROC (processes and threads of the sandbox's user); null: none. */
  processes: number | null;
  /** RLIMIT_NOFILE; null: none. */
  openFiles: number | null;
  /** Size of the private /tmp (and /dev/shm), in bytes. */
  tmpBytes: number;
  /** What one process may add to its writable folders, in bytes (folder-quota.ts); null: no check. */
  writableBytes?: number | null;
}

export interface SandboxSettings {
  /** False: processes run unconfined, as the campaign asked (`sandbox: { enabled: false }`). */
  enabled: boolean;
  limits: SandboxLimits;
  /** Folders the sandbox may read besides the system folders (the campaign's folders, sandbox.readable). */
  readable: string[];
  /**
   * Whether the folders of the paths on a command line become readable too (outside $HOME, /root, /var, /run …).
   * True only without a campaign (library use): a campaign names every folder its processes may read, so a
   * meta.json pointing elsewhere sees nothing there.
   */
  argvPaths?: boolean;
  /**
   * Files and folders masked inside every sandbox (an empty file, an empty read-only folder) even where a readable
   * folder holds them: the submissions' shipped KAT files, so no build or run of submission code can read the
   * expected answers (docs/security.md). Accumulates over campaigns, like `readable`.
   */
  hidden?: string[];
}

const GiB = 1024 ** 3;

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  addressSpaceBytes: 8 * GiB,
  fileSizeBytes: GiB,
  processes: 256,
  openFiles: 1024,
  tmpBytes: GiB,
  writableBytes: 4 * GiB,
};

/** Top-level folders visible (read-only) inside the sandbox; every other top-level entry is absent. */
export const SYSTEM_ROOTS = [
  "usr",
  "bin",
  "sbin",
  "lib",
  "lib32",
  "lib64",
  "libx32",
  "etc",
  "opt",
  "sys",
  "nix",
  "gnu",
];

/** Never made readable from a command line's paths: homes, system state, kernel interfaces. */
const PROTECTED = [
  "/root",
  "/home",
  "/var",
  "/run",
  "/boot",
  "/srv",
  "/mnt",
  "/media",
  "/lost+found",
  "/proc",
  "/dev",
  "/sys",
];

/** What the sandbox mounts itself (its own /proc, /dev, /tmp). */
const SANDBOX_MOUNTS = ["/proc", "/dev", "/dev/shm", "/tmp"];

/**
 * Parts of /proc a process that is uid 0 of the host (ngcc-perf run as root) could write or should not read even
 * without capabilities: sysctls (kernel.core_pattern!) and the like read-only, the rest hidden — the lists
 * container runtimes use. /sys is read-only as a whole; its firmware tables and debug files are hidden.
 */
export const PROC_READ_ONLY = ["/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus", "/proc/fs"];
export const HIDDEN_KERNEL_PATHS = [
  "/proc/asound",
  "/proc/acpi",
  "/proc/kcore",
  "/proc/keys",
  "/proc/key-users",
  "/proc/latency_stats",
  "/proc/timer_list",
  "/proc/timer_stats",
  "/proc/sched_debug",
  "/proc/scsi",
  "/proc/kallsyms",
  "/sys/firmware",
  "/sys/kernel/debug",
  "/sys/kernel/security",
  "/sys/kernel/tracing",
  "/sys/devices/virtual/powercap",
];

const DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/** The first executable `name` on the host's PATH, or null. */
export function findOnPath(name: string, path = process.env.PATH ?? DEFAULT_PATH): string | null {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, name);
    if (isExecutable(p)) return p;
  }
  return null;
}

function isExecutable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return !lstatSyncSafe(p)?.isDirectory();
  } catch {
    return false;
  }
}

/** The names in a folder; none when it cannot be read (gone, not a folder, no permission). */
export function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function lstatSyncSafe(p: string) {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}

interface Tools {
  bwrap: string;
  prlimit: string;
}

let tools: Tools | null = null;

/**
 * bwrap and prlimit; an InputError naming the packages when one is missing — running
 * unconfined needs the campaign's explicit `sandbox: { enabled: false }`.
 */
export function sandboxTools(): Tools {
  if (tools) return tools;
  const bwrap = findOnPath("bwrap");
  const prlimit = findOnPath("prlimit");
  if (!bwrap || !prlimit) {
    const missing = [
      ...(bwrap ? [] : ["bwrap (apt-get install bubblewrap)"]),
      ...(prlimit ? [] : ["prlimit (apt-get install util-linux)"]),
    ];
    throw new InputError(
      `the sandbox for submission code needs ${missing.join(" and ")}, which ${missing.length > 1 ? "are" : "is"} not installed; ` +
        "install it, or set sandbox: { enabled: false } in the campaign to run submission code unconfined (every record then says so)",
    );
  }
  // prlimit runs inside the sandbox: by its real path (a PATH entry of links, e.g. a folder in /tmp, is not there).
  tools = { bwrap, prlimit: realOrSelf(prlimit) };
  return tools;
}

/** Entries under /etc and /opt no one but their owner (or group) may read: masked inside the sandbox. */
let secretsFound: { files: string[]; dirs: string[] } | null = null;

export function secretPaths(tops: readonly string[] = ["/etc", "/opt"]): { files: string[]; dirs: string[] } {
  const standard = tops.length === 2 && tops[0] === "/etc" && tops[1] === "/opt";
  if (standard && secretsFound) return secretsFound;
  const found = { files: [] as string[], dirs: [] as string[] };
  let budget = 100_000;
  const walk = (dir: string, depth: number) => {
    for (const name of namesIn(dir)) {
      if (--budget < 0) return;
      const p = join(dir, name);
      const st = lstatSyncSafe(p);
      if (!st || st.isSymbolicLink()) continue;
      const secret = (st.mode & 0o004) === 0;
      if (st.isDirectory()) {
        if (secret) found.dirs.push(p);
        else if (depth < 12) walk(p, depth + 1);
      } else if (secret) {
        found.files.push(p);
      }
    }
  };
  for (const top of tops) walk(top, 0);
  if (standard) secretsFound = found;
  return found;
}

/** bwrap arguments that hide `paths` where they exist: an empty read-only folder, or /dev/null for a file. */
function hide(paths: readonly string[]): string[] {
  // A path inside a masked folder is gone already (and bwrap could not mount over it inside the read-only tmpfs).
  const dirs = paths.filter((p) => lstatSyncSafe(p)?.isDirectory());
  return paths.flatMap((p) => {
    if (dirs.some((d) => d !== p && within(p, d))) return [];
    const st = lstatSyncSafe(p);
    if (!st || st.isSymbolicLink()) return [];
    return st.isDirectory() ? ["--tmpfs", p, "--remount-ro", p] : ["--ro-bind", "/dev/null", p];
  });
}

function within(path: string, root: string): boolean {
  return path === root || path.startsWith(root === "/" ? "/" : `${root}${sep}`);
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** The system roots as bwrap arguments (symlinks such as /bin → usr/bin recreated), and the real folders bound. */
function systemMounts(): { args: string[]; dirs: string[] } {
  const args: string[] = [];
  const dirs: string[] = [];
  for (const name of SYSTEM_ROOTS) {
    const p = `/${name}`;
    const st = lstatSyncSafe(p);
    if (!st) continue;
    if (st.isSymbolicLink()) {
      args.push("--symlink", readlinkSync(p), p);
    } else if (st.isDirectory()) {
      args.push("--ro-bind", p, p);
      dirs.push(p);
    }
  }
  return { args, dirs };
}

/** The host's PATH entries that exist inside the sandbox (under the system folders), else a default. */
export function sandboxPath(hostPath = process.env.PATH ?? ""): string {
  const roots = SYSTEM_ROOTS.map((n) => `/${n}`);
  const kept = hostPath
    .split(delimiter)
    .filter((d) => isAbsolute(d) && roots.some((r) => within(realOrSelf(d), realOrSelf(r))));
  return kept.length > 0 ? [...new Set(kept)].join(delimiter) : DEFAULT_PATH;
}

/** Where `program` (argv[0]) is, as execvp would find it in the sandbox; null when it is not there. */
export function resolveProgram(program: string, cwd: string, path: string): string | null {
  if (program.includes("/")) {
    const p = resolve(cwd, program);
    return isExecutable(p) ? p : null;
  }
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, program);
    if (isExecutable(p)) return p;
  }
  return null;
}

/** The path an argument names (absolute, relative with a slash, or after -I/-L), resolved against `cwd`, if it exists. */
function pathInArgument(arg: string, cwd: string): string | null {
  const m = /^-[IL](.+)$/.exec(arg);
  const candidate = m?.[1] ?? arg;
  // A bare word (an operation name, a number, a file in the cwd) needs no mount of its own.
  if (candidate.startsWith("-") || !candidate.includes("/") || candidate.includes("\0")) return null;
  const p = resolve(cwd, candidate);
  return existsSync(p) ? p : null;
}

export interface SandboxRequest {
  argv: readonly string[];
  /** The working directory (absolute); bound read-only unless writable. */
  cwd: string;
  /** Whether the caller named `cwd` (else it is ngcc-perf's own, created empty inside the sandbox). */
  cwdGiven: boolean;
  writable: readonly string[];
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
  /** The fd bwrap writes its JSON status to. */
  statusFd: number;
  /** The program an emulator prefix runs (argv[0] is the emulator): readable like the program itself. */
  emulatedProgram?: string;
  /** Files and folders masked for this process, besides the settings' `hidden`. */
  hidden?: readonly string[];
  /** The fd bwrap reads the seccomp filter from (seccomp.ts); absent: no filter (a host without a table). */
  seccompFd?: number;
  /** An fd bwrap's first process waits on before it goes on (`--block-fd`): until it is in its cgroup (cgroup.ts). */
  blockFd?: number;
}

/** A folder bound into the sandbox: writable, or read-only. */
interface Mount {
  path: string;
  rw: boolean;
}

/** The system folders bound read-only, and whether a path is visible through them already. */
interface SystemView {
  args: string[];
  visible: (p: string) => boolean;
}

/** bwrap's command line for one process: the sandbox of the run's settings (RunContext) around `argv`. */
export function sandboxArgv(req: SandboxRequest, s: SandboxSettings, t: Tools = sandboxTools()): string[] {
  const system = systemView();
  // Folders to bind: the job's writable ones, and read-only what the process is given (its program, its path
  // arguments' folders, its cwd) and what the campaign's sources need.
  const writable = [...new Set(req.writable.map((w) => resolve(req.cwd, w)))];
  const kept = boundFolders(writable, readableFolders(req, s, t), system);
  const args: string[] = [
    ...namespaceArgs(),
    ...system.args,
    ...kernelAndTmpArgs(s.limits),
    ...openParents(kept, req.cwd, system).flatMap((d) => ["--perms", "0755", "--dir", d]),
    ...kept.flatMap((m) => [m.rw ? "--bind" : "--ro-bind", m.path, m.path]),
    // After the binds, so a mask covers what a bound folder holds; a masked path outside them is absent anyway.
    ...hide(maskedPaths(req, s, kept, writable)),
    "--chdir",
    req.cwd,
    "--remount-ro",
    "/",
    ...environmentArgs(req.env),
    "--json-status-fd",
    String(req.statusFd),
    ...(req.seccompFd === undefined ? [] : ["--seccomp", String(req.seccompFd)]),
    ...(req.blockFd === undefined ? [] : ["--block-fd", String(req.blockFd)]),
    "--",
  ];
  return [t.bwrap, ...args, t.prlimit, ...rlimitArgs(s.limits, req.timeoutMs), "--", ...req.argv];
}

/** The system folders' mounts, and a test for paths they show already (by their own or their real path). */
function systemView(): SystemView {
  const system = systemMounts();
  const systemReal = system.dirs.map(realOrSelf);
  return {
    args: system.args,
    visible: (p) => systemReal.some((d) => within(p, d)) || system.dirs.some((d) => within(p, d)),
  };
}

/**
 * The folders a process may read: the campaign's readable ones and native/, its cwd, its program (and the one an
 * emulator runs), prlimit, and — without a campaign — its command line's paths; never a protected one
 * ($HOME, /root, /var, /run …) outside the campaign's folders.
 */
function readableFolders(req: SandboxRequest, s: SandboxSettings, t: Tools): Set<string> {
  const wanted = new Set<string>();
  const add = (p: string) => addReadable(wanted, p);
  for (const r of s.readable) add(r);
  try {
    add(nativeDir());
  } catch {
    // an installation without native/ builds nothing
  }
  // A working folder or a command line's path in $HOME, /root, /var, /run … only inside the campaign's folders.
  const roots = s.readable.map(realOrSelf);
  const guarded = [...PROTECTED, homedir()].map(realOrSelf);
  const allowed = (p: string) => {
    const real = realOrSelf(p);
    return !guarded.some((g) => within(real, g)) || roots.some((r) => within(real, r));
  };
  if (req.cwdGiven && allowed(req.cwd)) add(req.cwd);
  // The program itself (the harness names it); the other paths of the command line only without a campaign.
  const [program, ...rest] = req.argv;
  if (program?.includes("/")) add(resolve(req.cwd, program));
  if (req.emulatedProgram?.includes("/")) add(resolve(req.cwd, req.emulatedProgram));
  add(t.prlimit);
  if (s.argvPaths) {
    for (const arg of rest) {
      const p = pathInArgument(arg, req.cwd);
      if (p && allowed(p)) add(p);
    }
  }
  return wanted;
}

/** Adds to `wanted` the folder a path names or holds (and its real path), if it exists and is not the sandbox's own. */
function addReadable(wanted: Set<string>, p: string): void {
  const abs = resolve(p);
  let st: ReturnType<typeof statSync> | null = null;
  try {
    st = statSync(abs);
  } catch {
    return;
  }
  // Folders and regular files only (their folder): never a device, socket or pipe.
  if (!st.isDirectory() && !st.isFile()) return;
  const dir = st.isDirectory() ? abs : dirname(abs);
  if (SANDBOX_MOUNTS.some((m) => within(dir, m) && m !== "/tmp")) return;
  wanted.add(dir);
  const real = realOrSelf(dir);
  if (real !== dir) wanted.add(real);
}

/** The binds, parents before children: every writable folder, and each readable one not visible already. */
function boundFolders(writable: readonly string[], wanted: ReadonlySet<string>, system: SystemView): Mount[] {
  const mounts: Mount[] = [];
  for (const w of writable) mounts.push({ path: w, rw: true });
  for (const r of wanted) {
    if (r === "/" || system.visible(r) || writable.some((w) => within(r, w))) continue;
    mounts.push({ path: r, rw: false });
  }
  // Parents before children; a read-only folder inside another read-only one is already visible.
  mounts.sort((a, b) => depthThenName(a.path, b.path));
  const kept: Mount[] = [];
  for (const m of mounts) {
    if (!m.rw && kept.some((k) => within(m.path, k.path))) continue;
    if (kept.some((k) => k.path === m.path)) continue;
    kept.push(m);
  }
  return kept;
}

/** Orders paths by depth, then by name: parents before their children. */
function depthThenName(a: string, b: string): number {
  return a.split(sep).length - b.split(sep).length || a.localeCompare(b);
}

/**
 * The folders made (open, 0755) before the binds: bwrap makes the missing parents of a mount point private (0700),
 * so the sandbox's user could not reach what is mounted below them. The cwd too when nothing shows it.
 */
function openParents(kept: readonly Mount[], cwd: string, system: SystemView): string[] {
  const parents = new Set<string>();
  for (const target of [...kept.map((m) => m.path), cwd]) {
    const parts = target.split(sep).filter(Boolean);
    for (let i = 1; i < parts.length; i++) {
      const p = `/${parts.slice(0, i).join("/")}`;
      if (SANDBOX_MOUNTS.includes(p) || system.visible(p) || kept.some((k) => within(p, k.path))) continue;
      parents.add(p);
    }
  }
  const cwdVisible = kept.some((m) => within(cwd, m.path)) || system.visible(cwd);
  if (!cwdVisible) parents.add(cwd);
  return [...parents].sort(depthThenName);
}

/** A user namespace of its own even as root: no capabilities anywhere, no new user namespaces inside. */
function namespaceArgs(): string[] {
  return [
    "--unshare-all",
    "--unshare-user",
    "--disable-userns",
    "--cap-drop",
    "ALL",
    "--die-with-parent",
    "--new-session",
    "--hostname",
    "ngcc-sandbox",
  ];
}

/** /etc's and /opt's secrets masked, /proc (sysctls read-only, revealing parts hidden), /dev, a private /tmp and /dev/shm. */
function kernelAndTmpArgs(limits: SandboxLimits): string[] {
  const secrets = secretPaths();
  return [
    ...secrets.files.flatMap((f) => ["--ro-bind", "/dev/null", f]),
    ...secrets.dirs.flatMap((d) => ["--tmpfs", d, "--remount-ro", d]),
    "--proc",
    "/proc",
    ...PROC_READ_ONLY.filter((p) => existsSync(p)).flatMap((p) => ["--ro-bind", p, p]),
    ...hide(HIDDEN_KERNEL_PATHS),
    "--dev",
    "/dev",
    ...["/tmp", "/dev/shm"].flatMap((d) => ["--perms", "1777", "--size", String(limits.tmpBytes), "--tmpfs", d]),
    "--remount-ro",
    "/dev",
  ];
}

/** The settings' and the request's masked paths (and their real paths) inside a read-only bind. */
function maskedPaths(
  req: SandboxRequest,
  s: SandboxSettings,
  kept: readonly Mount[],
  writable: readonly string[],
): string[] {
  const given = [...(s.hidden ?? []), ...(req.hidden ?? []).map((p) => resolve(req.cwd, p))];
  return [...new Set(given.flatMap((p) => [p, realOrSelf(p)]))].filter(
    (p) => kept.some((k) => within(p, k.path)) && !writable.some((w) => within(p, w)),
  );
}

/** A clean environment: the sandbox's PATH, LANG, HOME and TMPDIR, and the caller's variables. */
function environmentArgs(env: NodeJS.ProcessEnv | undefined): string[] {
  return [
    "--clearenv",
    "--setenv",
    "PATH",
    sandboxPath(),
    "--setenv",
    "LANG",
    "C.UTF-8",
    "--setenv",
    "HOME",
    "/nonexistent",
    "--setenv",
    "TMPDIR",
    "/tmp",
    ...Object.entries(env ?? {}).flatMap(([k, v]) => (v === undefined ? [] : ["--setenv", k, v])),
  ];
}

/** prlimit's arguments: the sandbox's resource limits, and no core files. */
function rlimitArgs(limits: SandboxLimits, timeoutMs: number): string[] {
  const cpu = limits.cpuSeconds === undefined ? Math.max(1, Math.ceil((2 * timeoutMs) / 1000)) : limits.cpuSeconds;
  const fsize = fileSizeLimit(limits);
  return [
    ...(limits.addressSpaceBytes === null ? [] : [`--as=${limits.addressSpaceBytes}`]),
    // SIGXCPU at the soft limit (a clear cause in the record), SIGKILL a second later.
    ...(cpu === null ? [] : [`--cpu=${cpu}:${cpu + 1}`]),
    // No one file larger than all the process may add to its folders (writableBytes is checked between polls).
    ...(fsize === null ? [] : [`--fsize=${fsize}`]),
    ...(limits.processes === null ? [] : [`--nproc=${limits.processes}`]),
    ...(limits.openFiles === null ? [] : [`--nofile=${limits.openFiles}`]),
    "--core=0",
  ];
}

/** RLIMIT_FSIZE: the file size limit, or writableBytes where that is lower (or the only one). */
export function fileSizeLimit(limits: SandboxLimits): number | null {
  const caps = [limits.fileSizeBytes, limits.writableBytes ?? null].filter((v): v is number => v !== null);
  return caps.length === 0 ? null : Math.min(...caps);
}

/** Signal number → name (SIGSEGV …), for bwrap's 128 + n exit status of a child killed by a signal. */
export function signalOfStatus(code: number | null, names: Record<string, number>): string | null {
  if (code === null || code <= 128 || code > 128 + 64) return null;
  const n = code - 128;
  return Object.entries(names).find(([, v]) => v === n)?.[0] ?? null;
}
