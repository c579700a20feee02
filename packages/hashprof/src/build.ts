// The profiling build of an instance, separate from the timing build: the same sources compiled with the
// same flags, without -fPIC, into objects, analysed (nm, objdump, constant fingerprints), then linked as the
// timing build links ngcc-driver — the driver's objects and the instance's in one executable, no shared
// object — with -Wl,--wrap for every configured symbol the linker can intercept, with wrappers generated from
// the real prototypes. Also a KAT generator (native/katgen) built twice from the KAT-variant objects, with and
// without the wrappers, so that the wrappers can be shown to change nothing.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import {
  type BuildProfile,
  type BuildRun,
  type Command,
  cachedBuild,
  compileSources,
  defineFlags,
  driverSources,
  harnessCompileFlags,
  harnessFlags,
  headersIn,
  type InstanceSpec,
  inputsHashOf,
  instanceFlags,
  linkLibraries,
  nativeDir,
  type RunContext,
  runProcess,
  signApiFlags,
  type Toolchain,
  targetTool,
} from "@ngcc-perf/runner";
import { ProfilingBuildError } from "./errors.ts";
import { type FingerprintHit, findFingerprints } from "./fingerprints.ts";
import {
  type GroupSpec,
  type Interception,
  interception,
  mentionsIdentifier,
  type ObjectFacts,
  parseNm,
  parseObjdumpEdges,
} from "./objects.ts";
import { type Prototype, parseAuxInfo, tableSource, type WrappedSymbol, wrapperSource } from "./wrappers.ts";

/** Bump when the way profiling builds are made changes. */
export const PROFILE_RECIPE = 2;

/** How the profiled driver is linked: as the timing build's ngcc-driver, the objects (no -fPIC) in the executable. */
export const PROFILE_LINKAGE = "static-objects";

export interface AnalysedObject extends ObjectFacts {
  /** instance: the submission's own code; support: ICCS / PQClean common / the KAT DRBG and generator. */
  role: "instance" | "support";
  fingerprints: FingerprintHit[];
  /** Strings that show where randomness comes from besides the DRNG (/dev/urandom, getrandom …). */
  entropySources: string[];
}

export interface Variant {
  defines: string[];
  objects: AnalysedObject[];
  interception: Interception;
}

export interface ProfileBuildResult {
  timing: Variant;
  /** The KAT-variant build (its defines may differ, e.g. -DKAT_BUILD); null when it could not be made. */
  kat: Variant | null;
  katError: string | null;
  groups: GroupSpec[];
}

export interface ProfileBuild extends ProfileBuildResult {
  dir: string;
  cached: boolean;
  inputsHash: string;
  commands: Command[];
  /** ngcc-prof-driver: the driver's objects, the instance's, and the wrappers in one executable. */
  driver: string;
  linkage: typeof PROFILE_LINKAGE;
  katgen: { plain: string; profiled: string } | null;
}

const ENTROPY_STRINGS = ["/dev/urandom", "/dev/random"];
const ENTROPY_CALLS = ["getrandom", "getentropy", "arc4random", "arc4random_buf", "RAND_bytes", "BCryptGenRandom"];

function tool(name: "nm" | "objdump", context: RunContext): string {
  return targetTool(name, context.target); // $NM / $OBJDUMP, else the campaign toolchain's (aarch64-linux-gnu-nm …)
}

async function toolOutput(argv: string[], cwd: string, context: RunContext): Promise<string> {
  const r = await runProcess(argv, { cwd, timeoutMs: 60_000, maxOutputBytes: 64 * 1024 * 1024, context });
  if (r.spawnError || r.exitCode !== 0) {
    throw new ProfilingBuildError(`${argv.join(" ")} failed: ${r.spawnError ?? r.stderr.trim()}`);
  }
  return r.stdout;
}

