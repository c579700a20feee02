// ngcc-perf init: drafts a submission's meta.json from its folder as NIST and NGCC submissions arrive —
// implementation folders, one folder per parameter set with its API header (or one folder whose Makefile builds the
// sets with -D defines), the KAT files matched by the sizes in each header, ICCS use, the submitter's randombytes,
// the signature API style, profiler groups from the objects' symbols and catalog rows. It decides what the folder
// shows and lists plainly what it could not decide; it never overwrites meta.json without force.
import { createHash } from "node:crypto";
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { isValidName, NAME_RULE } from "@ngcc-perf/schema";
import { InputError } from "./errors.ts";
import type { Category } from "./instances.ts";
import { type RunResult, runProcess } from "./proc.ts";
import { writeFileAtomic } from "./store.ts";

export interface InitOptions {
  /** The algorithm id (default: from the folder's name). */
  id?: string;
  /** The category, when the API header's macros do not decide it (or to override them). */
  category?: Category;
  /** Overwrite an existing meta.json. */
  force?: boolean;
  /** The C compiler used to read sizes and symbols (default $CC or gcc). */
  cc?: string;
}

/** A profiler group as meta.json's `profiler.groups` holds it. */
export interface InitGroup {
  symbols: string[];
  label: string;
  kind: "hash" | "drng" | "other";
}

export interface InitResult {
  dir: string;
  metaPath: string;
  meta: Record<string, unknown>;
  /** Whether meta.json was written (false for a dry draft). */
  wrote: boolean;
  manifest: { path: string; action: "written" | "checked" | "none"; problems: string[] };
  /** Size-catalog rows (CSV, with the header line first): printed for the person who curates the catalog. */
  catalogRows: string[];
  /** What init decided and from what (one line each). */
  decided: string[];
  /** What init could not decide (one line each: what, and what to do). */
  undecided: string[];
}

const IMPLEMENTATION_DIR = /^(reference|optimized|optimised|additional)_implementations?$/i;
const SKIP_DIRS = new Set(["kat", "kats", "test", "tests", ".git", "build", "bin", "obj", "doc", "docs"]);
const ICCS_HASH = ["sm3hash", "pseudohash", "pseudoXOF"];
const KAT_SWITCHES = ["KAT_BUILD", "NIST_KAT", "GENKAT", "GEN_KAT", "KAT"];
/** rsp and other files read for matching are read up to this size. */
const MAX_READ = 8 * 1024 * 1024;

/** A source's text with comments removed (string literals kept). */
function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, " ");
}

