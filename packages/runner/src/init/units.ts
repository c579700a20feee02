// Every source compiled to an object (never linked or run) and read with nm, both in the sandbox: the symbols
// decide which file defines main (a program, not the scheme), which is the submitter's randombytes (a definition
// of randombytes or of a macro-renamed one: PQCLEAN_randombytes, XYZ_randombytes), which shared file nothing calls,
// and the profiler's groups. A unit that does not compile is said, and decides nothing.
import { join } from "node:path";
import { runProcess } from "../proc.ts";
import { HOST_CONTEXT } from "../run-context.ts";
import { type CompileFlags, flagArgs } from "./api-header.ts";
import { failureOf } from "./util.ts";

export interface Unit {
  source: string;
  flags: CompileFlags;
}

export interface UnitSymbols {
  source: string;
  /** Global functions and data the object defines. */
  defined: Set<string>;
  /** Global functions it defines (text symbols). */
  functions: Set<string>;
  /** Symbols it uses and does not define. */
  used: Set<string>;
}

export interface Compiled {
  perUnit: Map<string, UnitSymbols>;
  failed: Array<{ source: string; error: string }>;
}

export const unitKey = (u: Unit) => JSON.stringify([u.source, u.flags.includeDirs, u.flags.defines, u.flags.cflags]);

/** The symbol a randombytes definition has: `randombytes`, or a renamed one (`PQCLEAN_randombytes`). */
export const RANDOMBYTES_SYMBOL = /^(?:\w+_)?randombytes$/;

export async function compileUnits(cc: string, units: Unit[], work: string): Promise<Compiled> {
  const perUnit = new Map<string, UnitSymbols>();
  const failed: Compiled["failed"] = [];
  const done = new Set<string>();
  let k = 0;
  for (const u of units) {
    const key = unitKey(u);
    if (done.has(key)) continue;
    done.add(key);
    const obj = join(work, `u${k++}.o`);
    const args = ["-std=gnu11", ...flagArgs(u.flags), "-O1", "-w", "-c", "-I", work, u.source, "-o", obj];
    const r = await runProcess([cc, ...args], {
      timeoutMs: 120_000,
      cwd: work,
      writable: [work],
      context: HOST_CONTEXT,
    });
    if (r.exitCode !== 0) {
      failed.push({ source: u.source, error: failureOf(r) });
      continue;
    }
    const nm = await runProcess(["nm", "-P", obj], { timeoutMs: 60_000, cwd: work, context: HOST_CONTEXT });
    if (nm.exitCode !== 0) {
      failed.push({ source: u.source, error: `nm -P: ${failureOf(nm)}` });
      continue;
    }
    const unit: UnitSymbols = { source: u.source, defined: new Set(), functions: new Set(), used: new Set() };
    for (const line of nm.stdout.split("\n")) {
      const [sym, type] = line.trim().split(/\s+/);
      if (!sym || !type) continue;
      if (type === "U") unit.used.add(sym);
      else if (/^[TDBRC]$/.test(type)) unit.defined.add(sym);
      if (type === "T") unit.functions.add(sym);
    }
    perUnit.set(key, unit);
  }
  return { perUnit, failed };
}

export const randombytesSymbolOf = (u: UnitSymbols) => [...u.functions].find((s) => RANDOMBYTES_SYMBOL.test(s));
