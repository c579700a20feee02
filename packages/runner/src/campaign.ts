// Loading a campaign: parse, validate against the schema (errors with file:line:col and pointer), and
// resolve defaults and paths.
import { type Dirent, existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import {
  type CampaignConfig,
  checkName,
  formatFileProblem,
  MAX_CAMPAIGN_BYTES,
  readSubmissionText,
  readTextFile,
  validateText,
} from "@ngcc-perf/schema";
import type { BetweenRunGiven } from "./between-run.ts";
import { InputError } from "./errors.ts";
import { HOST_CONTEXT, type RunContext, runContextOf } from "./run-context.ts";
import { DEFAULT_SANDBOX_LIMITS, findOnPath, type SandboxSettings, sandboxTools } from "./sandbox.ts";
import { binutilsPrefixOf, type TargetToolchain } from "./target.ts";

export interface BuildProfile {
  name: string;
  cflags: string[];
  ldflags: string[];
  description?: string;
}

export type CounterKind = "rdtsc" | "perf-cycles" | "perf-instructions" | "cntvct" | "clock_gettime" | "fixed-clock";

export interface Campaign {
  file: string;
  dir: string;
  /** SHA-256 input of the configuration: its text. */
  text: string;
  config: CampaignConfig;
  name: string;
  system: string;
  systems: string[];
  profiles: Record<string, BuildProfile>;
  defaultProfile: string;
  cc: string;
  /** The whole toolchain (`compiler:`): flags, sysroot, emulator; part of the run context (run-context.ts). */
  target: TargetToolchain;
  counter: { kind: "auto" | CounterKind; fixedClockHz?: number };
  timing: {
    trials: number;
    minIterations: number;
    maxIterations: number;
    targetTrialNs: number;
    warmupNs: number;
    unstableThreshold: number;
    pinCpu: number | null;
    messageBytes: number;
    /** per-call (default) or trials (the seed pages' method). */
    method: "per-call" | "trials";
    /** Per-call method: target half-width of the 95 % interval, a fraction of the figure. */
    target: number;
    budgetNs: number;
    /** The budget of an operation whose mean is published (input-dependent time). */
    meanBudgetNs: number;
    /** Sampling time an operation may spend on contended workers beyond its budget (which counts the uncontended
     * workers' time only); null: as much as its budget. */
    contendedBudgetNs: number | null;
    workerNs: number;
    minWorkers: number;
    keyPairs: number;
    inputPool: number;
    /** Per-call method: probe the core clock after every sample and give estimated core cycles (default true). */
    clockProbe: boolean;
    /** Published statistic per operation name ("auto" when not named). */
    central: Record<string, "auto" | "median" | "mean">;
    /** The machine's between-run component (ngcc-perf calibrate), added to every per-call interval; absent: none
     * (the intervals are within-run). Set by `run --between-run FILE` (between-run.ts). */
    betweenRun?: BetweenRunGiven;
  };
  timeouts: { buildMs: number; operationMs: number; katMs: number };
  iccsDir: string | null;
  /** Containment of submission code (docs/security.md); part of the run context (run-context.ts). */
  sandbox: SandboxSettings;
  /** The sandbox and the toolchain every process of the campaign's run is started with (runProcess's context). */
  context: RunContext;
}

/**
 * The CPU a measuring process is pinned to by default: the last one this process may run on
 * (`Cpus_allowed_list` of /proc/self/status), or null where that cannot be read.
 */
export function lastAllowedCpu(status = "/proc/self/status"): number | null {
  let text: string;
  try {
    text = readFileSync(status, "utf8");
  } catch {
    return null;
  }
  const list = /^Cpus_allowed_list:\s*(\S+)/m.exec(text)?.[1];
  if (!list) return null;
  const last = list.split(",").pop()?.split("-").pop();
  const n = Number(last);
  return Number.isInteger(n) && n >= 0 ? n : null;
}

/**
 * The build profiles an algorithm of the campaign is measured under (its buildProfiles, else the default), as
 * objects: the one place a profile's name is looked up (loadCampaign has refused a name that is not defined).
 */
export function algorithmProfiles(campaign: Campaign, a: CampaignConfig["algorithms"][number]): BuildProfile[] {
  return (a.buildProfiles ?? [campaign.defaultProfile]).map((name) => {
    const p = campaign.profiles[name];
    if (!p)
      throw new InputError(`${campaign.file}: algorithm ${a.id} names build profile "${name}", which is not defined`);
    return p;
  });
}

/** The default build profile: what the seeds call "guide". */
export const DEFAULT_PROFILES: Record<string, BuildProfile> = {
  guide: { name: "guide", cflags: ["-O3", "-fomit-frame-pointer"], ldflags: [], description: "optimised, portable" },
};

export function loadCampaign(file: string): Campaign {
  const path = resolve(file);
  const { text, config } = readCampaignConfig(file, path);
  const dir = dirname(path);
  const profiles = profilesOf(config);
  const defaultProfile = config.defaultProfile ?? Object.keys(profiles)[0] ?? "guide";
  if (!profiles[defaultProfile]) {
    throw new InputError(
      `${file}: defaultProfile "${defaultProfile}" is not one of the buildProfiles (${Object.keys(profiles).join(", ")})`,
    );
  }
  checkNames(config, profiles, file);
  const counterKind = config.counter?.kind ?? "auto";
  if (counterKind === "fixed-clock" && !config.counter?.fixedClockHz) {
    throw new InputError(`${file}: counter.kind fixed-clock needs counter.fixedClockHz`);
  }
  const target = targetOf(config, dir, file);
  const campaign: Campaign = {
    file: path,
    dir,
    text,
    config,
    name: config.name,
    system: config.system,
    systems: config.systems ?? [config.system],
    profiles,
    defaultProfile,
    cc: target.cc,
    target,
    counter: {
      kind: counterKind,
      ...(config.counter?.fixedClockHz ? { fixedClockHz: config.counter.fixedClockHz } : {}),
    },
    timing: timingOf(config.timing ?? {}),
    timeouts: {
      buildMs: (config.timeouts?.buildSeconds ?? 300) * 1000,
      operationMs: (config.timeouts?.operationSeconds ?? 120) * 1000,
      katMs: (config.timeouts?.katSeconds ?? 600) * 1000,
    },
    iccsDir: config.iccs ? resolve(dir, config.iccs.dir) : null,
    sandbox: { enabled: true, limits: DEFAULT_SANDBOX_LIMITS, readable: [] },
    context: HOST_CONTEXT,
  };
  campaign.sandbox = sandboxOf(campaign, file);
  campaign.context = runContextOf(campaign);
  return campaign;
}

/** The campaign's text and configuration, read and validated as `validate` does (errors with file:line:col). */
function readCampaignConfig(file: string, path: string): { text: string; config: CampaignConfig } {
  // Read as validate reads it: a binary file, invalid UTF-8 or a file above the campaigns' limit is refused alike.
  const read = readTextFile(path, MAX_CAMPAIGN_BYTES, "campaigns");
  if (read.error !== undefined)
    throw new InputError(formatFileProblem(file, { message: `cannot read the campaign: ${read.error}` }));
  const text = read.text;
  const result = validateText(text, path, "campaign");
  if (!result.valid) {
    const lines = result.errors.map((e) => formatFileProblem(file, e));
    throw new InputError(`invalid campaign:\n${lines.join("\n")}`);
  }
  return { text, config: result.value as CampaignConfig };
}

/** The campaign's build profiles by name; DEFAULT_PROFILES when it defines none. */
function profilesOf(config: CampaignConfig): Record<string, BuildProfile> {
  const profiles: Record<string, BuildProfile> = {};
  for (const [name, p] of Object.entries(config.buildProfiles ?? {})) {
    profiles[name] = {
      name,
      cflags: p.cflags,
      ldflags: p.ldflags ?? [],
      ...(p.description ? { description: p.description } : {}),
    };
  }
  if (Object.keys(profiles).length === 0) Object.assign(profiles, DEFAULT_PROFILES);
  return profiles;
}

/**
 * Refuses a system, profile or algorithm id that is not a safe name, an algorithm id given twice (or differing
 * from another only in case), and an algorithm's build profile that is not defined.
 */
function checkNames(config: CampaignConfig, profiles: Record<string, BuildProfile>, file: string): void {
  checkName(config.system, `${file}: /system`);
  for (const p of Object.keys(profiles)) checkName(p, `${file}: /buildProfiles`);
  // One store folder per id: ids that differ only in case would share one on a case-insensitive file system.
  const ids = new Map<string, string>();
  for (const [i, a] of config.algorithms.entries()) {
    checkName(a.id, `${file}: /algorithms/${i}/id`);
    const seen = ids.get(a.id.toLowerCase());
    if (seen === a.id) throw new InputError(`${file}: /algorithms/${i}/id: algorithm id "${a.id}" appears twice`);
    if (seen !== undefined) {
      throw new InputError(
        `${file}: /algorithms/${i}/id: algorithm id "${a.id}" differs from "${seen}" only in case (both would be one store folder); expected ids unique regardless of case`,
      );
    }
    ids.set(a.id.toLowerCase(), a.id);
    for (const p of a.buildProfiles ?? []) {
      if (!profiles[p])
        throw new InputError(`${file}: algorithm ${a.id} names build profile "${p}", which is not defined`);
    }
  }
}

/** The campaign's timing settings over the defaults, in nanoseconds where it gives milliseconds. */
function timingOf(t: NonNullable<CampaignConfig["timing"]>): Campaign["timing"] {
  return {
    trials: t.trials ?? 5,
    minIterations: t.minIterations ?? 20,
    maxIterations: t.maxIterations ?? 1_000_000,
    targetTrialNs: (t.targetTrialMs ?? 100) * 1e6,
    warmupNs: (t.warmupMs ?? 50) * 1e6,
    unstableThreshold: t.unstableThreshold ?? 0.05,
    pinCpu: t.pinCpu === undefined || t.pinCpu === "auto" ? lastAllowedCpu() : t.pinCpu,
    messageBytes: t.messageBytes ?? 32,
    method: t.method ?? "per-call",
    target: t.target ?? 0.01,
    budgetNs: (t.budgetMs ?? 2000) * 1e6,
    meanBudgetNs: (t.meanBudgetMs ?? 4 * (t.budgetMs ?? 2000)) * 1e6,
    contendedBudgetNs: t.contendedBudgetMs === undefined ? null : t.contendedBudgetMs * 1e6,
    workerNs: (t.workerMs ?? 100) * 1e6,
    minWorkers: t.minWorkers ?? 4,
    keyPairs: t.keyPairs ?? 4,
    inputPool: t.inputPool ?? 64,
    clockProbe: t.clockProbe ?? true,
    central: t.central ?? {},
  };
}

/** The campaign's toolchain from `compiler:`; the emulator must be installed (else bad input, exit 2). */
function targetOf(config: CampaignConfig, dir: string, file: string): TargetToolchain {
  const c = config.compiler ?? {};
  const cc = c.cc ?? process.env.CC ?? "gcc";
  const emulator = c.emulator ?? [];
  const program = emulator[0];
  if (program !== undefined && !(program.includes("/") ? existsSync(resolve(dir, program)) : findOnPath(program))) {
    throw new InputError(
      `${file}: /compiler/emulator/0 "${program}" is not installed (for qemu-aarch64: apt-get install qemu-user)`,
    );
  }
  const sysroot = c.sysroot === undefined ? null : resolve(dir, c.sysroot);
  if (sysroot !== null && !existsSync(sysroot)) {
    throw new InputError(`${file}: /compiler/sysroot ${sysroot} does not exist`);
  }
  return {
    cc,
    cflags: c.cflags ?? [],
    ldflags: c.ldflags ?? [],
    sysroot,
    emulator: program?.includes("/") ? [resolve(dir, program), ...emulator.slice(1)] : emulator,
    arch: c.arch ?? null,
    // <triplet>-objcopy … only where the cross binutils are installed (musl-gcc has no musl-objcopy).
    binutilsPrefix: findOnPath(`${binutilsPrefixOf(cc)}objcopy`) ? binutilsPrefixOf(cc) : "",
  };
}

/**
 * The campaign's sandbox: its limits over the defaults, and the folders its processes read (its submissions,
 * PQClean and ICCS trees, toolchain, sandbox.readable — never the campaign's own folder as such). Refuses a campaign that needs bubblewrap where it
 * is not installed.
 */
function sandboxOf(campaign: Campaign, file: string): SandboxSettings {
  const s = campaign.config.sandbox ?? {};
  const enabled = s.enabled ?? true;
  const limits = { ...DEFAULT_SANDBOX_LIMITS };
  for (const key of ["addressSpaceBytes", "fileSizeBytes", "processes", "openFiles"] as const) {
    const v = s.limits?.[key];
    if (v !== undefined) limits[key] = v;
  }
  if (s.limits?.cpuSeconds !== undefined) limits.cpuSeconds = s.limits.cpuSeconds;
  if (s.limits?.tmpBytes !== undefined) limits.tmpBytes = s.limits.tmpBytes;
  if (s.limits?.writableBytes !== undefined) limits.writableBytes = s.limits.writableBytes;
  // Not the campaign's own folder: a campaign kept in $HOME would make all of $HOME readable (~/.ssh included).
  // Only the folders it names: its submissions, trees, toolchain and sandbox.readable.
  const readable = (s.readable ?? []).map((p) => resolve(campaign.dir, p));
  const hidden: string[] = [];
  // A cross toolchain's sysroot and emulator are read inside the sandbox (read-only, as every readable folder).
  if (campaign.target.sysroot) readable.push(campaign.target.sysroot);
  const emulatorProgram = campaign.target.emulator[0];
  const emulatorPath = emulatorProgram
    ? emulatorProgram.includes("/")
      ? emulatorProgram
      : findOnPath(emulatorProgram)
    : null;
  if (emulatorPath) readable.push(dirname(emulatorPath));
  if (campaign.iccsDir) readable.push(campaign.iccsDir);
  for (const a of campaign.config.algorithms) {
    if ("submission" in a.source) {
      readable.push(resolve(campaign.dir, a.source.submission));
      hidden.push(...shippedKatPaths(resolve(campaign.dir, a.source.submission)));
    } else {
      try {
        readable.push(pqcleanRoot(campaign, a.source.root));
      } catch {
        // reported when the algorithm is resolved
      }
    }
  }
  if (enabled) {
    try {
      sandboxTools();
    } catch (err) {
      throw new InputError(`${file}: ${(err as Error).message}`);
    }
  }
  return { enabled, limits, readable, hidden };
}

/** The PQClean tree: the campaign's root, else the pqclean npm package's deps/PQClean. */
export function pqcleanRoot(campaign: Campaign, root?: string): string {
  if (root) return resolve(campaign.dir, root);
  for (const base of [campaign.dir, process.cwd()]) {
    try {
      const req = createRequire(join(base, "noop.js"));
      const pkg = req.resolve("pqclean/package.json");
      return join(pkg, "..", "deps", "PQClean");
    } catch {
      // try the next base
    }
  }
  throw new InputError(
    "the pqclean npm package is not installed (needed for PQClean algorithms): npm install pqclean@0.8.1, or set source.root",
  );
}

/** Files of these kinds make a folder one that cannot be masked whole (a package keeps sources beside its KAT). */
const CODE_FILE = /\.(c|h|s|S|inc|cc|cpp|cxx|hpp|hh|asm|macros)$/;
/** Shipped KAT files by their name: NIST's .rsp and .req, a sha256sum manifest. */
const KAT_FILE = /(\.rsp|\.req|\.sha256)$/i;
/** meta.json and manifests above this size are not read here (readMeta refuses such a meta.json). */
const MAX_KAT_LIST_BYTES = 4 * 1024 * 1024;
/** Folder entries looked at per submission when deciding what to mask. */
const MAX_KAT_SCAN = 20_000;

/**
 * The shipped KAT files of a submission folder, masked in every sandboxed process (docs/security.md): every
 * instance's kat.file, the katManifest (KAT/kat.sha256 by default) and every file it lists, the .rsp and .req
 * files beside them — and a KAT folder (KAT/, or the folder of a kat.file or the manifest) whole when it holds no
 * code. Only paths whose real path stays inside the submission: a link out cannot mask another's files. What
 * cannot be read (no meta.json, bad JSON) masks what it can; resolving the algorithm reports the error.
 */
export function shippedKatPaths(dir: string): string[] {
  const sub = submissionFolder(dir);
  if (sub === null) return [];
  const meta = looseMeta(sub);
  const instances = (Array.isArray(meta.instances) ? meta.instances : []) as Array<Record<string, unknown>>;
  const files = new Set<string>();
  const add = (p: string | null) => p && files.add(p);
  const katFiles = instances.map((i) => sub.own((i?.kat as Record<string, unknown> | undefined)?.file));
  const manifests = [sub.own(meta.katManifest), sub.own("KAT/kat.sha256")];
  for (const m of manifests) {
    if (!m || !statSafe(m)?.isFile()) continue;
    add(m);
    for (const line of (sub.text(m) ?? "").split("\n")) {
      const listed = /^[0-9a-fA-F]{64} [ *](.+?)\r?$/.exec(line)?.[1];
      add(sub.own(listed, dirname(m)));
    }
  }
  for (const k of katFiles) add(k);
  const code = instanceCodePaths(dir, instances);
  const folders = new Set(
    [sub.own("KAT"), ...[...katFiles, ...manifests].map((f) => (f ? sub.own(dirname(f)) : null))].filter(
      (f): f is string => f !== null && f !== resolve(dir),
    ),
  );
  const masked: string[] = [];
  const scan = { entries: 0 };
  for (const f of folders) {
    if (!statSafe(f)?.isDirectory()) continue;
    const holdsCode = code.some((c) => c !== null && inside(c, f));
    if (!holdsCode && katOnlyFolder(f, scan)) masked.push(f);
    else {
      // Sources beside the KAT files: the KAT files themselves, not the folder.
      try {
        for (const e of readdirSync(f, { withFileTypes: true }))
          if (KAT_FILE.test(e.name)) add(sub.own(join(f, e.name)));
      } catch {
        // unreadable: nothing to mask
      }
    }
  }
  // A folder inside a masked one is gone already (and could not be mounted over inside a read-only one).
  const outer = masked.filter((f) => !masked.some((m) => m !== f && inside(f, m)));
  return [...outer, ...[...files].filter((p) => !outer.some((m) => inside(p, m)))];
}

/** A submission folder as shippedKatPaths reads it. */
interface SubmissionFolder {
  dir: string;
  /** The path below the submission (resolved lexically and really), or null. */
  own(p: unknown, base?: string): string | null;
  /** A file's text (read as submissions are, within MAX_KAT_LIST_BYTES), or null. */
  text(p: string): string | null;
}

/** A submission folder's own paths and texts; null when the folder is not there. */
function submissionFolder(dir: string): SubmissionFolder | null {
  const top = realOrNull(dir);
  if (top === null) return null;
  return {
    dir,
    own: (p, base = dir) => {
      if (typeof p !== "string" || p === "" || p.includes("\0")) return null;
      const abs = resolve(base, p);
      const r = realOrNull(abs);
      return inside(abs, resolve(dir)) && r !== null && inside(r, top) ? abs : null;
    },
    text: (p) => {
      const r = readSubmissionText(dir, p, MAX_KAT_LIST_BYTES);
      return r.error === undefined ? r.text : null;
    },
  };
}

/** A path's real path, or null when it does not resolve. */
function realOrNull(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

/** Whether `p` is `root` or below it (lexically). */
function inside(p: string, root: string): boolean {
  const back = relative(root, p);
  return back === "" || (!isAbsolute(back) && back !== ".." && !back.startsWith(`..${sep}`));
}

/** The submission's meta.json as an object; empty when it is missing, too large or not a JSON object. */
function looseMeta(sub: SubmissionFolder): Record<string, unknown> {
  try {
    const t = sub.text(join(sub.dir, "meta.json"));
    const v: unknown = t === null ? null : JSON.parse(t);
    if (v && typeof v === "object" && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // not JSON: readMeta says so when the algorithm is resolved
  }
  return {};
}

/** The code of every instance (its sources, include folders, API header, folder): no folder holding it is masked whole. */
function instanceCodePaths(dir: string, instances: ReadonlyArray<Record<string, unknown>>): (string | null)[] {
  return instances.flatMap((i) =>
    [
      ...(Array.isArray(i?.sources) ? i.sources : []),
      ...(Array.isArray(i?.includeDirs) ? i.includeDirs : []),
      i?.apiHeader,
      i?.folder,
      i?.randombytesSource,
    ].map((p) => (typeof p === "string" ? resolve(dir, p) : null)),
  );
}

/**
 * Whether a folder holds KAT files only (recursively): false when it holds code, cannot be read or holds more than
 * the submission's scan budget (MAX_KAT_SCAN entries, counted in `scan` over all its folders) lets it look at.
 */
function katOnlyFolder(folder: string, scan: { entries: number }): boolean {
  let entries: Dirent[];
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return false;
  }
  for (const e of entries) {
    if (++scan.entries > MAX_KAT_SCAN) return false;
    if (e.isDirectory()) {
      if (!katOnlyFolder(join(folder, e.name), scan)) return false;
    } else if (CODE_FILE.test(e.name)) return false;
  }
  return true;
}

function statSafe(p: string) {
  try {
    return statSync(p);
  } catch {
    return null;
  }
}
