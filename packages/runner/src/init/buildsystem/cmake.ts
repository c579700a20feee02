// The package's CMakeLists.txt as the source of truth: configured in the sandbox (a scratch copy, a scratch build
// folder, -DCMAKE_EXPORT_COMPILE_COMMANDS=ON) with a CMake file-API query, so the reply names every target, its
// sources, compile groups (defines, includes, flags), the library targets it depends on and its link libraries.
// An instance is an executable target that is a KAT program (or links the NIST API), with the sources of it and
// of the library targets it depends on, transitively. A cache variable that chooses a parameter set (STRINGS
// property, or compared in if(… EQUAL/STREQUAL …)) is configured once per value when the default configuration
// does not build every set as its own target.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, isAbsolute, join, normalize, relative } from "node:path";
import { readSubmissionText, shortText } from "@ngcc-perf/schema";
import { InputError } from "../../errors.ts";
import { runProcess } from "../../proc.ts";
import { HOST_CONTEXT } from "../../run-context.ts";
import {
  entries,
  failureOf,
  filesIn,
  foldersUnder,
  isFile,
  isWithin,
  readSome,
  stripComments,
  unique,
  unscratch,
} from "../util.ts";
import { combinations, labelOf } from "./combinations.ts";
import { carriedLibraries, mergeFlags, sortFlags } from "./flags.ts";
import type { BuildReading, CompileSet, ReadContext } from "./types.ts";

const CMAKE_TIMEOUT_MS = 180_000;
const MAX_CONFIGURES = 12;

export interface CMakeOption {
  name: string;
  value: string;
  values: string[];
  why: string;
}

