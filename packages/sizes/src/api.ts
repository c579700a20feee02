// API figures: native/printparams/ngcc_printparams.c compiled against the instance's api.h (with its
// defines and PQClean namespace) and run; the compiler evaluates the size macros, nothing parses text.
// Only the header is needed, so even Classic McEliece takes a fraction of a second.
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  BuildError,
  type BuildProfile,
  type CachedBuild,
  type Command,
  cachedBuild,
  commandOf,
  defineFlags,
  headersIn,
  InputError,
  type InstanceSpec,
  includeFlags,
  inputsHashOf,
  nativeDir,
  type RunResult,
  runProcess,
  type Toolchain,
  tail,
} from "@ngcc-perf/runner";

/** Bump when the way printparams is compiled or run changes, so cached builds are redone. */
export const PRINTPARAMS_RECIPE = 1;

export const KEM_FIELDS = ["publicKeyBytes", "secretKeyBytes", "ciphertextBytes", "sharedSecretBytes"] as const;
export const SIGN_FIELDS = ["publicKeyBytes", "secretKeyBytes", "signatureBytes"] as const;
export const KEX_FIELDS = [
  "passes",
  "msg1Bytes",
  "msg2Bytes",
  "publicKeyABytes",
  "secretKeyABytes",
  "publicKeyBBytes",
  "secretKeyBBytes",
  "stateABytes",
  "stateBBytes",
  "sharedSecretBytes",
  "bandwidthBytes",
] as const;

export type ApiSizes = Partial<Record<(typeof KEM_FIELDS | typeof SIGN_FIELDS | typeof KEX_FIELDS)[number], number>>;

export interface ApiFigures {
  category: "kem" | "sign" | "kex";
  /** CRYPTO_ALGNAME, or null when a plain api.h defines none. */
  algname: string | null;
  sizes: ApiSizes;
}

/** Why API figures could not be read: the record's failure reasons. */
export class ApiError extends Error {
  constructor(
    readonly reason: "compile-error" | "crash" | "timeout" | "error",
    message: string,
    readonly commands: Command[],
  ) {
    super(message);
  }
}

export function printparamsSource(): string {
  const src = join(nativeDir(), "printparams", "ngcc_printparams.c");
  if (!existsSync(src)) throw new InputError(`cannot find ${src}; set NGCC_PERF_NATIVE to ngcc-perf's native/ folder`);
  return src;
}

/** Preprocessor flags of a build profile (-D/-U), which may change what api.h defines. */
export function profileDefines(profile: BuildProfile | undefined): string[] {
  return (profile?.cflags ?? []).filter((f) => /^-[DU]/.test(f));
}

function compileArgs(spec: InstanceSpec, cc: string, extraDefines: readonly string[], output: string): string[] {
  const nd = nativeDir();
  return [
    cc,
    "-std=c99",
    "-O0",
    `-DNGCC_CATEGORY_${spec.category.toUpperCase()}`,
    ...(spec.namespace ? [`-DNGCC_NAMESPACE=${spec.namespace}`] : []),
    ...defineFlags(spec.defines),
    ...extraDefines,
    ...includeFlags(spec),
    "-I",
    join(nd, "include"),
    printparamsSource(),
    "-o",
    output,
  ];
}

/** Hash of everything that decides printparams' output for an instance. */
export function printparamsHash(spec: InstanceSpec, tc: Toolchain, extraDefines: readonly string[]): string {
  const nd = nativeDir();
  return inputsHashOf(
    {
      recipe: PRINTPARAMS_RECIPE,
      compiler: tc.version,
      category: spec.category,
      namespace: spec.namespace,
      defines: spec.defines,
      extraDefines,
      includes: [spec.apiDir, ...spec.includeDirs],
    },
    [printparamsSource(), ...headersIn([spec.apiDir, ...spec.includeDirs, join(nd, "include")])],
  );
}

