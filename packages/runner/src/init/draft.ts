// draftMeta: meta.json assembled from what init read — the package's build system (make -n -B, CMake's file API)
// or, without one, its folders; the API header and sizes by compilation; the objects' symbols (main, randombytes,
// what nothing calls); the KAT files; ICCS use and the KAT switch; libraries; profiler groups. Each step is a
// module of this folder; every decision is recorded with what it was read from.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { isValidName, NAME_RULE } from "@ngcc-perf/schema";
import { InputError } from "../errors.ts";
import type { Category } from "../instances.ts";
import { specialFileIn } from "../submission-inputs.ts";
import {
  type ApiChoice,
  type ApiShape,
  type CompileFlags,
  candidateHeaders,
  chooseApiHeader,
  compiledSizes,
  type SizeMacro,
} from "./api-header.ts";
import { readCMake } from "./buildsystem/cmake.ts";
import { readMake } from "./buildsystem/make.ts";
import { copySubmission } from "./buildsystem/scratch.ts";
import type { BuildReading, CompileSet, ReadContext } from "./buildsystem/types.ts";
import { ICCS_HASH, type InitGroup, objectSymbols, proposeGroups } from "./groups.ts";
import {
  findRsp,
  type KatCandidate,
  type Manifest,
  matchKat,
  planManifest,
  type RspFile,
  readRsp,
} from "./kat-files.ts";
import { folderLayout, type Implementation, implementationsOf } from "./layout.ts";
import { algorithmName, instanceNames, isLayoutName } from "./names.ts";
import { definesMain, definesRandombytes, headersReached, planSources } from "./sources.ts";
import {
  type Compiled,
  compileUnits,
  RANDOMBYTES_SYMBOL,
  randombytesSymbolOf,
  type Unit,
  type UnitSymbols,
  unitKey,
} from "./units.ts";
import {
  filesIn,
  foldersUnder,
  isDir,
  isFile,
  readSome,
  relTo,
  setSubmissionRoot,
  stripComments,
  unique,
} from "./util.ts";

export interface InitOptions {
  /** The algorithm id (default: from the folder's name). */
  id?: string;
  /** The category, when the API header's macros do not decide it (or to override them). */
  category?: Category;
  /** Overwrite an existing meta.json. */
  force?: boolean;
  /** Keep an existing meta.json's fields, add what is missing, rewrite kat.sha256. */
  update?: boolean;
  /** The C compiler used to read sizes and symbols (default $CC or gcc). */
  cc?: string;
}

export type { InitGroup };

export interface InitResult {
  dir: string;
  metaPath: string;
  meta: Record<string, unknown>;
  /** Whether meta.json was written (false for a dry draft). */
  wrote: boolean;
  manifest: Manifest;
  /** Size-catalog rows (CSV, with the header line first): printed for the person who curates the catalog. */
  catalogRows: string[];
  /** What init decided and from what (one line each). */
  decided: string[];
  /** What init could not decide (one line each: what, and what to do). */
  undecided: string[];
  /** With --update: what it kept, added and rewrote. */
  update?: { kept: string[]; added: string[]; rewrote: string[] };
}

/** The KAT switches a submission's sources test (word boundaries that count `_` as a separator). */
export const KAT_SWITCHES = ["_NIST_KAT_", "NIST_KAT", "KAT_BUILD", "GENKAT", "GEN_KAT", "KAT"];

/** The #ifdef/#if defined(…) the sources use as a KAT switch, or undefined. */
export function katSwitchOf(text: string): string | undefined {
  return KAT_SWITCHES.find((k) =>
    new RegExp(
      `#\\s*(?:ifn?def\\s+${k}(?![A-Za-z0-9_])|(?:el)?if\\b[^\\n]*\\bdefined\\s*\\(?\\s*${k}(?![A-Za-z0-9_]))`,
    ).test(text),
  );
}

/** The instruction-set flag an intrinsic of a "target specific option mismatch" error needs. */
const FEATURE_OF: Array<[RegExp, string]> = [
  [/^_mm_aes/, "-maes"],
  [/^_mm_clmulepi64/, "-mpclmul"],
  [/^_mm_sha/, "-msha"],
  [/^_mm256_/, "-mavx2"],
  [/^_mm_(shuffle_epi8|alignr_epi8|sign_epi|abs_epi|maddubs|mulhrs)/, "-mssse3"],
  [/^_mm_(blend|extract_epi|insert_epi|min_ep[iu]32|max_ep[iu]32|mullo_epi32|testz|cvtep)/, "-msse4.1"],
];

/** Calls into OpenSSL's libcrypto, by symbol or include. */
const OPENSSL_SYMBOL =
  /^(EVP_|AES_|SHA(1|224|256|384|512)(_Init|_Update|_Final)?$|SHA\d+$|RAND_bytes$|OPENSSL_|ERR_|BN_|HMAC)/;

interface Draft {
  implementation: string;
  implFolder: string;
  /** Where the instance's code is (its make/CMake folder or parameter-set folder). */
  folder: string;
  label: string;
  name: string;
  parameterSet: string;
  from: string;
  fromBuild: boolean;
  flags: CompileFlags;
  libraries: string[];
  sources: string[];
  dropped: string[];
  partial: string[];
  /** Read from a library the build makes: the sources its objects need are completed by symbol. */
  archive: boolean;
  /** Folders searched for the API header, in order. */
  headerFolders: string[];
  /** Folders the sources' headers are found in (for reading their text). */
  searchDirs: string[];
  header?: string;
  headerOthers: string[];
  shape?: ApiShape;
  sizes: Partial<Record<SizeMacro, number>>;
  algname?: string;
  leftOut: Array<{ file: string; why: string }>;
  randombytesSource?: string;
  randombytesSymbol?: string;
  /** Decisions taken before the instance had its name, said under it once it has one. */
  log: string[];
}

const STUB_ICCS = [
  "#ifndef ICCS_H",
  "#define ICCS_H",
  "#include <stddef.h>",
  "void sm3hash(unsigned char *out, const unsigned char *in, size_t inlen);",
  "void pseudohash(unsigned char *out, const unsigned char *in, size_t inlen);",
  "void pseudoXOF(unsigned char *out, size_t outlen, const unsigned char *in, size_t inlen);",
  "int randombytes(unsigned char *x, unsigned long long xlen);",
  "#endif",
  "",
].join("\n");

const hasBuildFiles = (dir: string) =>
  foldersUnder(dir, 4, new Set()).some((f) =>
    ["Makefile", "makefile", "GNUmakefile", "CMakeLists.txt"].some((m) => isFile(join(f, m))),
  );

/** The first line of the size-catalog rows init prints. */
const CATALOG_HEADER =
  "algorithm_id,instance,category,public_key,ciphertext,signature,public_key_a,kex_messages,source,note";

