// ngcc-perf compare <store-A> [<store-B>]: every measurement of B against A with a verdict (docs/report.md,
// "Comparing stores"); exit 1 when something is slower than the noise band, so CI can gate on it.
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
// Types only: the package itself is loaded on use (compareCommand).
import type * as ReportModule from "@ngcc-perf/report";
import { writeFileAtomic } from "@ngcc-perf/runner";
import { validate } from "@ngcc-perf/schema";
import { EXIT, type Io, UsageError } from "../../io.ts";
import { checkOutDir } from "../../out-dir.ts";

export const usage = `ngcc-perf compare <store-A> <store-B> [--out DIR] [--threshold 5%] [--profiles PA,PB] [--json]
ngcc-perf compare <store> --profiles PA,PB [...]

For every timing present in both stores (same system, algorithm, instance, build profile and operation) the ratio
B/A of the published central figure (the median per call, or the mean where a record publishes the mean; of the
estimated core cycles when both records targeted them) with a 95 % interval from a bootstrap of the raw samples
(fixed seed: the same stores give the same interval), and a verdict: slower or faster when the whole interval
lies beyond the noise band, else same; no verdict ("not comparable") when the two figures were measured in
different contention states (one published from uncontended workers, the other from contended ones). A and B
carry each record's own 95 % interval of its figure. Instruction counts are compared exactly. Measurements on one side only,
or failed on a side, are listed. Prints an aligned table; --out writes compare.md, compare.html and compare.json.
  --threshold T     the noise band ±T: 5% or 0.05 (default 5%)
  --profiles PA,PB  compare build profile PA of A with PB of B (of the one store when only one is named)
  --resamples N     bootstrap resamples (default 1000)
  --out DIR         where compare.md, compare.html and compare.json go
  --json            print the comparison as JSON on stdout instead of the table
Exit codes: 0 nothing slower; 1 a time slower (or an instruction count higher) by more than the band; 2 bad input.`;

/** `5%`, `5 %` or `0.05` → 0.05; a band of 0 up to but not including 100 %. */
export function parseThreshold(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(%?)\s*$/.exec(text);
  const value = m ? Number(m[1]) / (m[2] ? 100 : 1) : Number.NaN;
  if (!(value >= 0 && value < 1))
    throw new UsageError(`--threshold ${JSON.stringify(text)}: expected a share such as 5% or 0.05 (below 100%)`);
  return value;
}

type Report = typeof ReportModule;
type Comparison = ReportModule.Comparison;

function parseProfiles(text: string): { a: string; b: string } {
  const parts = text.split(",").map((p) => p.trim());
  if (parts.length !== 2 || parts.some((p) => p === ""))
    throw new UsageError(`--profiles ${JSON.stringify(text)}: expected two build profiles, PA,PB (e.g. guide,o2)`);
  return { a: parts[0] as string, b: parts[1] as string };
}

/** What the command line asks for, checked (a usage error otherwise). */
interface CompareArgs {
  pathA: string;
  pathB: string;
  profiles?: { a: string; b: string };
  threshold: number;
  resamples: number;
  out?: string;
  json: boolean;
}

/** The command line of compare: its arguments, or "help" for -h. Throws a UsageError for a bad one. */
function parseCompareArgs(argv: string[]): CompareArgs | "help" {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: "string" },
      threshold: { type: "string" },
      profiles: { type: "string" },
      resamples: { type: "string" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return "help";
  const profiles = values.profiles === undefined ? undefined : parseProfiles(values.profiles);
  if (positionals.length === 0 || positionals.length > 2)
    throw new UsageError("name two record stores (or one with --profiles PA,PB)");
  if (positionals.length === 1 && !profiles)
    throw new UsageError("one store is compared with itself only across build profiles: add --profiles PA,PB");
  const threshold = values.threshold === undefined ? 0.05 : parseThreshold(values.threshold);
  const resamples = values.resamples === undefined ? 1000 : Number(values.resamples);
  if (!Number.isInteger(resamples) || resamples < 100 || resamples > 100000)
    throw new UsageError(`--resamples ${JSON.stringify(values.resamples)}: expected an integer from 100 to 100000`);
  const out = values.out === undefined ? undefined : checkOutDir(values.out);
  const [pathA, pathB = pathA] = positionals as [string, string?];
  return {
    pathA,
    pathB,
    threshold,
    resamples,
    json: values.json === true,
    ...(profiles ? { profiles } : {}),
    ...(out !== undefined ? { out } : {}),
  };
}

