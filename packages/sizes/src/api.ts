// API figures: native/printparams/ngcc_printparams.c compiled against the instance's api.h (with its
// defines and PQClean namespace) and run; the compiler evaluates the size macros, nothing parses text.
// Only the header is needed, so even Classic McEliece takes a fraction of a second.
import { existsSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import {
  BuildError,
  type BuildProfile,
  type CachedBuild,
  type Command,
  cachedBuild,
  commandOf,
  defineFlags,
  firstCompilerError,
  harnessFlags,
  headersIn,
  InputError,
  type InstanceSpec,
  inputsHashOf,
  nativeDir,
  type PathRoot,
  type RunResult,
  rootsOf,
  runProcess,
  shownPaths,
  type Toolchain,
  tail,
} from "@ngcc-perf/runner";

/** Bump when the way printparams is compiled or run changes, so cached builds are redone. */
export const PRINTPARAMS_RECIPE = 2;

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
export function profileDefines(profile: BuildProfile): string[] {
  return profile.cflags.filter((f) => /^-[DU]/.test(f));
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
    ...harnessFlags(spec),
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
      includes: harnessFlags(spec),
    },
    [printparamsSource(), ...headersIn([spec.apiDir, ...spec.includeDirs, join(nd, "include")])],
  );
}

/** How a path is shown in messages and records: relative to the working folder when inside it, else absolute. */
export function shownPath(p: string): string {
  const r = relative(process.cwd(), p);
  return r && !r.startsWith("..") && !isAbsolute(r) ? r.split(sep).join("/") : p;
}

function fieldsOf(category: ApiFigures["category"]): readonly string[] {
  return category === "kem" ? KEM_FIELDS : category === "sign" ? SIGN_FIELDS : KEX_FIELDS;
}

/**
 * The plausibility limit of every API size: 64 MiB. The largest sizes of real schemes are far below it (Classic
 * McEliece's public key, 1.3 MB; SPHINCS+ signatures, 50 KB); a larger figure is a broken or hostile api.h, and
 * callers size their buffers by it (docs/sizes.md, "Plausibility limits").
 */
export const MAX_API_BYTES = 64 * 1024 * 1024;

/** The api.h macro behind each field (KEM and signature names take the PQClean namespace when there is one). */
const MACRO_OF: Record<ApiFigures["category"], Record<string, string>> = {
  kem: {
    publicKeyBytes: "CRYPTO_PUBLICKEYBYTES",
    secretKeyBytes: "CRYPTO_SECRETKEYBYTES",
    ciphertextBytes: "CRYPTO_CIPHERTEXTBYTES",
    sharedSecretBytes: "CRYPTO_BYTES",
  },
  sign: {
    publicKeyBytes: "CRYPTO_PUBLICKEYBYTES",
    secretKeyBytes: "CRYPTO_SECRETKEYBYTES",
    signatureBytes: "CRYPTO_BYTES",
  },
  kex: {
    passes: "CRYPTO_KEX_PASSES",
    msg1Bytes: "CRYPTO_KEX_MSG1BYTES",
    msg2Bytes: "CRYPTO_KEX_MSG2BYTES",
    publicKeyABytes: "CRYPTO_KEX_PUBLICKEYBYTES_A",
    secretKeyABytes: "CRYPTO_KEX_SECRETKEYBYTES_A",
    publicKeyBBytes: "CRYPTO_KEX_PUBLICKEYBYTES_B",
    secretKeyBBytes: "CRYPTO_KEX_SECRETKEYBYTES_B",
    stateABytes: "CRYPTO_KEX_STATEBYTES_A",
    stateBBytes: "CRYPTO_KEX_STATEBYTES_B",
    sharedSecretBytes: "CRYPTO_KEX_BYTES",
    bandwidthBytes: "NGCC_KEX_BANDWIDTH_BYTES (ngcc_kex.h, from the message and public-key sizes)",
  },
};

/** Sizes that may be 0: a key exchange's party without a long-term key or session state, a one-pass exchange's msg2. */
const MAY_BE_ZERO = new Set([
  "msg2Bytes",
  "publicKeyABytes",
  "secretKeyABytes",
  "publicKeyBBytes",
  "secretKeyBBytes",
  "stateABytes",
  "stateBBytes",
]);

/** Where the API figures came from, for messages: the header's path and the PQClean namespace of its macros. */
export interface ApiSource {
  header: string;
  namespace?: string;
}

function macroName(category: ApiFigures["category"], field: string, namespace: string | undefined): string {
  const macro = MACRO_OF[category][field] ?? field;
  return category !== "kex" && namespace ? `${namespace}${macro}` : macro;
}

/** Why a value printparams printed is not a plausible size of `field`, or null when it is one. */
function implausible(v: unknown, field: string): string | null {
  const shown = typeof v === "number" ? String(v) : "not a finite number";
  if (typeof v !== "number" || !Number.isFinite(v)) return `is ${shown}`;
  if (!Number.isInteger(v)) return `is ${shown}, not a whole number`;
  if (v < 0) return `is ${shown}, negative`;
  if (v > MAX_API_BYTES) return `is ${shown}, over the plausibility limit`;
  if (v === 0 && !MAY_BE_ZERO.has(field) && field !== "passes") return "is 0";
  return null;
}

