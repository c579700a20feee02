// The compile and link lines a build system prints (`make -n -B`, compile_commands.json), read without a shell:
// each line split into commands at `&&`, `||`, `;` outside quotes, each command split into an argv (quotes and
// backslashes as sh has them), then followed from `-c x.c -o x.o` to the link line `… x.o y.o -o prog` (or a
// one-command build `cc … a.c b.c -o prog`, or an archive `ar rcs lib.a x.o`). Nothing here runs a program.
import { basename, isAbsolute, join, normalize } from "node:path";

/** Splits one shell line into commands (argv arrays); quotes, backslashes and `&&`/`||`/`;`/`|` handled. */
export function splitCommands(line: string): string[][] {
  const commands: string[][] = [];
  let argv: string[] = [];
  let word = "";
  let inWord = false;
  const endWord = () => {
    if (inWord) argv.push(word);
    word = "";
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    if (argv.length > 0) commands.push(argv);
    argv = [];
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === "'") {
      const j = line.indexOf("'", i + 1);
      const end = j < 0 ? line.length : j;
      word += line.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      inWord = true;
      for (i++; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === "\\" && i + 1 < line.length && '"\\$`'.includes(line[i + 1] as string)) i++;
        word += line[i];
      }
    } else if (c === "\\" && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (c === " " || c === "\t" || c === "\n") {
      endWord();
    } else if (c === ";" || c === "|" || (c === "&" && line[i + 1] === "&")) {
      if ((c === "&" || c === "|") && line[i + 1] === c) i++;
      endCommand();
    } else {
      word += c;
      inWord = true;
    }
  }
  endCommand();
  return commands;
}

/** `make -n` output as logical lines: backslash-newline joined. */
export function logicalLines(text: string): string[] {
  return text
    .replace(/\\\n/g, " ")
    .split("\n")
    .filter((l) => l.trim() !== "");
}

/** One C source as the build compiles it: its path (absolute) and the flags of its compile line. */
export interface CompiledSource {
  source: string;
  flags: string[];
  /** The folder the compiler ran in (relative -I and -D paths are from here). */
  cwd: string;
}

/** A program the build links: its sources with their flags, and the libraries of its link line. */
export interface BuiltProgram {
  /** The program's path (absolute). */
  path: string;
  sources: CompiledSource[];
  /** `-l<name>` of the link line, in order (`m` included; the caller decides). */
  libraries: string[];
  /** The link line's argv. */
  link: string[];
  /** A static library the build makes, no program linking it (its users' other sources are not listed). */
  archive?: boolean;
}

const CC_RE = /^(?:.*\/)?(?:[\w.-]+-)?(?:cc|gcc|clang|c99|c11|icx|icc)(?:-[\d.]+)?$/;
const C_SOURCE = /\.(c|cc|cpp|cxx|s|S)$/;

/** Is argv a C compiler's command? (`gcc`, `cc`, `x86_64-linux-gnu-gcc-12`, `clang` … or the given `cc`.) */
export function isCompiler(argv0: string, cc?: string): boolean {
  return CC_RE.test(argv0) || (cc !== undefined && (argv0 === cc || basename(argv0) === basename(cc)));
}

/** Options of a compile line that take the next word as their value. */
const WITH_VALUE = new Set([
  "-o",
  "-I",
  "-D",
  "-U",
  "-include",
  "-isystem",
  "-iquote",
  "-MF",
  "-MT",
  "-MQ",
  "-x",
  "-L",
]);

/**
 * The programs a list of commands builds. `cwd` is the folder the commands run in (`cd dir &&` and
 * `make -C dir` output lines "Entering directory" are followed).
 */
