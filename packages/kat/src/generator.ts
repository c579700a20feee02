// Building and running the KAT generator (native/katgen) for one instance: the instance's sources with its
// KAT defines, its support code without the system randomness (ICCS drng.c, PQClean randombytes.c), and the
// KAT randomness (ngcc_rng.c: NIST's AES-256 CTR_DRBG or HQC's SHAKE256 RNG) linked in their place.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import {
  type BuildProfile,
  type CachedBuild,
  type Command,
  cachedBuild,
  commandOf,
  compileSources,
  defineFlags,
  harnessFlags,
  headersIn,
  type InstanceSpec,
  inputsHashOf,
  instanceFlags,
  linkLibraries,
  nativeDir,
  type RunContext,
  type RunResult,
  runProcess,
  sha256,
  signApiFlags,
  type Toolchain,
} from "@ngcc-perf/runner";
import { readSubmissionBytes } from "@ngcc-perf/schema";
import { deriveForm, parseRsp } from "./rsp.ts";
import { MAX_SHIPPED_BYTES } from "./shipped.ts";

/** Bump when the way KAT generators are built changes, so cached builds are redone. */
export const KAT_RECIPE = 2;

/**
 * Support files that provide system randomness (the ICCS stand-in's drng.c, PQClean's randombytes.c, ngcc-perf's
 * plain randombytes for a submission without ICCS); the KAT build links the KAT generator's instead.
 */
export const RANDOMNESS_SOURCES = new Set(["drng.c", "randombytes.c", "ngcc_randombytes.c"]);

export type KatRng = "nist" | "hqc";

export function katgenDir(): string {
  return join(nativeDir(), "katgen");
}

/** The generator's own C files (besides the instance): the randomness and the main program. */
export function katgenSources(): string[] {
  const d = katgenDir();
  return [join(d, "ngcc_aes256.c"), join(d, "ngcc_rng.c"), join(d, "katgen.c")];
}

export interface KatBuildPlan {
  sources: string[];
  flags: string[];
  defines: string[];
  includes: string[];
  katgenIncludes: string[];
  katgenFlags: string[];
  inputsHash: string;
}

/** What a KAT build of `spec` under `profile` compiles, and the hash of all of it (nothing is compiled). */
export function planKatBuild(spec: InstanceSpec, profile: BuildProfile, tc: Toolchain): KatBuildPlan {
  const support = spec.support.filter((f) => !RANDOMNESS_SOURCES.has(basename(f)));
  const sources = [...spec.sources, ...support];
  const defines = defineFlags(spec.kat?.defines ?? spec.defines);
  const nd = nativeDir();
  const includes = [...instanceFlags(spec), "-I", join(nd, "include"), "-I", katgenDir()];
  // The generator's own files: the instance's header, never its -f code-generation options (harnessFlags).
  const katgenIncludes = [...harnessFlags(spec), "-I", join(nd, "include"), "-I", katgenDir()];
  const katgenFlags = [
    `-DNGCC_KAT_${spec.category.toUpperCase()}`,
    ...(spec.namespace ? [`-DNGCC_API_PREFIX=${spec.namespace}`] : []),
    ...signApiFlags(spec.signApi, true),
  ];
  const flags = [...profile.cflags];
  const inputsHash = inputsHashOf(
    {
      recipe: KAT_RECIPE,
      compiler: tc.version,
      flags,
      ldflags: profile.ldflags,
      defines,
      katgenFlags,
      includes,
      link: linkLibraries(spec),
    },
    [
      ...sources,
      ...katgenSources(),
      ...headersIn([spec.apiDir, ...spec.includeDirs, katgenDir(), join(nd, "include")]),
    ],
  );
  return { sources, flags, defines, includes, katgenIncludes, katgenFlags, inputsHash };
}

export interface BuiltKatgen {
  exe: string;
  dir: string;
  cached: boolean;
  commands: Command[];
  plan: KatBuildPlan;
}

