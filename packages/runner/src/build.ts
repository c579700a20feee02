// Building an instance: its sources and its randomness/ICCS support compiled per build profile twice — without
// -fPIC into objects linked straight into the driver (the timed code, built as a submitter builds a speed test:
// no shared object, no PLT), and with -fPIC into libinstance.so (whose loadable segments are the static-memory
// figure). Builds are cached by a hash of every input (sources, headers, flags, compiler version).
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { BuildProfile } from "./campaign.ts";
import { InputError } from "./errors.ts";
import type { InstanceSpec } from "./instances.ts";
import { nativeDir } from "./native.ts";
import { commandOf, type RunResult, runProcess, tail } from "./proc.ts";
import type { RunContext } from "./run-context.ts";
import { signApiFlags, signApiMismatch } from "./signapi.ts";
import { writeJsonAtomic } from "./store.ts";
import { isPlainRandombytes } from "./submission-inputs.ts";
import { targetTool, toolchainIdentity } from "./target.ts";

export interface Toolchain {
  cc: string;
  /** The run's sandbox and toolchain: every process a build starts gets it. */
  context: RunContext;
  /** First line of `cc --version`. */
  version: string;
}

const versions = new Map<string, Promise<string>>();

/** The compiler of a run context's toolchain with its version (`cc --version`, asked once per toolchain). */
export async function toolchain(context: RunContext): Promise<Toolchain> {
  const { cc } = context.target;
  // The toolchain's own flags (sysroot, cflags, ldflags) are part of the compiler's identity: cache keys.
  const identity = toolchainIdentity(context.target);
  const key = `${cc}\0${identity}`;
  let version = versions.get(key);
  if (!version) {
    version = runProcess([cc, "--version"], { timeoutMs: 30_000, sandbox: false, context }).then((r) => {
      if (r.spawnError || r.exitCode !== 0) {
        throw new InputError(
          `compiler "${cc}" is not usable (${r.spawnError ?? `exit ${r.exitCode}`}); install it or set compiler.cc / $CC`,
        );
      }
      const first = r.stdout.split("\n")[0]?.trim() ?? cc;
      return identity ? `${first} ${identity}` : first;
    });
    versions.set(key, version);
  }
  return { cc, version: await version, context };
}

/** Bump when the way instances or the driver are compiled changes, so cached builds are redone. */
export const BUILD_RECIPE = 7;

/** The allocation functions whose calls the memory executable counts (see BuiltInstance.memoryDriver). */
export const HEAP_FUNCTIONS = ["malloc", "calloc", "realloc", "free", "posix_memalign", "aligned_alloc"] as const;

/**
 * Support files that stand for the system randomness (ngcc-perf's plain randombytes, PQClean's randombytes.c, the
 * ICCS DRNG stand-in): the memory executable links the KAT DRBG in their place, so that its inputs are the KAT's.
 */
export const RANDOMNESS_SOURCE_NAMES = new Set(["drng.c", "randombytes.c", "ngcc_randombytes.c"]);

/** The KAT DRBG's sources (native/katgen), linked into the memory executable in place of the randomness. */
export function katDrbgSources(): string[] {
  const katgen = join(nativeDir(), "katgen");
  return [join(katgen, "ngcc_aes256.c"), join(katgen, "ngcc_rng.c")];
}

/** The memory executable's name in a build folder. */
export const MEMORY_DRIVER = "ngcc-driver-memory";

/** Link-time optimisation asked for (the objects then hold IR that objcopy cannot rename). */
function lto(cflags: readonly string[], ldflags: readonly string[]): boolean {
  return [...cflags, ...ldflags].some((f) => f.startsWith("-flto"));
}

/** How the driver's timed code is linked: the instance's own objects, without -fPIC, in the executable. */
export const DRIVER_LINKAGE = "static-objects";

/**
 * The code layouts the driver is linked in: the instance's code starts this many bytes past a 64-byte boundary
 * (a padding object of `.p2align 6` and `.skip N` linked just before it). The time of the same code depends on
 * where the linker places it (loop and branch alignment): per-call workers rotate over these layouts, so the
 * published figure is not one layout's accident. The first is `ngcc-driver` itself.
 */
