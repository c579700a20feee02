// Building and running the KAT generator (native/katgen) for one instance: the instance's sources with its
// KAT defines, its support code without the system randomness (ICCS drng.c, PQClean randombytes.c), and the
// KAT randomness (ngcc_rng.c: NIST's AES-256 CTR_DRBG or HQC's SHAKE256 RNG) linked in their place.
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import {
  type BuildProfile,
  type CachedBuild,
  type Command,
  cachedBuild,
  commandOf,
  compileSources,
  defineFlags,
  headersIn,
  type InstanceSpec,
  inputsHashOf,
  instanceFlags,
  linkLibraries,
  nativeDir,
  type RunResult,
  runProcess,
  signApiFlags,
  type Toolchain,
} from "@ngcc-perf/runner";

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
  return { sources, flags, defines, includes, katgenFlags, inputsHash };
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
        flags: [...plan.flags, ...plan.defines, ...plan.katgenFlags, ...plan.includes],
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
  /** The three forms as written by the generator (absent when the run failed before writing them). */
  outputs: { rsp?: Buffer; single?: Buffer; all?: Buffer };
  paths: { rsp: string; single: string; all: string; info: string };
}

/** Runs a built generator for `entries` entries, writing every form into `outDir`. */
export async function runKatgen(
  exe: string,
  o: { entries: number; rng: KatRng; algname: string; outDir: string; timeoutMs: number },
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
    paths.rsp,
    "--write-single",
    paths.single,
    "--write-all",
    paths.all,
    "--write-info",
    paths.info,
  ];
  const result = await runProcess(argv, {
    timeoutMs: o.timeoutMs,
    cwd: o.outDir,
    maxOutputBytes: 64 * 1024,
    target: true,
  });
  const read = (p: string) => (existsSync(p) ? readFileSync(p) : undefined);
  let info: KatgenInfo | null = null;
  try {
    const text = read(paths.info);
    if (text) info = JSON.parse(text.toString("utf8")) as KatgenInfo;
  } catch {
    info = null;
  }
  const ok = result.exitCode === 0;
  const rsp = ok ? read(paths.rsp) : undefined;
  const single = ok ? read(paths.single) : undefined;
  const all = ok ? read(paths.all) : undefined;
  return {
    result,
    command: commandOf(result),
    info,
    outputs: { ...(rsp ? { rsp } : {}), ...(single ? { single } : {}), ...(all ? { all } : {}) },
    paths,
  };
}
