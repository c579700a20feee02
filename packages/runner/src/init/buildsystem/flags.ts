// A compile line's flags sorted into what meta.json carries: -D as defines (function-like ones too), -I as
// include folders (made absolute from the compiler's folder), the flags the package's build needs as cflags
// (-std=…, -m<feature>, -f…), and the flags not carried (optimisation, debugging, warnings, -march=native: build
// profiles choose those), said by the caller.
import { isAbsolute, join, normalize } from "node:path";
import { unique } from "../util.ts";

export interface SortedFlags {
  defines: string[];
  includeDirs: string[];
  cflags: string[];
  /** Flags of the compile line not carried, each with why. */
  dropped: string[];
}

const NOT_CARRIED: Array<[RegExp, string]> = [
  [/^-O/, "optimisation (the build profile chooses it)"],
  [/^-g/, "debugging information (the build profile chooses it)"],
  [/^-W(?!l,|a,|p,)/, "warnings"],
  [/^-w$/, "warnings"],
  [/^-(pedantic|pedantic-errors|ansi)$/, "warnings"],
  [/^-march=native$|^-mtune=|^-mcpu=native$/, "tuned for the building machine (the build profile chooses it)"],
  [/^-f(PIC|pic|PIE|pie)$|^-f(no-)?(pic|PIC|pie|PIE)$/, "position independence (ngcc-perf chooses it)"],
  [/^-fsanitize|^-fno-sanitize/, "a sanitizer"],
  [/^-M(D|MD|P|F|T|Q)?$|^-pipe$|^-c$|^-save-temps/, "build bookkeeping"],
  [/^-flto|^-fno-lto/, "link-time optimisation (the build profile chooses it)"],
  [/^-fomit-frame-pointer$|^-fno-omit-frame-pointer$|^-funroll/, "optimisation (the build profile chooses it)"],
];

/** Sorts compile-line flags (`["-DX=1", "-I", "inc", "-O3", …]`) run from `cwd`. */
export function sortFlags(flags: readonly string[], cwd: string): SortedFlags {
  const out: SortedFlags = { defines: [], includeDirs: [], cflags: [], dropped: [] };
  const abs = (p: string) => normalize(isAbsolute(p) ? p : join(cwd, p));
  const push = (list: string[], v: string) => {
    if (!list.includes(v)) list.push(v);
  };
  for (let i = 0; i < flags.length; i++) {
    const f = flags[i] as string;
    const next = () => flags[++i] ?? "";
    if (f === "-D") push(out.defines, next());
    else if (f.startsWith("-D")) push(out.defines, f.slice(2));
    else if (f === "-I" || f === "-iquote" || f === "-isystem") push(out.includeDirs, abs(next()));
    else if (f.startsWith("-I")) push(out.includeDirs, abs(f.slice(2)));
    else if (f === "-MF" || f === "-MT" || f === "-MQ" || f === "-x" || f === "-L") next();
    else if (f === "-U" || f.startsWith("-U"))
      push(out.dropped, `${f === "-U" ? `-U${next()}` : f}: an undefine (meta.json has none)`);
    else if (f === "-include")
      push(out.dropped, `-include ${next()}: a forced include (add it to the sources' headers by hand)`);
    else {
      const why = NOT_CARRIED.find(([re]) => re.test(f))?.[1];
      if (why) push(out.dropped, `${f}: ${why}`);
      else if (/^-std=|^-m|^-f|^-pthread$|^-funsigned-char$/.test(f)) push(out.cflags, f);
      else push(out.dropped, `${f}: not a flag meta.json carries`);
    }
  }
  return out;
}

/** Libraries of a link line as meta.json's `libraries`: `m` is always linked and left out. */
export function carriedLibraries(libs: readonly string[]): string[] {
  return [...new Set(libs.filter((l) => l !== "m" && /^[A-Za-z0-9_][A-Za-z0-9_.+-]*$/.test(l)))];
}

/** A compile set's flags merged from its compile lines' (or groups'), and `partial`: those not on all of them. */
export interface MergedFlags extends SortedFlags {
  /** Defines and cflags on some of the lines only (carried for all: the union). */
  partial: string[];
}

/** The flags of several compile lines as one compile set carries them: each kind's union, in the order first seen. */
export function mergeFlags(lines: readonly SortedFlags[]): MergedFlags {
  const out: SortedFlags = { defines: [], includeDirs: [], cflags: [], dropped: [] };
  const perLine: string[][] = [];
  for (const f of lines) {
    perLine.push([...f.defines, ...f.cflags]);
    for (const kind of ["defines", "includeDirs", "cflags", "dropped"] as const)
      for (const x of f[kind]) if (!out[kind].includes(x)) out[kind].push(x);
  }
  return { ...out, partial: unique(perLine.flat()).filter((x) => !perLine.every((g) => g.includes(x))) };
}
