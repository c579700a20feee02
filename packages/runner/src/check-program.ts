// The programs of the constant-time step's checks, built for one instance: ngcc-ct (native/ct, run under memcheck)
// and ngcc-leak (native/leak, the fixed-vs-random timing test). Both link the instance's own sources (its
// randomness provider left out) with the KAT generator's seeded AES-256 CTR_DRBG, its entry points renamed so that
// the program's own randombytes wraps them, and the shared native helpers; cached by every input.
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { buildPath, type InstanceKey } from "@ngcc-perf/schema";
import {
  type BuildRun,
  buildInputsHash,
  cachedBuild,
  commonSources,
  compileSources,
  defineFlags,
  harnessCompileArgv,
  instanceFlags,
  linkLibraries,
  RANDOMNESS_SOURCE_NAMES,
  type Toolchain,
} from "./build.ts";
import type { Campaign } from "./campaign.ts";
import type { InstanceSpec } from "./instances.ts";
import { nativeDir } from "./native.ts";
import { sha256 } from "./store.ts";

/** One check program. */
export interface CheckProgram {
  /** The executable's name. */
  name: "ngcc-ct" | "ngcc-leak";
  /** Its build folder's name (unique per instance and variant). */
  folder: string;
  /** Its main source (native/…). */
  main: string;
  /** How the main source is compiled (-O2, with -g for memcheck's stacks). */
  mainOpt: string[];
  /** More harness sources compiled like the main one (the counter). */
  more: string[];
  /** Headers they include besides the shared ones (in the inputs hash). */
  headers: string[];
  /** The prefix of the DRBG's renamed entry points (<prefix>_bytes, <prefix>_pqclean). */
  drbgPrefix: string;
  /** Defines added to the instance's own flags (NGCC_CT_CHECKER for ngcc-ct). */
  instanceDefines: string[];
  /** What the build is, for messages. */
  what: string;
}

const katgen = () => join(nativeDir(), "katgen");
const rngSources = () => [join(katgen(), "ngcc_aes256.c"), join(katgen(), "ngcc_rng.c")];

/** The hash of every harness file a program is built from. */
export function checkProgramFilesHash(p: Pick<CheckProgram, "main" | "more" | "headers">): string {
  const nd = nativeDir();
  const files = [
    p.main,
    ...p.more,
    ...p.headers,
    ...rngSources(),
    ...commonSources(),
    join(nd, "common", "ngcc_common.h"),
    join(katgen(), "rng.h"),
    join(katgen(), "ngcc_aes256.h"),
  ];
  return sha256(files.map((f) => `${basename(f)}:${sha256(readFileSync(f, "utf8"))}`).join("\n"));
}

/** The seeded DRBG (its entry points renamed) and the shared native helpers, as objects in work/<name>.o. */
async function compileHelpers(
  run: BuildRun,
  work: string,
  cc: string,
  prefix: string,
  what: string,
): Promise<string[]> {
  const renames = [`-Drandombytes=${prefix}_bytes`, `-DPQCLEAN_randombytes=${prefix}_pqclean`];
  const objects: string[] = [];
  for (const src of [...rngSources(), ...commonSources()]) {
    const flags = rngSources().includes(src) ? [...renames, "-I", katgen()] : ["-D_GNU_SOURCE"];
    const o = join(work, `${basename(src, ".c")}.o`);
    await run([cc, "-std=c99", "-O2", ...flags, "-c", src, "-o", o], `compiling ${what}`);
    objects.push(o);
  }
  return objects;
}

/** Builds a check program for an instance with the instance's objects compiled with `flags`; returns its path. */
export async function buildCheckProgram(
  campaign: Campaign,
  spec: InstanceSpec,
  key: InstanceKey,
  flags: readonly string[],
  ldflags: readonly string[],
  tc: Toolchain,
  out: string,
  p: CheckProgram,
): Promise<{ program: string; cached: boolean }> {
  const cc = campaign.cc;
  const nd = nativeDir();
  const sources = [...spec.sources, ...spec.support].filter((s) => !RANDOMNESS_SOURCE_NAMES.has(basename(s)));
  const profileLike = { name: p.folder, cflags: [...flags, ...p.instanceDefines], ldflags: [...ldflags] };
  const inputsHash = buildInputsHash(spec, profileLike as never, tc, [p.name, checkProgramFilesHash(p)]);
  const b = await cachedBuild(
    campaign.context,
    buildPath(out, key),
    p.folder,
    inputsHash,
    campaign.timeouts.buildMs,
    async (work, run) => {
      const objects = await compileSources(run, work, {
        cc,
        sources,
        flags: [...flags, ...defineFlags(spec.defines), ...p.instanceDefines, ...instanceFlags(spec)],
        what: p.what,
        subdir: "obj",
        pic: false,
      });
      const includes = ["-I", join(nd, "include"), "-I", join(nd, "driver")];
      const harness: string[] = [];
      for (const src of [p.main, ...p.more]) {
        const o = join(work, `${basename(src, ".c")}.o`);
        await run(harnessCompileArgv(cc, spec, p.mainOpt, includes, src, o), `compiling ${p.what}`);
        harness.push(o);
      }
      const helpers = await compileHelpers(run, work, cc, p.drbgPrefix, p.what);
      await run(
        [
          cc,
          ...flags,
          ...ldflags,
          "-o",
          join(work, p.name),
          ...harness,
          ...helpers,
          ...objects.map((o) => join(work, o)),
          ...linkLibraries(spec),
        ],
        `linking ${p.what}`,
      );
      return { program: p.name };
    },
  );
  return { program: join(b.dir, b.result.program), cached: b.cached };
}