async function analyse(
  context: RunContext,
  work: string,
  rel: string,
  source: string,
  role: AnalysedObject["role"],
): Promise<AnalysedObject> {
  const path = join(work, rel);
  const nm = parseNm(await toolOutput([tool("nm", context), "-P", path], work, context));
  const edges = parseObjdumpEdges(
    await toolOutput([tool("objdump", context), "-dr", "--no-show-raw-insn", path], work, context),
  );
  const blob = readFileSync(path);
  const entropySources = [
    ...ENTROPY_STRINGS.filter((s) => blob.includes(Buffer.from(s))),
    ...ENTROPY_CALLS.filter((c) => nm.undefined.includes(c)).map((c) => `${c}()`),
  ];
  return { object: rel, source, role, ...nm, edges, fingerprints: findFingerprints(blob), entropySources };
}

/** The first instance source (not support) that names the symbol, for the "inlined" blind spot. */
function mentionFinder(sources: readonly string[]): (sym: string) => string | null {
  const texts = sources.map((s) => ({ s, text: existsSync(s) ? readFileSync(s, "utf8") : "" }));
  return (sym) => {
    const hit = texts.find((t) => mentionsIdentifier(t.text, sym));
    return hit ? basename(hit.s) : null;
  };
}

interface CompileContext {
  cc: string;
  /** The run's sandbox and toolchain (the binary tools analysed with are the toolchain's). */
  context: RunContext;
  flags: string[];
  run: BuildRun;
  work: string;
  what: string;
}

/** Compiles sources of one role into <subdir> without -fPIC (as the timing build does) and analyses them. */
async function compileAndAnalyse(
  ctx: CompileContext,
  sources: readonly string[],
  subdir: string,
  role: AnalysedObject["role"],
): Promise<AnalysedObject[]> {
  const rels = await compileSources(ctx.run, ctx.work, {
    cc: ctx.cc,
    sources,
    flags: ctx.flags,
    what: ctx.what,
    subdir,
    pic: false,
  });
  return Promise.all(rels.map((rel, i) => analyse(ctx.context, ctx.work, rel, sources[i] as string, role)));
}

/** Prototypes of the wrapped symbols, from gcc -aux-info over the sources that define them. */
async function prototypesOf(
  ctx: CompileContext,
  objects: readonly AnalysedObject[],
  wrap: readonly string[],
  subdir: string,
): Promise<Map<string, Prototype>> {
  const protos = new Map<string, Prototype>();
  const bySource = new Map<string, string[]>();
  for (const sym of wrap) {
    const o = objects.find((x) => x.defined.includes(sym));
    if (!o) continue;
    bySource.set(o.source, [...(bySource.get(o.source) ?? []), sym]);
  }
  let k = 0;
  mkdirSync(join(ctx.work, subdir), { recursive: true });
  for (const [src, syms] of bySource) {
    const aux = join(ctx.work, subdir, `${k}-${basename(src, ".c")}.aux`);
    const obj = join(ctx.work, subdir, `${k++}-${basename(src, ".c")}.o`);
    await ctx.run(
      [ctx.cc, "-std=c99", ...ctx.flags, "-aux-info", aux, "-c", src, "-o", obj],
      `reading the prototypes in ${basename(src)} (gcc -aux-info)`,
    );
    const parsed = parseAuxInfo(readFileSync(aux, "utf8"));
    for (const s of syms) {
      const p = parsed.get(s);
      if (!p) throw new ProfilingBuildError(`no prototype of ${s} is visible in ${src}: cannot generate its wrapper`);
      protos.set(s, p);
    }
  }
  return protos;
}

