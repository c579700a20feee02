// The profiling build of an instance, separate from the timing build: the same sources compiled with the
// same flags into objects, analysed (nm, objdump, constant fingerprints), then linked with -Wl,--wrap for
// every configured symbol the linker can intercept, with wrappers generated from the real prototypes.
// Also a KAT generator (native/katgen) built twice from the KAT-variant objects, with and without the
// wrappers, so that the wrappers can be shown to change nothing.
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
  headersIn,
  type InstanceSpec,
  includeFlags,
  inputsHashOf,
  nativeDir,
  runProcess,
  type Toolchain,
} from "@ngcc-perf/runner";
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
export const PROFILE_RECIPE = 1;

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
  sharedObject: string;
  driver: string;
  katgen: { plain: string; profiled: string } | null;
}

const ENTROPY_STRINGS = ["/dev/urandom", "/dev/random"];
const ENTROPY_CALLS = ["getrandom", "getentropy", "arc4random", "arc4random_buf", "RAND_bytes", "BCryptGenRandom"];

function tool(name: "nm" | "objdump"): string {
  return process.env[name.toUpperCase()] ?? name;
}

async function toolOutput(argv: string[], cwd: string): Promise<string> {
  const r = await runProcess(argv, { cwd, timeoutMs: 60_000, maxOutputBytes: 64 * 1024 * 1024 });
  if (r.spawnError || r.exitCode !== 0) {
    throw new Error(`${argv.join(" ")} failed: ${r.spawnError ?? r.stderr.trim()}`);
  }
  return r.stdout;
}

async function analyse(
  work: string,
  rel: string,
  source: string,
  role: AnalysedObject["role"],
): Promise<AnalysedObject> {
  const path = join(work, rel);
  const nm = parseNm(await toolOutput([tool("nm"), "-P", path], work));
  const edges = parseObjdumpEdges(await toolOutput([tool("objdump"), "-dr", "--no-show-raw-insn", path], work));
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
  flags: string[];
  run: BuildRun;
  work: string;
  what: string;
}

/** Compiles and analyses sources of one role into <subdir>. */
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
  });
  return Promise.all(rels.map((rel, i) => analyse(ctx.work, rel, sources[i] as string, role)));
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
      [ctx.cc, "-std=c99", ...ctx.flags, "-fPIC", "-aux-info", aux, "-c", src, "-o", obj],
      `reading the prototypes in ${basename(src)} (gcc -aux-info)`,
    );
    const parsed = parseAuxInfo(readFileSync(aux, "utf8"));
    for (const s of syms) {
      const p = parsed.get(s);
      if (!p) throw new Error(`no prototype of ${s} is visible in ${src}: cannot generate its wrapper`);
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
    ...headersIn([spec.apiDir, ...spec.includeDirs, join(nd, "include"), join(nd, "driver"), join(nd, "hashprof")]),
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
      groups,
    },
    files,
  );
}

/**
 * Builds (or reuses) the profiling build of an instance under <root>/<instance>-<profile>-<hash>.
 * Throws the runner's BuildError when compiling the instance fails.
 */