export const LAYOUT_PAD_BYTES = [0, 16, 32, 48] as const;

/** A driver executable of one code layout. */
export interface DriverLayout {
  padBytes: number;
  driver: string;
}

/** The assembly of a padding object: N bytes of code-section padding after a 64-byte alignment. */
export function layoutPadAssembly(padBytes: number): string {
  return [
    "\t.text",
    "\t.p2align 6",
    "\t.globl ngcc_layout_pad",
    "ngcc_layout_pad:",
    ...(padBytes > 0 ? [`\t.skip ${padBytes}, 0`] : []),
    '\t.section .note.GNU-stack,"",%progbits',
    "",
  ].join("\n");
}

export interface BuiltInstance {
  dir: string;
  /** libinstance.so, from `objects`: the static-memory figure (its PT_LOAD segments); not what is timed. */
  sharedObject: string;
  /** ngcc-driver: the driver's objects and `staticObjects` in one executable (what is timed); layout 0. */
  driver: string;
  /**
   * ngcc-driver-memory: the driver and copies of `staticObjects` whose malloc, calloc, realloc, free,
   * posix_memalign and aligned_alloc calls are renamed to the driver's counting wrappers (not under -flto); its
   * `memory` command gives the heap figures as well. Never timed.
   */
  memoryDriver: string;
  /** The driver in every code layout (LAYOUT_PAD_BYTES), `driver` first. */
  layouts: DriverLayout[];
  /** The -fPIC objects (obj-pic/) of the instance and its support code, in source order, that make libinstance.so. */
  objects: string[];
  /** The same sources compiled with the profile's flags as given, without -fPIC (obj/), linked into the driver. */
  staticObjects: string[];
  linkage: typeof DRIVER_LINKAGE;
  inputsHash: string;
  flags: string[];
  defines: string[];
  commands: ReturnType<typeof commandOf>[];
  cached: boolean;
  /** What the build left out and why (the submitter's randombytes.c), from the instance; said once per run. */
  notes: string[];
}

export class BuildError extends Error {
  constructor(
    message: string,
    readonly result: RunResult,
    readonly commands: ReturnType<typeof commandOf>[],
  ) {
    // A signature API mismatch (the header declares the other crypto_sign) is said first, with how to choose.
    const mismatch = signApiMismatch(result.stderr ?? "");
    super(mismatch ? `${mismatch}\n${message}` : message);
  }
}

function headerFiles(dirs: readonly string[]): string[] {
  const out: string[] = [];
  for (const d of dirs) {
    if (!existsSync(d)) continue;
    for (const f of readdirSync(d).sort()) if (f.endsWith(".h")) out.push(join(d, f));
  }
  return out;
}

/** The C sources of the native helpers every program shares (native/common). */
export function commonSources(): string[] {
  return cSources(join(nativeDir(), "common"));
}

/** The driver's C sources: native/driver and the shared helpers of native/common. */
export function driverSources(): string[] {
  return [...cSources(join(nativeDir(), "driver")), ...commonSources()];
}

function cSources(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".c"))
    .sort()
    .map((f) => join(dir, f));
}

/** Hash of everything that determines a build's output. */
export function buildInputsHash(
  spec: InstanceSpec,
  profile: BuildProfile,
  tc: Toolchain,
  extra: string[] = [],
): string {
  const h = createHash("sha256");
  const add = (s: string) => h.update(`${s.length}:${s}`);
  add(`recipe ${BUILD_RECIPE}`);
  add(tc.version);
  add(
    JSON.stringify({
      cflags: profile.cflags,
      ldflags: profile.ldflags,
      defines: spec.defines,
      ...(spec.cflags.length ? { instanceCflags: spec.cflags } : {}),
      ...(spec.libraries.length ? { libraries: spec.libraries } : {}),
      ...(spec.randombytesSymbol ? { randombytes: spec.randombytesSymbol } : {}),
      ns: spec.namespace,
      extra,
      ...(spec.apiHeader ? { apiHeader: spec.apiHeader } : {}),
      ...(signApiFlags(spec.signApi).length ? { signApi: signApiFlags(spec.signApi) } : {}),
    }),
  );
  const driverDir = join(nativeDir(), "driver");
  const includeDir = join(nativeDir(), "include");
  const files = [
    ...spec.sources,
    ...spec.support,
    ...(spec.apiHeader ? [spec.apiHeader] : []),
    ...headerFiles([spec.apiDir, ...spec.includeDirs]),
    ...driverSources(),
    ...headerFiles([driverDir, join(nativeDir(), "common"), includeDir, declassifyDir()]),
    ...katDrbgSources(),
    ...headerFiles([join(nativeDir(), "katgen")]),
  ];
  for (const f of [...new Set(files)].sort()) {
    add(f);
    h.update(readFileSync(f));
  }
  return h.digest("hex");
}

