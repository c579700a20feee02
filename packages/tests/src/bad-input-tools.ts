// The bad-input corpus (issue 14, item 5): each case writes its inputs into a folder of its own, runs the built CLI
// as a user would, and expects a clean refusal — its exit code (2 for bad input), a message that matches (naming
// the file, and the line or JSON pointer where there is one), no stack trace, no echo of a huge value, and nothing
// half-written (no temporary file left anywhere in the case's folder). The cases live in bad-inputs-*.test.ts, one
// file per area, each a table of BadInputCase.
import { mkdirSync, mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { type CliResult, runCliAsync } from "./fixture-tools.ts";

export interface BadInputCase {
  /** A short unique name: the case's folder. */
  id: string;
  /** Writes the case's inputs into dir (a fresh, empty folder); may return values for argv. */
  setup?: (dir: string) => void | Promise<void>;
  /** The CLI's arguments; dir is the case's folder. */
  argv: (dir: string) => string[];
  /** Expected exit code: 2 (bad input) unless said. */
  exit?: number;
  /** What stderr must match: the file, the place and what was expected. */
  message: RegExp;
  /** Extra checks on the result. */
  check?: (r: CliResult, dir: string) => void | Promise<void>;
  timeoutMs?: number;
}

/** A fresh root folder for one corpus file's cases. */
export function corpusRoot(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `ngcc-bad-${prefix}-`));
}

/** Every file under dir whose name says it was left half-written (a temporary name). */
export function halfWritten(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (/\.tmp($|[-.])|^\.tmp-|~$/.test(e.name)) out.push(p);
      if (e.isDirectory() && !e.isSymbolicLink()) walk(p);
    }
  };
  walk(dir);
  return out;
}

/** The checks every refusal must pass, whatever the case. */
export function expectCleanRefusal(r: CliResult & { signal?: NodeJS.Signals | null }, c: BadInputCase, dir: string) {
  const where = `${c.id}: exit ${r.code}, stderr:\n${r.stderr.slice(0, 2000)}`;
  expect(r.signal ?? null, where).toBeNull();
  expect(r.code, where).toBe(c.exit ?? 2);
  expect(r.stderr, where).toMatch(c.message);
  // No stack trace: no "    at fn (file:line:col)" frames, no bare Node error names at the start of a line.
  expect(r.stderr, where).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(r.stderr, where).not.toMatch(/^(RangeError|TypeError|ReferenceError|SyntaxError)\b/m);
  // No echo of a huge value: messages stay short.
  expect(r.stderr.length, `${c.id}: stderr is ${r.stderr.length} chars`).toBeLessThan(8192);
  expect(r.stdout.length, `${c.id}: stdout is ${r.stdout.length} chars`).toBeLessThan(65536);
  expect(halfWritten(dir), `${c.id}: half-written files`).toEqual([]);
}

/** Runs one case in <root>/<id>/ and applies the common checks, then the case's own. */
export async function runBadInput(root: string, c: BadInputCase): Promise<void> {
  const dir = join(root, c.id);
  mkdirSync(dir, { recursive: true });
  await c.setup?.(dir);
  const r = await runCliAsync(c.argv(dir), { timeoutMs: c.timeoutMs ?? 120_000 });
  expectCleanRefusal(r, c, dir);
  await c.check?.(r, dir);
}

/** Whether a path exists and is a folder. */
export function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