/** What every step of the draft reads and says: the submission, its scratch copy, the compiler, the lines said. */
interface DraftContext extends ReadContext {
  /** The folder of the stand-in iccs.h. */
  stub: string;
  /** What init decided and from what (one line each), in the order said. */
  decided: string[];
  /** What init could not decide (one line each: what, and what to do). */
  undecided: string[];
}

/** A submission path as the scratch copy has it (other paths unchanged). */
const inCopy = (ctx: DraftContext, p: string) =>
  p === ctx.dir || p.startsWith(`${ctx.dir}/`) ? join(ctx.copy, relative(ctx.dir, p)) : p;

/** A scratch-copy path as the submission has it (other paths unchanged). */
const fromCopy = (ctx: DraftContext, p: string) =>
  p === ctx.copy || p.startsWith(`${ctx.copy}/`) ? join(ctx.dir, relative(ctx.copy, p)) : p;

/** Flags as compiled in the scratch copy, with the stand-in iccs.h's folder last. */
const withStub = (ctx: DraftContext, f: CompileFlags): CompileFlags => ({
  ...f,
  includeDirs: [...f.includeDirs.map((d) => inCopy(ctx, d)), ctx.stub],
});

/** A source of the draft as a compile unit (in the scratch copy, with the draft's flags as they are now). */
const unitOf = (ctx: DraftContext, src: string, d: Draft): Unit => ({
  source: inCopy(ctx, src),
  flags: withStub(ctx, d.flags),
});

