// Lists the functions in packages/*/src longer than a number of lines (80 unless told), longest first: issue 27's
// rule is none outside generated code and data tables. Test files and src/generated are left out; every function
// counts (declarations, methods, arrow functions and function expressions, nested ones on their own line too), from
// its first line to its last, its doc comment not included.
//
//   pnpm exec tsx scripts/long-functions.ts [--max 80] [--tests]
//
// Prints "lines  file:line  name" per function (tab-separated) and exits 0: it reports, it does not judge.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = resolve(fileURLToPath(import.meta.url), "..", "..");

export interface LongFunction {
  file: string;
  line: number;
  name: string;
  lines: number;
}

function sourceFiles(dir: string, tests: boolean): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== "generated" && name !== "node_modules") out.push(...sourceFiles(p, tests));
    } else if (name.endsWith(".ts") && !name.endsWith(".d.ts") && (tests || !name.endsWith(".test.ts"))) out.push(p);
  }
  return out;
}

/** A readable name: the declared one, else the variable, property or call the function is given to. */
function nameOf(node: ts.FunctionLikeDeclaration, sf: ts.SourceFile): string {
  if (node.name) return node.name.getText(sf);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return parent.name.getText(sf);
  if (ts.isNewExpression(parent)) return `new ${parent.expression.getText(sf)}() callback`;
  if (ts.isCallExpression(parent)) {
    const first = parent.arguments[0];
    const label = first && ts.isStringLiteralLike(first) ? ` "${first.text}"` : "";
    return `${parent.expression.getText(sf)}(${label.trim()}) callback`;
  }
  if (ts.isConstructorDeclaration(node)) return "constructor";
  return "(anonymous)";
}

/** The functions of one file longer than `max` lines. */
export function longFunctionsIn(file: string, text: string, max: number): LongFunction[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const f = node as ts.FunctionLikeDeclaration;
      const first = sf.getLineAndCharacterOfPosition(f.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(f.getEnd()).line;
      if (last - first + 1 > max) out.push({ file, line: first + 1, name: nameOf(f, sf), lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Every function of packages/*\/src longer than `max` lines, longest first. */
export function longFunctions(max = 80, tests = false): LongFunction[] {
  const out: LongFunction[] = [];
  const packages = join(root, "packages");
  for (const p of readdirSync(packages).sort()) {
    const src = join(packages, p, "src");
    if (!statSync(src, { throwIfNoEntry: false })?.isDirectory()) continue;
    for (const f of sourceFiles(src, tests)) {
      out.push(...longFunctionsIn(relative(root, f), readFileSync(f, "utf8"), max));
    }
  }
  return out.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--max");
  const max = at >= 0 ? Number(args[at + 1]) : 80;
  if (!Number.isInteger(max) || max < 1) {
    process.stderr.write("long-functions: --max takes a whole number of lines\n");
    process.exit(2);
  }
  const found = longFunctions(max, args.includes("--tests"));
  for (const f of found) process.stdout.write(`${f.lines}\t${f.file}:${f.line}\t${f.name}\n`);
  process.stdout.write(`${found.length} functions longer than ${max} lines\n`);
}
