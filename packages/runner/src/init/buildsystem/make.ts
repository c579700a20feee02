// The package's Makefile as the source of truth: `make -n -B` (nothing built, every command printed) in the
// sandbox on a scratch copy, once per value of the variables that choose a parameter set (PARAMS=…, THASH=…,
// `ifeq ($(PARAM),3)`), the KAT programs' (PQCgenKAT_*) compile and link lines read into compile sets; one
// instance per distinct compile set.
import { basename, dirname, join, relative } from "node:path";
import { runProcess } from "../../proc.ts";
import { HOST_CONTEXT } from "../../run-context.ts";
import { definesMain } from "../sources.ts";
import {
  entries,
  failureOf,
  filesIn,
  foldersUnder,
  isDir,
  isFile,
  isWithin,
  readSome,
  stripComments,
  unique,
  unscratch,
} from "../util.ts";
import { combinations, labelOf } from "./combinations.ts";
import { type BuiltProgram, commandsOfMakeOutput, programsOf } from "./commands.ts";
import { carriedLibraries, mergeFlags, sortFlags } from "./flags.ts";
import type { BuildReading, CompileSet, ReadContext } from "./types.ts";

const MAKEFILES = ["GNUmakefile", "makefile", "Makefile"];
/** At most this many `make -n` runs per Makefile (the cross product of the variables' values). */
export const MAX_MAKE_RUNS = 128;
const MAKE_TIMEOUT_MS = 60_000;
/** Variables that are the build's tools and flags, never a parameter set. */
const TOOL_VARS = new Set([
  "CC",
  "CXX",
  "CFLAGS",
  "CPPFLAGS",
  "LDFLAGS",
  "LDLIBS",
  "LIBS",
  "AR",
  "RM",
  "MAKE",
  "SHELL",
  "INCLUDES",
  "INCLUDE",
  "OPT",
  "OPTFLAGS",
  "ARCH",
  "OS",
  "PREFIX",
  "DESTDIR",
  "BUILD",
  "BUILD_DIR",
  "BUILDDIR",
  "OBJDIR",
  "BINDIR",
  "SOURCES",
  "SRC",
  "SRCS",
  "OBJS",
  "OBJECTS",
  "HEADERS",
  "HDRS",
  "DEPS",
  "TARGETS",
  "TESTS",
  "KAT",
  "EXEC",
]);

export function makefileIn(dir: string): string | null {
  for (const m of MAKEFILES) if (isFile(join(dir, m))) return join(dir, m);
  return null;
}

/** The top-most folders under `root` that hold a Makefile (a Makefile below another is run by it, or not at all). */
export function makeDirs(root: string): string[] {
  const out: string[] = [];
  for (const f of foldersUnder(root, 3, new Set())) {
    if (out.some((o) => f === o || f.startsWith(`${o}/`))) continue;
    if (makefileIn(f)) out.push(f);
  }
  return out;
}

export interface MakeVariable {
  name: string;
  /** The Makefile's value (`?=`, `=`, `:=`), "" when it only compares it. */
  value: string;
  /** Every value found, the default first. */
  values: string[];
  /** Where each value came from, for `decided`. */
  sources: string[];
}