export type Command = ReturnType<typeof commandOf>;

/** Runs one build command in `cwd`; throws BuildError with the compiler's message when it fails. */
export type BuildRun = (argv: string[], what: string) => Promise<RunResult>;

export function buildRunner(context: RunContext, cwd: string, timeoutMs: number, commands: Command[]): BuildRun {
  return async (argv, what) => {
    const r = await runProcess(argv, { timeoutMs, cwd, writable: [cwd], context });
    commands.push(commandOf(r));
    if (r.spawnError) throw new InputError(`${what}: cannot run ${argv[0]}: ${r.spawnError}`);
    if (r.exitCode !== 0) {
      const why = r.timedOut
        ? `timed out after ${timeoutMs / 1000} s`
        : r.signal
          ? `killed by ${r.signal}`
          : `exit ${r.exitCode}`;
      throw new BuildError(buildFailureMessage(what, why, r.stderr), r, commands);
    }
    return r;
  };
}

/**
 * The first line of a compiler's or linker's output that says what went wrong, whole: `file:line:col: error: …`
 * (or `fatal error`), else a linker's `undefined reference` / `multiple definition` / `ld: …` line, else the first
 * line that says error; null when there is none (a timeout, a signal).
 */
export function firstCompilerError(stderr: string): string | null {
  const lines = stderr.split("\n").map((l) => l.trimEnd());
  const find = (re: RegExp) => lines.find((l) => re.test(l)) ?? null;
  return (
    find(/^.+?:\d+(?::\d+)?: (?:fatal )?error: /) ??
    find(/undefined reference to|multiple definition of|^\S*ld(?:\.\w+)?: /) ??
    find(/\berror\b/i)
  );
}

/**
 * A failed build step's message: its first line is what failed with the first compiler error line whole (what
 * the console and the page show first), then the tail of the compiler's output.
 */
export function buildFailureMessage(what: string, why: string, stderr: string): string {
  const first = firstCompilerError(stderr);
  const head = first ? `${what} failed: ${first}` : `${what} failed (${why})`;
  return `${head}\n${first ? `(${why}) ` : ""}compiler output:\n${tail(stderr, 4000)}`;
}

/**
 * Builds that failed in this process, by folder: a later step of the same run (time after build, profile after
 * time) gets the same BuildError at once instead of compiling the same inputs again. A changed input is another
 * folder, so it is built.
 */
const failedBuilds = new Map<string, BuildError>();

export interface CachedBuild<T> {
  dir: string;
  cached: boolean;
  commands: Command[];
  result: T;
}

/**
 * A build folder <root>/<name>-<hash16>: reused when it holds a finished build (its .build.json), else
 * made in a temporary folder by `steps` and renamed into place, so a killed build never looks finished.
 * `steps` gets the temporary folder and a runner; paths it returns must be relative to that folder.
 */