/** Generates and compiles the wrappers and the table for `wrap`; returns the objects to link. */
async function wrapperObjects(
  ctx: CompileContext,
  groups: readonly GroupSpec[],
  wrap: readonly string[],
  protos: Map<string, Prototype>,
  subdir: string,
): Promise<string[]> {
  const symbols: WrappedSymbol[] = [];
  for (const name of wrap) {
    const group = groups.findIndex((g) => g.symbols.includes(name));
    const prototype = protos.get(name);
    if (group < 0 || !prototype) continue;
    symbols.push({ name, group, index: symbols.length, prototype });
  }
  const files: string[] = [];
  const genDir = join(ctx.work, subdir);
  mkdirSync(genDir, { recursive: true });
  const byHeader = new Map<string, WrappedSymbol[]>();
  for (const s of symbols) byHeader.set(s.prototype.file, [...(byHeader.get(s.prototype.file) ?? []), s]);
  let i = 0;
  for (const [header, syms] of byHeader) {
    const f = join(genDir, `ngcc_prof_wrap_${i++}.c`);
    writeFileSync(f, wrapperSource(header, syms));
    files.push(f);
  }
  const table = join(genDir, "ngcc_prof_table.c");
  writeFileSync(
    table,
    tableSource(
      groups.map((g) => g.name),
      symbols,
    ),
  );
  files.push(table, join(nativeDir(), "hashprof", "ngcc_prof.c"));
  const objs = await compileSources(ctx.run, ctx.work, {
    cc: ctx.cc,
    sources: files,
    flags: [...ctx.flags, "-I", join(nativeDir(), "hashprof")],
    what: `${ctx.what} (wrappers)`,
    subdir: `${subdir}/obj`,
    pic: false,
  });
  return objs.map((o) => join(ctx.work, o));
}

const wrapFlags = (wrap: readonly string[]) => wrap.map((s) => `-Wl,--wrap=${s}`);

/** Every input of a profiling build, for its cache key and the records' inputsHash. */
export function profileInputsHash(
  spec: InstanceSpec,
  profile: BuildProfile,
  tc: Toolchain,
  groups: readonly GroupSpec[],
): string {
  const nd = nativeDir();
  const files = [
    ...spec.sources,
    ...spec.support,
    ...headersIn([
      spec.apiDir,
      ...spec.includeDirs,
      join(nd, "include"),
      join(nd, "driver"),
      join(nd, "common"),
      join(nd, "hashprof"),
    ]),
    ...driverSources(),
    join(nd, "hashprof", "ngcc_prof.c"),
    ...["katgen.c", "ngcc_rng.c", "ngcc_aes256.c", "rng.h", "ngcc_aes256.h"]
      .map((f) => join(nd, "katgen", f))
      .filter(existsSync),
  ];
  return inputsHashOf(
    {
      recipe: PROFILE_RECIPE,
      compiler: tc.version,
      cflags: profile.cflags,
      ldflags: profile.ldflags,
      defines: spec.defines,
      kat: spec.kat?.defines ?? null,
      ns: spec.namespace,
      instance: instanceFlags(spec),
      link: linkLibraries(spec),
      ...(signApiFlags(spec.signApi).length
        ? { signApi: [signApiFlags(spec.signApi), signApiFlags(spec.signApi, true)] }
        : {}),
      groups,
    },
    files,
  );
}

/** What every part of one profiling build shares. */
interface BuildContext {
  spec: InstanceSpec;
  profile: BuildProfile;
  cc: string;
  context: RunContext;
  groups: readonly GroupSpec[];
  run: BuildRun;
  work: string;
  what: string;
  includes: string[];
  mentions: (sym: string) => string | null;
}

const compileContext = (b: BuildContext, flags: string[], what = b.what): CompileContext => ({
  cc: b.cc,
  context: b.context,
  flags,
  run: b.run,
  work: b.work,
  what,
});

/**
 * Links objects (with their wrappers and --wrap flags) into the executable `output`, with the profile's flags
 * and ldflags as the timing build links ngcc-driver.
 */
async function link(b: BuildContext, output: string, inputs: readonly string[], what: string) {
  const p = b.profile;
  await b.run([b.cc, ...p.cflags, ...p.ldflags, "-o", join(b.work, output), ...inputs, ...linkLibraries(b.spec)], what);
}

/**
 * The driver's objects with -DNGCC_PROFILE, into obj-driver/: the timing build's driver flags (-O2 whatever the
 * profile, no -fPIC) and the wrapper runtime's header.
 */