const assignRe = /^\s*(?:override\s+|export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*(\?=|:=|::=|=)\s*(.*?)\s*$/;

/**
 * The variables of a Makefile that choose what is compiled — used in a -D flag, a source or header file name, or
 * compared by ifeq/ifneq/findstring — with the values the package documents or lists: the values compared, the
 * values named in the Makefile's comments, and the files in the tree named like the default value
 * (`PARAMS = sphincs-haraka-128f` and params/params-sphincs-haraka-128f.h → every params/params-*.h).
 */
export function makeVariables(text: string, tree: string): MakeVariable[] {
  const lines = text.replace(/\\\n/g, " ").split("\n");
  const defaults = new Map<string, string>();
  for (const l of lines) {
    if (l.startsWith("\t")) continue;
    const m = assignRe.exec(l.replace(/#.*$/, ""));
    if (m?.[1] && !defaults.has(m[1])) defaults.set(m[1], (m[3] as string).trim());
  }
  const ref = (v: string) => `(?:\\$\\(${v}\\)|\\$\\{${v}\\})`;
  const code = lines.map((l) => l.replace(/#.*$/, "")).join("\n");
  const names = new Set<string>();
  for (const m of code.matchAll(/\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]/g)) names.add(m[1] as string);
  const out: MakeVariable[] = [];
  for (const name of names) {
    if (TOOL_VARS.has(name)) continue;
    const value = defaults.get(name) ?? "";
    if (/[$\s]/.test(value)) continue;
    const r = ref(name);
    const inDefine = new RegExp(`-D[A-Za-z_]\\w*(?:=[^\\s]*)?${r}`).test(code);
    const inFile = new RegExp(`[\\w./-]*${r}[\\w./-]*\\.(?:c|h)\\b`).test(code);
    const compared: string[] = [];
    for (const m of code.matchAll(
      new RegExp(`^\\s*(?:else\\s+)?if(?:n?eq)\\s*\\(\\s*${r}\\s*,\\s*([^)\\s]*)\\s*\\)`, "gm"),
    ))
      compared.push(m[1] as string);
    for (const m of code.matchAll(
      new RegExp(`^\\s*(?:else\\s+)?if(?:n?eq)\\s*\\(\\s*([^,\\s]*)\\s*,\\s*${r}\\s*\\)`, "gm"),
    ))
      compared.push(m[1] as string);
    for (const m of code.matchAll(new RegExp(`^\\s*(?:else\\s+)?if(?:n?eq)\\s+["']${r}["']\\s+["']([^"']*)["']`, "gm")))
      compared.push(m[1] as string);
    // findstring compares a part of the value (shake in sphincs-shake-128f): it makes the variable count, its
    // argument is no value.
    const found = new RegExp(`\\$\\(findstring\\s+[^,\\s]+\\s*,\\s*${r}\\s*\\)`).test(code);
    if (!inDefine && !inFile && !found && compared.length === 0) continue;
    if (!value && compared.length === 0) continue;
    // Unset is a value too (the Makefile's own default branch), tried first; it is never passed on the line.
    const values: string[] = [value];
    const sources: string[] = [];
    const add = (vs: string[], why: string) => {
      const fresh = vs.filter((v) => v && !values.includes(v));
      if (fresh.length === 0) return;
      values.push(...fresh);
      sources.push(`${why} (${fresh.join(", ")})`);
    };
    add(unique(compared.filter((v) => v !== "")), "compared by ifeq/ifneq");
    if (value) {
      add(commentValues(lines, name, value), "named in the Makefile's comments");
      add(treeValues(tree, value).values, treeValues(tree, value).why);
    }
    if (values.filter((v) => v !== "").length < (value ? 2 : 1)) continue;
    out.push({ name, value, values, sources });
  }
  return out;
}

/** Words of the Makefile's comments that mention the variable and are shaped like its default value. */
function commentValues(lines: string[], name: string, value: string): string[] {
  const parts = value.split(/[-_]/);
  const numeric = /^\d+$/.test(value);
  const shaped = (w: string) =>
    numeric
      ? /^\d+$/.test(w)
      : w.split(/[-_]/).length === parts.length && w.split(/[-_]/)[0] === parts[0] && /^[\w.+-]+$/.test(w);
  const out: string[] = [];
  for (const l of lines) {
    const c = /#(.*)$/.exec(l)?.[1];
    if (!c || !new RegExp(`\\b${name}\\b`).test(c)) continue;
    for (const w of c.split(/[\s,;|()'"`]+/)) {
      const word = w.replace(/[.:]+$/, "");
      if (word && word !== name && shaped(word) && !out.includes(word)) out.push(word);
    }
  }
  return out;
}

/** The values of files in the tree named like the default value: params-<value>.h → every params-*.h. */
function treeValues(tree: string, value: string): { values: string[]; why: string } {
  if (value.length < 3 || /^\d+$/.test(value)) return { values: [], why: "" };
  for (const folder of foldersUnder(tree, 5, new Set())) {
    for (const e of entries(folder)) {
      const i = e.indexOf(value);
      if (i < 0 || !isFile(join(folder, e))) continue;
      const head = e.slice(0, i);
      const tail = e.slice(i + value.length);
      const values = entries(folder)
        .filter((f) => f.length > head.length + tail.length && f.startsWith(head) && f.endsWith(tail))
        .map((f) => f.slice(head.length, f.length - tail.length))
        .filter((v) => /^[\w.+-]+$/.test(v));
      if (values.length >= 2) {
        return { values, why: `listed by ${relative(tree, folder) || "."}/${head}*${tail}` };
      }
    }
  }
  return { values: [], why: "" };
}

/** Targets that build nothing to measure. */
const NON_BUILD =
  /^(all|clean|distclean|mrproper|install|uninstall|format|lint|help|check|run|bench|speed|doc|docs|dist|tags|depend)$/;

/**
 * The explicit targets of `make -p -q` output (the rules the Makefile has, with their names expanded): not "Not a
 * target", not special (.PHONY), not patterns, not files the build reads or leaves (.c, .h, .o …).
 */
export function databaseTargets(db: string): string[] {
  const out: string[] = [];
  const lines = db.split("\n");
  for (const [k, line] of lines.entries()) {
    const m = /^([^\s#:%=][^\s:=]*)\s*:(?!=)/.exec(line);
    if (!m?.[1] || lines[k - 1] === "# Not a target:") continue;
    const t = m[1];
    if (
      t.startsWith(".") ||
      t.startsWith("/") ||
      t.includes("%") ||
      t.includes("$") ||
      /\.(c|h|o|a|so|d|mk|txt|md)$/.test(t) ||
      /akefile$/.test(t)
    )
      continue;
    if (!out.includes(t)) out.push(t);
  }
  return out;
}

const isKat = (p: string) => /PQCgenKAT/i.test(basename(p));

/** Is this program linked with code calling the NIST API? (read from its sources' text) */
function callsApi(p: BuiltProgram): boolean {
  return p.sources.some((s) => /crypto_(kem|sign|kex)_?\w*\s*\(/.test(stripComments(readSome(s.source))));
}

const schemeOf = (s: CompileSet) =>
  s.sources.filter((x) => !definesMain(readSome(x)) && !/^(randombytes|rng)\.c$/i.test(basename(x))).sort();

/** A Makefile's folder being read: where it is (and its scratch copy), and the goals make is asked for. */
interface MakeFolder {
  real: string;
  copyDir: string;
  /** The folder as messages show it. */
  where: string;
  /** The KAT programs the Makefile has rules for. */
  kats: string[];
  /** The goals asked for: the KAT programs, else every program target, in the Makefile's order. */
  targets: string[];
}

/** The implementation's top-most Makefiles read into compile sets; null when none gave anything to say. */
export async function readMake(ctx: ReadContext, implFolder: string): Promise<BuildReading | null> {
  const dirs = makeDirs(implFolder);
  if (dirs.length === 0) return null;
  const reading: BuildReading = { system: "make", sets: [], decided: [], undecided: [] };
  for (const real of dirs) await readMakeFolder(ctx, real, reading);
  return reading.sets.length > 0 || reading.undecided.length > 0 ? reading : null;
}

/** `make -C <the folder's copy> …` in the sandbox, the make flags of init's own environment cleared. */
function runMake(ctx: ReadContext, copyDir: string, args: string[]) {
  return runProcess(["make", "-C", copyDir, ...args], {
    context: HOST_CONTEXT,
    timeoutMs: MAKE_TIMEOUT_MS,
    cwd: copyDir,
    writable: [ctx.work],
    env: { MAKEFLAGS: "", MFLAGS: "", MAKELEVEL: "", CC: ctx.cc },
  });
}

/** One Makefile's compile sets, `make -n -B` once per combination of its variables' values, added to `reading`. */
async function readMakeFolder(ctx: ReadContext, real: string, reading: BuildReading): Promise<void> {
  const copyDir = join(ctx.copy, relative(ctx.dir, real));
  const where = ctx.rel(real);
  const text = readSome(makefileIn(real) as string);
  const folder: MakeFolder = { real, copyDir, where, ...(await makeGoals(ctx, copyDir, text)) };
  const vars = makeVariables(text, ctx.copy);
  const { combos, capped } = combinations(vars, MAX_MAKE_RUNS);
  for (const v of vars) {
    reading.decided.push(
      `${where}: make variable ${v.name} (default ${v.value || "unset"}) chooses what is compiled; values: ${v.sources.join("; ") || v.values.join(", ")}`,
    );
  }
  if (capped) {
    reading.undecided.push(
      `${where}: the variables' values make more than ${MAX_MAKE_RUNS} combinations; read the first ${MAX_MAKE_RUNS} only`,
    );
  }
  const seen = new Map<string, CompileSet>();
  const noScheme: string[] = [];
  let firstFailure = "";
  for (const combo of combos) {
    const run = await comboSets(ctx, folder, combo);
    firstFailure ||= run.failure;
    for (const s of run.sets) keepDistinct(ctx, seen, s, noScheme);
  }
  if (seen.size === 0) {
    reading.undecided.push(
      firstFailure ||
        `${where}: make -n -B printed no program that links the NIST API${noScheme.length > 0 ? `: ${noScheme.join("; ")}` : ""}`,
    );
    return;
  }
  if (firstFailure) reading.undecided.push(firstFailure);
  reading.sets.push(...seen.values());
  const { kats, targets } = folder;
  reading.decided.push(
    `${where}: ${seen.size} compile set(s) from ${kats.length > 0 ? `make -n -B ${kats.join(" ")}` : `make -n -B of its program targets (${targets.join(" ") || "the default goal"})`}${combos.length > 1 ? `, once per value of ${vars.map((v) => v.name).join(", ")}` : ""}`,
  );
}

/** The goals, from make's database (`make -p -q -n -r`, nothing run): the KAT programs, else every program target. */
async function makeGoals(ctx: ReadContext, copyDir: string, text: string) {
  // The KAT programs the Makefile has rules for (its database, printed without running anything).
  const db = await runMake(ctx, copyDir, ["-p", "-q", "-n", "-r"]);
  const explicit = databaseTargets(db.stdout);
  const kats = explicit.filter(isKat);
  // The KAT programs when there are any; else every program target (test_kyber512, speed …: grouped below).
  const at = (t: string) => {
    const i = text.indexOf(t);
    return i < 0 ? text.length : i;
  };
  // The default goal too (its prerequisites the database may not list as targets: `all: test_kyber512 …`).
  const defaultGoal = /^\.DEFAULT_GOAL :?= (\S+)$/m.exec(db.stdout)?.[1];
  const targets = (kats.length > 0 ? kats : explicit.filter((t) => !NON_BUILD.test(t) || t === defaultGoal)).sort(
    (a, b) => at(a) - at(b),
  );
  return { kats, targets };
}

/**
 * One combination's `make -n -B`: the compile sets of the KAT programs it prints (else of the programs linking
 * the NIST API), fewest sources first, and its failure ("" when it ran; a failure that printed commands is read).
 */
async function comboSets(
  ctx: ReadContext,
  folder: MakeFolder,
  combo: Record<string, string>,
): Promise<{ failure: string; sets: CompileSet[] }> {
  const { real, kats, targets: goals } = folder;
  const assigns = Object.entries(combo)
    .filter(([, v]) => v !== "")
    .map(([k, v]) => `${k}=${v}`);
  const r = await runMake(ctx, folder.copyDir, ["-n", "-B", "-k", "-w", ...goals, ...assigns]);
  const shown = `make -n -B ${[...assigns, ...(kats.length > 0 ? goals : [])].join(" ")}`.trim();
  let failure = "";
  if (r.exitCode !== 0) {
    failure = `${shown} in ${folder.where} failed: ${unscratch(failureOf(r), ctx.copy, ctx.dir)}`;
    if (!r.stdout.trim()) return { failure, sets: [] };
  }
  const commands = commandsOfMakeOutput(r.stdout, folder.copyDir).map((c) => ({
    argv: c.argv.map((a) => unscratch(a, ctx.copy, ctx.dir)),
    cwd: unscratch(c.cwd, ctx.copy, ctx.dir),
  }));
  const programs = programsOf(commands, ctx.cc);
  const kat = programs.filter((p) => isKat(p.path));
  const chosen = kat.length > 0 ? kat : programs.filter(callsApi);
  const own = (p: BuiltProgram) => {
    const goal = goals.find((g) => join(real, g) === p.path);
    return goal && goals.length > 1 && kats.length > 0 ? `make -n -B ${[...assigns, goal].join(" ")}` : shown;
  };
  const values = labelOf(Object.fromEntries(Object.entries(combo).filter(([, v]) => v !== "")));
  const sets = chosen.map((p) => compileSetOf(p, real, own(p), ctx, values));
  // Among programs of the same defines (test_kyber512, test_speed512 …), the one with the fewest extra files.
  sets.sort((a, b) => a.sources.length - b.sources.length);
  return { failure, sets };
}

/**
 * One instance per distinct compile set: the program's sources without the file defining main and the
 * submitter's randombytes; of programs with the same flags, the one whose sources the others contain
 * (test_kyber512 rather than test_speed512 with its cpucycles.c). A program linking none is noted in `noScheme`.
 */
function keepDistinct(ctx: ReadContext, seen: Map<string, CompileSet>, s: CompileSet, noScheme: string[]): void {
  const scheme = schemeOf(s);
  if (scheme.length === 0) {
    noScheme.push(`${ctx.rel(s.program)} (${s.from}) links no source of the scheme`);
    return;
  }
  const flags = JSON.stringify([s.defines, s.includeDirs, s.cflags]);
  const key = JSON.stringify([scheme, flags]);
  if (seen.has(key)) return;
  const same = [...seen.entries()].filter(([, o]) => JSON.stringify([o.defines, o.includeDirs, o.cflags]) === flags);
  if (same.some(([, o]) => schemeOf(o).every((x) => scheme.includes(x)))) return;
  for (const [k, o] of same) if (scheme.every((x) => schemeOf(o).includes(x))) seen.delete(k);
  seen.set(key, s);
}

/** A program `make -n -B` printed as a compile set: its sources, and the flags of those not defining main. */
function compileSetOf(p: BuiltProgram, folder: string, shown: string, ctx: ReadContext, values: string[]): CompileSet {
  const scheme = p.sources.filter((s) => !definesMain(readSome(s.source)));
  const flagsFrom = scheme.length > 0 ? scheme : p.sources;
  const { partial, defines, includeDirs, cflags, dropped } = mergeFlags(
    flagsFrom.map((s) => sortFlags(s.flags, s.cwd)),
  );
  // Include folders outside the submission (the system's) are not the package's.
  const inside = includeDirs.filter((d) => isWithin(ctx.dir, d));
  for (const s of p.sources) {
    const d = dirname(s.source);
    if (!inside.includes(d) && isDir(d) && filesIn(d, ".h").length > 0 && s.cwd === d) inside.push(d);
  }
  const name = basename(p.path).replace(/\.(exe|out)$/, "");
  return {
    partial,
    label: values.length > 0 ? values.join("-") : name,
    ...(p.archive ? { archive: true } : {}),
    from: `${shown.replace(/^make -n -B$/, "make -n -B")} (program ${ctx.rel(p.path)})`,
    folder,
    program: p.path,
    sources: unique(p.sources.map((s) => s.source)),
    defines,
    includeDirs: inside.length > 0 ? inside : [folder],
    cflags,
    libraries: carriedLibraries(p.libraries),
    dropped,
  };
}