export function programsOf(commands: Array<{ argv: string[]; cwd: string }>, cc?: string): BuiltProgram[] {
  const objects = new Map<string, CompiledSource[]>();
  const archives = new Map<string, CompiledSource[]>();
  const programs: BuiltProgram[] = [];
  const abs = (p: string, cwd: string) => normalize(isAbsolute(p) ? p : join(cwd, p));
  for (const { argv, cwd } of commands) {
    const [prog, ...args] = argv;
    if (!prog) continue;
    if (/(^|\/)(gcc-)?ar$/.test(prog) && args.length >= 2) {
      const lib = args.find((a) => a.endsWith(".a"));
      if (!lib) continue;
      const members = args.filter((a) => a.endsWith(".o")).flatMap((o) => objects.get(abs(o, cwd)) ?? []);
      archives.set(abs(lib, cwd), [...(archives.get(abs(lib, cwd)) ?? []), ...members]);
      continue;
    }
    if (!isCompiler(prog, cc)) continue;
    const flags: string[] = [];
    const inputs: string[] = [];
    const libraries: string[] = [];
    let output: string | undefined;
    let compileOnly = false;
    for (let i = 0; i < args.length; i++) {
      const a = args[i] as string;
      if (a === "-c") compileOnly = true;
      else if (a === "-o") output = args[++i];
      else if (a.startsWith("-o") && a.length > 2) output = a.slice(2);
      else if (a.startsWith("-l") && a.length > 2) libraries.push(a.slice(2));
      else if (a === "-l" && i + 1 < args.length) libraries.push(args[++i] as string);
      else if (WITH_VALUE.has(a) && i + 1 < args.length) flags.push(a, args[++i] as string);
      else if (a.startsWith("-")) flags.push(a);
      else inputs.push(a);
    }
    if (flags.includes("-E") || flags.includes("-M") || flags.includes("-MM")) continue;
    const sources = inputs.filter((f) => C_SOURCE.test(f)).map((f) => ({ source: abs(f, cwd), flags, cwd }));
    if (compileOnly) {
      for (const s of sources) {
        const obj =
          output && sources.length === 1 ? abs(output, cwd) : abs(basename(s.source).replace(C_SOURCE, ".o"), cwd);
        objects.set(obj, [s]);
      }
      continue;
    }
    if (!output) output = "a.out";
    const linked = [
      ...sources,
      ...inputs.filter((f) => f.endsWith(".o")).flatMap((o) => objects.get(abs(o, cwd)) ?? []),
      ...inputs.filter((f) => f.endsWith(".a")).flatMap((a) => archives.get(abs(a, cwd)) ?? []),
    ];
    if (linked.length === 0) continue;
    if (flags.includes("-shared")) continue;
    programs.push({ path: abs(output, cwd), sources: linked, libraries, link: argv });
  }
  // A build that only makes a library (PQClean's lib<scheme>.a): the archive stands for the program.
  if (programs.length === 0) {
    for (const [path, sources] of archives) {
      if (sources.length > 0) programs.push({ path, sources, libraries: [], link: [], archive: true });
    }
  }
  return programs;
}

/** `make -n` output as commands with their folders (`make[1]: Entering directory '…'` and `cd x &&` followed). */
export function commandsOfMakeOutput(text: string, cwd: string): Array<{ argv: string[]; cwd: string }> {
  const out: Array<{ argv: string[]; cwd: string }> = [];
  const dirs: string[] = [cwd];
  for (const line of logicalLines(text)) {
    const enter = /^make(?:\[\d+\])?: Entering directory [`'](.*)'$/.exec(line);
    if (enter?.[1]) {
      dirs.push(enter[1]);
      continue;
    }
    if (/^make(?:\[\d+\])?: Leaving directory/.test(line)) {
      if (dirs.length > 1) dirs.pop();
      continue;
    }
    if (/^make(?:\[\d+\])?: /.test(line)) continue;
    let here = dirs[dirs.length - 1] as string;
    for (const argv of splitCommands(line)) {
      if (argv[0] === "cd" && argv[1]) {
        here = normalize(isAbsolute(argv[1]) ? argv[1] : join(here, argv[1]));
        continue;
      }
      out.push({ argv, cwd: here });
    }
  }
  return out;
}