async function profilingDriverObjects(b: BuildContext): Promise<string[]> {
  const nd = nativeDir();
  const { spec } = b;
  const includes = ["include", "driver", "hashprof"].flatMap((d) => ["-I", join(nd, d)]);
  const flags = harnessCompileFlags(spec, ["-O2"], ["-DNGCC_PROFILE", ...includes]);
  const rels = await compileSources(b.run, b.work, {
    cc: b.cc,
    sources: driverSources(),
    flags,
    what: `the profiling driver for ${b.what}`,
    subdir: "obj-driver",
    pic: false,
  });
  return rels.map((r) => join(b.work, r));
}

/**
 * The timing variant: exactly the timing build's sources and flags, as objects, linked with the -DNGCC_PROFILE
 * driver's objects and the wrappers into one executable, ngcc-prof-driver (as the timing build's ngcc-driver).
 */
async function timingVariant(b: BuildContext): Promise<Variant> {
  const { spec } = b;
  const ctx = compileContext(b, [...b.profile.cflags, ...defineFlags(spec.defines), ...b.includes]);
  const objects = [
    ...(await compileAndAnalyse(ctx, spec.sources, "obj/instance", "instance")),
    ...(await compileAndAnalyse(ctx, spec.support, "obj/support", "support")),
  ];
  const int = interception(objects, b.groups, b.mentions);
  const protos = await prototypesOf(ctx, objects, int.wrap, "aux");
  const wrappers = await wrapperObjects(ctx, b.groups, int.wrap, protos, "wrap");
  const driver = await profilingDriverObjects(b);
  const inputs = [...driver, ...objects.map((o) => join(b.work, o.object)), ...wrappers, ...wrapFlags(int.wrap)];
  await link(b, "ngcc-prof-driver", inputs, `linking the profiling driver for ${b.what}`);
  return { defines: spec.defines, objects, interception: int };
}

/**
 * The objects of the KAT variant: the instance compiled with its KAT defines (the timing objects when they are
 * the same), the support code without whatever the KAT DRBG replaces, the DRBG and the generator.
 */
async function katObjects(b: BuildContext, timing: readonly AnalysedObject[], ctx: CompileContext, same: boolean) {
  const { spec } = b;
  const nd = nativeDir();
  const instance = same
    ? timing.filter((o) => o.role === "instance")
    : await compileAndAnalyse(ctx, spec.sources, "kat/instance", "instance");
  const rngSources = ["ngcc_rng.c", "ngcc_aes256.c"].map((f) => join(nd, "katgen", f));
  const rng = await compileAndAnalyse(ctx, rngSources, "kat/rng", "support");
  const rngDefined = new Set(rng.flatMap((o) => o.defined));
  // The KAT DRBG replaces whatever support object defines the same names (the DRNG stand-in,
  // PQClean's randombytes.c).
  const timingSupport = timing.filter((x) => x.role === "support");
  const supportSources = spec.support.filter((_s, i) => !timingSupport[i]?.defined.some((d) => rngDefined.has(d)));
  const support = same
    ? timingSupport.filter((o) => supportSources.includes(o.source))
    : await compileAndAnalyse(ctx, supportSources, "kat/support", "support");
  // The generator is ngcc-perf's code: the instance's header, not its -f options (harnessFlags).
  const genFlags = [
    ...b.profile.cflags,
    ...defineFlags(spec.kat?.defines ?? spec.defines),
    ...harnessFlags(spec),
    "-I",
    join(nd, "include"),
    "-I",
    join(nd, "katgen"),
    `-DNGCC_KAT_${spec.category.toUpperCase()}`,
    ...(spec.namespace ? [`-DNGCC_API_PREFIX=${spec.namespace}`] : []),
    ...(spec.namespace && spec.category === "sign" ? ["-DNGCC_SIGN_LEN_T=size_t"] : []),
    ...signApiFlags(spec.signApi, true),
  ];
  const gen = await compileAndAnalyse(
    { ...ctx, flags: genFlags },
    [join(nd, "katgen", "katgen.c")],
    "kat/gen",
    "support",
  );
  return [...instance, ...support, ...rng, ...gen];
}