export async function cachedBuild<T>(
  context: RunContext,
  root: string,
  name: string,
  inputsHash: string,
  timeoutMs: number,
  steps: (work: string, run: BuildRun) => Promise<T>,
): Promise<CachedBuild<T>> {
  const dir = join(root, `${name}-${inputsHash.slice(0, 16)}`);
  const marker = join(dir, ".build.json");
  if (existsSync(marker)) {
    const done = JSON.parse(readFileSync(marker, "utf8")) as { commands: Command[]; result: T };
    return { dir, cached: true, commands: done.commands, result: done.result };
  }
  const failed = failedBuilds.get(dir);
  if (failed) throw failed;
  const work = `${dir}.tmp-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const commands: Command[] = [];
  let result: T;
  try {
    result = await steps(work, buildRunner(context, work, timeoutMs, commands));
  } catch (err) {
    rmSync(work, { recursive: true, force: true }); // a failed build leaves nothing behind
    if (err instanceof BuildError) failedBuilds.set(dir, err);
    throw err;
  }
  writeJsonAtomic(join(work, ".build.json"), { inputsHash, commands, result });
  rmSync(dir, { recursive: true, force: true });
  renameSync(work, dir);
  return { dir, cached: false, commands, result };
}

export function defineFlags(defines: readonly string[]): string[] {
  return defines.map((d) => (d.startsWith("-D") ? d : `-D${d}`));
}

/**
 * The flags of an instance's own code besides the build profile's and its defines: the package's cflags (meta.json:
 * -std=c11, -mavx2 …), the -I flags — its api.h folder first, then its include folders — and when its API header has
 * another name (meta.json's apiHeader: kem.h, sign.h …), -DNGCC_API_HEADER="<path>", which the native parts include
 * instead of "api.h" (the instance's own sources include the header by its own name). Every compile of the
 * instance's code and of the parts that include its API header (driver, KAT generator, printparams) takes them.
 */
export function instanceFlags(spec: InstanceSpec): string[] {
  return [...spec.cflags, ...headerFlags(spec)];
}

/**
 * What the harness's own code (driver, KAT generator, printparams, the valgrind programs) takes of an instance's
 * flags to include its API header: the include folders, the header's name, and of meta.json's cflags only the
 * language standard, target features and -pthread — never its -f code-generation options, which would change how
 * ngcc-perf's own code is compiled (-finstrument-functions calls the submission's hooks from every function of the
 * driver; -fplugin loads a compiler plugin of the submission's into the driver's compilation).
 */
export function harnessFlags(spec: InstanceSpec): string[] {
  return [...spec.cflags.filter((f) => !f.startsWith("-f")), ...headerFlags(spec)];
}

/**
 * The flags that compile one of ngcc-perf's harness sources (the driver's, the profiling driver's, the instruction
 * counter's, the constant-time test's) for an instance: `opt`, its category, defines, namespace, API style and
 * headers, then `more` (include folders, extra flags).
 */
export function harnessCompileFlags(spec: InstanceSpec, opt: readonly string[], more: readonly string[]): string[] {
  return [
    ...opt,
    "-D_GNU_SOURCE",
    `-DNGCC_CATEGORY_${spec.category.toUpperCase()}`,
    ...defineFlags(spec.defines),
    ...(spec.namespace ? [`-DNGCC_NAMESPACE=${spec.namespace}`] : []),
    ...signApiFlags(spec.signApi),
    ...harnessFlags(spec),
    ...more,
  ];
}

/** The command that compiles one harness source for an instance: C99, harnessCompileFlags, `-c src -o out`. */
export function harnessCompileArgv(
  cc: string,
  spec: InstanceSpec,
  opt: readonly string[],
  more: readonly string[],
  src: string,
  out: string,
): string[] {
  return [cc, "-std=c99", ...harnessCompileFlags(spec, opt, more), "-c", src, "-o", out];
}

/**
 * native/declassify: crypto_declassify.h, on every instance's include path after its own folders (a submission's
 * own header of that name wins). A no-op in every build but the constant-time step's (-DNGCC_CT_CHECKER).
 */
export const declassifyDir = (): string => join(nativeDir(), "declassify");

function headerFlags(spec: InstanceSpec): string[] {
  return [
    ...[spec.apiDir, ...spec.includeDirs, declassifyDir()].flatMap((d) => ["-I", d]),
    ...(spec.apiHeader ? [`-DNGCC_API_HEADER="${spec.apiHeader}"`] : []),
  ];
}

/**
 * What every link line of an instance ends with, after the objects (so --as-needed keeps them): the package's
 * libraries (-lcrypto …) and libm; for an executable, the submitter's renamed randombytes (meta.json's
 * api.randombytes) defined as ngcc-perf's randombytes. A shared object leaves randombytes undefined, as always.
 */
export function linkLibraries(spec: InstanceSpec, o: { shared?: boolean } = {}): string[] {
  const alias = spec.randombytesSymbol && !o.shared ? [`-Wl,--defsym,${spec.randombytesSymbol}=randombytes`] : [];
  return [...alias, ...spec.libraries.map((l) => `-l${l}`), "-lm"];
}

/** The file the native parts include as the instance's API header. */
export function apiHeaderPath(spec: InstanceSpec): string {
  return spec.apiHeader ?? join(spec.apiDir, "api.h");
}

/**
 * Compiles C sources one by one into <work>/<subdir>/<name>.o, in order; object names stay unique when two
 * sources share a base name. Position-independent (-fPIC) unless `pic` is false, when the flags are used as
 * given (the compiler's default: PIE on most Linux distributions). Returns the objects' paths relative to `work`.
 */
export async function compileSources(
  run: BuildRun,
  work: string,
  o: {
    cc: string;
    sources: readonly string[];
    flags: readonly string[];
    what: string;
    subdir?: string;
    pic?: boolean;
  },
): Promise<string[]> {
  const sub = o.subdir ?? "obj";
  mkdirSync(join(work, sub), { recursive: true });
  const seen = new Map<string, number>();
  const objects: string[] = [];
  for (const src of o.sources) {
    if (!existsSync(src)) throw new InputError(`${o.what}: source ${src} does not exist`);
    const base = basename(src, ".c");
    const k = (seen.get(base) ?? 0) + 1;
    seen.set(base, k);
    const rel = join(sub, `${base}${k > 1 ? `-${k}` : ""}.o`);
    await run(
      [o.cc, "-std=c99", ...o.flags, ...(o.pic === false ? [] : ["-fPIC"]), "-c", src, "-o", join(work, rel)],
      `compiling ${o.what} (${basename(src)})`,
    );
    objects.push(rel);
  }
  return objects;
}

/**
 * Compiles an instance into <root>/<instance>-<profile>-<hash>/: its sources and support code with the profile's
 * flags into obj/ (no -fPIC), linked with the driver's objects (obj-driver/) into ngcc-driver — the timed code
 * pays no shared-object cost — and again with -fPIC into obj-pic/ and libinstance.so, the static-memory figure.
 * Reuses the folder when it already holds a finished build. Throws BuildError (with the compiler's message)
 * when compilation fails.
 */
export async function buildInstance(
  spec: InstanceSpec,
  profile: BuildProfile,
  tc: Toolchain,
  root: string,
  timeoutMs: number,
): Promise<BuiltInstance> {
  const what = `${spec.algorithmId}/${spec.instance}`;
  checkInstanceInputs(spec, what);
  const inputsHash = buildInputsHash(spec, profile, tc);
  const flags = [...profile.cflags];
  const defines = defineFlags(spec.defines);
  const build = await cachedBuild(
    tc.context,
    root,
    `${spec.instance}-${profile.name}`,
    inputsHash,
    timeoutMs,
    (work, run) => instanceBuildSteps({ spec, profile, tc, what, flags, defines, work, run }),
  );
  return {
    dir: build.dir,
    sharedObject: join(build.dir, "libinstance.so"),
    driver: join(build.dir, "ngcc-driver"),
    memoryDriver: join(build.dir, MEMORY_DRIVER),
    layouts: LAYOUT_PAD_BYTES.map((padBytes) => ({ padBytes, driver: join(build.dir, layoutDriverName(padBytes)) })),
    objects: build.result.objects.map((o) => join(build.dir, o)),
    staticObjects: build.result.staticObjects.map((o) => join(build.dir, o)),
    linkage: DRIVER_LINKAGE,
    inputsHash,
    flags,
    defines,
    commands: build.commands,
    cached: build.cached,
    notes: spec.notes ?? [],
  };
}

/** Refuses an instance whose API header or one of whose sources does not exist. */
function checkInstanceInputs(spec: InstanceSpec, what: string): void {
  if (!existsSync(apiHeaderPath(spec))) {
    throw new InputError(
      spec.apiHeader
        ? `${what}: its API header ${spec.apiHeader} does not exist`
        : `${what}: no api.h in ${spec.apiDir}; name the API header file in meta.json's apiHeader (any name: api.h, kem.h, sign.h …)`,
    );
  }
  for (const s of [...spec.sources, ...spec.support]) {
    if (!existsSync(s)) throw new InputError(`${what}: source ${s} does not exist`);
  }
}