function fieldsOf(category: ApiFigures["category"]): readonly string[] {
  return category === "kem" ? KEM_FIELDS : category === "sign" ? SIGN_FIELDS : KEX_FIELDS;
}

/** Checks printparams' JSON: every field of the category a whole number ≥ 0 (passes 1 or 2). */
export function parseApiOutput(stdout: string, category: ApiFigures["category"], what: string): ApiFigures {
  let value: { category?: unknown; algname?: unknown; sizes?: Record<string, unknown> };
  try {
    value = JSON.parse(stdout);
  } catch {
    throw new Error(`${what}: printparams printed no valid JSON`);
  }
  if (value.category !== category) throw new Error(`${what}: printparams reports category ${String(value.category)}`);
  const sizes: Record<string, number> = {};
  for (const f of fieldsOf(category)) {
    const v = value.sizes?.[f];
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) {
      throw new Error(`${what}: api.h gives ${f} = ${String(v)}; expected a size in bytes (a whole number ≥ 0)`);
    }
    sizes[f] = v;
  }
  if (category === "kex" && sizes.passes !== 1 && sizes.passes !== 2) {
    throw new Error(`${what}: CRYPTO_KEX_PASSES is ${sizes.passes}; expected 1 or 2`);
  }
  return { category, algname: typeof value.algname === "string" ? value.algname : null, sizes };
}

function runFailure(r: RunResult, what: string): ApiError | null {
  const cmd = [commandOf(r)];
  const detail = r.stderr.trim() ? `: ${tail(r.stderr.trim(), 500)}` : "";
  if (r.spawnError) return new ApiError("error", `${what}: cannot start printparams (${r.spawnError})`, cmd);
  if (r.timedOut) return new ApiError("timeout", `${what}: printparams exceeded ${r.timeLimitMs / 1000} s`, cmd);
  if (r.signal) return new ApiError("crash", `${what}: printparams killed by ${r.signal}${detail}`, cmd);
  if (r.exitCode !== 0) return new ApiError("error", `${what}: printparams exited with ${r.exitCode}${detail}`, cmd);
  return null;
}

export interface ApiRead {
  figures: ApiFigures;
  commands: Command[];
  cached: boolean;
  inputsHash: string;
}

/**
 * Compiles printparams against the instance's api.h into <root>/<instance>-printparams-<hash>/ (reused when
 * it exists) and runs it. Throws ApiError when api.h does not compile or the program fails.
 */
export async function readApiFigures(
  spec: InstanceSpec,
  tc: Toolchain,
  root: string,
  o: { buildTimeoutMs: number; runTimeoutMs: number; extraDefines?: readonly string[] },
): Promise<ApiRead> {
  const what = `${spec.algorithmId}/${spec.instance}`;
  const extra = o.extraDefines ?? [];
  const inputsHash = printparamsHash(spec, tc, extra);
  let build: CachedBuild<{ program: string }>;
  try {
    build = await cachedBuild(root, `${spec.instance}-printparams`, inputsHash, o.buildTimeoutMs, async (work, run) => {
      await run(
        compileArgs(spec, tc.cc, extra, join(work, "ngcc-printparams")),
        `reading the API sizes of ${what} (api.h)`,
      );
      return { program: "ngcc-printparams" };
    });
  } catch (err) {
    if (err instanceof BuildError) throw new ApiError("compile-error", err.message, err.commands);
    throw err;
  }
  const r = await runProcess([join(build.dir, build.result.program)], { timeoutMs: o.runTimeoutMs });
  const commands = [...build.commands, commandOf(r)];
  const failed = runFailure(r, what);
  if (failed) throw new ApiError(failed.reason, failed.message, commands);
  try {
    return { figures: parseApiOutput(r.stdout, spec.category, what), commands, cached: build.cached, inputsHash };
  } catch (err) {
    throw new ApiError("error", (err as Error).message, commands);
  }
}