/** The KAT variant's objects and what the linker can intercept in them. */
async function katVariant(b: BuildContext, timing: readonly AnalysedObject[]) {
  const { spec } = b;
  const nd = nativeDir();
  const defines = spec.kat?.defines ?? spec.defines;
  const same = JSON.stringify(defines) === JSON.stringify(spec.defines);
  const flags = [...b.profile.cflags, ...defineFlags(defines), ...b.includes, "-I", join(nd, "include")];
  const ctx = compileContext(b, [...flags, "-I", join(nd, "katgen")], `${b.what} (KAT build)`);
  const objects = await katObjects(b, timing, ctx, same);
  const variant: Variant = { defines, objects, interception: interception(objects, b.groups, b.mentions) };
  return { variant, ctx };
}

/** The KAT generator linked from the KAT variant twice, with and without the wrappers. */
async function linkKatGenerators(b: BuildContext, variant: Variant, ctx: CompileContext): Promise<void> {
  const wrap = variant.interception.wrap;
  const protos = await prototypesOf(ctx, variant.objects, wrap, "kat/aux");
  const wrappers = await wrapperObjects(ctx, b.groups, wrap, protos, "kat/wrap");
  const objs = variant.objects.map((o) => join(b.work, o.object));
  await link(b, "katgen-plain", objs, `linking the KAT generator of ${b.what}`);
  const profiled = [...objs, ...wrappers, ...wrapFlags(wrap)];
  await link(b, "katgen-profiled", profiled, `linking the profiled KAT generator of ${b.what}`);
}

/** Both variants; a KAT variant that cannot be made leaves the timing variant standing, with the reason. */
async function bothVariants(b: BuildContext): Promise<ProfileBuildResult & { katgen: boolean }> {
  const timing = await timingVariant(b);
  const groups = [...b.groups];
  const failed = (err: unknown) => (err as Error).message;
  const kat = await katVariant(b, timing.objects).catch(failed);
  if (typeof kat === "string") return { timing, kat: null, katError: kat, groups, katgen: false };
  const linkError = await linkKatGenerators(b, kat.variant, kat.ctx).then(() => null, failed);
  return { timing, kat: kat.variant, katError: linkError, groups, katgen: linkError === null };
}

/**
 * Builds (or reuses) the profiling build of an instance under <root>/<instance>-<profile>-<hash>.
 * Throws the runner's BuildError when compiling the instance fails, ProfilingBuildError when its placeholders
 * cannot be wrapped. A KAT variant that cannot be built is not an error of the build: `katError` says why.
 */
export async function buildProfiled(
  spec: InstanceSpec,
  profile: BuildProfile,
  tc: Toolchain,
  groups: GroupSpec[],
  root: string,
  timeoutMs: number,
): Promise<ProfileBuild> {
  const inputsHash = profileInputsHash(spec, profile, tc, groups);
  const built = await cachedBuild(
    tc.context,
    root,
    `${spec.instance}-${profile.name}`,
    inputsHash,
    timeoutMs,
    (work, run) =>
      bothVariants({
        spec,
        profile,
        cc: tc.cc,
        context: tc.context,
        groups,
        run,
        work,
        what: `${spec.algorithmId}/${spec.instance}`,
        includes: instanceFlags(spec),
        mentions: mentionFinder(spec.sources),
      }),
  );
  const r = built.result;
  return {
    ...r,
    dir: built.dir,
    cached: built.cached,
    inputsHash,
    commands: built.commands,
    driver: join(built.dir, "ngcc-prof-driver"),
    linkage: PROFILE_LINKAGE,
    katgen: r.katgen ? { plain: join(built.dir, "katgen-plain"), profiled: join(built.dir, "katgen-profiled") } : null,
  };
}