/** Drafts meta.json for the submission folder `dir` without writing anything. */
export async function draftMeta(folder: string, opts: InitOptions = {}): Promise<InitResult> {
  const dir = checkedSubmission(folder, opts);
  const cc = opts.cc ?? process.env.CC ?? "gcc";
  const work = mkdtempSync(join(tmpdir(), "ngcc-init-"));
  try {
    const ctx = scratchContext(dir, work, cc);
    const drafts = await readDrafts(ctx);
    await readApiHeaders(ctx, drafts);
    nameInstances(ctx, drafts);
    const dropped = sayDropped(ctx, drafts);
    const objects = await readObjects(ctx, drafts, dropped);
    const category = decideCategory(ctx, drafts, opts.category);
    const id = decideId(ctx, opts.id);
    const algnames = unique(drafts.map((d) => d.algname).filter((a): a is string => !!a));
    const common = algorithmName(algnames);
    const name = common ?? basename(dir);
    const { katOf, manifest } = matchKatFiles(ctx, drafts, category, opts.update === true);
    const instances = draftInstances(ctx, drafts, { category, objects, katOf });
    const iccs = iccsOf(ctx, instances.use);
    const groups = profilerGroups(ctx, drafts, objects.kept, iccs);
    ctx.undecided.push("summary: not in the folder — add a one-line description to meta.json");
    if (algnames.length > 0) {
      ctx.decided.push(
        `name ${name} (${common ? `CRYPTO_ALGNAME: ${algnames.join(", ")}` : `the folder's name: the CRYPTO_ALGNAMEs ${algnames.join(", ")} share no whole word`})`,
      );
    }
    return {
      dir,
      metaPath: join(dir, "meta.json"),
      meta: metaOf(ctx, { id, name, category, drafts, iccs, manifest, instances: instances.records, groups }),
      wrote: false,
      manifest,
      catalogRows: [CATALOG_HEADER, ...drafts.map((d) => catalogRow(id, d, category))],
      decided: grouped(
        ctx.decided,
        drafts.map((d) => d.name),
      ).map((l) => unabs(l, dir, work)),
      undecided: unique(ctx.undecided.map((l) => unabs(l, dir, work))),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The submission folder, absolute, checked: a folder, nothing in it init must not read, a valid --id. */
function checkedSubmission(folder: string, opts: InitOptions): string {
  const dir = resolve(folder);
  setSubmissionRoot(dir);
  if (!isDir(dir)) throw new InputError(`${dir}: not a folder (expected a submission folder)`);
  // init reads the whole tree (sources, headers, build files, KAT files): a FIFO there hangs whoever opens it, a
  // device or socket is no source, and a link out of the folder would be read with init's rights. Each is named.
  const hostile = specialFileIn(dir, { linksOut: true });
  if (hostile) {
    throw new InputError(
      `${join(dir, hostile.path)}: is ${hostile.what}; init reads only the submission's own regular files and folders (links inside it are followed): remove it or replace it by the file`,
    );
  }
  if (opts.id !== undefined && !isValidName(opts.id)) {
    throw new InputError(`--id "${opts.id}" is not a valid name; expected ${NAME_RULE}`);
  }
  return dir;
}

/** The scratch folder `work` made ready (the stand-in iccs.h, the submission's copy) and the steps' context. */
function scratchContext(dir: string, work: string, cc: string): DraftContext {
  const stub = join(work, "stub");
  mkdirSync(stub);
  // A stand-in iccs.h (the names an NGCC submission may call), so code that includes it can be read.
  writeFileSync(join(stub, "iccs.h"), STUB_ICCS);
  // Every process reads the scratch copy (symlinks inside the package copied as their targets, nothing else
  // of the machine's folders needed), and only the scratch folder is writable.
  const copy = join(work, "copy");
  copySubmission(dir, copy);
  // The copy is read too (make's and CMake's view of the package), under the same rule as the submission.
  setSubmissionRoot(dir, [copy]);
  return { dir, copy, work, cc, rel: relTo(dir), stub, decided: [], undecided: [] };
}

/** Step 1, what is compiled: each implementation's compile sets from its build system, else its folders. */
async function readDrafts(ctx: DraftContext): Promise<Draft[]> {
  const buildFiles = hasBuildFiles(ctx.dir);
  const drafts: Draft[] = [];
  for (const impl of implementationsOf(ctx.dir)) {
    const reading = buildFiles ? await readBuildSystem(ctx, impl.folder) : null;
    if (reading) {
      ctx.decided.push(...reading.decided);
      ctx.undecided.push(...reading.undecided);
    }
    if (reading && reading.sets.length > 0) {
      ctx.decided.push(
        `implementation ${impl.name}: ${ctx.rel(impl.folder)} (parameter sets and sources from its build system, ${reading.system === "make" ? "make -n -B" : "CMake"})`,
      );
      for (const s of reading.sets) drafts.push(fromCompileSet(s, impl, ctx.dir));
      continue;
    }
    const why = !buildFiles
      ? "no Makefile or CMakeLists.txt"
      : reading
        ? "its build system gave no compile set"
        : "no Makefile or CMakeLists.txt for it";
    drafts.push(...folderDrafts(ctx, impl, why));
  }
  dropCoveredFolders(ctx, drafts);
  if (drafts.length === 0) {
    throw new InputError(
      `${ctx.dir}: found no parameter set — expected Reference_Implementation/<set>/api.h (or Optimized_Implementation/…), or an api.h in the folder`,
    );
  }
  return drafts;
}

/** An implementation's build system: make -n -B, else (no compile set from it) CMake's file API; null for none. */
async function readBuildSystem(ctx: ReadContext, implFolder: string): Promise<BuildReading | null> {
  const make = await readMake(ctx, implFolder);
  if (make && make.sets.length > 0) return make;
  const cmake = await readCMake(ctx, implFolder);
  if (!cmake) return make;
  return make
    ? { ...cmake, decided: [...make.decided, ...cmake.decided], undecided: [...make.undecided, ...cmake.undecided] }
    : cmake;
}

/** The folder fallback: a draft per parameter-set folder of the implementation (`why`: why no build system). */
function folderDrafts(ctx: DraftContext, impl: Implementation, why: string): Draft[] {
  const { rel } = ctx;
  const layout = folderLayout(impl.folder);
  if (layout.setDirs.length === 0) {
    ctx.undecided.push(`${rel(impl.folder)}: no API header (api.h, or a header defining CRYPTO_SECRETKEYBYTES)`);
    return [];
  }
  ctx.decided.push(
    `implementation ${impl.name}: ${rel(impl.folder)} (${why}: parameter sets and sources read from the folders; parameter-set folders: ${layout.setDirs.map(rel).join(", ")})`,
  );
  return layout.setDirs.map((setDir) => fromSetFolder(setDir, layout.shared, impl, ctx));
}

/** The draft of a parameter-set folder: its sources and include folders planned from the folders' files. */
function fromSetFolder(setDir: string, shared: string[], impl: Implementation, ctx: ReadContext): Draft {
  const plan = planSources(setDir, shared);
  return {
    implementation: impl.name,
    implFolder: impl.folder,
    folder: setDir,
    label: setDir === ctx.dir ? basename(ctx.dir) : basename(setDir),
    name: "",
    parameterSet: "",
    from: `the folder ${ctx.rel(setDir)}`,
    fromBuild: false,
    flags: { defines: [], includeDirs: plan.includeDirs, cflags: [] },
    libraries: [],
    sources: plan.sources,
    dropped: [],
    partial: [],
    archive: false,
    headerFolders: [setDir, ...shared],
    searchDirs: plan.includeDirs,
    headerOthers: [],
    sizes: {},
    leftOut: plan.leftOut,
    log: [],
    ...(plan.randombytesSource ? { randombytesSource: plan.randombytesSource } : {}),
  };
}

/**
 * A folder read without a build system whose sources another implementation's build system compiles (CROSS:
 * Reference_Implementation, built per parameter set by Additional_Implementations/KAT_Generation's CMake with the
 * -D flags the folder alone lacks) is not an instance of its own: the build's compile sets are its reading.
 */
function dropCoveredFolders(ctx: DraftContext, drafts: Draft[]): void {
  for (const d of [...drafts]) {
    if (d.fromBuild || d.sources.length === 0) continue;
    const by = drafts.find(
      (b) => b.fromBuild && b.implementation !== d.implementation && d.sources.every((src) => b.sources.includes(src)),
    );
    if (!by) continue;
    drafts.splice(drafts.indexOf(d), 1);
    ctx.decided.push(
      `${ctx.rel(d.folder)}: no instance of its own: its sources are those ${ctx.rel(by.implFolder)}'s build system compiles per parameter set (${by.from})`,
    );
  }
}

/** Step 2: each draft's API header by what it compiles to, and its sizes by printparams. */
async function readApiHeaders(ctx: DraftContext, drafts: Draft[]): Promise<void> {
  for (const [k, d] of drafts.entries()) await readApiHeader(ctx, d, k);
}

/** A draft's API header: one that compiles to the full API, else one that gives the sizes (said); its sizes. */
async function readApiHeader(ctx: DraftContext, d: Draft, k: number): Promise<void> {
  const { rel } = ctx;
  const flags = withStub(ctx, d.flags);
  const {
    choice: full,
    partial,
    passedOver,
  } = await chooseApiHeader(
    ctx.cc,
    candidateHeaders(d.headerFolders).map((h) => inCopy(ctx, h)),
    flags,
    ctx.work,
    (p) => rel(fromCopy(ctx, p)),
  );
  const found = full ?? partial;
  const choice = found
    ? { ...found, header: fromCopy(ctx, found.header), others: found.others.map((h) => fromCopy(ctx, h)) }
    : null;
  if (!full && choice) sayPartialHeader(ctx, d, choice);
  const shown = flagsShown(d.flags, rel);
  if (!choice) {
    const first = candidateHeaders(d.headerFolders)[0];
    if (first) d.header = first;
    ctx.undecided.push(
      `${d.label}: no header compiles to the NIST API${shown ? ` with ${shown}` : ""}${passedOver.length > 0 ? ` (${passedOver.join("; ")})` : ""}`,
    );
    return;
  }
  d.header = choice.header;
  d.shape = choice.shape;
  d.headerOthers = choice.others;
  d.log.push(
    `API header ${rel(choice.header)} (preprocessed${shown ? ` with ${shown}` : ""}: it gives the CRYPTO_* sizes${full ? " and the API functions" : ""})${choice.passedOver.length > 0 ? `; passed over ${choice.passedOver.join("; ")}` : ""}`,
  );
  await readSizes(ctx, d, choice, flags, k);
}

/** A header taken for the sizes without the functions (BIKE's api.h, the prototypes in kem.h): said. */
function sayPartialHeader(ctx: DraftContext, d: Draft, choice: ApiChoice): void {
  const decl = candidateHeaders(d.headerFolders).find(
    (h) =>
      h !== choice.header && new RegExp(`\\b${choice.shape.prefix}crypto_(kem|sign)_keypair\\s*\\(`).test(readSome(h)),
  );
  ctx.undecided.push(
    `${d.label}: ${ctx.rel(choice.header)} gives the sizes but not ${choice.shape.missing.join(", ")}${decl ? ` (declared in ${ctx.rel(decl)}, which it does not include)` : ""}; no header compiles to the full API: name one that does as apiHeader`,
  );
}

/** The sizes (and CRYPTO_ALGNAME) the chosen header compiles to with the draft's flags, by printparams. */
async function readSizes(ctx: DraftContext, d: Draft, choice: ApiChoice, flags: CompileFlags, k: number) {
  const { rel } = ctx;
  const shown = flagsShown(d.flags, rel);
  const sizes = await compiledSizes(ctx.cc, inCopy(ctx, choice.header), choice.shape, flags, ctx.work, String(k));
  if (sizes.error) {
    ctx.undecided.push(
      `${d.label}: could not read the sizes of ${rel(choice.header)}: ${unabs(sizes.error, ctx.dir, ctx.work)}`,
    );
    return;
  }
  d.sizes = sizes.sizes;
  if (sizes.algname) d.algname = sizes.algname;
  d.log.push(
    `sizes by compiling ${rel(choice.header)}${shown ? ` with ${shown}` : ""} (native/printparams, run in the sandbox)`,
  );
}

/** Step 3, names: CRYPTO_ALGNAME, the build's values or programs, the set folders; never a layout folder. */
function nameInstances(ctx: DraftContext, drafts: Draft[]): void {
  const byImpl = new Map<string, Draft[]>();
  for (const d of drafts) byImpl.set(d.implementation, [...(byImpl.get(d.implementation) ?? []), d]);
  for (const group of byImpl.values()) {
    const names = instanceNames(
      group.map((d) => ({
        ...(d.algname ? { algname: d.algname } : {}),
        label: d.label,
        fallback: isLayoutName(basename(d.folder)) ? basename(ctx.dir) : basename(d.folder),
      })),
      group.every((d) => !d.fromBuild && !isLayoutName(d.label)),
    );
    for (const [k, d] of group.entries()) {
      d.parameterSet = names[k] as string;
      d.name = d.implementation === "reference" ? d.parameterSet : `${d.parameterSet}-${d.implementation}`;
      if (d.fromBuild) ctx.decided.push(`${d.name}: compile set from ${d.from}`);
      ctx.decided.push(...d.log.map((l) => `${d.name}: ${l}`));
    }
  }
  for (const d of drafts) {
    if (!isValidName(d.name)) {
      throw new InputError(
        `${ctx.rel(d.folder)}: the instance name "${d.name}" is not a valid name; expected ${NAME_RULE}`,
      );
    }
  }
}

/** The compile-line flags not carried, said once each with the instances they were on; by flag. */
function sayDropped(ctx: DraftContext, drafts: Draft[]): Map<string, string[]> {
  const dropped = new Map<string, string[]>();
  for (const d of drafts) for (const x of d.dropped) dropped.set(x, [...(dropped.get(x) ?? []), d.name]);
  for (const [x, names] of dropped) {
    ctx.decided.push(`${names.length === drafts.length ? "every instance" : names.join(", ")}: did not carry ${x}`);
  }
  return dropped;
}

/** What the objects gave: the units' symbols, the flags added for intrinsics, the kept sources' units. */
interface Objects {
  compiled: Compiled;
  /** The -m<feature> flags added to each draft's cflags. */
  added: Map<Draft, string[]>;
  kept: Set<UnitSymbols>;
}

/** Step 4: every source compiled to an object and read with nm: main, randombytes, what nothing calls. */
async function readObjects(ctx: DraftContext, drafts: Draft[], dropped: Map<string, string[]>): Promise<Objects> {
  const { compiled, added } = await compileWithFeatures(ctx, drafts);
  for (const d of drafts.filter((x) => x.archive)) await completeArchive(ctx, d, compiled);
  sayCompileFailures(ctx, compiled, dropped);
  const kept = new Set<UnitSymbols>();
  for (const d of drafts) for (const u of keepSources(ctx, d, compiled)) kept.add(u);
  return { compiled, added, kept };
}

/** Every draft's sources compiled with its flags as they are now. */
const compileAll = (ctx: DraftContext, drafts: Draft[]) =>
  compileUnits(
    ctx.cc,
    drafts.flatMap((d) => d.sources.map((s) => unitOf(ctx, s, d))),
    ctx.work,
  );

/** The units compiled, and again (up to 6 rounds) with the instruction-set flags their intrinsics need added. */
async function compileWithFeatures(
  ctx: DraftContext,
  drafts: Draft[],
): Promise<{ compiled: Compiled; added: Map<Draft, string[]> }> {
  let compiled = await compileAll(ctx, drafts);
  const added = new Map<Draft, string[]>();
  for (let round = 0; round < 6; round++) {
    const needed = featureFlagsNeeded(ctx, drafts, compiled.failed);
    if (needed.size === 0) break;
    for (const [d, flags] of needed) {
      d.flags = { ...d.flags, cflags: [...d.flags.cflags, ...flags] };
      added.set(d, [...(added.get(d) ?? []), ...flags]);
    }
    compiled = await compileAll(ctx, drafts);
  }
  return { compiled, added };
}

/**
 * Intrinsics that need an instruction-set flag the package's -march=native gave (not carried): the flag the
 * failing unit's intrinsic names, for each draft compiling it without it (said).
 */
function featureFlagsNeeded(ctx: DraftContext, drafts: Draft[], failed: Compiled["failed"]) {
  const needed = new Map<Draft, Set<string>>();
  for (const f of failed) {
    if (!/target specific option mismatch/.test(f.error)) continue;
    const intrinsic = [...f.error.matchAll(/‘(\w+)’/g)].map((m) => m[1] as string).pop() ?? "";
    const flag = FEATURE_OF.find(([re]) => re.test(intrinsic))?.[1];
    if (!flag) continue;
    for (const d of drafts) {
      if (!d.sources.some((x) => inCopy(ctx, x) === f.source) || d.flags.cflags.includes(flag)) continue;
      if (needed.get(d)?.has(flag)) continue;
      needed.set(d, new Set([...(needed.get(d) ?? []), flag]));
      ctx.decided.push(
        `${d.name}: cflags ${flag} added: ${ctx.rel(fromCopy(ctx, f.source))} uses ${intrinsic}, which needs it (the package's build had it from -march=native)`,
      );
    }
  }
  return needed;
}

/**
 * A library the build makes (no program links it): the symbols its objects use and nothing defines are looked
 * for in the .c files of its include folders (PQClean's common/fips202.c), as a program's link would.
 */
async function completeArchive(ctx: DraftContext, d: Draft, compiled: Compiled): Promise<void> {
  const key = (src: string) => unitKey(unitOf(ctx, src, d));
  const pool = unique([...d.flags.includeDirs, ...d.sources.map((x) => dirname(x))])
    .flatMap((f) => filesIn(f, ".c"))
    .filter((f) => !d.sources.includes(f));
  const poolUnits = await compileUnits(
    ctx.cc,
    pool.map((x) => unitOf(ctx, x, d)),
    ctx.work,
  );
  for (let round = 0; round < 8; round++) {
    const mine = d.sources.map((x) => compiled.perUnit.get(key(x))).filter((u): u is UnitSymbols => !!u);
    const defined = new Set(mine.flatMap((u) => [...u.defined]));
    const missing = new Set(mine.flatMap((u) => [...u.used]).filter((x) => !defined.has(x)));
    const add = pool.filter((f) => {
      const u = poolUnits.perUnit.get(key(f));
      return (
        u &&
        !d.sources.includes(f) &&
        !u.defined.has("main") &&
        !randombytesSymbolOf(u) &&
        [...u.defined].some((x) => missing.has(x))
      );
    });
    if (add.length === 0) break;
    for (const f of add) {
      const u = poolUnits.perUnit.get(key(f)) as UnitSymbols;
      compiled.perUnit.set(key(f), u);
      d.sources.push(f);
      ctx.decided.push(
        `${d.name}: added ${ctx.rel(f)}: it defines ${[...u.defined]
          .filter((x) => missing.has(x))
          .slice(0, 3)
          .join(", ")}, which the library's objects call (the build makes a library; nothing in it links the program)`,
      );
    }
  }
}

/** The units that did not compile said, and the -m<feature> flags a -march=native build gave, if that is why. */
function sayCompileFailures(ctx: DraftContext, compiled: Compiled, dropped: Map<string, string[]>): void {
  if (
    compiled.failed.some((f) => /target specific option mismatch/.test(f.error)) &&
    [...dropped.keys()].some((x) => x.startsWith("-march=native"))
  ) {
    ctx.undecided.push(
      'sources use instructions the package\'s -march=native gave ("target specific option mismatch"): add the -m<feature> flags they need (-maes, -mavx2 …) to cflags, or build with a profile that has -march=native',
    );
  }
  for (const f of compiled.failed) {
    ctx.undecided.push(
      `${ctx.rel(fromCopy(ctx, f.source))} did not compile (its symbols are not read): ${unabs(f.error, ctx.dir, ctx.work)}`,
    );
  }
}

type UnitLookup = (src: string) => UnitSymbols | undefined;

/** A draft's sources kept (set on it): no program, no randombytes, in the folder fallback nothing uncalled. */
function keepSources(ctx: DraftContext, d: Draft, compiled: Compiled): UnitSymbols[] {
  const unit: UnitLookup = (src) => compiled.perUnit.get(unitKey(unitOf(ctx, src, d)));
  let sources = leaveOutProgramsAndRandombytes(d, unit);
  // The submitter's randombytes in the folder, when the build did not list it.
  if (!d.randombytesSource) findRandombytesNear(d, sources);
  if (!d.fromBuild) sources = leaveOutUncalled(ctx, d, sources, unit);
  d.sources = sources;
  return sources.map((src) => unit(src)).filter((u): u is UnitSymbols => !!u);
}

/** The draft's sources without those defining main or randombytes (left out with why, randombytes noted). */
function leaveOutProgramsAndRandombytes(d: Draft, unit: UnitLookup): string[] {
  let sources = [...d.sources];
  for (const src of [...sources]) {
    const u = unit(src);
    const text = readSome(src);
    if (u ? u.defined.has("main") : definesMain(text)) {
      sources = sources.filter((s) => s !== src);
      d.leftOut.push({ file: src, why: "defines main (a test or KAT program, not the scheme)" });
      continue;
    }
    const sym = u ? randombytesSymbolOf(u) : definesRandombytes(text) ? "randombytes" : undefined;
    if (sym || (!u && /^(randombytes|rng)\.c$/i.test(basename(src)))) {
      sources = sources.filter((s) => s !== src);
      d.randombytesSource ??= src;
      if (sym && sym !== "randombytes") d.randombytesSymbol = sym;
      d.leftOut.push({
        file: src,
        why:
          sym && sym !== "randombytes"
            ? `defines ${sym} (randombytes renamed by a macro): ngcc-perf provides randombytes, linked under that name`
            : "defines randombytes: ngcc-perf provides randombytes (the KAT DRBG or the system RNG)",
      });
    }
  }
  return sources;
}

/** A randombytes.c (or a file defining randombytes) beside the kept sources, noted and left out. */
function findRandombytesNear(d: Draft, sources: string[]): void {
  const near = unique([d.folder, ...d.flags.includeDirs, ...sources.map((s) => dirname(s))]).flatMap((f) =>
    filesIn(f, ".c"),
  );
  const rb = near.find(
    (f) => !sources.includes(f) && (/^(randombytes|rng)\.c$/i.test(basename(f)) || definesRandombytes(readSome(f))),
  );
  if (rb) {
    d.randombytesSource = rb;
    d.leftOut.push({
      file: rb,
      why: "defines randombytes: ngcc-perf provides randombytes (the KAT DRBG or the system RNG)",
    });
  }
}

/**
 * What nothing calls, left out — only in the folder fallback (a build system's list is the package's own word),
 * and only when every unit compiled: a unit that failed calls nothing we can see.
 */
function leaveOutUncalled(ctx: DraftContext, d: Draft, kept: string[], unit: UnitLookup): string[] {
  const { rel } = ctx;
  let sources = kept;
  const failedHere = sources.filter((s) => !unit(s));
  if (failedHere.length > 0) {
    ctx.decided.push(
      `${d.name}: kept every source found (${failedHere.map(rel).join(", ")} did not compile, so which sources are called is not known)`,
    );
    return sources;
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (const src of sources) {
      const u = unit(src);
      if (!u || dirname(src) === d.folder) continue;
      if ([...u.functions].some((x) => /crypto_(kem|sign|kex)_?/.test(x))) continue;
      const called = sources.some((o) => o !== src && [...(unit(o)?.used ?? [])].some((x) => u.defined.has(x)));
      if (called) continue;
      sources = sources.filter((o) => o !== src);
      changed = true;
      ctx.decided.push(
        `${d.name}: left out ${rel(src)}: ${u.functions.size === 0 ? "defines no function" : "none of the instance's other sources calls its functions"}${d.flags.defines.length > 0 ? ` with ${d.flags.defines.map((x) => `-D${x}`).join(" ")}` : ""}`,
      );
      break;
    }
  }
  return sources;
}

/** Step 5, the category: --category, else the API headers' macros (all instances must agree). */
function decideCategory(ctx: DraftContext, drafts: Draft[], given: Category | undefined): Category {
  const categories = unique(drafts.map((d) => d.shape?.category).filter((c): c is Category => !!c));
  if (given) {
    if (categories.length > 0 && !categories.every((c) => c === given)) {
      ctx.undecided.push(`category: --category ${given}, but the API headers' macros say ${categories.join(", ")}`);
    }
    return given;
  }
  if (categories.length === 1) {
    // Instances whose header gave no category were said above (their header does not compile to the API).
    const category = categories[0] as Category;
    const why =
      category === "kex"
        ? "CRYPTO_KEX_PASSES"
        : category === "kem"
          ? "CRYPTO_CIPHERTEXTBYTES"
          : "CRYPTO_BYTES without CRYPTO_CIPHERTEXTBYTES";
    ctx.decided.push(`category ${category}: the API headers define ${why}`);
    return category;
  }
  throw new InputError(
    `${ctx.dir}: could not decide the category from the API headers' macros (${categories.join(", ") || "no CRYPTO_CIPHERTEXTBYTES, CRYPTO_BYTES or CRYPTO_KEX_PASSES"}); give --category kem|sign|kex`,
  );
}

/** The algorithm id: --id, else the folder's name made a name. */
function decideId(ctx: DraftContext, given: string | undefined): string {
  const id =
    given ??
    basename(ctx.dir)
      .toLowerCase()
      .replace(/[^a-z0-9.+-]+/g, "-")
      .replace(/^-+|-+$/g, "");
  if (!isValidName(id)) throw new InputError(`${ctx.dir}: cannot make an id from the folder's name; give --id`);
  if (!given) ctx.decided.push(`id ${id}: from the folder's name (--id to choose another)`);
  return id;
}

/** Step 6: each instance's KAT file by the sizes; the ones no instance uses said; the manifest planned. */
function matchKatFiles(ctx: DraftContext, drafts: Draft[], category: Category, update: boolean) {
  const rsps = findRsp(ctx.dir).map((p) => readRsp(ctx.dir, p));
  const katOf = new Map<Draft, RspFile>();
  for (const d of drafts) {
    const m = matchKat(katCandidate(d, category), rsps, category);
    if (m.file) katOf.set(d, m.file);
    if (m.undecided) ctx.undecided.push(m.undecided);
  }
  for (const [d, f] of katOf) ctx.decided.push(`${d.name}: KAT ${f.rel} (sizes match its API header)`);
  const used = new Set(katOf.values());
  sayUnusedKats(
    ctx,
    drafts,
    rsps.filter((f) => !used.has(f)),
    category,
  );
  const manifest = planManifest(ctx.dir, [...used], ctx.rel, update);
  if (manifest.action === "checked" && manifest.problems.length === 0) {
    ctx.decided.push(`${ctx.rel(manifest.path)}: checked, every KAT file matches`);
  }
  return { katOf, manifest };
}

/** What a KAT file is matched by: the instance's names and its API header's key sizes. */
function katCandidate(d: Draft, category: Category): KatCandidate {
  return {
    name: d.name,
    parameterSet: d.parameterSet,
    ...(d.algname ? { algname: d.algname } : {}),
    implementation: d.implementation,
    implFolder: d.implFolder,
    ...(skOf(d, category) !== undefined ? { sk: skOf(d, category) as number } : {}),
    ...(pkOf(d, category) !== undefined ? { pk: pkOf(d, category) as number } : {}),
  };
}

/** The KAT files no instance uses, said: those whose sizes fit an instance apart from those that fit none. */
function sayUnusedKats(ctx: DraftContext, drafts: Draft[], unused: RspFile[], category: Category): void {
  if (unused.length === 0) return;
  const fitsSome = (f: RspFile) =>
    drafts.some((d) => f.skBytes === undefined || f.skBytes === skOf(d, category) || f.nameBytes === skOf(d, category));
  const other = unused.filter(fitsSome);
  const none = unused.filter((f) => !fitsSome(f));
  if (other.length > 0) {
    ctx.undecided.push(
      `KAT files no instance uses: ${other.map((f) => f.rel).join(", ")} (their sizes fit an instance that took another file: a variant init did not find? add an instance by hand)`,
    );
  }
  if (none.length > 0) {
    ctx.undecided.push(
      `KAT files no instance uses: ${none.map((f) => f.rel).join(", ")} (their sizes match no instance's API header)`,
    );
  }
}

/** What step 7 reads besides a draft: the category, the objects, the KAT files matched. */
interface InstanceInputs {
  category: Category;
  objects: Objects;
  katOf: Map<Draft, RspFile>;
}

/** What the instances' sources use of ICCS: iccs.h included, the hash functions called, randombytes through it. */
interface IccsUse {
  header: boolean;
  hash: Set<string>;
  drng: boolean;
}

/** Step 7: each draft's instance from its sources' text and symbols, and what they use of ICCS. */
function draftInstances(ctx: DraftContext, drafts: Draft[], inputs: InstanceInputs) {
  const use: IccsUse = { header: false, hash: new Set(), drng: false };
  const records = drafts.map((d) => {
    const headers = headersReached(d.sources, unique([...d.flags.includeDirs, ...d.searchDirs]));
    const all = [...d.sources, ...headers].map((f) => stripComments(readSome(f))).join("\n");
    noteIccsUse(use, all);
    return instanceOf(ctx, d, all, inputs);
  });
  return { records, use };
}

/** Does the sources' text (comments stripped) call randombytes (or a renamed one)? */
const callsRandombytes = (all: string) => /\b(?:\w+_)?randombytes\s*\(/.test(all);

/** The ICCS names one instance's sources use (`all`: their text and their headers', comments stripped), added. */
function noteIccsUse(use: IccsUse, all: string): void {
  const usesIccsHeader = /#\s*include\s*[<"]iccs\.h[">]/.test(all);
  use.header ||= usesIccsHeader;
  for (const h of ICCS_HASH) {
    const called = new RegExp(`\\b${h}\\s*\\(`).test(all);
    const defined = new RegExp(`\\b${h}\\s*\\([^;{)]*\\)\\s*\\{`).test(all);
    if (called && !defined) use.hash.add(h);
  }
  for (const m of all.matchAll(/\b(sm3\w*)\s*\(/g)) {
    const sym = m[1] as string;
    if (!new RegExp(`\\b${sym}\\s*\\([^;{)]*\\)\\s*\\{`).test(all) && usesIccsHeader) use.hash.add(sym);
  }
  if (usesIccsHeader && callsRandombytes(all)) use.drng = true;
}

/** A draft's meta.json instance (`all`: its sources' and headers' text), what it was read from said. */
function instanceOf(ctx: DraftContext, d: Draft, all: string, inputs: InstanceInputs): Record<string, unknown> {
  const { rel } = ctx;
  const { randomness, katDefines } = katBuildOf(ctx, d, all);
  sayReading(ctx, d);
  const libraries = librariesOf(ctx, d, all, inputs.objects.compiled);
  sayFlags(ctx, d, inputs.objects.added.get(d) ?? []);
  const api = apiOf(ctx, d, inputs.category);
  const kat = inputs.katOf.get(d);
  return {
    name: d.name,
    implementation: d.implementation,
    parameterSet: d.parameterSet,
    folder: rel(d.folder),
    ...(d.header ? { apiHeader: rel(d.header) } : {}),
    ...(Object.keys(api).length > 0 ? { api } : {}),
    sources: [...d.sources].map(rel).sort(),
    includeDirs: d.flags.includeDirs.map(rel),
    defines: d.flags.defines,
    ...(d.flags.cflags.length > 0 ? { cflags: d.flags.cflags } : {}),
    ...(libraries.length > 0 ? { libraries } : {}),
    randomness,
    ...(d.randombytesSource && !d.sources.includes(d.randombytesSource)
      ? { randombytesSource: rel(d.randombytesSource) }
      : {}),
    kat: { ...(kat ? { file: kat.rel } : {}), defines: katDefines, randomness: "randombytes" },
  };
}

/** The KAT build's defines (the sources' KAT switch added) and the instance's randomness outside KAT builds. */
function katBuildOf(ctx: DraftContext, d: Draft, all: string) {
  const katSwitch = katSwitchOf(all);
  const defined = new Set(d.flags.defines.map((x) => x.replace(/[(=].*$/, "")));
  const readsSystem = /\/dev\/u?random|\bgetrandom\s*\(|\bgetentropy\s*\(/.test(all);
  const randomness = katSwitch && readsSystem ? "self" : "randombytes";
  const katDefines = [...d.flags.defines];
  if (katSwitch && !defined.has(katSwitch)) {
    katDefines.push(katSwitch);
    ctx.decided.push(
      `${d.name}: KAT builds add -D${katSwitch} (the sources test it)${readsSystem ? "; other builds read the system RNG themselves (randomness: self)" : ""}`,
    );
  } else if (!callsRandombytes(all)) {
    ctx.undecided.push(
      `${d.name}: its sources never call randombytes; if it draws randomness itself, set randomness: self`,
    );
  }
  return { randomness, katDefines };
}

/** How the draft was read, said: several API headers, the sources left out, flags of some sources only. */
function sayReading(ctx: DraftContext, d: Draft): void {
  const { rel } = ctx;
  if (d.headerOthers.length > 0 && d.header) {
    ctx.undecided.push(
      `${d.name}: several headers compile to the API (${[d.header, ...d.headerOthers].map(rel).join(", ")}); took ${rel(d.header)}`,
    );
  }
  for (const l of d.leftOut) ctx.decided.push(`${d.name}: left out ${rel(l.file)}: ${l.why}`);
  if (d.partial.length > 0) {
    ctx.undecided.push(
      `${d.name}: ${d.partial.join(" ")} on the compile lines of some sources only (${d.from}); meta.json has one set of flags, so every source gets them: the instance is built for a machine that has them all`,
    );
  }
}

/** Libraries: the link line's; without a build system, OpenSSL when the code calls it (said). */
function librariesOf(ctx: DraftContext, d: Draft, all: string, compiled: Compiled): string[] {
  let libraries = d.libraries;
  const mine = d.sources
    .map((s) => compiled.perUnit.get(unitKey(unitOf(ctx, s, d))))
    .filter((u): u is UnitSymbols => !!u);
  const calls = unique(mine.flatMap((u) => [...u.used])).filter(
    (s) => OPENSSL_SYMBOL.test(s) && !mine.some((u) => u.defined.has(s)),
  );
  const includes = /#\s*include\s*<openssl\//.test(all);
  if (d.fromBuild && libraries.length > 0) {
    // OpenSSL on the KAT program's link line is often for its rng.c (AES-CTR DRBG) only, which is left out.
    const openssl = ["crypto", "ssl"];
    const unneeded = libraries.filter((l) => openssl.includes(l) && calls.length === 0 && !includes);
    if (unneeded.length > 0 && mine.length === d.sources.length) {
      libraries = libraries.filter((l) => !unneeded.includes(l));
      ctx.decided.push(
        `${d.name}: did not carry ${unneeded.map((l) => `-l${l}`).join(" ")} (on its link line, but no kept source calls OpenSSL: the left-out KAT program and DRBG need it)`,
      );
    }
    if (libraries.length > 0) {
      ctx.decided.push(`${d.name}: libraries ${libraries.join(", ")} (-l on its link line)`);
    }
  }
  if (!d.fromBuild) {
    if (calls.length > 0 || includes) {
      libraries = ["crypto"];
      ctx.decided.push(
        `${d.name}: libraries crypto (OpenSSL's libcrypto: ${calls.length > 0 ? `calls ${calls.slice(0, 4).join(", ")}${calls.length > 4 ? " …" : ""}` : "includes <openssl/…>"})`,
      );
    }
  }
  return libraries;
}

/** The cflags and defines of the draft's compile lines, said (not those init `added` for intrinsics). */
function sayFlags(ctx: DraftContext, d: Draft, added: string[]): void {
  const own = d.flags.cflags.filter((x) => !added.includes(x));
  if (own.length > 0) ctx.decided.push(`${d.name}: cflags ${own.join(" ")} (its compile lines)`);
  if (d.fromBuild && d.flags.defines.length > 0) {
    ctx.decided.push(`${d.name}: defines ${d.flags.defines.map((x) => `-D${x}`).join(" ")} (its compile lines)`);
  }
}

/** The instance's `api`: the signature API style, the names' prefix, a renamed randombytes. */
function apiOf(ctx: DraftContext, d: Draft, category: Category): Record<string, string> {
  const api: Record<string, string> = {};
  const shape = d.shape;
  if (category === "sign") {
    if (shape?.style) {
      api.style = shape.style;
      ctx.decided.push(`${d.name}: signature API ${shape.style} (${shape.styleWhy})`);
    } else {
      ctx.undecided.push(
        `${d.name}: no crypto_sign prototype in ${d.header ? ctx.rel(d.header) : "its API header"}; assumed the round-3 NIST API`,
      );
    }
  }
  if (shape?.prefix) {
    api.prefix = shape.prefix;
    ctx.decided.push(`${d.name}: API names prefixed ${shape.prefix} (the preprocessed header's size macros)`);
  }
  if (
    d.randombytesSymbol &&
    d.randombytesSymbol !== "PQCLEAN_randombytes" &&
    RANDOMBYTES_SYMBOL.test(d.randombytesSymbol)
  ) {
    api.randombytes = d.randombytesSymbol;
    ctx.decided.push(
      `${d.name}: api.randombytes ${d.randombytesSymbol} (the symbol ${ctx.rel(d.randombytesSource as string)} defines)`,
    );
  }
  return api;
}

/** meta.json's iccs. */
type Iccs = { header: string; hash: string[]; drng: string[] };

/** meta.json's iccs from what the sources use (null: no ICCS), said. */
function iccsOf(ctx: DraftContext, use: IccsUse): Iccs | null {
  const iccs =
    use.header || use.hash.size > 0
      ? {
          header: "iccs.h",
          hash: [...use.hash].sort((a, b) => order(a) - order(b)),
          drng: use.drng ? ["randombytes"] : [],
        }
      : null;
  ctx.decided.push(
    iccs
      ? `ICCS: ${use.header ? "includes iccs.h" : "no iccs.h include"}; calls ${[...iccs.hash, ...iccs.drng].join(", ") || "no ICCS function"}`
      : "no ICCS: no iccs.h include and no call to pseudohash, pseudoXOF or sm3*: randomness from ngcc-perf's randombytes",
  );
  return iccs;
}

/** Step 8: the profiler groups from the kept objects' symbols, said. */
function profilerGroups(
  ctx: DraftContext,
  drafts: Draft[],
  kept: Set<UnitSymbols>,
  iccs: Iccs | null,
): Record<string, InitGroup> {
  const rbNames = unique([
    "randombytes",
    "PQCLEAN_randombytes",
    ...drafts.flatMap((d) => (d.randombytesSymbol ? [d.randombytesSymbol] : [])),
  ]);
  const groups = proposeGroups(objectSymbols(kept), iccs, rbNames);
  for (const [g, v] of Object.entries(groups)) {
    ctx.decided.push(`profiler group ${g} (${v.label}): ${v.symbols.length} symbols: ${v.symbols.join(", ")}`);
  }
  if (Object.keys(groups).length === 0) ctx.undecided.push("profiler groups: no hash, DRNG or cipher symbol found");
  return groups;
}

/** meta.json as drafted, its fields in their order. */
function metaOf(
  ctx: DraftContext,
  m: {
    id: string;
    name: string;
    category: Category;
    drafts: Draft[];
    iccs: Iccs | null;
    manifest: Manifest;
    instances: Array<Record<string, unknown>>;
    groups: Record<string, InitGroup>;
  },
): Record<string, unknown> {
  const { drafts, iccs, manifest, groups } = m;
  const implementations = unique(drafts.map((d) => d.implementation)).map((n) => ({
    name: n,
    folder: ctx.rel(drafts.find((d) => d.implementation === n)?.implFolder ?? ctx.dir),
  }));
  return {
    schemaVersion: 1,
    id: m.id,
    name: m.name,
    category: m.category,
    implementations,
    parameterSets: unique(drafts.map((d) => d.parameterSet)),
    ...(iccs ? { iccs } : {}),
    ...(manifest.action !== "none" ? { katManifest: ctx.rel(manifest.path) } : {}),
    instances: m.instances,
    ...(Object.keys(groups).length > 0
      ? { profiler: { groups, ...(iccs ? {} : { replaceCampaignGroups: true }) } }
      : {}),
  };
}

function fromCompileSet(s: CompileSet, impl: { name: string; folder: string }, dir: string): Draft {
  const sourceDirs = unique(s.sources.map((x) => dirname(x)));
  return {
    implementation: impl.name,
    implFolder: impl.folder,
    folder: s.folder,
    label: s.label,
    name: "",
    parameterSet: "",
    from: s.from,
    fromBuild: true,
    flags: { defines: s.defines, includeDirs: s.includeDirs, cflags: s.cflags },
    libraries: s.libraries,
    sources: s.sources.filter((x) => x.startsWith(`${dir}/`)),
    dropped: s.dropped,
    partial: s.partial,
    archive: s.archive === true,
    headerFolders: unique([s.folder, ...s.includeDirs, ...sourceDirs]),
    searchDirs: unique([...s.includeDirs, ...sourceDirs]),
    headerOthers: [],
    sizes: {},
    leftOut: [],
    log: [],
  };
}

/** The instance's flags as a message shows them (-D… -I… and cflags), paths relative to the submission. */
function flagsShown(f: CompileFlags, rel: (p: string) => string): string {
  return [...f.defines.map((d) => `-D${d}`), ...f.cflags, ...f.includeDirs.map((d) => `-I ${rel(d)}`)].join(" ");
}

/** A message with the scratch folder's and the submission's absolute paths made relative (nothing absolute written). */
function unabs(text: string, dir: string, work: string): string {
  return text.split(`${work}/copy/`).join("").split(`${dir}/`).join("").split(`${work}/`).join("");
}

/** Lines said of every instance alike (`X: signature API nist …`) said once, as "every instance: …". */
function grouped(lines: string[], names: string[]): string[] {
  if (names.length < 2) return lines;
  const restOf = (l: string) => {
    const n = names.find((x) => l.startsWith(`${x}: `));
    return n === undefined ? null : l.slice(n.length + 2);
  };
  const count = new Map<string, Set<string>>();
  for (const l of lines) {
    const rest = restOf(l);
    if (rest !== null) count.set(rest, new Set([...(count.get(rest) ?? []), l.slice(0, l.length - rest.length - 2)]));
  }
  const out: string[] = [];
  const said = new Set<string>();
  for (const l of lines) {
    const rest = restOf(l);
    if (rest === null || (count.get(rest)?.size ?? 0) < names.length) out.push(l);
    else if (!said.has(rest)) {
      said.add(rest);
      out.push(`every instance: ${rest}`);
    }
  }
  return out;
}

const skOf = (d: Draft, category: Category) =>
  category === "kex" ? d.sizes.CRYPTO_KEX_SECRETKEYBYTES_B : d.sizes.CRYPTO_SECRETKEYBYTES;
const pkOf = (d: Draft, category: Category) =>
  category === "kex" ? d.sizes.CRYPTO_KEX_PUBLICKEYBYTES_B : d.sizes.CRYPTO_PUBLICKEYBYTES;

function catalogRow(id: string, d: Draft, category: Category): string {
  const s = d.sizes;
  const cell = (v: number | undefined) => (v === undefined ? "" : String(v));
  const messages =
    category === "kex"
      ? [s.CRYPTO_KEX_MSG1BYTES, ...((s.CRYPTO_KEX_PASSES ?? 1) >= 2 ? [s.CRYPTO_KEX_MSG2BYTES] : [])]
          .map(cell)
          .join("+")
      : "";
  return [
    id,
    d.name,
    category,
    cell(category === "kex" ? s.CRYPTO_KEX_PUBLICKEYBYTES_B : s.CRYPTO_PUBLICKEYBYTES),
    category === "kem" ? cell(s.CRYPTO_CIPHERTEXTBYTES) : "",
    category === "sign" ? cell(s.CRYPTO_BYTES) : "",
    category === "kex" ? cell(s.CRYPTO_KEX_PUBLICKEYBYTES_A) : "",
    messages,
    "API header (ngcc-perf init: replace with the submission document's figures)",
    "",
  ].join(",");
}

const order = (h: string) => {
  const i = ICCS_HASH.indexOf(h);
  return i < 0 ? ICCS_HASH.length : i;
};
