// The site: every page of a record store in Markdown and/or HTML under <out>/site/, built in a temporary folder and
// swapped in whole, so a reader never sees half a site. Evidence links are relative paths to the store's records:
// rendered into the store (the default), the store folder is the published tree (site/ beside data/).
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { InputError, processAlive, TOOL } from "@ngcc-perf/schema";
import { chartRenderer } from "./charts.ts";
import { type LoadedStore, loadStore } from "./load.ts";
import { siteModel } from "./pages.ts";
import { FORMATS, type Format, renderPage } from "./render.ts";
import { type Baseline, baselineFound, baselineText, parseBaseline, summaryCsv, summaryJson } from "./site/summary.ts";
import { type SystemView, siteContext } from "./view.ts";

/** The --baseline text parsed and found in the store, else an InputError saying what was expected. */
function checkedBaseline(text: string, views: readonly SystemView[]): Baseline {
  const b = parseBaseline(text);
  if (!b) {
    throw new InputError(
      `--baseline "${text}": expected <algorithm-id>/<instance> or <algorithm-id>/<instance>@<build profile>`,
    );
  }
  if (!views.some((v) => baselineFound(v, b))) {
    throw new InputError(
      `--baseline ${baselineText(b)}: no such instance${b.buildProfile ? " and build profile" : ""} in the store`,
    );
  }
  return b;
}

export interface RenderOptions {
  /** Where site/ is written; default the store itself (the published tree is then the store: site/ beside data/). */
  out?: string;
  /** Formats to write; default both. */
  formats?: ReadonlyArray<Format>;
  /** Draw the charts (default true). */
  charts?: boolean;
  /** The summary's baseline instance, `<algorithm-id>/<instance>[@<build profile>]` (default: none, no ratios). */
  baseline?: string;
}

export interface RenderSummary {
  /** The folder holding the site (…/site). */
  siteDir: string;
  systems: string[];
  algorithms: number;
  /** Pages written, counting each format once (an algorithm page in md and html is 2). */
  pages: number;
  charts: number;
  /** Timing and profile records of the store whose status is failed; their pages say FAILED. */
  failedRecords: number;
  formats: Format[];
}

/** Parses a --format list such as "md,html". */
export function parseFormats(text: string): Format[] {
  const parts = text
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  const bad = parts.filter((p) => !(FORMATS as readonly string[]).includes(p));
  if (bad.length || parts.length === 0)
    throw new InputError(`--format takes a comma-separated list of ${FORMATS.join(", ")}, not "${text}"`);
  return [...new Set(parts)] as Format[];
}

/** The folders a render leaves while it runs: the site being built, and the old site while the new one is swapped in. */
const WORK_FOLDER = /^(?:\.site-(\d+)-\d+\.tmp|site\.(\d+)-\d+\.old)$/;

/**
 * Removes what a render that was killed left in `out`: a half-built `.site-<pid>-<time>.tmp` and a `site.<pid>-<time>.old`
 * whose process is no longer running (a render still running, in another process, keeps its folders). Returns the
 * paths removed.
 */
export function removeStaleSites(out: string): string[] {
  let names: string[];
  try {
    names = readdirSync(out);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = WORK_FOLDER.exec(name);
    if (!m) continue;
    const pid = Number(m[1] ?? m[2]);
    if (pid !== process.pid && processAlive(pid)) continue;
    rmSync(join(out, name), { recursive: true, force: true });
    removed.push(join(out, name));
  }
  return removed;
}

/** Renders the site of an already loaded store. */
export async function renderLoadedSite(store: LoadedStore, options: RenderOptions = {}): Promise<RenderSummary> {
  const out = resolve(options.out ?? store.root);
  const formats = [...(options.formats ?? FORMATS)];
  const siteDir = join(out, "site");
  const ctx = siteContext(store, TOOL.version, siteDir);
  const baseline = options.baseline === undefined ? null : checkedBaseline(options.baseline, ctx.views);
  const { pages, summaries } = siteModel(ctx, baseline);

  mkdirSync(out, { recursive: true });
  // A render killed earlier (kill -9, a power cut) left its half-built site: it goes before a new one is built.
  removeStaleSites(out);
  const tmp = join(out, `.site-${process.pid}-${Date.now()}.tmp`);
  let charts = 0;
  // Files are written asynchronously (the thread pool) while the next page's charts are drawn.
  const writes: Array<Promise<void>> = [];
  const folders = new Set<string>();
  const write = (rel: string, data: string) => {
    const path = join(tmp, rel);
    const folder = dirname(path);
    if (!folders.has(folder)) {
      mkdirSync(folder, { recursive: true });
      folders.add(folder);
    }
    writes.push(writeFile(path, data));
  };
  const renderer = chartRenderer();
  try {
    // Every chart is queued first; the Markdown pages need no SVG text and are written meanwhile.
    const svgsOf = pages.map((page) => {
      const list = page.sections.flatMap((s) => s.charts);
      if (options.charts === false || list.length === 0) return Promise.resolve(new Map<string, string>());
      return Promise.all(list.map((c) => renderer.render(c).then((svg): [string, string] => [c.file, svg]))).then(
        (entries) => new Map(entries),
      );
    });
    // A failed chart surfaces when its page is reached; until then it must not count as unhandled.
    for (const p of svgsOf) p.catch(() => undefined);
    for (const page of pages) if (formats.includes("md")) write(`${page.path}.md`, renderPage(page, "md"));
    // The summary's figures for spreadsheets and scripts, beside its page.
    for (const s of summaries) {
      const view = ctx.views.find((v) => v.system === s.system) as SystemView;
      write(`${s.system}/summary.csv`, summaryCsv(s.rows));
      write(`${s.system}/summary.json`, summaryJson(view, s.rows, baseline));
    }
    for (const [i, page] of pages.entries()) {
      const svgs = await (svgsOf[i] as Promise<Map<string, string>>);
      charts += svgs.size;
      const folder = dirname(page.path);
      if (formats.includes("md")) for (const [file, svg] of svgs) write(join(folder, file), svg);
      if (formats.includes("html")) write(`${page.path}.html`, renderPage(page, "html", svgs));
    }
    await Promise.all(writes);
    // Swap the new site in whole.
    const old = `${siteDir}.${process.pid}-${Date.now()}.old`;
    if (existsSync(siteDir)) renameSync(siteDir, old);
    renameSync(tmp, siteDir);
    rmSync(old, { recursive: true, force: true });
  } catch (err) {
    await Promise.allSettled(writes);
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }

  const failedRecords = store.systems.reduce(
    (n, s) =>
      n + s.timings.filter((t) => t.status !== "ok").length + s.hashProfiles.filter((p) => p.status !== "ok").length,
    0,
  );
  return {
    siteDir,
    systems: store.systems.map((s) => s.system),
    algorithms: ctx.views.reduce((n, v) => n + v.algorithms.length, 0),
    pages: pages.length * formats.length,
    charts,
    failedRecords,
    formats,
  };
}

/**
 * Renders the report site of a record store: `<out>/site/index`, and per system `<system>/index`, `method`,
 * `sizes` and `<algorithm-id>` pages; `compare` when the store holds several systems. Throws InputError for a
 * folder that is not a store or a record that does not validate.
 */
export async function renderSite(storeDir: string, options: RenderOptions = {}): Promise<RenderSummary> {
  return renderLoadedSite(loadStore(resolve(storeDir)), options);
}