/**
 * Compiles the generator into <root>/kat-<instance>-<hash>/katgen (cached by every input); `root` is the build
 * profile's build folder (`buildPath(out, key)`). `plan` is the one planned before the step ran, if there is one.
 */
export async function buildKatgen(
  spec: InstanceSpec,
  profile: BuildProfile,
  tc: Toolchain,
  root: string,
  timeoutMs: number,
  plan: KatBuildPlan = planKatBuild(spec, profile, tc),
): Promise<BuiltKatgen> {
  const what = `${spec.algorithmId}/${spec.instance} (KAT build)`;
  const build: CachedBuild<{ objects: string[] }> = await cachedBuild(
    tc.context,
    root,
    `kat-${spec.instance}`,
    plan.inputsHash,
    timeoutMs,
    async (work, run) => {
      const objects = await compileSources(run, work, {
        cc: tc.cc,
        sources: plan.sources,
        flags: [...plan.flags, ...plan.defines, ...plan.includes],
        what,
      });
      const own = await compileSources(run, work, {
        cc: tc.cc,
        sources: katgenSources(),
        flags: [...plan.flags, ...plan.defines, ...plan.katgenFlags, ...plan.katgenIncludes],
        what: `${what}: the generator`,
        subdir: "gen",
      });
      await run(
        [
          tc.cc,
          ...plan.flags,
          ...profile.ldflags,
          "-o",
          join(work, "katgen"),
          ...[...objects, ...own].map((o) => join(work, o)),
          ...linkLibraries(spec),
        ],
        `linking ${what}`,
      );
      return { objects: [...objects, ...own] };
    },
  );
  return { exe: join(build.dir, "katgen"), dir: build.dir, cached: build.cached, commands: build.commands, plan };
}

export interface KatgenLengths {
  min: number;
  max: number;
  sum: number;
  count: number;
}

export interface KatgenInfo {
  category: string;
  algname: string;
  fileName: string;
  rng: KatRng;
  entries: number;
  lengths: Partial<Record<"publicKeyBytes" | "ciphertextBytes" | "signatureBytes", KatgenLengths>>;
  failed?: { operation: string; count: number };
}

export interface KatgenRun {
  result: RunResult;
  command: Command;
  info: KatgenInfo | null;
  /**
   * The forms compared: the .rsp as read from the generator's stdout while it ran (a pipe: nothing the instance
   * does after it wrote can change what was read), the single and all forms cut from it. Absent when the run failed.
   */
  outputs: { rsp?: Buffer; single?: Buffer; all?: Buffer };
  /**
   * Where the generator's outputs disagree (the single and all files and the info against the piped .rsp, the
   * entries it holds against those asked for): a tampered or inconsistent output, never compared. Empty when they
   * agree or the run failed.
   */
  inconsistencies: string[];
  /** generated.rsp: the piped .rsp, written by the harness after the run (for inspection); the other files katgen's. */
  paths: { rsp: string; single: string; all: string; info: string };
}

/** The generated .rsp is read from the generator's stdout up to this size (as the shipped files are read). */
export const MAX_GENERATED_BYTES = MAX_SHIPPED_BYTES;
/** What is kept of the generator's stderr (the instance's own printing goes there, katgen's messages too). */
const STDERR_BYTES = 64 * 1024;

type LengthKey = keyof KatgenInfo["lengths"];

/** The output lengths an .rsp shows (as katgen counts them: KEM pk and ct, signature pk and smlen − mlen, exchange pk_b). */
export function lengthsOfRsp(rsp: string): KatgenInfo["lengths"] {
  const stats: Partial<Record<LengthKey, KatgenLengths>> = {};
  const add = (k: LengthKey, v: number) => {
    const s = stats[k];
    if (!s) stats[k] = { min: v, max: v, sum: v, count: 1 };
    else Object.assign(s, { min: Math.min(s.min, v), max: Math.max(s.max, v), sum: s.sum + v, count: s.count + 1 });
  };
  for (const e of parseRsp(rsp).entries) {
    const f = new Map(e.fields.map((x) => [x.key, x.value]));
    const bytes = (k: string) => ((f.get(k) ?? "") === "00" ? 0 : (f.get(k) ?? "").length / 2);
    if (f.has("ct")) {
      add("publicKeyBytes", bytes("pk"));
      add("ciphertextBytes", bytes("ct"));
    } else if (f.has("sm")) {
      add("publicKeyBytes", bytes("pk"));
      add("signatureBytes", Number(f.get("smlen")) - Number(f.get("mlen")));
    } else if (f.has("pk_b")) add("publicKeyBytes", bytes("pk_b"));
  }
  return stats;
}