/**
 * Checks printparams' JSON: every field of the category a size in bytes from 1 to MAX_API_BYTES (0 where a key
 * exchange allows it), passes 1 or 2. The message names the header, the macro, its value and the limit.
 */
export function parseApiOutput(
  stdout: string,
  category: ApiFigures["category"],
  what: string,
  source?: ApiSource,
): ApiFigures {
  let value: { category?: unknown; algname?: unknown; sizes?: Record<string, unknown> };
  try {
    value = JSON.parse(stdout);
  } catch {
    throw new Error(`${what}: printparams printed no valid JSON`);
  }
  if (value.category !== category) throw new Error(`${what}: printparams reports category ${String(value.category)}`);
  const sizes: Record<string, number> = {};
  const header = source?.header ?? "api.h";
  for (const f of fieldsOf(category)) {
    const v = value.sizes?.[f];
    const why = implausible(v, f);
    if (why !== null) {
      const range = MAY_BE_ZERO.has(f) ? "from 0" : "from 1";
      throw new Error(
        `${what}: ${header}: ${macroName(category, f, source?.namespace)} ${why}; expected a size in bytes ${range} to ${MAX_API_BYTES} (64 MiB, the plausibility limit of API sizes)`,
      );
    }
    sizes[f] = v as number;
  }
  if (category === "kex" && sizes.passes !== 1 && sizes.passes !== 2) {
    throw new Error(`${what}: ${header}: CRYPTO_KEX_PASSES is ${sizes.passes}; expected 1 or 2`);
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

/** The instance's API header as messages name it: <algorithm-id>/<path in the submission> when inside it. */
function headerShown(spec: InstanceSpec): string {
  return shownPaths(spec.apiHeader ?? join(spec.apiDir, "api.h"), rootsOf(spec));
}

/**
 * Why printparams did not compile, first line first (what the console and the page show): the compiler's first
 * error line whole, said as what it means — the API header (or a header it includes) does not compile; it does
 * not define a size macro; or a size macro does not compile as an integer constant (the error is then in
 * printparams, where the macro is used). Paths from the submission, the store and ngcc-perf are shown from there.
 */
function compileFailure(spec: InstanceSpec, err: BuildError, roots: readonly PathRoot[]): ApiError {
  const what = `${spec.algorithmId}/${spec.instance}`;
  const stderr = err.result.stderr;
  const line = firstCompilerError(stderr);
  const header = headerShown(spec);
  const inPrintparams = !!line?.startsWith(`${printparamsSource()}:`);
  const macros = [...new Set(stderr.match(/\b[A-Z0-9_]*CRYPTO_[A-Z0-9_]+\b/g) ?? [])];
  const undeclared = line ? /['‘]([A-Za-z0-9_]*CRYPTO_[A-Z0-9_]+)['’] undeclared/.exec(line)?.[1] : undefined;
  const meaning = !line
    ? `${header}: printparams did not compile`
    : !inPrintparams
      ? `${header} does not compile`
      : undeclared
        ? `${header} does not define ${undeclared}`
        : macros.length > 1
          ? `${header}: the size macros (${macros.slice(0, 4).join(", ")}) do not compile as integer constants`
          : `${header}: the size macro ${macros[0] ?? "CRYPTO_*"} does not compile as an integer constant`;
  const first = `${what}: ${meaning}${line ? `: ${line}` : ""}`;
  return new ApiError("compile-error", shownPaths(`${first}\n${err.message}`, roots), err.commands);
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
  o: {
    buildTimeoutMs: number;
    runTimeoutMs: number;
    extraDefines?: readonly string[];
    /** The store's build folder, shown as <build> in messages, and the campaign's ICCS folder (<iccs>). */
    buildDir?: string;
    iccsDir?: string | null;
  },
): Promise<ApiRead> {
  const what = `${spec.algorithmId}/${spec.instance}`;
  const extra = o.extraDefines ?? [];
  const inputsHash = printparamsHash(spec, tc, extra);
  let build: CachedBuild<{ program: string }>;
  try {
    build = await cachedBuild(
      tc.context,
      root,
      `${spec.instance}-printparams`,
      inputsHash,
      o.buildTimeoutMs,
      async (work, run) => {
        await run(
          compileArgs(spec, tc.cc, extra, join(work, "ngcc-printparams")),
          `reading the API sizes of ${what} (api.h)`,
        );
        return { program: "ngcc-printparams" };
      },
    );
  } catch (err) {
    if (err instanceof BuildError) throw compileFailure(spec, err, rootsOf(spec, o.buildDir, o.iccsDir));
    throw err;
  }
  const r = await runProcess([join(build.dir, build.result.program)], {
    timeoutMs: o.runTimeoutMs,
    target: true,
    context: tc.context,
  });
  const commands = [...build.commands, commandOf(r)];
  const failed = runFailure(r, what);
  if (failed) throw new ApiError(failed.reason, failed.message, commands);
  try {
    const source = { header: headerShown(spec), namespace: spec.namespace };
    return {
      figures: parseApiOutput(r.stdout, spec.category, what, source),
      commands,
      cached: build.cached,
      inputsHash,
    };
  } catch (err) {
    throw new ApiError("error", (err as Error).message, commands);
  }
}