function readSome(file: string, limit = MAX_READ): string {
  const fd = openSync(file, "r");
  try {
    const buf = Buffer.alloc(Math.min(limit, statSync(file).size));
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

const posix = (p: string) => p.split(sep).join("/");
const isDir = (p: string) => statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;

function entries(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** Folders under root (root included), depth-first, skipping KAT/test/build folders and hidden ones. */
function foldersUnder(root: string, depth = 4): string[] {
  const out = [root];
  if (depth === 0) return out;
  for (const e of entries(root)) {
    const p = join(root, e);
    if (e.startsWith(".") || SKIP_DIRS.has(e.toLowerCase()) || !isDir(p)) continue;
    out.push(...foldersUnder(p, depth - 1));
  }
  return out;
}

const filesIn = (dir: string, ext: string) =>
  entries(dir)
    .filter((f) => f.endsWith(ext) && !isDir(join(dir, f)))
    .map((f) => join(dir, f));

/** Does this header define the NIST API's secret-key size macro (possibly namespaced)? */
function isApiHeader(text: string): boolean {
  return /#\s*define\s+\w*CRYPTO_(SECRETKEYBYTES|KEX_SECRETKEYBYTES_B)\b/.test(text);
}

/** The folder's API header: api.h when present, else the one header that defines the size macros. */
function apiHeaderOf(dir: string): { file: string; others: string[] } | null {
  const api = join(dir, "api.h");
  if (existsSync(api)) return { file: api, others: [] };
  const found = filesIn(dir, ".h").filter((h) => isApiHeader(readSome(h)));
  const first = found[0];
  return first ? { file: first, others: found.slice(1) } : null;
}

// ---------------------------------------------------------------------------------------------------------------
// Sizes from the API header: its macros expanded by the preprocessor, the integer expressions evaluated here (the
// submitter's code is never run).

/** Evaluates an integer constant expression of numbers, + - * / % << >> and parentheses (casts removed). */
export function evaluateConstant(expr: string): number | null {
  const text = expr
    .replace(/\(\s*(?:const\s+)?(?:unsigned|signed|int|long|short|char|size_t|u?int(?:8|16|32|64)_t|\s)+\)/g, " ")
    .replace(/\b(0x[0-9a-fA-F]+|\d+)[uUlL]*\b/g, "$1");
  const tokens = text.match(/0x[0-9a-fA-F]+|\d+|<<|>>|[-+*/%()]|\S/g) ?? [];
  let i = 0;
  const peek = () => tokens[i];
  const primary = (): number => {
    const t = tokens[i++];
    if (t === "(") {
      const v = shift();
      if (tokens[i++] !== ")") throw new Error("paren");
      return v;
    }
    if (t === "-") return -primary();
    if (t === "+") return primary();
    if (t !== undefined && /^(0x[0-9a-fA-F]+|\d+)$/.test(t)) return Number(t);
    throw new Error("token");
  };
  const product = (): number => {
    let v = primary();
    for (let t = peek(); t === "*" || t === "/" || t === "%"; t = peek()) {
      i++;
      const r = primary();
      if (t !== "*" && r === 0) throw new Error("zero");
      v = t === "*" ? v * r : t === "/" ? Math.trunc(v / r) : v % r;
    }
    return v;
  };
  function sum(): number {
    let v = product();
    for (let t = peek(); t === "+" || t === "-"; t = peek()) {
      i++;
      v = t === "+" ? v + product() : v - product();
    }
    return v;
  }
  function shift(): number {
    let v = sum();
    for (let t = peek(); t === "<<" || t === ">>"; t = peek()) {
      i++;
      const r = sum();
      v = t === "<<" ? v * 2 ** r : Math.floor(v / 2 ** r);
    }
    return v;
  }
  try {
    const v = shift();
    return i === tokens.length && Number.isSafeInteger(v) && v >= 0 ? v : null;
  } catch {
    return null;
  }
}

const SIZE_MACROS = [
  "CRYPTO_SECRETKEYBYTES",
  "CRYPTO_PUBLICKEYBYTES",
  "CRYPTO_CIPHERTEXTBYTES",
  "CRYPTO_BYTES",
  "CRYPTO_KEX_PASSES",
  "CRYPTO_KEX_MSG1BYTES",
  "CRYPTO_KEX_MSG2BYTES",
  "CRYPTO_KEX_PUBLICKEYBYTES_A",
  "CRYPTO_KEX_PUBLICKEYBYTES_B",
  "CRYPTO_KEX_SECRETKEYBYTES_B",
] as const;

interface ApiFacts {
  prefix: string;
  sizes: Partial<Record<(typeof SIZE_MACROS)[number], number>>;
  /** Macros defined whose value could not be evaluated. */
  unresolved: string[];
  algname?: string;
  category: Category | null;
  style?: "nist" | "fips204";
  styleWhy?: string;
  error?: string;
}

async function readApi(
  cc: string,
  header: string,
  includeDirs: string[],
  defines: string[],
  stubDir: string,
): Promise<ApiFacts> {
  const text = stripComments(readSome(header));
  const prefix = /#\s*define\s+(\w*?)CRYPTO_(?:SECRETKEYBYTES|KEX_SECRETKEYBYTES_B)\b/.exec(text)?.[1] ?? "";
  const probe = join(stubDir, `ngcc_init_probe_${createHash("sha256").update(header).digest("hex").slice(0, 8)}.c`);
  const lines = [`#include "${header}"`];
  for (const m of [...SIZE_MACROS, "CRYPTO_ALGNAME"]) {
    lines.push(`#ifdef ${prefix}${m}`, `ngcc_init_${m} = ${prefix}${m} ;`, "#endif");
  }
  writeFileSync(probe, `${lines.join("\n")}\n`);
  const args = ["-E", "-P", ...defines.map((d) => `-D${d}`), ...includeDirs.flatMap((d) => ["-I", d])];
  // The preprocessor reads the submission's headers: in the sandbox like every build (only stubDir writable).
  const r = await runProcess([cc, ...args, "-I", stubDir, probe], {
    timeoutMs: 60_000,
    cwd: stubDir,
    writable: [stubDir],
  });
  const facts: ApiFacts = { prefix, sizes: {}, unresolved: [], category: null };
  if (r.exitCode !== 0) {
    facts.error = firstErrorLine(r.stderr || r.spawnError || processEnd(r));
  } else {
    for (const m of r.stdout.matchAll(/^ngcc_init_(\w+) = (.*) ;$/gm)) {
      const name = m[1] as string;
      const value = (m[2] as string).trim();
      if (name === "CRYPTO_ALGNAME") {
        const s = /^"([^"]*)"$/.exec(value.replace(/"\s*"/g, ""));
        if (s?.[1]) facts.algname = s[1];
        continue;
      }
      const v = evaluateConstant(value);
      if (v === null) facts.unresolved.push(`${prefix}${name}`);
      else facts.sizes[name as (typeof SIZE_MACROS)[number]] = v;
    }
  }
  const defined = (m: string) => new RegExp(`#\\s*define\\s+${prefix}${m}\\b`).test(text) || m in facts.sizes;
  facts.category = defined("CRYPTO_KEX_PASSES")
    ? "kex"
    : defined("CRYPTO_CIPHERTEXTBYTES")
      ? "kem"
      : defined("CRYPTO_BYTES")
        ? "sign"
        : null;
  // The signature API: crypto_sign's prototype — 5 parameters is the round-3 NIST API, 7 (ctx, ctxlen) FIPS 204.
  const proto = new RegExp(`\\b${prefix}crypto_sign\\s*\\(([^;{)]*)\\)\\s*;`).exec(text.replace(/\s+/g, " "));
  if (proto?.[1] !== undefined) {
    const params = proto[1].split(",").map((p) => p.trim());
    const ctx = params.some((p) => /\bctx\w*\b|context/i.test(p));
    facts.style = params.length >= 7 || ctx ? "fips204" : "nist";
    facts.styleWhy = `${prefix}crypto_sign has ${params.length} parameters${ctx ? " with a context" : ""}`;
  }
  return facts;
}

/** How a process that printed nothing ended. */
function processEnd(r: RunResult): string {
  if (r.timedOut) return `timed out after ${r.timeLimitMs} ms`;
  return r.signal ? `killed by ${r.signal}` : `exit ${r.exitCode}`;
}

function firstErrorLine(stderr: string): string {
  const lines = stderr.split("\n").filter((l) => l.trim() !== "");
  return (lines.find((l) => /\berror\b/.test(l)) ?? lines[0] ?? "").trim();
}

// ---------------------------------------------------------------------------------------------------------------
// Sources: the set folder's .c files and those of the shared folders whose headers the set includes.

interface SourcePlan {
  sources: string[];
  includeDirs: string[];
  /** Headers the sources include (found in the set and shared folders). */
  headers: string[];
  leftOut: Array<{ file: string; why: string }>;
  randombytesSource?: string;
}

const includesOf = (text: string) =>
  [...stripComments(text).matchAll(/^\s*#\s*include\s*"([^"]+)"/gm)].map((m) => m[1] as string);

function definesRandombytes(text: string): boolean {
  return /\b(?:PQCLEAN_)?randombytes\s*\([^;{)]*\)\s*\{/.test(stripComments(text));
}

function definesMain(text: string): boolean {
  return /\bint\s+main\s*\([^;{)]*\)\s*\{/.test(stripComments(text));
}

function planSources(setDir: string, shared: string[]): SourcePlan {
  const searchDirs = [setDir, ...shared];
  const find = (name: string, from: string): string | null => {
    for (const d of [from, ...searchDirs]) {
      const p = join(d, name);
      if (existsSync(p) && !isDir(p)) return p;
    }
    return null;
  };
  const leftOut: SourcePlan["leftOut"] = [];
  let randombytesSource: string | undefined;
  const candidate = (file: string): boolean => {
    const text = readSome(file);
    if (/^(randombytes|rng)\.c$/i.test(basename(file)) || definesRandombytes(text)) {
      randombytesSource ??= file;
      leftOut.push({
        file,
        why: "defines randombytes: ngcc-perf provides randombytes (the KAT DRBG or the system RNG)",
      });
      return false;
    }
    if (definesMain(text)) {
      leftOut.push({ file, why: "defines main (a test or KAT program, not the scheme)" });
      return false;
    }
    return true;
  };
  const own = filesIn(setDir, ".c").filter(candidate);
  // What a file includes, transitively (headers, and .c files included as text).
  const reachCache = new Map<string, Set<string>>();
  const reach = (root: string): Set<string> => {
    const cached = reachCache.get(root);
    if (cached) return cached;
    const found = new Set<string>();
    const queue = [root];
    while (queue.length > 0) {
      const file = queue.pop() as string;
      for (const inc of includesOf(readSome(file))) {
        const p = find(inc, dirname(file));
        if (!p || found.has(p) || p === root) continue;
        found.add(p);
        queue.push(p);
      }
    }
    reachCache.set(root, found);
    return found;
  };
  const headers = new Set<string>();
  const includedC = new Set<string>();
  const add = (file: string) => {
    for (const p of reach(file)) (p.endsWith(".c") ? includedC : headers).add(p);
  };
  own.forEach(add);
  const stems = new Set(searchDirs.flatMap((d) => filesIn(d, ".h")).map((h) => basename(h, ".h")));
  const sources = [...own];
  const usedDirs = new Set<string>([setDir]);
  const considered = new Set<string>();
  // A shared .c is compiled when its header is included, or when it has no header of its own and its folder is
  // used or it includes the set's headers (the folder's code implementing the API, as common/kem.c does).
  for (let changed = true; changed; ) {
    changed = false;
    for (const d of shared) {
      const dirUsed = [...headers].some((h) => dirname(h) === d);
      for (const c of filesIn(d, ".c")) {
        if (considered.has(c) || includedC.has(c)) continue;
        const stem = basename(c, ".c");
        const reachesSet = [...reach(c)].some((h) => dirname(h) === setDir);
        const headerReached = [...headers].some((h) => basename(h, ".h") === stem);
        if (!(headerReached || (!stems.has(stem) && (dirUsed || reachesSet)))) continue;
        considered.add(c);
        changed = true;
        if (!candidate(c)) continue;
        sources.push(c);
        add(c);
      }
    }
  }
  for (const h of headers) {
    const d = dirname(h);
    if (shared.includes(d)) usedDirs.add(d);
  }
  for (const c of sources) usedDirs.add(dirname(c));
  const finalSources = sources.filter((c) => !includedC.has(c));
  return {
    sources: finalSources,
    includeDirs: searchDirs.filter((d) => usedDirs.has(d)),
    headers: [...headers].sort(),
    leftOut,
    ...(randombytesSource ? { randombytesSource } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Makefile variants: one source folder, one -D<NAME>=<value> per parameter set.

interface Variant {
  name: string;
  define: string;
}

export function makefileVariants(text: string): { macro: string; variants: Variant[] } | null {
  const byMacro = new Map<string, Map<string, string>>();
  let target: string | null = null;
  for (const raw of text.split("\n")) {
    const line = raw.replace(/#.*$/, "");
    const rule = /^([A-Za-z0-9_.+-]+)\s*:(?!=)/.exec(line);
    if (rule?.[1] && !rule[1].startsWith(".")) target = rule[1];
    for (const m of line.matchAll(/-D([A-Za-z_]\w*)=("?)([^\s"]+)\2/g)) {
      const macro = m[1] as string;
      const value = m[3] as string;
      const values = byMacro.get(macro) ?? new Map<string, string>();
      if (!values.has(value)) values.set(value, target ?? value);
      byMacro.set(macro, values);
    }
  }
  const best = [...byMacro.entries()].filter(([, v]) => v.size >= 2).sort((a, b) => b[1].size - a[1].size)[0];
  if (!best) return null;
  const [macro, values] = best;
  const names = [...values.values()];
  const distinct = new Set(names).size === names.length;
  return {
    macro,
    variants: [...values.entries()].map(([value, t]) => ({
      name: distinct ? t.replace(/\.(o|a|so|exe)$/, "") : `${macro}-${value}`,
      define: `${macro}=${value}`,
    })),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Symbols: the objects compiled (not linked, not run) and read with nm.

const PRIMITIVES: Array<{ group: string; label: string; kind: InitGroup["kind"]; re: RegExp }> = [
  {
    group: "sha3",
    label: "SHA-3/SHAKE (the submission's own)",
    kind: "hash",
    re: /keccak|shake|sha3|fips202/i,
  },
  {
    group: "sha2",
    label: "SHA-2 (the submission's own)",
    kind: "hash",
    re: /sha2(24|56)|sha384|sha512|sha2_|^sha2$/i,
  },
  { group: "aes", label: "AES (the submission's own)", kind: "other", re: /aes/i },
  { group: "sm3", label: "SM3 (the submission's own)", kind: "hash", re: /sm3/i },
  {
    group: "chacha",
    label: "ChaCha (the submission's own)",
    kind: "other",
    re: /chacha|salsa20/i,
  },
];

interface ObjectSymbols {
  defined: Map<string, string>; // symbol -> the source defining it
  undefined: Set<string>;
  /** Source -> the symbols its object uses but does not define. */
  uses: Map<string, Set<string>>;
  failed: Array<{ source: string; error: string }>;
}

interface UnitSymbols {
  source: string;
  /** Global functions the object defines. */
  defined: Set<string>;
  /** Symbols it uses and does not define. */
  used: Set<string>;
}

interface Unit {
  source: string;
  includeDirs: string[];
  defines: string[];
}

/** Each unit compiled to an object (not linked, not run) and read with nm; a unit that does not compile is failed. */
async function compileUnits(
  cc: string,
  units: ReadonlyArray<[string, Unit]>,
  work: string,
): Promise<{ perUnit: Map<string, UnitSymbols>; failed: ObjectSymbols["failed"] }> {
  const perUnit = new Map<string, UnitSymbols>();
  const failed: ObjectSymbols["failed"] = [];
  for (const [k, [key, u]] of units.entries()) {
    const obj = join(work, `u${k}.o`);
    const args = ["-std=c99", "-O1", "-w", "-c", ...u.defines.map((d) => `-D${d}`)];
    args.push(...u.includeDirs.flatMap((d) => ["-I", d]), "-I", work, u.source, "-o", obj);
    // Compiled (never linked or run) and read with nm, both in the sandbox: only the scratch folder writable.
    const r = await runProcess([cc, ...args], { timeoutMs: 120_000, cwd: work, writable: [work] });
    if (r.exitCode !== 0) {
      failed.push({ source: u.source, error: firstErrorLine(r.stderr || r.spawnError || processEnd(r)) });
      continue;
    }
    const nm = await runProcess(["nm", "-P", obj], { timeoutMs: 60_000, cwd: work });
    if (nm.exitCode !== 0) {
      failed.push({
        source: u.source,
        error: `nm -P: ${firstErrorLine(nm.stderr || nm.spawnError || processEnd(nm))}`,
      });
      continue;
    }
    const unit: UnitSymbols = { source: u.source, defined: new Set(), used: new Set() };
    for (const line of nm.stdout.split("\n")) {
      const [sym, type] = line.trim().split(/\s+/);
      if (!sym || !type) continue;
      if (type === "U") unit.used.add(sym);
      else if (type === "T") unit.defined.add(sym);
    }
    perUnit.set(key, unit);
  }
  return { perUnit, failed };
}

/** The symbols of a set of compiled units, together. */
function objectSymbols(units: Iterable<UnitSymbols>): ObjectSymbols {
  const out: ObjectSymbols = { defined: new Map(), undefined: new Set(), uses: new Map(), failed: [] };
  for (const u of units) {
    for (const sym of u.defined) if (!out.defined.has(sym)) out.defined.set(sym, u.source);
    for (const sym of u.used) out.undefined.add(sym);
    out.uses.set(u.source, new Set([...(out.uses.get(u.source) ?? []), ...u.used]));
  }
  for (const sym of out.defined.keys()) out.undefined.delete(sym);
  return out;
}

function proposeGroups(symbols: ObjectSymbols, iccs: { hash: string[]; drng: string[] } | null) {
  const groups: Record<string, InitGroup> = {};
  for (const p of PRIMITIVES) {
    const matching = [...symbols.defined.entries()].filter(([s]) => p.re.test(s) && !(iccs && ICCS_HASH.includes(s)));
    // The primitive's own code, not the scheme's wrappers around it (an object that calls a matching symbol defined
    // in another object), so one call is not counted twice.
    const wrapper = (src: string) =>
      [...(symbols.uses.get(src) ?? [])].some((u) => p.re.test(u) && symbols.defined.has(u));
    const own = matching.filter(([, src]) => !wrapper(src));
    const chosen = (own.length > 0 ? own : matching).map(([s]) => s).sort();
    if (chosen.length > 0) groups[p.group] = { symbols: chosen, label: p.label, kind: p.kind };
  }
  if (iccs) {
    if (iccs.hash.length > 0)
      groups.hash = { symbols: iccs.hash, label: "ICCS placeholder hash functions", kind: "hash" };
    if (iccs.drng.length > 0) groups.drng = { symbols: iccs.drng, label: "ICCS DRNG", kind: "drng" };
  } else {
    const rng = ["randombytes", "PQCLEAN_randombytes"].filter((s) => symbols.undefined.has(s));
    if (rng.length > 0) groups.drng = { symbols: rng, label: "randombytes", kind: "drng" };
  }
  return groups;
}

// ---------------------------------------------------------------------------------------------------------------
// KAT files.

interface RspFile {
  path: string;
  rel: string;
  category?: Category;
  nameBytes?: number;
  pkBytes?: number;
  skBytes?: number;
}

function readRsp(dir: string, path: string): RspFile {
  const rel = posix(relative(dir, path));
  const m = /^PQC(kem|sign|kex)KAT_(\d+)\.rsp$/i.exec(basename(path));
  const f: RspFile = { path, rel };
  if (m) {
    f.category = (m[1] as string).toLowerCase() as Category;
    f.nameBytes = Number(m[2]);
  }
  const text = readSome(path);
  const pk = /^pk(?:_b)? = ([0-9A-Fa-f]*)\s*$/m.exec(text);
  const sk = /^sk(?:_b)? = ([0-9A-Fa-f]*)\s*$/m.exec(text);
  if (pk?.[1] !== undefined) f.pkBytes = pk[1].length / 2;
  if (sk?.[1] !== undefined) f.skBytes = sk[1].length / 2;
  return f;
}

function findRsp(dir: string, depth = 5): string[] {
  const out: string[] = [];
  for (const e of entries(dir)) {
    const p = join(dir, e);
    if (e.startsWith(".")) continue;
    if (isDir(p)) {
      if (depth > 0) out.push(...findRsp(p, depth - 1));
    } else if (e.toLowerCase().endsWith(".rsp")) out.push(p);
  }
  return out;
}

const sha256Of = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

// ---------------------------------------------------------------------------------------------------------------

interface Draft {
  /** The implementation's folder. */
  implFolder: string;
  /** The sources kept (plan.sources without the files nothing calls). */
  sources?: string[];
  name: string;
  implementation: string;
  parameterSet: string;
  setDir: string;
  header: string;
  headerOthers: string[];
  defines: string[];
  plan: SourcePlan;
  api: ApiFacts;
}

function implementationsOf(dir: string): Array<{ name: string; folder: string }> {
  const found: Array<{ name: string; folder: string }> = [];
  for (const e of entries(dir)) {
    const p = join(dir, e);
    if (!isDir(p) || !IMPLEMENTATION_DIR.test(e)) continue;
    const kind = e.split("_")[0]?.toLowerCase() ?? "reference";
    if (kind === "additional") {
      for (const sub of entries(p).filter((s) => isDir(join(p, s)) && !s.startsWith("."))) {
        found.push({ name: sub.toLowerCase().replace(/[^a-z0-9.+-]+/g, "-"), folder: join(p, sub) });
      }
    } else found.push({ name: kind === "optimised" ? "optimized" : kind, folder: p });
  }
  const rank = (name: string) => (name === "reference" ? 0 : name === "optimized" ? 1 : 2);
  found.sort((a, b) => rank(a.name) - rank(b.name));
  return found.length > 0 ? found : [{ name: "reference", folder: dir }];
}

/** Drafts meta.json for the submission folder `dir` without writing anything. */
export async function draftMeta(folder: string, opts: InitOptions = {}): Promise<InitResult> {
  const dir = resolve(folder);
  if (!isDir(dir)) throw new InputError(`${dir}: not a folder (expected a submission folder)`);
  if (opts.id !== undefined && !isValidName(opts.id)) {
    throw new InputError(`--id "${opts.id}" is not a valid name; expected ${NAME_RULE}`);
  }
  const cc = opts.cc ?? process.env.CC ?? "gcc";
  const decided: string[] = [];
  const undecided: string[] = [];
  const rel = (p: string) => posix(relative(dir, p)) || ".";
  const work = mkdtempSync(join(tmpdir(), "ngcc-init-"));
  try {
    // A stand-in iccs.h (the names an NGCC submission may call), so code that includes it can be read.
    writeFileSync(
      join(work, "iccs.h"),
      [
        "#ifndef ICCS_H",
        "#define ICCS_H",
        "#include <stddef.h>",
        "void sm3hash(unsigned char *out, const unsigned char *in, size_t inlen);",
        "void pseudohash(unsigned char *out, const unsigned char *in, size_t inlen);",
        "void pseudoXOF(unsigned char *out, size_t outlen, const unsigned char *in, size_t inlen);",
        "int randombytes(unsigned char *x, unsigned long long xlen);",
        "#endif",
        "",
      ].join("\n"),
    );
    const drafts: Draft[] = [];
    for (const impl of implementationsOf(dir)) {
      const folders = foldersUnder(impl.folder);
      const setDirs: string[] = [];
      for (const f of folders) {
        if (setDirs.some((s) => f.startsWith(`${s}${sep}`))) continue;
        if (apiHeaderOf(f)) setDirs.push(f);
      }
      if (setDirs.length === 0) {
        undecided.push(`${rel(impl.folder)}: no API header (api.h, or a header defining CRYPTO_SECRETKEYBYTES)`);
        continue;
      }
      const shared = folders.filter(
        (f) =>
          !setDirs.some((s) => f === s || f.startsWith(`${s}${sep}`)) &&
          (filesIn(f, ".c").length > 0 || filesIn(f, ".h").length > 0),
      );
      decided.push(
        `implementation ${impl.name}: ${rel(impl.folder)} (parameter-set folders: ${setDirs.map(rel).join(", ")})`,
      );
      for (const setDir of setDirs) {
        const header = apiHeaderOf(setDir) as { file: string; others: string[] };
        const plan = planSources(setDir, shared);
        const makefile = ["Makefile", "makefile", "GNUmakefile"].map((m) => join(setDir, m)).find(existsSync);
        const variants = setDirs.length === 1 && makefile ? makefileVariants(readSome(makefile)) : null;
        const setName = setDir === dir ? basename(dir) : basename(setDir);
        const sets: Array<{ set: string; defines: string[] }> = variants
          ? variants.variants.map((v) => ({ set: v.name, defines: [v.define] }))
          : [{ set: setName, defines: [] }];
        if (variants) {
          decided.push(
            `${rel(makefile as string)}: one source folder built per parameter set with -D${variants.macro}=… (${variants.variants.map((v) => v.name).join(", ")})`,
          );
        }
        for (const s of sets) {
          const includeDirs = plan.includeDirs;
          const api = await readApi(cc, header.file, includeDirs, s.defines, work);
          const name = impl.name === "reference" ? s.set : `${s.set}-${impl.name}`;
          drafts.push({
            implFolder: impl.folder,
            name,
            implementation: impl.name,
            parameterSet: s.set,
            setDir,
            header: header.file,
            headerOthers: header.others,
            defines: s.defines,
            plan,
            api,
          });
        }
      }
    }
    if (drafts.length === 0) {
      throw new InputError(
        `${dir}: found no parameter set — expected Reference_Implementation/<set>/api.h (or Optimized_Implementation/…), or an api.h in the folder`,
      );
    }
    for (const d of drafts) {
      if (!isValidName(d.name)) {
        throw new InputError(
          `${rel(d.setDir)}: the instance name "${d.name}" is not a valid name; expected ${NAME_RULE}`,
        );
      }
    }

    // Every source compiled to an object: a shared folder's file whose functions none of the instance's other
    // sources calls (with its defines) is left out, as is one that defines nothing.
    const unitKey = (src: string, d: Draft) => JSON.stringify([src, d.plan.includeDirs, d.defines]);
    const unitList = new Map<string, Unit>();
    for (const d of drafts) {
      for (const src of d.plan.sources) {
        unitList.set(unitKey(src, d), { source: src, includeDirs: d.plan.includeDirs, defines: d.defines });
      }
    }
    const compiled = await compileUnits(cc, [...unitList.entries()], work);
    for (const f of compiled.failed) {
      undecided.push(`${rel(f.source)} did not compile (its symbols are not read): ${f.error}`);
    }
    const kept = new Set<UnitSymbols>();
    for (const d of drafts) {
      let sources = [...d.plan.sources];
      const unit = (src: string) => compiled.perUnit.get(unitKey(src, d));
      for (let changed = true; changed; ) {
        changed = false;
        for (const src of sources) {
          const u = unit(src);
          if (!u || dirname(src) === d.setDir) continue;
          if ([...u.defined].some((x) => /crypto_(kem|sign|kex)_?/.test(x))) continue;
          const called = sources.some((o) => o !== src && [...(unit(o)?.used ?? [])].some((x) => u.defined.has(x)));
          if (called) continue;
          sources = sources.filter((o) => o !== src);
          changed = true;
          decided.push(
            `${d.name}: left out ${rel(src)}: ${u.defined.size === 0 ? "defines no function" : "none of the instance's other sources calls its functions"}${d.defines.length > 0 ? ` with ${d.defines.map((x) => `-D${x}`).join(" ")}` : ""}`,
          );
          break;
        }
      }
      d.sources = sources;
      for (const src of sources) {
        const u = unit(src);
        if (u) kept.add(u);
      }
    }

    // Category: --category, else the API header's macros (all instances must agree).
    const categories = [...new Set(drafts.map((d) => d.api.category).filter((c): c is Category => c !== null))];
    let category: Category;
    if (opts.category) {
      category = opts.category;
      if (categories.length > 0 && !categories.every((c) => c === category)) {
        undecided.push(`category: --category ${category}, but the API headers' macros say ${categories.join(", ")}`);
      }
    } else if (categories.length === 1 && drafts.every((d) => d.api.category)) {
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
    const algnames = [...new Set(drafts.map((d) => d.api.algname).filter(Boolean))];
    const name = nameOf(algnames as string[]) ?? basename(dir);

    // KAT files.
    const rsps = findRsp(dir).map((p) => readRsp(dir, p));
    const skOf = (d: Draft) =>
      category === "kex" ? d.api.sizes.CRYPTO_KEX_SECRETKEYBYTES_B : d.api.sizes.CRYPTO_SECRETKEYBYTES;
    const pkOf = (d: Draft) =>
      category === "kex" ? d.api.sizes.CRYPTO_KEX_PUBLICKEYBYTES_B : d.api.sizes.CRYPTO_PUBLICKEYBYTES;
    const katOf = new Map<Draft, RspFile>();
    for (const d of drafts) {
      const sk = skOf(d);
      const pk = pkOf(d);
      const fits = rsps.filter(
        (f) =>
          (f.category === undefined || f.category === category) &&
          (f.nameBytes === undefined || f.nameBytes === sk) &&
          (f.skBytes === undefined || f.skBytes === sk) &&
          (f.pkBytes === undefined || pk === undefined || f.pkBytes === pk),
      );
      const words = [d.name, d.parameterSet, d.api.algname ?? ""].filter(Boolean).map((w) => w.toLowerCase());
      const score = (f: RspFile) => {
        const segs = f.rel.toLowerCase().split("/");
        const impl = [d.implementation, basename(d.implFolder).toLowerCase()];
        return (segs.some((s) => words.includes(s)) ? 2 : 0) + (segs.some((s) => impl.includes(s)) ? 1 : 0);
      };
      const best = Math.max(-1, ...fits.map(score));
      const top = fits.filter((f) => score(f) === best);
      const file = `PQC${category}KAT_${sk ?? "<secret key bytes>"}.rsp`;
      if (top.length === 1 && (best > 0 || fits.length === 1)) {
        katOf.set(d, top[0] as RspFile);
      } else if (top.length > 1 || fits.length > 1) {
        undecided.push(
          `${d.name}: several KAT files fit its sizes (${top.map((f) => f.rel).join(", ")}); set its kat.file by hand`,
        );
      } else {
        undecided.push(
          `${d.name}: no KAT file found (expected ${file} with ${sk ?? "?"}-byte secret keys); the KAT step will have nothing to compare`,
        );
      }
    }
    for (const [d, f] of katOf) decided.push(`${d.name}: KAT ${f.rel} (sizes match its API header)`);

    // The manifest: checked when there is one, else written next to the KAT files.
    const chosen = [...new Set(katOf.values())];
    let manifest: InitResult["manifest"] = { path: "", action: "none", problems: [] };
    if (chosen.length > 0) {
      const existing = findManifest(dir);
      const kat = join(dir, "KAT");
      const base = existing
        ? dirname(existing)
        : chosen.every((f) => f.path.startsWith(`${kat}${sep}`))
          ? kat
          : commonDir(chosen.map((f) => dirname(f.path)));
      const path = existing ?? join(base, "kat.sha256");
      const problems: string[] = [];
      if (existing) {
        const listed = new Map<string, string>();
        for (const line of readSome(existing).split("\n")) {
          const m = /^([0-9a-fA-F]{64}) [ *](.+)$/.exec(line.trim());
          if (m?.[1] && m[2]) listed.set(posix(m[2]), m[1].toLowerCase());
        }
        for (const [file, digest] of listed) {
          const p = join(base, file);
          if (!existsSync(p)) problems.push(`${rel(existing)}: lists ${file}, which does not exist`);
          else if (sha256Of(p) !== digest)
            problems.push(
              `${rel(existing)}: ${file}: SHA-256 differs from the manifest's (a changed or corrupt KAT file)`,
            );
        }
        for (const f of chosen) {
          const r = posix(relative(base, f.path));
          if (!listed.has(r)) problems.push(`${rel(existing)}: does not list ${r}`);
        }
        manifest = { path, action: "checked", problems };
        if (problems.length === 0) decided.push(`${rel(existing)}: checked, every KAT file matches`);
      } else {
        manifest = { path, action: "written", problems };
      }
    }

    // ICCS, randomness, and the KAT switch, from the sources' text.
    const hashCalls = new Set<string>();
    let iccsHeader = false;
    let drngCall = false;
    const ownDefinitions = (texts: string[]) => texts.join("\n");
    const instances: Array<Record<string, unknown>> = [];
    const catalog: string[] = [
      "algorithm_id,instance,category,public_key,ciphertext,signature,public_key_a,kex_messages,source,note",
    ];
    for (const d of drafts) {
      const texts = [...(d.sources ?? d.plan.sources), ...d.plan.headers].map((f) => stripComments(readSome(f)));
      const all = ownDefinitions(texts);
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
      const callsRandombytes = /\b(?:PQCLEAN_)?randombytes\s*\(/.test(all);
      if (usesIccsHeader && callsRandombytes) drngCall = true;
      const katSwitch = KAT_SWITCHES.find((k) =>
        new RegExp(`#\\s*(?:ifn?def\\s+${k}\\b|(?:el)?if\\b[^\\n]*\\bdefined\\s*\\(?\\s*${k}\\b)`).test(all),
      );
      const readsSystem = /\/dev\/u?random|\bgetrandom\s*\(|\bgetentropy\s*\(/.test(all);
      const randomness = katSwitch && readsSystem ? "self" : "randombytes";
      if (katSwitch) {
        decided.push(
          `${d.name}: KAT builds add -D${katSwitch} (the sources test it)${readsSystem ? "; other builds read the system RNG themselves (randomness: self)" : ""}`,
        );
      } else if (!callsRandombytes) {
        undecided.push(
          `${d.name}: its sources never call randombytes; if it draws randomness itself, set randomness: self`,
        );
      }
      if (d.headerOthers.length > 0) {
        undecided.push(
          `${d.name}: several headers define the API sizes (${[rel(d.header), ...d.headerOthers.map(rel)].join(", ")}); took ${rel(d.header)}`,
        );
      }
      if (d.api.error) undecided.push(`${d.name}: could not read ${rel(d.header)}: ${d.api.error}`);
      for (const u of d.api.unresolved) undecided.push(`${d.name}: ${u} is not an integer constant ngcc-perf can read`);
      for (const l of d.plan.leftOut) decided.push(`${d.name}: left out ${rel(l.file)}: ${l.why}`);
      const api: Record<string, string> = {};
      if (category === "sign") {
        if (d.api.style) {
          api.style = d.api.style;
          decided.push(`${d.name}: signature API ${d.api.style} (${d.api.styleWhy})`);
        } else {
          undecided.push(`${d.name}: no crypto_sign prototype in ${rel(d.header)}; assumed the round-3 NIST API`);
        }
      }
      if (d.api.prefix) {
        api.prefix = d.api.prefix;
        decided.push(`${d.name}: API names prefixed ${d.api.prefix}`);
      }
      const kat = katOf.get(d);
      const katDefines = [...d.defines, ...(katSwitch ? [katSwitch] : [])];
      instances.push({
        name: d.name,
        implementation: d.implementation,
        parameterSet: d.parameterSet,
        folder: rel(d.setDir),
        apiHeader: rel(d.header),
        ...(Object.keys(api).length > 0 ? { api } : {}),
        sources: (d.sources ?? d.plan.sources).map(rel),
        includeDirs: d.plan.includeDirs.map(rel),
        defines: d.defines,
        randomness,
        ...(d.plan.randombytesSource && !d.plan.sources.includes(d.plan.randombytesSource)
          ? { randombytesSource: rel(d.plan.randombytesSource) }
          : {}),
        kat: { ...(kat ? { file: kat.rel } : {}), defines: katDefines, randomness: "randombytes" },
      });
      const s = d.api.sizes;
      const cell = (v: number | undefined) => (v === undefined ? "" : String(v));
      const messages =
        category === "kex"
          ? [s.CRYPTO_KEX_MSG1BYTES, ...((s.CRYPTO_KEX_PASSES ?? 1) >= 2 ? [s.CRYPTO_KEX_MSG2BYTES] : [])]
              .map(cell)
              .join("+")
          : "";
      catalog.push(
        [
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
        ].join(","),
      );
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

    // Profiler groups from the kept objects' symbols.
    const symbols = objectSymbols(kept);
    const groups = proposeGroups(symbols, iccs);
    for (const [g, v] of Object.entries(groups)) {
      decided.push(`profiler group ${g} (${v.label}): ${v.symbols.length} symbols: ${v.symbols.join(", ")}`);
    }
    if (Object.keys(groups).length === 0) undecided.push("profiler groups: no hash, DRNG or cipher symbol found");
    undecided.push("summary: not in the folder — add a one-line description to meta.json");
    if (algnames.length > 0) decided.push(`name ${name} (CRYPTO_ALGNAME: ${algnames.join(", ")})`);

    const implementations = [...new Map(drafts.map((d) => [d.implementation, d])).values()].map((d) => ({
      name: d.implementation,
      folder: rel(implementationsOf(dir).find((i) => i.name === d.implementation)?.folder ?? dir),
    }));
    const meta: Record<string, unknown> = {
      schemaVersion: 1,
      id,
      name,
      category,
      implementations,
      parameterSets: [...new Set(drafts.map((d) => d.parameterSet))],
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
      decided,
      undecided,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The algorithm's name: its one CRYPTO_ALGNAME, or what the parameter sets' names share (Puffin-128 … → Puffin). */
function nameOf(algnames: string[]): string | null {
  if (algnames.length === 1) return algnames[0] as string;
  if (algnames.length === 0) return null;
  let p = algnames[0] as string;
  for (const a of algnames) while (!a.startsWith(p)) p = p.slice(0, -1);
  p = p.replace(/[-_ ]+$/, "");
  return p.length >= 2 ? p : null;
}

const order = (h: string) => {
  const i = ICCS_HASH.indexOf(h);
  return i < 0 ? ICCS_HASH.length : i;
};

function findManifest(dir: string): string | null {
  for (const p of [join(dir, "KAT", "kat.sha256"), join(dir, "kat.sha256"), join(dir, "KAT", "KAT.sha256")]) {
    if (existsSync(p)) return p;
  }
  return null;
}

function commonDir(dirs: string[]): string {
  let base = dirs[0] as string;
  while (!dirs.every((d) => d === base || d.startsWith(`${base}${sep}`))) base = dirname(base);
  return base;
}

/**
 * Drafts meta.json (draftMeta) and writes it, and kat.sha256 when there is none; refuses to overwrite an existing
 * meta.json unless force. An existing kat.sha256 is checked, never rewritten.
 */
export async function initSubmission(folder: string, opts: InitOptions = {}): Promise<InitResult> {
  const dir = resolve(folder);
  const metaPath = join(dir, "meta.json");
  if (existsSync(metaPath) && !opts.force) {
    throw new InputError(`${metaPath}: exists; init never overwrites it (--force to replace it with a new draft)`);
  }
  const r = await draftMeta(dir, opts);
  if (r.manifest.action === "written") {
    const base = dirname(r.manifest.path);
    const lines = (r.meta.instances as Array<{ kat: { file?: string } }>)
      .map((i) => i.kat.file)
      .filter((f): f is string => f !== undefined)
      .filter((f, k, all) => all.indexOf(f) === k)
      .map((f) => `${sha256Of(join(dir, f))}  ${posix(relative(base, join(dir, f)))}`);
    writeFileAtomic(r.manifest.path, `${lines.join("\n")}\n`);
  }
  writeFileAtomic(metaPath, `${JSON.stringify(r.meta, null, 2)}\n`);
  return { ...r, wrote: true };
}
