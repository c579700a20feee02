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
import { findRsp, type Manifest, matchKat, planManifest, type RspFile, readRsp } from "./kat-files.ts";
import { folderLayout, implementationsOf } from "./layout.ts";
import { algorithmName, instanceNames, isLayoutName } from "./names.ts";
import { definesMain, definesRandombytes, headersReached, planSources } from "./sources.ts";
import {
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

/** Drafts meta.json for the submission folder `dir` without writing anything. */
export async function draftMeta(folder: string, opts: InitOptions = {}): Promise<InitResult> {
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
  const cc = opts.cc ?? process.env.CC ?? "gcc";
  const decided: string[] = [];
  const undecided: string[] = [];
  const rel = relTo(dir);
  const work = mkdtempSync(join(tmpdir(), "ngcc-init-"));
  try {
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
    const buildFiles = hasBuildFiles(dir);
    const inCopy = (p: string) => (p === dir || p.startsWith(`${dir}/`) ? join(copy, relative(dir, p)) : p);
    const fromCopy = (p: string) => (p === copy || p.startsWith(`${copy}/`) ? join(dir, relative(copy, p)) : p);
    const withStub = (f: CompileFlags): CompileFlags => ({
      ...f,
      includeDirs: [...f.includeDirs.map(inCopy), stub],
    });
    const ctx: ReadContext = { dir, copy, work, cc, rel };

    // 1. What is compiled: the build system's compile sets, else the folders.
    const drafts: Draft[] = [];
    for (const impl of implementationsOf(dir)) {
      let reading: BuildReading | null = null;
      if (buildFiles) {
        reading = await readMake(ctx, impl.folder);
        if (!reading || reading.sets.length === 0) {
          const c = await readCMake(ctx, impl.folder);
          if (c)
            reading = reading
              ? { ...c, decided: [...reading.decided, ...c.decided], undecided: [...reading.undecided, ...c.undecided] }
              : c;
        }
      }
      if (reading) {
        decided.push(...reading.decided);
        undecided.push(...reading.undecided);
      }
      if (reading && reading.sets.length > 0) {
        decided.push(
          `implementation ${impl.name}: ${rel(impl.folder)} (parameter sets and sources from its build system, ${reading.system === "make" ? "make -n -B" : "CMake"})`,
        );
        for (const s of reading.sets) drafts.push(fromCompileSet(s, impl, dir));
        continue;
      }
      const layout = folderLayout(impl.folder);
      if (layout.setDirs.length === 0) {
        undecided.push(`${rel(impl.folder)}: no API header (api.h, or a header defining CRYPTO_SECRETKEYBYTES)`);
        continue;
      }
      const why = !buildFiles
        ? "no Makefile or CMakeLists.txt"
        : reading
          ? "its build system gave no compile set"
          : "no Makefile or CMakeLists.txt for it";
      decided.push(
        `implementation ${impl.name}: ${rel(impl.folder)} (${why}: parameter sets and sources read from the folders; parameter-set folders: ${layout.setDirs.map(rel).join(", ")})`,
      );
      for (const setDir of layout.setDirs) {
        const plan = planSources(setDir, layout.shared);
        drafts.push({
          implementation: impl.name,
          implFolder: impl.folder,
          folder: setDir,
          label: setDir === dir ? basename(dir) : basename(setDir),
          name: "",
          parameterSet: "",
          from: `the folder ${rel(setDir)}`,
          fromBuild: false,
          flags: { defines: [], includeDirs: plan.includeDirs, cflags: [] },
          libraries: [],
          sources: plan.sources,
          dropped: [],
          partial: [],
          archive: false,
          headerFolders: [setDir, ...layout.shared],
          searchDirs: plan.includeDirs,
          headerOthers: [],
          sizes: {},
          leftOut: plan.leftOut,
          log: [],
          ...(plan.randombytesSource ? { randombytesSource: plan.randombytesSource } : {}),
        });
      }
    }
    // A folder read without a build system whose sources another implementation's build system compiles (CROSS:
    // Reference_Implementation, built per parameter set by Additional_Implementations/KAT_Generation's CMake with the
    // -D flags the folder alone lacks) is not an instance of its own: the build's compile sets are its reading.
    for (const d of [...drafts]) {
      if (d.fromBuild || d.sources.length === 0) continue;
      const by = drafts.find(
        (b) =>
          b.fromBuild && b.implementation !== d.implementation && d.sources.every((src) => b.sources.includes(src)),
      );
      if (!by) continue;
      drafts.splice(drafts.indexOf(d), 1);
      decided.push(
        `${rel(d.folder)}: no instance of its own: its sources are those ${rel(by.implFolder)}'s build system compiles per parameter set (${by.from})`,
      );
    }
    if (drafts.length === 0) {
      throw new InputError(
        `${dir}: found no parameter set — expected Reference_Implementation/<set>/api.h (or Optimized_Implementation/…), or an api.h in the folder`,
      );
    }

    // 2. The API header by what it compiles to, and its sizes by printparams.
    for (const [k, d] of drafts.entries()) {
      const flags = withStub(d.flags);
      const {
        choice: full,
        partial,
        passedOver,
      } = await chooseApiHeader(cc, candidateHeaders(d.headerFolders).map(inCopy), flags, work, (p) =>
        rel(fromCopy(p)),
      );
      const found = full ?? partial;
      const choice = found ? { ...found, header: fromCopy(found.header), others: found.others.map(fromCopy) } : null;
      if (!full && choice) {
        // The sizes without the functions (BIKE's api.h, the prototypes in kem.h): taken for the sizes, said.
        const decl = candidateHeaders(d.headerFolders).find(
          (h) =>
            h !== choice.header &&
            new RegExp(`\\b${choice.shape.prefix}crypto_(kem|sign)_keypair\\s*\\(`).test(readSome(h)),
        );
        undecided.push(
          `${d.label}: ${rel(choice.header)} gives the sizes but not ${choice.shape.missing.join(", ")}${decl ? ` (declared in ${rel(decl)}, which it does not include)` : ""}; no header compiles to the full API: name one that does as apiHeader`,
        );
      }
      const shown = flagsShown(d.flags, rel);
      if (!choice) {
        const first = candidateHeaders(d.headerFolders)[0];
        if (first) d.header = first;
        undecided.push(
          `${d.label}: no header compiles to the NIST API${shown ? ` with ${shown}` : ""}${passedOver.length > 0 ? ` (${passedOver.join("; ")})` : ""}`,
        );
        continue;
      }
      d.header = choice.header;
      d.shape = choice.shape;
      d.headerOthers = choice.others;
      d.log.push(
        `API header ${rel(choice.header)} (preprocessed${shown ? ` with ${shown}` : ""}: it gives the CRYPTO_* sizes${full ? " and the API functions" : ""})${choice.passedOver.length > 0 ? `; passed over ${choice.passedOver.join("; ")}` : ""}`,
      );
      const sizes = await compiledSizes(cc, inCopy(choice.header), choice.shape, flags, work, String(k));
      if (sizes.error) {
        undecided.push(
          `${d.label}: could not read the sizes of ${rel(choice.header)}: ${unabs(sizes.error, dir, work)}`,
        );
      } else {
        d.sizes = sizes.sizes;
        if (sizes.algname) d.algname = sizes.algname;
        d.log.push(
          `sizes by compiling ${rel(choice.header)}${shown ? ` with ${shown}` : ""} (native/printparams, run in the sandbox)`,
        );
      }
    }

    // 3. Names: CRYPTO_ALGNAME, the build's values or programs, the set folders; never a layout folder.
    const byImpl = new Map<string, Draft[]>();
    for (const d of drafts) byImpl.set(d.implementation, [...(byImpl.get(d.implementation) ?? []), d]);
    for (const group of byImpl.values()) {
      const names = instanceNames(
        group.map((d) => ({
          ...(d.algname ? { algname: d.algname } : {}),
          label: d.label,
          fallback: isLayoutName(basename(d.folder)) ? basename(dir) : basename(d.folder),
        })),
        group.every((d) => !d.fromBuild && !isLayoutName(d.label)),
      );
      for (const [k, d] of group.entries()) {
        d.parameterSet = names[k] as string;
        d.name = d.implementation === "reference" ? d.parameterSet : `${d.parameterSet}-${d.implementation}`;
        if (d.fromBuild) decided.push(`${d.name}: compile set from ${d.from}`);
        decided.push(...d.log.map((l) => `${d.name}: ${l}`));
      }
    }
    for (const d of drafts) {
      if (!isValidName(d.name)) {
        throw new InputError(
          `${rel(d.folder)}: the instance name "${d.name}" is not a valid name; expected ${NAME_RULE}`,
        );
      }
    }
    const dropped = new Map<string, string[]>();
    for (const d of drafts) for (const x of d.dropped) dropped.set(x, [...(dropped.get(x) ?? []), d.name]);
    for (const [x, names] of dropped) {
      decided.push(`${names.length === drafts.length ? "every instance" : names.join(", ")}: did not carry ${x}`);
    }

    // 4. Every source compiled to an object and read with nm: main, randombytes, what nothing calls.
    const unitOf = (src: string, d: Draft): Unit => ({ source: inCopy(src), flags: withStub(d.flags) });
    let compiled = await compileUnits(
      cc,
      drafts.flatMap((d) => d.sources.map((s) => unitOf(s, d))),
      work,
    );
    // Intrinsics that need an instruction-set flag the package's -march=native gave (not carried): the flag the
    // failing unit's intrinsic names added to the instance's cflags, and the units compiled again.
    const added = new Map<Draft, string[]>();
    for (let round = 0; round < 6; round++) {
      const needed = new Map<Draft, Set<string>>();
      for (const f of compiled.failed) {
        if (!/target specific option mismatch/.test(f.error)) continue;
        const intrinsic = [...f.error.matchAll(/‘(\w+)’/g)].map((m) => m[1] as string).pop() ?? "";
        const flag = FEATURE_OF.find(([re]) => re.test(intrinsic))?.[1];
        if (!flag) continue;
        for (const d of drafts) {
          if (!d.sources.some((x) => inCopy(x) === f.source) || d.flags.cflags.includes(flag)) continue;
          if (needed.get(d)?.has(flag)) continue;
          needed.set(d, new Set([...(needed.get(d) ?? []), flag]));
          decided.push(
            `${d.name}: cflags ${flag} added: ${rel(fromCopy(f.source))} uses ${intrinsic}, which needs it (the package's build had it from -march=native)`,
          );
        }
      }
      if (needed.size === 0) break;
      for (const [d, flags] of needed) {
        d.flags = { ...d.flags, cflags: [...d.flags.cflags, ...flags] };
        added.set(d, [...(added.get(d) ?? []), ...flags]);
      }
      compiled = await compileUnits(
        cc,
        drafts.flatMap((d) => d.sources.map((s) => unitOf(s, d))),
        work,
      );
    }
    // A library the build makes (no program links it): the symbols its objects use and nothing defines are
    // looked for in the .c files of its include folders (PQClean's common/fips202.c), as a program's link would.
    for (const d of drafts.filter((x) => x.archive)) {
      const pool = unique([...d.flags.includeDirs, ...d.sources.map((x) => dirname(x))])
        .flatMap((f) => filesIn(f, ".c"))
        .filter((f) => !d.sources.includes(f));
      const poolUnits = await compileUnits(
        cc,
        pool.map((x) => unitOf(x, d)),
        work,
      );
      for (let round = 0; round < 8; round++) {
        const mine = d.sources
          .map((x) => compiled.perUnit.get(unitKey(unitOf(x, d))))
          .filter((u): u is UnitSymbols => !!u);
        const defined = new Set(mine.flatMap((u) => [...u.defined]));
        const missing = new Set(mine.flatMap((u) => [...u.used]).filter((x) => !defined.has(x)));
        const add = pool.filter((f) => {
          const u = poolUnits.perUnit.get(unitKey(unitOf(f, d)));
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
          const u = poolUnits.perUnit.get(unitKey(unitOf(f, d))) as UnitSymbols;
          compiled.perUnit.set(unitKey(unitOf(f, d)), u);
          d.sources.push(f);
          decided.push(
            `${d.name}: added ${rel(f)}: it defines ${[...u.defined]
              .filter((x) => missing.has(x))
              .slice(0, 3)
              .join(
                ", ",
              )}, which the library's objects call (the build makes a library; nothing in it links the program)`,
          );
        }
      }
    }
    if (
      compiled.failed.some((f) => /target specific option mismatch/.test(f.error)) &&
      [...dropped.keys()].some((x) => x.startsWith("-march=native"))
    ) {
      undecided.push(
        'sources use instructions the package\'s -march=native gave ("target specific option mismatch"): add the -m<feature> flags they need (-maes, -mavx2 …) to cflags, or build with a profile that has -march=native',
      );
    }
    for (const f of compiled.failed) {
      undecided.push(
        `${rel(fromCopy(f.source))} did not compile (its symbols are not read): ${unabs(f.error, dir, work)}`,
      );
    }
    const kept = new Set<UnitSymbols>();
    for (const d of drafts) {
      const unit = (src: string) => compiled.perUnit.get(unitKey(unitOf(src, d)));
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
      // The submitter's randombytes in the folder, when the build did not list it.
      if (!d.randombytesSource) {
        const near = unique([d.folder, ...d.flags.includeDirs, ...sources.map((s) => dirname(s))]).flatMap((f) =>
          filesIn(f, ".c"),
        );
        const rb = near.find(
          (f) =>
            !sources.includes(f) && (/^(randombytes|rng)\.c$/i.test(basename(f)) || definesRandombytes(readSome(f))),
        );
        if (rb) {
          d.randombytesSource = rb;
          d.leftOut.push({
            file: rb,
            why: "defines randombytes: ngcc-perf provides randombytes (the KAT DRBG or the system RNG)",
          });
        }
      }
      // What nothing calls — only in the folder fallback (a build system's list is the package's own word), and
      // only when every unit compiled: a unit that failed calls nothing we can see.
      const failedHere = sources.filter((s) => !unit(s));
      if (!d.fromBuild && failedHere.length > 0) {
        decided.push(
          `${d.name}: kept every source found (${failedHere.map(rel).join(", ")} did not compile, so which sources are called is not known)`,
        );
      } else if (!d.fromBuild) {
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
            decided.push(
              `${d.name}: left out ${rel(src)}: ${u.functions.size === 0 ? "defines no function" : "none of the instance's other sources calls its functions"}${d.flags.defines.length > 0 ? ` with ${d.flags.defines.map((x) => `-D${x}`).join(" ")}` : ""}`,
            );
            break;
          }
        }
      }
      d.sources = sources;
      for (const src of sources) {
        const u = unit(src);
        if (u) kept.add(u);
      }
    }

    // 5. Category: --category, else the API headers' macros (all instances must agree).
    const categories = unique(drafts.map((d) => d.shape?.category).filter((c): c is Category => !!c));
    let category: Category;
    if (opts.category) {
      category = opts.category;
      if (categories.length > 0 && !categories.every((c) => c === category)) {
        undecided.push(`category: --category ${category}, but the API headers' macros say ${categories.join(", ")}`);
      }
    } else if (categories.length === 1) {
      // Instances whose header gave no category were said above (their header does not compile to the API).
      category = categories[0] as Category;
      const why =
        category === "kex"
          ? "CRYPTO_KEX_PASSES"
          : category === "kem"
            ? "CRYPTO_CIPHERTEXTBYTES"
            : "CRYPTO_BYTES without CRYPTO_CIPHERTEXTBYTES";
      decided.push(`category ${category}: the API headers define ${why}`);
    } else {
      throw new InputError(
        `${dir}: could not decide the category from the API headers' macros (${categories.join(", ") || "no CRYPTO_CIPHERTEXTBYTES, CRYPTO_BYTES or CRYPTO_KEX_PASSES"}); give --category kem|sign|kex`,
      );
    }

    const id =
      opts.id ??
      basename(dir)
        .toLowerCase()
        .replace(/[^a-z0-9.+-]+/g, "-")
        .replace(/^-+|-+$/g, "");
    if (!isValidName(id)) throw new InputError(`${dir}: cannot make an id from the folder's name; give --id`);
    if (!opts.id) decided.push(`id ${id}: from the folder's name (--id to choose another)`);
    const algnames = unique(drafts.map((d) => d.algname).filter((a): a is string => !!a));
    const common = algorithmName(algnames);
    const name = common ?? basename(dir);

    // 6. KAT files by the sizes; the ones no instance uses said.
    const rsps = findRsp(dir).map((p) => readRsp(dir, p));
    const katOf = new Map<Draft, RspFile>();
    for (const d of drafts) {
      const m = matchKat(
        {
          name: d.name,
          parameterSet: d.parameterSet,
          ...(d.algname ? { algname: d.algname } : {}),
          implementation: d.implementation,
          implFolder: d.implFolder,
          ...(skOf(d, category) !== undefined ? { sk: skOf(d, category) as number } : {}),
          ...(pkOf(d, category) !== undefined ? { pk: pkOf(d, category) as number } : {}),
        },
        rsps,
        category,
      );
      if (m.file) katOf.set(d, m.file);
      if (m.undecided) undecided.push(m.undecided);
    }
    for (const [d, f] of katOf) decided.push(`${d.name}: KAT ${f.rel} (sizes match its API header)`);
    const used = new Set(katOf.values());
    const unused = rsps.filter((f) => !used.has(f));
    if (unused.length > 0) {
      const fitsSome = (f: RspFile) =>
        drafts.some(
          (d) => f.skBytes === undefined || f.skBytes === skOf(d, category) || f.nameBytes === skOf(d, category),
        );
      const other = unused.filter(fitsSome);
      const none = unused.filter((f) => !fitsSome(f));
      if (other.length > 0) {
        undecided.push(
          `KAT files no instance uses: ${other.map((f) => f.rel).join(", ")} (their sizes fit an instance that took another file: a variant init did not find? add an instance by hand)`,
        );
      }
      if (none.length > 0) {
        undecided.push(
          `KAT files no instance uses: ${none.map((f) => f.rel).join(", ")} (their sizes match no instance's API header)`,
        );
      }
    }
    const manifest = planManifest(dir, [...used], rel, opts.update === true);
    if (manifest.action === "checked" && manifest.problems.length === 0) {
      decided.push(`${rel(manifest.path)}: checked, every KAT file matches`);
    }

    // 7. ICCS, randomness, the KAT switch and libraries from the sources' text and symbols; the instances.
    const hashCalls = new Set<string>();
    let iccsHeader = false;
    let drngCall = false;
    const instances: Array<Record<string, unknown>> = [];
    const catalog: string[] = [
      "algorithm_id,instance,category,public_key,ciphertext,signature,public_key_a,kex_messages,source,note",
    ];
    const symbols = objectSymbols(kept);
    for (const d of drafts) {
      const headers = headersReached(d.sources, unique([...d.flags.includeDirs, ...d.searchDirs]));
      const all = [...d.sources, ...headers].map((f) => stripComments(readSome(f))).join("\n");
      const usesIccsHeader = /#\s*include\s*[<"]iccs\.h[">]/.test(all);
      iccsHeader ||= usesIccsHeader;
      for (const h of ICCS_HASH) {
        const called = new RegExp(`\\b${h}\\s*\\(`).test(all);
        const defined = new RegExp(`\\b${h}\\s*\\([^;{)]*\\)\\s*\\{`).test(all);
        if (called && !defined) hashCalls.add(h);
      }
      for (const m of all.matchAll(/\b(sm3\w*)\s*\(/g)) {
        const sym = m[1] as string;
        if (!new RegExp(`\\b${sym}\\s*\\([^;{)]*\\)\\s*\\{`).test(all) && usesIccsHeader) hashCalls.add(sym);
      }
      const callsRandombytes = /\b(?:\w+_)?randombytes\s*\(/.test(all);
      if (usesIccsHeader && callsRandombytes) drngCall = true;
      const katSwitch = katSwitchOf(all);
      const defined = new Set(d.flags.defines.map((x) => x.replace(/[(=].*$/, "")));
      const readsSystem = /\/dev\/u?random|\bgetrandom\s*\(|\bgetentropy\s*\(/.test(all);
      const randomness = katSwitch && readsSystem ? "self" : "randombytes";
      const katDefines = [...d.flags.defines];
      if (katSwitch && !defined.has(katSwitch)) {
        katDefines.push(katSwitch);
        decided.push(
          `${d.name}: KAT builds add -D${katSwitch} (the sources test it)${readsSystem ? "; other builds read the system RNG themselves (randomness: self)" : ""}`,
        );
      } else if (!callsRandombytes) {
        undecided.push(
          `${d.name}: its sources never call randombytes; if it draws randomness itself, set randomness: self`,
        );
      }
      if (d.headerOthers.length > 0 && d.header) {
        undecided.push(
          `${d.name}: several headers compile to the API (${[d.header, ...d.headerOthers].map(rel).join(", ")}); took ${rel(d.header)}`,
        );
      }
      for (const l of d.leftOut) decided.push(`${d.name}: left out ${rel(l.file)}: ${l.why}`);
      if (d.partial.length > 0) {
        undecided.push(
          `${d.name}: ${d.partial.join(" ")} on the compile lines of some sources only (${d.from}); meta.json has one set of flags, so every source gets them: the instance is built for a machine that has them all`,
        );
      }
      // Libraries: the link line's; without a build system, OpenSSL when the code calls it.
      let libraries = d.libraries;
      const mine = d.sources
        .map((s) => compiled.perUnit.get(unitKey(unitOf(s, d))))
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
          decided.push(
            `${d.name}: did not carry ${unneeded.map((l) => `-l${l}`).join(" ")} (on its link line, but no kept source calls OpenSSL: the left-out KAT program and DRBG need it)`,
          );
        }
        if (libraries.length > 0) {
          decided.push(`${d.name}: libraries ${libraries.join(", ")} (-l on its link line)`);
        }
      }
      if (!d.fromBuild) {
        if (calls.length > 0 || includes) {
          libraries = ["crypto"];
          decided.push(
            `${d.name}: libraries crypto (OpenSSL's libcrypto: ${calls.length > 0 ? `calls ${calls.slice(0, 4).join(", ")}${calls.length > 4 ? " …" : ""}` : "includes <openssl/…>"})`,
          );
        }
      }
      const own = d.flags.cflags.filter((x) => !(added.get(d) ?? []).includes(x));
      if (own.length > 0) decided.push(`${d.name}: cflags ${own.join(" ")} (its compile lines)`);
      if (d.fromBuild && d.flags.defines.length > 0) {
        decided.push(`${d.name}: defines ${d.flags.defines.map((x) => `-D${x}`).join(" ")} (its compile lines)`);
      }
      const api: Record<string, string> = {};
      const shape = d.shape;
      if (category === "sign") {
        if (shape?.style) {
          api.style = shape.style;
          decided.push(`${d.name}: signature API ${shape.style} (${shape.styleWhy})`);
        } else {
          undecided.push(
            `${d.name}: no crypto_sign prototype in ${d.header ? rel(d.header) : "its API header"}; assumed the round-3 NIST API`,
          );
        }
      }
      if (shape?.prefix) {
        api.prefix = shape.prefix;
        decided.push(`${d.name}: API names prefixed ${shape.prefix} (the preprocessed header's size macros)`);
      }
      if (
        d.randombytesSymbol &&
        d.randombytesSymbol !== "PQCLEAN_randombytes" &&
        RANDOMBYTES_SYMBOL.test(d.randombytesSymbol)
      ) {
        api.randombytes = d.randombytesSymbol;
        decided.push(
          `${d.name}: api.randombytes ${d.randombytesSymbol} (the symbol ${rel(d.randombytesSource as string)} defines)`,
        );
      }
      const kat = katOf.get(d);
      instances.push({
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
      });
      catalog.push(catalogRow(id, d, category));
    }
    const iccs =
      iccsHeader || hashCalls.size > 0
        ? {
            header: "iccs.h",
            hash: [...hashCalls].sort((a, b) => order(a) - order(b)),
            drng: drngCall ? ["randombytes"] : [],
          }
        : null;
    decided.push(
      iccs
        ? `ICCS: ${iccsHeader ? "includes iccs.h" : "no iccs.h include"}; calls ${[...iccs.hash, ...iccs.drng].join(", ") || "no ICCS function"}`
        : "no ICCS: no iccs.h include and no call to pseudohash, pseudoXOF or sm3*: randomness from ngcc-perf's randombytes",
    );

    // 8. Profiler groups from the kept objects' symbols.
    const rbNames = unique([
      "randombytes",
      "PQCLEAN_randombytes",
      ...drafts.flatMap((d) => (d.randombytesSymbol ? [d.randombytesSymbol] : [])),
    ]);
    const groups = proposeGroups(symbols, iccs, rbNames);
    for (const [g, v] of Object.entries(groups)) {
      decided.push(`profiler group ${g} (${v.label}): ${v.symbols.length} symbols: ${v.symbols.join(", ")}`);
    }
    if (Object.keys(groups).length === 0) undecided.push("profiler groups: no hash, DRNG or cipher symbol found");
    undecided.push("summary: not in the folder — add a one-line description to meta.json");
    if (algnames.length > 0) {
      decided.push(
        `name ${name} (${common ? `CRYPTO_ALGNAME: ${algnames.join(", ")}` : `the folder's name: the CRYPTO_ALGNAMEs ${algnames.join(", ")} share no whole word`})`,
      );
    }

    const implementations = unique(drafts.map((d) => d.implementation)).map((n) => ({
      name: n,
      folder: rel(drafts.find((d) => d.implementation === n)?.implFolder ?? dir),
    }));
    const meta: Record<string, unknown> = {
      schemaVersion: 1,
      id,
      name,
      category,
      implementations,
      parameterSets: unique(drafts.map((d) => d.parameterSet)),
      ...(iccs ? { iccs } : {}),
      ...(manifest.action !== "none" ? { katManifest: rel(manifest.path) } : {}),
      instances,
      ...(Object.keys(groups).length > 0
        ? { profiler: { groups, ...(iccs ? {} : { replaceCampaignGroups: true }) } }
        : {}),
    };
    return {
      dir,
      metaPath: join(dir, "meta.json"),
      meta,
      wrote: false,
      manifest,
      catalogRows: catalog,
      decided: grouped(
        decided,
        drafts.map((d) => d.name),
      ).map((l) => unabs(l, dir, work)),
      undecided: unique(undecided.map((l) => unabs(l, dir, work))),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
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