/** One instance build in its temporary folder: what every step of it needs. */
interface InstanceBuild {
  spec: InstanceSpec;
  profile: BuildProfile;
  tc: Toolchain;
  /** algorithm/instance, for the build's messages. */
  what: string;
  /** The profile's cflags. */
  flags: string[];
  defines: string[];
  work: string;
  run: BuildRun;
}

/** The objects a build records (relative to its folder), and its notes. */
interface InstanceBuildResult {
  objects: string[];
  staticObjects: string[];
  notes: string[];
}

/**
 * The build's steps in order: the instance's objects (without and with -fPIC), libinstance.so, the driver's
 * objects, the driver in every code layout, and the memory executable.
 */
async function instanceBuildSteps(b: InstanceBuild): Promise<InstanceBuildResult> {
  const { spec, tc, what, work, run } = b;
  const sources = [...spec.sources, ...spec.support];
  const flags = [...b.flags, ...b.defines, ...instanceFlags(spec)];
  const compile = { cc: tc.cc, sources, flags, what };
  const staticObjects = await compileSources(run, work, { ...compile, subdir: "obj", pic: false });
  const picObjects = await compileSources(run, work, { ...compile, what: `${what}, -fPIC`, subdir: "obj-pic" });
  const objects = sharedObjectObjects(sources, picObjects);
  await linkSharedObject(b, objects);
  const driverObjects = await compileDriverObjects(b);
  await linkLayoutDrivers(b, driverObjects, staticObjects);
  await buildMemoryDriver(b, sources, driverObjects, staticObjects);
  // The build's own record (.build.json) says what was left out, as the console does.
  return { objects, staticObjects, notes: spec.notes ?? [] };
}