/** generated.info as katgen writes it, or null: the file lies where the instance's code can write, so every field is checked. */
export function parseInfo(text: string): KatgenInfo | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  const o = v as Record<string, unknown>;
  const isNat = (x: unknown): x is number => typeof x === "number" && Number.isSafeInteger(x) && x >= 0;
  const isText = (x: unknown): x is string => typeof x === "string" && x.length <= 200;
  if (typeof v !== "object" || v === null || !isNat(o.entries) || !isText(o.category) || !isText(o.algname))
    return null;
  if (!isText(o.fileName) || (o.rng !== "nist" && o.rng !== "hqc")) return null;
  const lengths: KatgenInfo["lengths"] = {};
  const given = (typeof o.lengths === "object" && o.lengths !== null ? o.lengths : {}) as Record<string, unknown>;
  for (const k of ["publicKeyBytes", "ciphertextBytes", "signatureBytes"] as const) {
    const l = given[k] as Record<string, unknown> | undefined;
    if (l === undefined) continue;
    if (typeof l !== "object" || l === null || ![l.min, l.max, l.sum, l.count].every(isNat)) return null;
    lengths[k] = { min: l.min as number, max: l.max as number, sum: l.sum as number, count: l.count as number };
  }
  const f = o.failed as Record<string, unknown> | undefined;
  const failed = f && typeof f === "object" && isText(f.operation) && typeof f.count === "number" ? f : undefined;
  return {
    category: o.category,
    algname: o.algname,
    fileName: o.fileName,
    rng: o.rng,
    entries: o.entries,
    lengths,
    ...(failed ? { failed: { operation: failed.operation as string, count: failed.count as number } } : {}),
  };
}

/**
 * The generator's other forms checked against the .rsp read from its stdout: the single and all files must be
 * that .rsp's entry 0 and entries 0..N−1 byte for byte, the info must count N entries, and the .rsp must hold
 * entries 0..N−1 for the N asked. Each disagreement in words (a file rewritten by the instance's code, an output
 * pushed past the generator, a flood of the generator's stdout).
 */
export function crossCheck(
  rsp: Buffer,
  entries: number,
  files: Partial<Record<"single" | "all", Buffer | { error: string }>>,
  info: KatgenInfo | null,
): string[] {
  const problems: string[] = [];
  if (rsp.length > MAX_GENERATED_BYTES) {
    return [`the generator's stdout holds more than ${MAX_GENERATED_BYTES} bytes, the most a generated .rsp may hold`];
  }
  const text = rsp.toString("latin1");
  const counts = parseRsp(text).entries.map((e) => e.count);
  if (counts.length !== entries || counts.some((c, i) => c !== i)) {
    const seen =
      counts.length === 0
        ? "no"
        : `${counts.length} (count ${counts.slice(0, 3).join(", ")}${counts.length > 3 ? ", …" : ""})`;
    problems.push(
      `the .rsp on the generator's stdout holds ${seen} entries where ${entries} (count 0..${entries - 1}) were generated`,
    );
  }
  if (!info) problems.push("the generator wrote no readable generated.info");
  else if (info.entries !== entries)
    problems.push(`generated.info counts ${info.entries} entries, ${entries} were asked for`);
  else {
    const seen = lengthsOfRsp(text);
    for (const k of ["publicKeyBytes", "ciphertextBytes", "signatureBytes"] as const) {
      if (JSON.stringify(info.lengths[k] ?? null) !== JSON.stringify(seen[k] ?? null)) {
        problems.push(
          `generated.info gives ${k} ${JSON.stringify(info.lengths[k] ?? null)}, the piped .rsp shows ${JSON.stringify(seen[k] ?? null)}`,
        );
      }
    }
  }
  for (const [form, name, n] of [
    ["single", "generated.single.txt", 1],
    ["all", "generated.all.txt", entries],
  ] as const) {
    const file = files[form];
    const expected = Buffer.from(deriveForm(text, form, n), "latin1");
    if (!file) problems.push(`${name} does not exist`);
    else if (!Buffer.isBuffer(file)) problems.push(`${name} ${file.error}`);
    else if (!file.equals(expected)) {
      problems.push(
        `${name} (SHA-256 ${sha256(file)}) is not the ${form} form of the piped .rsp (${sha256(expected)})`,
      );
    }
  }
  return problems;
}

