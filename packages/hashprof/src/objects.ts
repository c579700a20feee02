// What the linker sees in an object file: its symbols (nm -P) and its calls (objdump -dr relocations), and
// where a configured symbol can be intercepted with -Wl,--wrap and where it cannot.

export interface ObjectFacts {
  /** Path of the object (relative to its build folder). */
  object: string;
  /** The C source it was compiled from. */
  source: string;
  /** Global functions and data it defines (nm types T, W, D, B, R …). */
  defined: string[];
  /** Local (static) symbols it defines (nm types t, d, b, r). */
  locals: string[];
  /** Symbols it references but does not define (nm type U). */
  undefined: string[];
  /** Relocations in code, by the function they occur in (calls and address-taking). */
  edges: Array<{ caller: string; callee: string }>;
}

/** Parses `nm -P` output: "name type [value size]" per line. */
export function parseNm(text: string): Pick<ObjectFacts, "defined" | "locals" | "undefined"> {
  const defined = new Set<string>();
  const locals = new Set<string>();
  const undef = new Set<string>();
  for (const line of text.split("\n")) {
    const m = /^(\S+) ([A-Za-z?-]) ?/.exec(line);
    if (!m) continue;
    const name = m[1] as string;
    const type = m[2] as string;
    if (name.startsWith(".")) continue;
    if (type === "U" || type === "w" || type === "v") undef.add(name);
    else if (type === "T" || type === "W" || type === "D" || type === "B" || type === "R" || type === "V")
      defined.add(name);
    else if (/[tdbr]/.test(type)) locals.add(name);
  }
  return { defined: [...defined].sort(), locals: [...locals].sort(), undefined: [...undef].sort() };
}

/**
 * Parses `objdump -dr` output into (function, referenced symbol) pairs: every relocation is attributed
 * to the function whose disassembly it appears in. Works for any architecture objdump knows
 * (R_X86_64_PLT32, R_AARCH64_CALL26, …); local labels (.L…) and sections are left out.
 */
export function parseObjdumpEdges(text: string): Array<{ caller: string; callee: string }> {
  const edges = new Map<string, { caller: string; callee: string }>();
  let fn = "";
  for (const line of text.split("\n")) {
    const head = /^[0-9a-f]+ <([^>]+)>:\s*$/.exec(line);
    if (head) {
      fn = (head[1] as string).replace(/\.(constprop|isra|part|cold|lto_priv)\.\d+.*$|\.cold$/, "");
      continue;
    }
    const rel = /^\s+[0-9a-f]+:\s+R_[A-Z0-9_]+\s+([^\s+-]+)(?:[+-]0x[0-9a-f]+)?\s*$/.exec(line);
    if (!rel || !fn) continue;
    const callee = rel[1] as string;
    if (callee.startsWith(".") || callee === fn) continue;
    edges.set(`${fn}\u0000${callee}`, { caller: fn, callee });
  }
  return [...edges.values()];
}

export type BlindReason = "same-object" | "static" | "inlined" | "not-referenced";

export interface BlindSpot {
  symbol: string;
  reason: BlindReason;
  detail?: string;
}

export interface GroupSpec {
  name: string;
  label?: string;
  symbols: string[];
  symbolLabels: Record<string, string>;
  /** hash, drng or other (default: drng for the DRNG's group, see drngGroup, else hash). */
  kind?: "hash" | "drng" | "other";
  /** The group is ICCS placeholder functions: the page words it so (default false). */
  iccs?: boolean;
  /** Where the group came from: the defaults, the campaign, the submission's meta.json, the campaign's algorithm. */
  source?: "default" | "campaign" | "meta" | "algorithm";
}

export interface Interception {
  /** Symbols to pass to -Wl,--wrap: defined globally in one object, referenced from another. */
  wrap: string[];
  /** Where each wrapped symbol is defined (object path). */
  definedIn: Record<string, string>;
  blindSpots: BlindSpot[];
}

/**
 * Decides, for every configured symbol, whether link-time wrapping sees its calls.
 *  - wrapped: some object references it (U) and another defines it globally;
 *  - same-object: calls to it from functions of its defining object (other than the group's own
 *    symbols, whose time the outer wrapper already covers) never reach the linker;
 *  - static: only a local symbol of that name exists;
 *  - inlined: the name appears in the instance's own sources, but no object defines or references it;
 *  - not-referenced: nothing mentions it; listed only when no symbol of its group is wrapped, so that a
 *    group's 0% is explained rather than silent.
 */
export function interception(
  objects: readonly ObjectFacts[],
  groups: readonly GroupSpec[],
  sourceMentions: (symbol: string) => string | null,
): Interception {
  const wrap: string[] = [];
  const definedIn: Record<string, string> = {};
  const blindSpots: BlindSpot[] = [];
  for (const g of groups) {
    const groupSet = new Set(g.symbols);
    const notReferenced: BlindSpot[] = [];
    let wrappedInGroup = 0;
    for (const sym of g.symbols) {
      const definers = objects.filter((o) => o.defined.includes(sym));
      const referrers = objects.filter((o) => o.undefined.includes(sym) && !o.defined.includes(sym));
      const localIn = objects.filter((o) => o.locals.includes(sym));
      const definer = definers[0];
      if (definer && referrers.length > 0) {
        wrap.push(sym);
        definedIn[sym] = definer.object;
        wrappedInGroup++;
      }
      for (const d of definers) {
        const callers = d.edges
          .filter((e) => e.callee === sym && !groupSet.has(e.caller))
          .map((e) => e.caller)
          .sort();
        if (callers.length > 0) {
          blindSpots.push({
            symbol: sym,
            reason: "same-object",
            detail: `called inside ${d.object} (from ${callers.join(", ")}), where it is defined: those calls are not seen`,
          });
        }
      }
      if (definers.length === 0 && localIn.length > 0) {
        blindSpots.push({
          symbol: sym,
          reason: "static",
          detail: `static in ${localIn.map((o) => o.object).join(", ")}: not an external symbol`,
        });
        continue;
      }
      if (definers.length === 0 && referrers.length === 0) {
        const where = sourceMentions(sym);
        if (where) {
          blindSpots.push({
            symbol: sym,
            reason: "inlined",
            detail: `named in ${where} but no object defines or calls it: inlined or macro-expanded`,
          });
        } else {
          notReferenced.push({ symbol: sym, reason: "not-referenced", detail: "no object defines or calls it" });
        }
      } else if (definers.length > 0 && referrers.length === 0 && !blindSpots.some((b) => b.symbol === sym)) {
        notReferenced.push({
          symbol: sym,
          reason: "not-referenced",
          detail: `defined in ${definers[0]?.object}, called from no other object`,
        });
      }
    }
    if (wrappedInGroup === 0) blindSpots.push(...notReferenced);
  }
  return { wrap, definedIn, blindSpots };
}

/** Whether an identifier occurs as a whole word in a C source text (comments stripped). */
export function mentionsIdentifier(cText: string, name: string): boolean {
  const code = cText.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/\/\/[^\n]*/g, " ");
  return new RegExp(`(^|[^A-Za-z0-9_])${name}([^A-Za-z0-9_]|$)`).test(code);
}