/** Links libinstance.so from the -fPIC objects, with the profile's flags. */
async function linkSharedObject(b: InstanceBuild, objects: readonly string[]): Promise<void> {
  const { work } = b;
  await b.run(
    [
      b.tc.cc,
      "-shared",
      ...b.flags,
      ...b.profile.ldflags,
      "-Wl,-soname,libinstance.so",
      "-o",
      join(work, "libinstance.so"),
      ...objects.map((o) => join(work, o)),
      ...linkLibraries(b.spec, { shared: true }),
    ],
    `linking ${b.what}`,
  );
}

/** Compiles one of the driver's sources into <work>/<rel> for this instance (its category, API, namespace). */
function compileDriverSource(b: InstanceBuild, src: string, rel: string, extra: string[] = []): Promise<RunResult> {
  const { spec } = b;
  const nd = nativeDir();
  const more = ["-I", join(nd, "include"), "-I", join(nd, "driver"), ...extra];
  return b.run(
    harnessCompileArgv(b.tc.cc, spec, ["-O2"], more, src, join(b.work, rel)),
    `building the driver for ${b.what}`,
  );
}

/** The driver's own code into obj-driver/: -O2 whatever the profile, as before; its sources have distinct names. */
async function compileDriverObjects(b: InstanceBuild): Promise<string[]> {
  mkdirSync(join(b.work, "obj-driver"), { recursive: true });
  const driverObjects: string[] = [];
  for (const src of driverSources()) {
    const rel = join("obj-driver", `${basename(src, ".c")}.o`);
    await compileDriverSource(b, src, rel);
    driverObjects.push(rel);
  }
  return driverObjects;
}

/**
 * One executable per code layout: the driver's objects, the padding object, the instance's objects. The
 * profile's flags at the link too (-flto, -fsanitize=… need them there), as for libinstance.so.
 */