export async function compareCommand(argv: string[], io: Io): Promise<number> {
  const args = parseCompareArgs(argv);
  if (args === "help") {
    io.out(usage);
    return EXIT.ok;
  }
  const { pathA, pathB, profiles, threshold, resamples, out } = args;
  // Loaded on use: the report package carries the charting libraries.
  const report = await import("@ngcc-perf/report");
  const a = report.loadStore(resolve(pathA));
  const b = resolve(pathB) === a.root ? a : report.loadStore(resolve(pathB));
  if (profiles) {
    const has = (s: typeof a, p: string) => s.systems.some((x) => x.timings.some((t) => t.buildProfile === p));
    if (!has(a, profiles.a))
      throw new UsageError(`--profiles: ${pathA} has no timing under build profile ${profiles.a}`);
    if (!has(b, profiles.b))
      throw new UsageError(`--profiles: ${pathB} has no timing under build profile ${profiles.b}`);
  }
  const c = report.compareStores(
    a,
    b,
    { a: pathA, b: pathB },
    {
      threshold,
      resamples,
      ...(profiles ? { profiles } : {}),
    },
  );
  // The comparison is written against its schema (compare.json's `kind`): a mismatch is a bug of ours.
  const checked = validate("comparison", JSON.parse(JSON.stringify(c)));
  if (!checked.valid)
    throw new Error(
      `the comparison does not match its schema: ${checked.errors[0]?.pointer} ${checked.errors[0]?.message}`,
    );
  if (out) writeComparison(report, c, out);
  io.out(args.json ? JSON.stringify(c, null, 2) : comparisonText(report, c));
  io.err(
    `compare: ${report.summaryText(c)}${out ? ` → ${join(out, "compare.{md,html,json}")}` : ""}` +
      (c.regressed ? ` Slower than the ±${(threshold * 100).toFixed(1)} % band: exit 1.` : ""),
  );
  return c.regressed ? EXIT.measuredFailure : EXIT.ok;
}

/** Writes compare.json, compare.md and compare.html into `out`. */
function writeComparison(report: Report, c: Comparison, out: string): void {
  const page = report.comparisonPage(c);
  writeFileAtomic(join(out, "compare.json"), `${JSON.stringify(c, null, 2)}\n`);
  writeFileAtomic(join(out, "compare.md"), report.renderPage(page, "md"));
  writeFileAtomic(join(out, "compare.html"), report.renderPage(page, "html"));
}

/** The comparison as printed: the two sides, the timing table with its notes, instruction counts, the unmatched. */
function comparisonText(report: Report, c: Comparison): string {
  const notes = report.rowNotes(c);
  const name = (x: { store: string; profile?: string }) =>
    `${x.store}${x.profile ? ` (build profile ${x.profile})` : ""}`;
  const blocks = [
    `A: ${name(c.a)}\nB: ${name(c.b)}`,
    report.alignedTable(report.TIMING_HEADERS, report.timingRows(c), [2, 3, 4, 5]) +
      (notes.length ? `\n${notes.map((n) => `  ${n}`).join("\n")}` : ""),
  ];
  if (c.instructions.length) blocks.push(report.alignedTable(report.COUNT_HEADERS, report.countRows(c), [1, 2, 3]));
  const unmatched = report.unmatchedRows(c);
  if (unmatched.length) blocks.push(report.alignedTable(["not compared", "kind", "where"], unmatched, []));
  return blocks.join("\n\n");
}