export async function buildProfiled(
  spec: InstanceSpec,
  profile: BuildProfile,
  tc: Toolchain,
  groups: GroupSpec[],
  root: string,
  timeoutMs: number,
): Promise<ProfileBuild> {
  const what = `${spec.algorithmId}/${spec.instance}`;
  const inputsHash = profileInputsHash(spec, profile, tc, groups);
  const nd = nativeDir();
  const cc = tc.cc;
  const includes = includeFlags(spec);
  const mentions = mentionFinder(spec.sources);
  const built = await cachedBuild(
    root,
    `${spec.instance}-${profile.name}`,
    inputsHash,
    timeoutMs,
    async (work, run): Promise<ProfileBuildResult & { katgen: boolean }> => {
      // 1. The timing variant: exactly the timing build's sources and flags, as objects.
      const tDefines = defineFlags(spec.defines);
      const tctx: CompileContext = { cc, flags: [...profile.cflags, ...tDefines, ...includes], run, work, what };
      const tObjects = [
        ...(await compileAndAnalyse(tctx, spec.sources, "obj/instance", "instance")),
        ...(await compileAndAnalyse(tctx, spec.support, "obj/support", "support")),
      ];
      const tInt = interception(tObjects, groups, mentions);
      const tProtos = await prototypesOf(tctx, tObjects, tInt.wrap, "aux");
      const tWrappers = await wrapperObjects(tctx, groups, tInt.wrap, tProtos, "wrap");
      await run(
        [
          cc,
          "-shared",
          ...profile.cflags,
          ...profile.ldflags,
          "-Wl,-soname,libprofiled.so",
          "-o",
          join(work, "libprofiled.so"),
          ...tObjects.map((o) => join(work, o.object)),
          ...tWrappers,
          ...wrapFlags(tInt.wrap),
          "-lm",
        ],
        `linking the profiling build of ${what}`,
      );
      await run(
        [
          cc,
          "-std=c99",
          "-O2",
          "-D_GNU_SOURCE",
          "-DNGCC_PROFILE",
          `-DNGCC_CATEGORY_${spec.category.toUpperCase()}`,
          ...tDefines,
          ...(spec.namespace ? [`-DNGCC_NAMESPACE=${spec.namespace}`] : []),
          ...includes,
          "-I",
          join(nd, "include"),
          "-I",
          join(nd, "driver"),
          "-I",
          join(nd, "hashprof"),
          ...driverSources(),
          "-o",
          join(work, "ngcc-prof-driver"),
          join(work, "libprofiled.so"),
          "-Wl,-rpath,$ORIGIN",
          "-lm",
        ],
        `building the profiling driver for ${what}`,
      );
      const timing: Variant = { defines: spec.defines, objects: tObjects, interception: tInt };

      // 2. The KAT variant and the KAT generator, with and without wrappers.
      let kat: Variant | null = null;
      let katError: string | null = null;
      let katgen = false;
      try {
        const kDefinesRaw = spec.kat?.defines ?? spec.defines;
        const same = JSON.stringify(kDefinesRaw) === JSON.stringify(spec.defines);
        const kDefines = defineFlags(kDefinesRaw);
        const kctx: CompileContext = {
          cc,
          flags: [...profile.cflags, ...kDefines, ...includes, "-I", join(nd, "include"), "-I", join(nd, "katgen")],
          run,
          work,
          what: `${what} (KAT build)`,
        };
        const kInstance = same
          ? tObjects.filter((o) => o.role === "instance")
          : await compileAndAnalyse(kctx, spec.sources, "kat/instance", "instance");
        const rngSources = ["ngcc_rng.c", "ngcc_aes256.c"].map((f) => join(nd, "katgen", f));
        const rng = await compileAndAnalyse(kctx, rngSources, "kat/rng", "support");
        const rngDefined = new Set(rng.flatMap((o) => o.defined));
        // The KAT DRBG replaces whatever support object defines the same names (the DRNG stand-in,
        // PQClean's randombytes.c).
        const supportSources = spec.support.filter((_s, i) => {
          const o = tObjects.filter((x) => x.role === "support")[i];
          return !o?.defined.some((d) => rngDefined.has(d));
        });
        const kSupport = same
          ? tObjects.filter((o) => o.role === "support" && supportSources.includes(o.source))
          : await compileAndAnalyse(kctx, supportSources, "kat/support", "support");
        const cat = spec.category.toUpperCase();
        const gen = await compileAndAnalyse(
          {
            ...kctx,
            flags: [
              ...kctx.flags,
              `-DNGCC_KAT_${cat}`,
              ...(spec.namespace ? [`-DNGCC_API_PREFIX=${spec.namespace}`] : []),
              ...(spec.namespace && spec.category === "sign" ? ["-DNGCC_SIGN_LEN_T=size_t"] : []),
            ],
          },
          [join(nd, "katgen", "katgen.c")],
          "kat/gen",
          "support",
        );
        const kObjects = [...kInstance, ...kSupport, ...rng, ...gen];
        const kInt = interception(kObjects, groups, mentions);
        kat = { defines: kDefinesRaw, objects: kObjects, interception: kInt };
        const kProtos = await prototypesOf(kctx, kObjects, kInt.wrap, "kat/aux");
        const kWrappers = await wrapperObjects(kctx, groups, kInt.wrap, kProtos, "kat/wrap");
        const objs = kObjects.map((o) => join(work, o.object));
        await run(
          [cc, ...profile.cflags, ...profile.ldflags, "-o", join(work, "katgen-plain"), ...objs, "-lm"],
          `linking the KAT generator of ${what}`,
        );
        await run(
          [
            cc,
            ...profile.cflags,
            ...profile.ldflags,
            "-o",
            join(work, "katgen-profiled"),
            ...objs,
            ...kWrappers,
            ...wrapFlags(kInt.wrap),
            "-lm",
          ],
          `linking the profiled KAT generator of ${what}`,
        );
        katgen = true;
      } catch (err) {
        katError = (err as Error).message;
      }
      return { timing, kat, katError, groups, katgen };
    },
  );
  const r = built.result;
  return {
    ...r,
    dir: built.dir,
    cached: built.cached,
    inputsHash,
    commands: built.commands,
    sharedObject: join(built.dir, "libprofiled.so"),
    driver: join(built.dir, "ngcc-prof-driver"),
    katgen: r.katgen ? { plain: join(built.dir, "katgen-plain"), profiled: join(built.dir, "katgen-profiled") } : null,
  };
}