async function linkLayoutDrivers(
  b: InstanceBuild,
  driverObjects: readonly string[],
  staticObjects: readonly string[],
): Promise<void> {
  const { tc, work, run } = b;
  mkdirSync(join(work, "obj-layout"), { recursive: true });
  for (const pad of LAYOUT_PAD_BYTES) {
    const asm = join(work, "obj-layout", `pad-${pad}.s`);
    const padObject = join("obj-layout", `pad-${pad}.o`);
    writeFileSync(asm, layoutPadAssembly(pad));
    await run([tc.cc, "-c", asm, "-o", join(work, padObject)], `assembling the layout pad of ${pad} bytes`);
    await run(
      [
        tc.cc,
        ...b.flags,
        ...b.profile.ldflags,
        "-o",
        join(work, layoutDriverName(pad)),
        ...[...driverObjects, padObject, ...staticObjects].map((o) => join(work, o)),
        ...linkLibraries(b.spec),
      ],
      `linking the driver for ${b.what}${pad > 0 ? ` (code layout +${pad} bytes)` : ""}`,
    );
  }
}

/**
 * The memory executable (never timed): copies of the instance's objects whose allocation calls are renamed to
 * the driver's counting wrappers (ngcc_hw.c, compiled again to say so), linked as layout 0 is. Objects of -flto
 * hold the compiler's IR, which objcopy cannot rename: that build gets no heap figures. The system randomness
 * (RANDOMNESS_SOURCE_NAMES) is replaced by the KAT DRBG, so that the memory command's input i is KAT count i's
 * (ngcc_hw.c with -DNGCC_HW_KAT=1); an instance without such a source keeps its own randomness and gets one input.
 */
async function buildMemoryDriver(
  b: InstanceBuild,
  sources: readonly string[],
  driverObjects: readonly string[],
  staticObjects: readonly string[],
): Promise<void> {
  const { tc, work } = b;
  const nd = nativeDir();
  mkdirSync(join(work, "obj-memory"), { recursive: true });
  const interposed = !lto(b.flags, b.profile.ldflags);
  const isRandomness = (k: number) => RANDOMNESS_SOURCE_NAMES.has(basename(sources[k] ?? ""));
  const kat = staticObjects.some((_o, k) => isRandomness(k));
  const kept = staticObjects.filter((_o, k) => !(kat && isRandomness(k)));
  const memoryObjects = await interposedObjects(b, kept, interposed);
  const katObjects = kat ? await katDrbgObjects(b) : [];
  const hwObject = join("obj-memory", "ngcc_hw.o");
  await compileDriverSource(b, join(nd, "driver", "ngcc_hw.c"), hwObject, [
    `-DNGCC_HEAP_INTERPOSED=${interposed ? 1 : 0}`,
    ...(kat ? ["-DNGCC_HW_KAT=1", "-I", join(nd, "katgen")] : []),
  ]);
  const linked = [
    ...driverObjects.filter((o) => basename(o) !== "ngcc_hw.o"),
    hwObject,
    ...katObjects,
    ...memoryObjects,
  ];
  await b.run(
    [
      tc.cc,
      ...b.flags,
      ...b.profile.ldflags,
      "-o",
      join(work, MEMORY_DRIVER),
      ...linked.map((o) => join(work, o)),
      ...linkLibraries(b.spec),
    ],
    `linking the memory driver for ${b.what}`,
  );
}

/** Copies of objects into obj-memory/ (numbered in order), their allocation calls renamed when `interposed`. */
async function interposedObjects(b: InstanceBuild, objects: readonly string[], interposed: boolean): Promise<string[]> {
  const memoryObjects: string[] = [];
  for (const o of objects) {
    const rel = join("obj-memory", `${memoryObjects.length}-${basename(o)}`);
    await b.run(
      [
        targetTool("objcopy", b.tc.context.target),
        ...(interposed ? HEAP_FUNCTIONS.map((f) => `--redefine-sym=${f}=ngcc_heap_${f}`) : []),
        join(b.work, o),
        join(b.work, rel),
      ],
      `renaming the allocation calls of ${b.what}`,
    );
    memoryObjects.push(rel);
  }
  return memoryObjects;
}

/** The KAT DRBG compiled into obj-memory/, for the memory executable in place of the randomness. */
async function katDrbgObjects(b: InstanceBuild): Promise<string[]> {
  const katObjects: string[] = [];
  for (const src of katDrbgSources()) {
    const rel = join("obj-memory", `kat-${basename(src, ".c")}.o`);
    await b.run(
      [b.tc.cc, "-std=c99", "-O2", "-I", join(nativeDir(), "katgen"), "-c", src, "-o", join(b.work, rel)],
      `compiling the KAT DRBG for the memory driver of ${b.what}`,
    );
    katObjects.push(rel);
  }
  return katObjects;
}