/**
 * Runs a built generator for `entries` entries: the .rsp is read from its stdout as it is produced (the instance's
 * own printing goes to stderr, native/katgen), the single, all and info forms are written into `outDir` and
 * checked against it (crossCheck). `hidden`: files masked in its sandbox (the shipped KAT files).
 */
export async function runKatgen(
  exe: string,
  o: {
    entries: number;
    rng: KatRng;
    algname: string;
    outDir: string;
    timeoutMs: number;
    hidden?: string[];
    /** The campaign's sandbox and toolchain (the generator runs behind its emulator, if any). */
    context: RunContext;
  },
): Promise<KatgenRun> {
  rmSync(o.outDir, { recursive: true, force: true });
  mkdirSync(o.outDir, { recursive: true });
  const paths = {
    rsp: join(o.outDir, "generated.rsp"),
    single: join(o.outDir, "generated.single.txt"),
    all: join(o.outDir, "generated.all.txt"),
    info: join(o.outDir, "generated.info"),
  };
  const argv = [
    exe,
    "--count",
    String(o.entries),
    "--rng",
    o.rng,
    "--algname",
    o.algname,
    "--write-rsp",
    "-",
    "--write-single",
    paths.single,
    "--write-all",
    paths.all,
    "--write-info",
    paths.info,
  ];
  const result = await runProcess(argv, {
    context: o.context,
    timeoutMs: o.timeoutMs,
    cwd: o.outDir,
    maxOutputBytes: MAX_GENERATED_BYTES + 1,
    maxStderrBytes: STDERR_BYTES,
    target: true,
    ...(o.hidden?.length ? { hidden: o.hidden } : {}),
  });
  // The files the process left are read as what they are: capped, regular files only, no link followed.
  const read = (p: string): Buffer | { error: string } => {
    const r = readSubmissionBytes(o.outDir, p, MAX_GENERATED_BYTES);
    return r.error === undefined ? r.bytes : { error: r.error };
  };
  let info: KatgenInfo | null = null;
  try {
    const text = read(paths.info);
    if (Buffer.isBuffer(text)) info = parseInfo(text.toString("utf8"));
  } catch {
    info = null;
  }
  const ok = result.exitCode === 0 && !result.timedOut && !result.signal;
  const piped = ok ? Buffer.from(result.stdout, "utf8") : undefined;
  const files = ok ? { single: read(paths.single), all: read(paths.all) } : {};
  const inconsistencies = piped ? crossCheck(piped, o.entries, files, info) : [];
  let outputs: KatgenRun["outputs"] = {};
  if (piped && piped.length <= MAX_GENERATED_BYTES) {
    rmSync(paths.rsp, { recursive: true, force: true });
    writeFileSync(paths.rsp, piped);
    const text = piped.toString("latin1");
    const form = (f: "single" | "all") => Buffer.from(deriveForm(text, f, f === "single" ? 1 : o.entries), "latin1");
    outputs = { rsp: piped, single: form("single"), all: form("all") };
  }
  return { result, command: commandOf(result), info, outputs, inconsistencies, paths };
}
