// ngcc-perf report <store>: the Markdown and HTML site of a record store.
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { EXIT, type Io, UsageError } from "../../io.ts";
import { checkOutDir } from "../../out-dir.ts";

export const usage = `ngcc-perf report <store-dir> [--out DIR] [--format md,html] [--baseline ALG/INSTANCE] [--json]

Renders the report of a record store: per system an index of algorithms, a summary of every instance and operation
(with <system>/summary.csv and summary.json exports), a page per algorithm (sections 1–7 of the NICCS guide with
charts), the method page and the size audit; a cross-system page when the store holds several systems. Writes
<out>/site/ (built aside and swapped in whole). Relative links only, to the store's records where they are: open
<out>/site/index.html from disk, or serve a folder holding both the site and the store (the store itself when
<out> is the store, the default).
  --out DIR          where site/ goes (default: the store itself)
  --format LIST      md, html or md,html (default md,html)
  --baseline A/I     the summary's ratios relative to instance I of algorithm A (A/I@PROFILE for one build
                     profile); default: no ratio column
  --json             print a summary as JSON on stdout`;

export async function reportCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: "string" },
      format: { type: "string" },
      baseline: { type: "string" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    io.out(usage);
    return EXIT.ok;
  }
  if (positionals.length !== 1) throw new UsageError("name exactly one record store folder");
  // Loaded on use: the charting libraries are large, and the other commands do not need them.
  const { parseFormats, renderSite } = await import("@ngcc-perf/report");
  const store = resolve(positionals[0] as string);
  const formats = values.format === undefined ? undefined : parseFormats(values.format);
  // The site goes to --out, or into the store: a file there or a folder that cannot be written is refused first.
  if (values.out !== undefined) checkOutDir(values.out);
  const summary = await renderSite(store, {
    ...(values.out !== undefined ? { out: resolve(values.out) } : {}),
    ...(formats ? { formats } : {}),
    ...(values.baseline !== undefined ? { baseline: values.baseline } : {}),
  });
  io.err(
    `report: ${summary.pages} page(s) (${summary.formats.join(", ")}), ${summary.charts} chart(s), ${summary.algorithms} algorithm page(s) on ${summary.systems.join(", ")}` +
      (summary.failedRecords ? `; ${summary.failedRecords} failed record(s) shown as FAILED` : "") +
      ` → ${summary.siteDir}`,
  );
  if (values.json) io.out(JSON.stringify(summary, null, 2));
  return EXIT.ok;
}