/**
 * The objects libinstance.so is linked from: every -fPIC object but ngcc-perf's plain randombytes (harness code
 * like the driver, left undefined in the shared object), so a submission without ICCS counts its own code only.
 */
function sharedObjectObjects(sources: readonly string[], objects: readonly string[]): string[] {
  return objects.filter((_o, k) => !isPlainRandombytes(sources[k] ?? ""));
}

/** The driver executable of a code layout: ngcc-driver for the first, ngcc-driver-layout<N> for the others. */
export function layoutDriverName(padBytes: number): string {
  return padBytes === 0 ? "ngcc-driver" : `ngcc-driver-layout${padBytes}`;
}

/** Sum of the memory sizes of the PT_LOAD segments of an ELF file (64- and 32-bit, either byte order). */
export function elfLoadSize(path: string): number {
  const buf = readFileSync(path);
  if (buf.length < 52 || buf.readUInt32BE(0) !== 0x7f454c46) throw new Error(`${path}: not an ELF file`);
  const is64 = buf[4] === 2;
  const le = buf[5] === 1;
  const u16 = (o: number) => (le ? buf.readUInt16LE(o) : buf.readUInt16BE(o));
  const u32 = (o: number) => (le ? buf.readUInt32LE(o) : buf.readUInt32BE(o));
  const u64 = (o: number) => Number(le ? buf.readBigUInt64LE(o) : buf.readBigUInt64BE(o));
  const phoff = is64 ? u64(0x20) : u32(0x1c);
  const phentsize = u16(is64 ? 0x36 : 0x2a);
  const phnum = u16(is64 ? 0x38 : 0x2c);
  let total = 0;
  for (let i = 0; i < phnum; i++) {
    const off = phoff + i * phentsize;
    if (off + phentsize > buf.length) throw new Error(`${path}: truncated program headers`);
    if (u32(off) !== 1) continue; // PT_LOAD
    total += is64 ? u64(off + 0x28) : u32(off + 0x14); // p_memsz
  }
  return total;
}

export function fileSize(path: string): number {
  return statSync(path).size;
}

/** SHA-256 over a JSON-able description and the contents of files (sorted, each with its path). */
export function inputsHashOf(description: unknown, files: readonly string[]): string {
  const h = createHash("sha256");
  const add = (s: string) => h.update(`${s.length}:${s}`);
  add(JSON.stringify(description));
  for (const f of [...new Set(files)].sort()) {
    add(f);
    h.update(readFileSync(f));
  }
  return h.digest("hex");
}

/** Every .h file directly in the given folders (for input hashes). */
export function headersIn(dirs: readonly string[]): string[] {
  return headerFiles(dirs);
}

/**
 * A key exchange's CRYPTO_KEX_PASSES as its api.h defines it, evaluated by the compiler's preprocessor (an
 * expression is evaluated as C would, not parsed as text), so a plan knows every operation before any build.
 */
export async function kexPasses(spec: InstanceSpec, tc: Toolchain, timeoutMs: number): Promise<number> {
  const source = [
    `#include "${spec.apiHeader ?? "api.h"}"`,
    "#if !defined(CRYPTO_KEX_PASSES)",
    "ngcc_passes=none",
    "#elif CRYPTO_KEX_PASSES >= 2",
    "ngcc_passes=2",
    "#else",
    "ngcc_passes=1",
    "#endif",
    "",
  ].join("\n");
  const r = await runProcess([tc.cc, "-E", "-P", ...defineFlags(spec.defines), ...harnessFlags(spec), "-x", "c", "-"], {
    timeoutMs,
    input: source,
    cwd: spec.apiDir,
    writable: [],
    context: tc.context,
  });
  const m = /ngcc_passes=(\w+)/.exec(r.stdout);
  // A header the preprocessor rejects fails its build later, with the compiler's message; plan one pass.
  return r.exitCode === 0 && m?.[1] === "2" ? 2 : 1;
}