/** Cache variables that choose a parameter set: `set_property(CACHE X PROPERTY STRINGS a b)` or if(X EQUAL n). */
export function cmakeOptions(text: string): CMakeOption[] {
  const code = text.replace(/#[^\n]*/g, "");
  const out = new Map<string, CMakeOption>();
  const defaults = new Map<string, string>();
  for (const m of code.matchAll(/\bset\s*\(\s*(\w+)\s+"?([^\s")]*)"?\s+CACHE\s+\w+/gi))
    defaults.set(m[1] as string, m[2] as string);
  for (const m of code.matchAll(/\boption\s*\(\s*(\w+)\s+"[^"]*"\s+(\w+)\s*\)/gi))
    defaults.set(m[1] as string, m[2] as string);
  for (const m of code.matchAll(/\bset_property\s*\(\s*CACHE\s+(\w+)\s+PROPERTY\s+STRINGS\s+([^)]*)\)/gi)) {
    const name = m[1] as string;
    const values = (m[2] as string)
      .split(/[\s;]+/)
      .map((v) => v.replace(/^"|"$/g, ""))
      .filter(Boolean);
    out.set(name, {
      name,
      value: defaults.get(name) ?? values[0] ?? "",
      values,
      why: `set_property(CACHE ${name} PROPERTY STRINGS …)`,
    });
  }
  for (const m of code.matchAll(/\bif\s*\(\s*\$?\{?(\w+)\}?\s+(EQUAL|STREQUAL)\s+"?([\w.+-]+)"?\s*\)/gi)) {
    const name = m[1] as string;
    if (!defaults.has(name) || out.get(name)?.why.startsWith("set_property")) continue;
    const o = out.get(name) ?? {
      name,
      value: defaults.get(name) as string,
      values: [defaults.get(name) as string],
      why: `compared in if(${name} ${m[2]} …)`,
    };
    if (!o.values.includes(m[3] as string)) o.values.push(m[3] as string);
    out.set(name, o);
  }
  return [...out.values()].filter((o) => o.values.length >= 2);
}

interface Target {
  name: string;
  type: string;
  id: string;
  sources: Array<{ path: string; group?: number }>;
  groups: Array<{ defines: string[]; includes: string[]; fragments: string[] }>;
  deps: string[];
  libraries: string[];
  artifact?: string;
}

/** A file-API reply read at most this big (a codemodel of a large tree is a few MB). */
const MAX_REPLY_BYTES = 32 * 1024 * 1024;

/**
 * A file of the CMake file-API reply. The submission's CMakeLists.txt ran while it was written (execute_process
 * can put anything there), so it is read as a submission file of the reply folder: a regular file inside it, capped
 * — not a FIFO (it hung init), not a link to a host file, not a jsonFile of ../../etc/shadow. Bad input otherwise,
 * naming the file and nothing of its content.
 */
export function readReplyJson(reply: string, name: unknown): Record<string, unknown> {
  const bad = (why: string) =>
    new InputError(
      `${shortText(String(name))}: the CMake file-API reply ${why}; written while the submission's CMakeLists.txt ran, it is not read`,
    );
  if (typeof name !== "string" || name === "") throw bad("names no file");
  const read = readSubmissionText(reply, join(reply, name), MAX_REPLY_BYTES);
  if (read.error !== undefined) throw bad(read.error);
  try {
    const v = JSON.parse(read.text) as unknown;
    if (typeof v === "object" && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // below
  }
  throw bad("is not a JSON object");
}

/** The targets of a file-API reply (codemodel-v2), first configuration. */
function replyTargets(build: string, srcRoot: string): Target[] {
  const reply = join(build, ".cmake", "api", "v1", "reply");
  const index = entries(reply).find((f) => f.startsWith("index-") && f.endsWith(".json"));
  if (!index) return [];
  const idx = readReplyJson(reply, index) as { objects?: Array<{ kind: string; jsonFile: string }> };
  const cm = idx.objects?.find((o) => o.kind === "codemodel");
  if (!cm) return [];
  const model = readReplyJson(reply, cm.jsonFile) as {
    configurations?: Array<{ targets?: Array<{ name: string; id: string; jsonFile: string }> }>;
  };
  const out: Target[] = [];
  for (const t of model.configurations?.[0]?.targets ?? []) {
    const j = readReplyJson(reply, t.jsonFile) as {
      type: string;
      sources?: Array<{ path: string; compileGroupIndex?: number }>;
      compileGroups?: Array<{
        defines?: Array<{ define: string }>;
        includes?: Array<{ path: string }>;
        compileCommandFragments?: Array<{ fragment: string }>;
      }>;
      dependencies?: Array<{ id: string }>;
      link?: { commandFragments?: Array<{ fragment: string; role: string }> };
      artifacts?: Array<{ path: string }>;
    };
    const abs = (p: string) => normalize(isAbsolute(p) ? p : join(srcRoot, p));
    out.push({
      name: t.name,
      id: t.id,
      type: j.type,
      sources: (j.sources ?? []).map((s) => ({
        path: abs(s.path),
        ...(s.compileGroupIndex !== undefined ? { group: s.compileGroupIndex } : {}),
      })),
      groups: (j.compileGroups ?? []).map((g) => ({
        defines: (g.defines ?? []).map((d) => d.define),
        includes: (g.includes ?? []).map((i) => abs(i.path)),
        fragments: (g.compileCommandFragments ?? []).flatMap((f) => f.fragment.split(/\s+/).filter(Boolean)),
      })),
      deps: (j.dependencies ?? []).map((d) => d.id),
      libraries: (j.link?.commandFragments ?? [])
        .filter((f) => f.role === "libraries")
        .flatMap((f) => f.fragment.split(/\s+/))
        .flatMap((f) =>
          /^-l/.test(f)
            ? [f.slice(2)]
            : /lib([\w.+-]+?)\.(so|a)(\.[\d.]+)?$/.test(f) && isAbsolute(f)
              ? [/lib([\w.+-]+?)\.(so|a)/.exec(basename(f))?.[1] as string]
              : [],
        ),
      ...(j.artifacts?.[0] ? { artifact: j.artifacts[0].path } : {}),
    });
  }
  return out;
}

const callsApi = (file: string) => /\bcrypto_(kem|sign|kex)\w*\s*\(/.test(stripComments(readSome(file)));

/** The CMake files of a project: every CMakeLists.txt and *.cmake under it (build folders left out). */
function cmakeTexts(top: string): string[] {
  return foldersUnder(top, 5, new Set(["tests", "test"]))
    .concat(foldersUnder(top, 5, new Set()).filter((f) => /\/tests?$/.test(f)))
    .flatMap((d) =>
      entries(d)
        .filter((e) => e === "CMakeLists.txt" || e.endsWith(".cmake"))
        .map((e) => join(d, e)),
    )
    .filter((f, k, all) => all.indexOf(f) === k)
    .map((f) => readSome(f));
}

/**
 * Cache variables passed on as a macro (`-DLEVEL=${LEVEL}` in CMAKE_C_FLAGS) whose values the sources compare
 * (`#if (LEVEL == 3)`): configured once per value.
 */
export function macroOptions(cmake: string[], sources: string[]): CMakeOption[] {
  const out: CMakeOption[] = [];
  for (const t of cmake) {
    for (const m of t.matchAll(/-D([A-Za-z_]\w*)=\$\{(\w+)\}/g)) {
      const macro = m[1] as string;
      const name = m[2] as string;
      if (out.some((o) => o.name === name)) continue;
      const values: string[] = [];
      const re = new RegExp(`^\\s*#\\s*(?:el)?if\\b[^\\n]*\\b${macro}\\s*==\\s*([\\w]+)`, "gm");
      for (const src of sources)
        for (const v of src.matchAll(re)) if (!values.includes(v[1] as string)) values.push(v[1] as string);
      if (values.length >= 2) {
        out.push({
          name,
          value: values[0] as string,
          values,
          why: `-D${macro}=\${${name}} in the CMake flags, ${macro} compared by the sources' #if`,
        });
      }
    }
  }
  return out;
}

/** Boolean variables whose if() block adds the KAT program (`if(USE_NIST_RAND) … PQCgenKAT_kem.c`): set ON. */
export function katSwitchesOf(cmake: string[]): string[] {
  const out: string[] = [];
  for (const t of cmake) {
    for (const m of t.replace(/#[^\n]*/g, "").matchAll(/\bif\s*\(\s*(\w+)\s*\)([\s\S]*?)\b(?:else|endif)\s*\(/gi)) {
      if (/PQCgenKAT/i.test(m[2] as string) && !out.includes(m[1] as string)) out.push(m[1] as string);
    }
  }
  return out;
}
/** A CMake project being read: where it is (and its scratch copy), the KAT switches always ON, the runs so far. */
interface Project {
  ctx: ReadContext;
  top: string;
  copyTop: string;
  /** The project's folder as messages show it. */
  where: string;
  always: Record<string, string>;
  /** Configurations run so far (each in a build folder of its own). */
  runs: number;
}

/** One configuration's reply: the command as shown, its failure ("" when it configured) and its targets. */
interface Configured {
  shown: string;
  error: string;
  targets: Target[];
}

/** The implementation's CMake project (its own, else the submission's) read into compile sets; null for none. */
export async function readCMake(ctx: ReadContext, implFolder: string): Promise<BuildReading | null> {
  const lists = join(implFolder, "CMakeLists.txt");
  const top = isFile(lists) ? implFolder : isFile(join(ctx.dir, "CMakeLists.txt")) ? ctx.dir : null;
  if (!top) return null;
  const where = ctx.rel(top);
  const reading: BuildReading = { system: "cmake", sets: [], decided: [], undecided: [] };
  const copyTop = join(ctx.copy, relative(ctx.dir, top));
  const texts = cmakeTexts(top);
  const options = parameterOptions(top, texts);
  const switches = katSwitchesOf(texts);
  for (const k of switches) {
    reading.decided.push(`${where}: CMake variable ${k}=ON (its if() block adds the PQCgenKAT program)`);
  }
  const always = Object.fromEntries(switches.map((k) => [k, "ON"]));
  const project: Project = { ctx, top, copyTop, where, always, runs: 0 };
  const seen = new Map<string, CompileSet>();
  const first = await configure(project, {});
  if (first.error) {
    reading.undecided.push(`${first.shown} failed: ${first.error}`);
    return reading;
  }
  collectSets(project, seen, first, []);
  for (const o of options) {
    reading.decided.push(
      `${where}: CMake option ${o.name} (default ${o.value}) chooses a parameter set; values from ${o.why}: ${o.values.join(", ")}`,
    );
  }
  // Configured once per value when the default configuration does not build every set as its own target.
  const perValue = options.length > 0 && seen.size <= 1;
  if (perValue) {
    seen.clear();
    await configureEach(project, options, seen, reading);
  }
  reading.sets.push(...seen.values());
  reading.decided.push(
    `${where}: ${seen.size} compile set(s) from the CMake file API (configured in the sandbox${perValue ? `, once per value of ${options.map((o) => o.name).join(", ")}` : ""})`,
  );
  return reading;
}

/** The cache variables that choose a parameter set: the CMake files' options, then the macros the sources compare. */
function parameterOptions(top: string, texts: string[]): CMakeOption[] {
  const options = cmakeOptions(texts.join("\n"));
  const sourceTexts = foldersUnder(top, 5, new Set())
    .flatMap((d) => [...filesIn(d, ".h"), ...filesIn(d, ".c")])
    .map((f) => readSome(f, 1 << 20));
  for (const o of macroOptions(texts, sourceTexts)) if (!options.some((x) => x.name === o.name)) options.push(o);
  return options;
}

/** The project configured in the sandbox with `assign` (a fresh build folder, a file-API query); paths unscratched. */
async function configure(project: Project, assign: Record<string, string>): Promise<Configured> {
  const { ctx } = project;
  const build = join(ctx.work, `cmake-build-${project.runs++}`);
  mkdirSync(join(build, ".cmake", "api", "v1", "query"), { recursive: true });
  writeFileSync(join(build, ".cmake", "api", "v1", "query", "codemodel-v2"), "");
  const args = Object.entries({ ...project.always, ...assign }).map(([k, v]) => `-D${k}=${v}`);
  const r = await runProcess(
    [
      "cmake",
      "-S",
      project.copyTop,
      "-B",
      build,
      "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
      `-DCMAKE_C_COMPILER=${ctx.cc}`,
      ...args,
    ],
    { timeoutMs: CMAKE_TIMEOUT_MS, cwd: build, writable: [ctx.work], context: HOST_CONTEXT },
  );
  const shown = `cmake -S ${project.where}${args.length ? ` ${args.join(" ")}` : ""}`;
  if (r.exitCode !== 0) return { shown, error: unscratch(failureOf(r), ctx.copy, ctx.dir), targets: [] };
  const targets = existsSync(join(build, ".cmake", "api", "v1", "reply")) ? replyTargets(build, project.copyTop) : [];
  for (const t of targets) {
    t.sources = t.sources.map((s) => ({ ...s, path: unscratch(s.path, ctx.copy, ctx.dir) }));
    for (const g of t.groups) g.includes = g.includes.map((i) => unscratch(i, ctx.copy, ctx.dir));
  }
  return { shown, error: "", targets };
}

/** The project configured once per combination of the options' values (at most MAX_CONFIGURES), sets collected. */
async function configureEach(
  project: Project,
  options: CMakeOption[],
  seen: Map<string, CompileSet>,
  reading: BuildReading,
): Promise<void> {
  const { combos, capped } = combinations(options, MAX_CONFIGURES);
  if (capped)
    reading.undecided.push(
      `${project.where}: more than ${MAX_CONFIGURES} option combinations; configured the first ${MAX_CONFIGURES}`,
    );
  for (const c of combos) {
    const r = await configure(project, c);
    if (r.error) reading.undecided.push(`${r.shown} failed: ${r.error}`);
    else collectSets(project, seen, r, labelOf(c));
  }
}

/**
 * The compile sets of a configuration: one per KAT program target (else per executable that links the NIST API),
 * with the library targets it depends on; each distinct set kept once in `seen`. `values` label a lone set.
 */
function collectSets(project: Project, seen: Map<string, CompileSet>, configured: Configured, values: string[]) {
  const { targets } = configured;
  const byId = new Map(targets.map((t) => [t.id, t]));
  const exes = targets.filter((t) => t.type === "EXECUTABLE");
  const closure = (t: Target): Target[] => {
    const out: Target[] = [t];
    for (let i = 0; i < out.length; i++) {
      for (const d of (out[i] as Target).deps) {
        const dt = byId.get(d);
        if (dt && !out.includes(dt) && /LIBRARY/.test(dt.type)) out.push(dt);
      }
    }
    return out;
  };
  const kat = exes.filter((t) => /PQCgenKAT/i.test(t.name));
  const chosen =
    kat.length > 0 ? kat : exes.filter((t) => closure(t).some((x) => x.sources.some((s) => callsApi(s.path))));
  for (const t of chosen) {
    const label = values.length > 0 && chosen.length === 1 ? values.join("-") : t.name;
    const set = targetSet(project, closure(t), configured.shown, label);
    const key = JSON.stringify([[...set.sources].sort(), set.defines, set.includeDirs, set.cflags]);
    if (!seen.has(key)) seen.set(key, set);
  }
}

/** The compile set of an executable target and the library targets it depends on (`parts`, the target first). */
function targetSet(project: Project, parts: Target[], shown: string, label: string): CompileSet {
  const { ctx, top } = project;
  const t = parts[0] as Target;
  const sources = unique(
    parts.flatMap((p) =>
      p.sources.filter((s) => s.group !== undefined && /\.(c|S|s)$/.test(s.path)).map((s) => s.path),
    ),
  );
  // The flags fragment holds CMAKE_C_FLAGS: -D and -I there count as the compile group's own.
  const groups = parts.flatMap((p) =>
    p.groups.map((g) => {
      const own = sortFlags(g.fragments, top);
      return { ...own, defines: [...g.defines, ...own.defines], includeDirs: [...g.includes, ...own.includeDirs] };
    }),
  );
  const { partial, defines, includeDirs, cflags, dropped } = mergeFlags(groups);
  return {
    partial,
    label,
    from: `${shown} (target ${t.name}${
      parts.length > 1
        ? ` with ${parts
            .slice(1)
            .map((p) => p.name)
            .join(", ")}`
        : ""
    })`,
    folder: top,
    program: t.name,
    sources,
    defines,
    includeDirs: includeDirs.filter((d) => isWithin(ctx.dir, d)),
    cflags,
    libraries: carriedLibraries(parts.flatMap((p) => p.libraries)),
    dropped,
  };
}
