/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The site in a real browser: Debian's chromium (apt-get install -y chromium), driven by playwright-core, opens the
// site of a two-system store from disk, follows every link, and finds no console error, no broken link and tables
// that assistive technology can read. Saves a screenshot of one page to the OS temp folder
// (ngcc-report-kem-20.png; NGCC_UPDATE_SCREENSHOT=1 also writes docs/img/report-page.png for the README).
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseRecordPath, storeFiles } from "@ngcc-perf/schema";
import type * as Playwright from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { fixturesDir, makeTempDir, repoRoot } from "./fixture-tools.ts";

// playwright-core is a development dependency of @ngcc-perf/report (the package whose pages it checks).
const { chromium } = createRequire(join(repoRoot, "packages/report/package.json"))(
  "playwright-core",
) as typeof Playwright;
const CHROMIUM = "/usr/bin/chromium";
const tmp = makeTempDir("ngcc-report-browser-");
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/** The seed store as arm_1, and two of its algorithms again as system x86_1 (for the switcher and comparison). */
function twoSystemStore(): string {
  const store = join(tmp, "store");
  const seed = join(fixturesDir, "seed-store", "data", "arm_1");
  cpSync(seed, join(store, "data", "arm_1"), { recursive: true });
  const x86 = join(store, "data", "x86_1");
  const keep = ["kem-22", "kex-06"];
  for (const file of walk(seed)) {
    const rel = file.slice(seed.length + 1);
    const entry = parseRecordPath("arm_1", rel);
    if (entry === null || ("algorithmId" in entry.key && !keep.includes(entry.key.algorithmId))) continue;
    const record = JSON.parse(readFileSync(file, "utf8"));
    if (record.system !== undefined) record.system = "x86_1";
    if (record.kind === "store-index") {
      record.algorithms = record.algorithms.filter((a: { id: string }) => keep.includes(a.id));
      record.files = [];
      record.evidenceRoot = undefined;
    }
    mkdirSync(dirname(join(x86, rel)), { recursive: true });
    writeFileSync(join(x86, rel), JSON.stringify(record, null, 2));
  }
  // The report reads only stores whose files match their index: list x86_1's files, as `ngcc-perf index` would.
  const index = JSON.parse(readFileSync(join(x86, "index.json"), "utf8"));
  writeFileSync(join(x86, "index.json"), JSON.stringify({ ...index, files: storeFiles(x86) }, null, 2));
  return store;
}

describe("the report site in chromium", () => {
  it("opens every page from disk, follows every link, no console error, accessible tables", async () => {
    expect(existsSync(CHROMIUM), "install chromium: apt-get update && apt-get install -y chromium").toBe(true);
    const store = twoSystemStore();
    const out = join(tmp, "published");
    const r = spawnSync(process.execPath, [join(repoRoot, "packages/cli/bin.js"), "report", store, "--out", out], {
      encoding: "utf8",
      timeout: 300_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const site = join(out, "site");

    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const problems: string[] = [];
      let current = "";
      page.on("console", (m) => {
        if (m.type() === "error" || m.type() === "warning")
          problems.push(`${current}: console ${m.type()}: ${m.text()}`);
      });
      page.on("pageerror", (e) => problems.push(`${current}: ${e.message}`));
      page.on("dialog", (d) => {
        problems.push(`${current}: dialog ${d.message()}`);
        void d.dismiss();
      });
      page.on("requestfailed", (req) => problems.push(`${current}: request failed ${req.url()}`));

      const start = pathToFileURL(join(site, "index.html")).href;
      const queue = [start];
      const visited = new Set<string>();
      let links = 0;
      while (queue.length) {
        const url = queue.shift() as string;
        if (visited.has(url)) continue;
        visited.add(url);
        current = url.slice(pathToFileURL(out).href.length);
        const response = await page.goto(url);
        expect(response?.ok() ?? true, current).toBe(true);
        const found = await page.evaluate(() => ({
          hrefs: [...document.querySelectorAll("a[href]")].map((a) => (a as HTMLAnchorElement).href),
          rawHrefs: [...document.querySelectorAll("a[href]")].map((a) => a.getAttribute("href") ?? ""),
          tables: [...document.querySelectorAll("table")].map((t) => ({
            caption: t.querySelector("caption")?.textContent?.trim() ?? "",
            colHeads: [...t.querySelectorAll("thead th")].map((th) => th.getAttribute("scope")),
            rowHeads: [...t.querySelectorAll("tbody th")].map((th) => th.getAttribute("scope")),
          })),
          ids: [...document.querySelectorAll("[id]")].map((e) => e.id),
          lang: document.documentElement.lang,
          title: document.title,
          h1: document.querySelectorAll("h1").length,
          scripts: document.querySelectorAll("script").length,
        }));
        expect(found.lang, current).toBe("en");
        expect(found.title, current).not.toBe("");
        expect(found.h1, current).toBe(1);
        expect(found.scripts, `${current}: no runtime JavaScript`).toBe(0);
        expect(new Set(found.ids).size, `${current}: duplicate ids`).toBe(found.ids.length);
        for (const t of found.tables) {
          expect(t.caption, current).not.toBe("");
          expect(
            t.colHeads.every((s) => s === "col"),
            current,
          ).toBe(true);
          expect(
            t.rowHeads.every((s) => s === "row"),
            current,
          ).toBe(true);
        }
        for (const raw of found.rawHrefs) expect(raw, `${current}: relative links only`).not.toMatch(/^(\/|[a-z]+:)/i);
        for (const href of found.hrefs) {
          links++;
          const target = new URL(href);
          const file = fileURLToPath(new URL(target.pathname, target));
          if (!existsSync(file) || !statSync(file).isFile()) {
            problems.push(`${current}: broken link ${href}`);
            continue;
          }
          if (file.endsWith(".html")) {
            if (target.hash) {
              const html = readFileSync(file, "utf8");
              if (!html.includes(`id="${decodeURIComponent(target.hash.slice(1))}"`))
                problems.push(`${current}: missing anchor ${href}`);
            }
            target.hash = "";
            queue.push(target.href);
          }
        }
      }
      expect(problems).toEqual([]);
      // home, compare, 2 × (index, summary, method, sizes), 5 + 2 algorithm pages
      expect(visited.size).toBe(17);
      // The summary lines its figures up: numeric columns are right-aligned as the reader sees them.
      await page.goto(pathToFileURL(join(site, "arm_1", "summary.html")).href);
      const align = await page.evaluate(() => ({
        time: getComputedStyle(document.querySelector("td.num") as Element).textAlign,
        text: getComputedStyle(document.querySelector("tbody td:not(.num)") as Element).textAlign,
        rows: document.querySelectorAll("tbody tr").length,
        chart: document.querySelectorAll("figure svg").length,
      }));
      expect(align).toMatchObject({ time: "right", text: "left", chart: 1 });
      expect(align.rows).toBeGreaterThan(20);
      expect(links).toBeGreaterThan(300);
      console.log(`report browser: ${visited.size} pages opened, ${links} links followed`);

      await page.goto(pathToFileURL(join(site, "arm_1", "kem-20.html")).href);
      const shot = join(tmpdir(), "ngcc-report-kem-20.png");
      await page.screenshot({ path: shot, fullPage: false });
      expect(statSync(shot).size).toBeGreaterThan(10_000);
      console.log(`report browser: screenshot ${shot}`);
      // The page of `ngcc-perf compare` (written beside the stores, not into a site): a store against itself.
      const cmpOut = join(tmp, "compare");
      const c = spawnSync(
        process.execPath,
        [join(repoRoot, "packages/cli/bin.js"), "compare", store, store, "--out", cmpOut, "--resamples", "200"],
        { encoding: "utf8", timeout: 300_000 },
      );
      expect(c.status, c.stderr).toBe(0);
      current = "compare.html";
      await page.goto(pathToFileURL(join(cmpOut, "compare.html")).href);
      const cmp = await page.evaluate(() => ({
        lang: document.documentElement.lang,
        h1: document.querySelectorAll("h1").length,
        captions: [...document.querySelectorAll("table")].map((t) => t.querySelector("caption")?.textContent ?? ""),
        verdicts: [...document.querySelectorAll("tbody tr")].map((r) => r.lastElementChild?.textContent ?? ""),
        ratioAlign: getComputedStyle(document.querySelector("td.num") as Element).textAlign,
        scripts: document.querySelectorAll("script").length,
      }));
      expect(cmp).toMatchObject({ lang: "en", h1: 1, scripts: 0, ratioAlign: "right" });
      expect(cmp.captions.every((x) => x !== "")).toBe(true);
      expect(cmp.verdicts.filter((v) => v === "same").length).toBeGreaterThan(20);
      expect(cmp.verdicts.some((v) => v === "slower" || v === "faster")).toBe(false);
      expect(problems).toEqual([]);
      if (process.env.NGCC_UPDATE_SCREENSHOT === "1") {
        await page.screenshot({ path: join(repoRoot, "docs", "img", "report-compare.png") });
        await page.goto(pathToFileURL(join(site, "arm_1", "kem-02.html")).href);
        await page.evaluate(() => document.querySelector("#performance table")?.scrollIntoView());
        await page.screenshot({ path: join(repoRoot, "docs", "img", "report-page.png") });
        await page.goto(pathToFileURL(join(site, "arm_1", "summary.html")).href);
        await page.screenshot({ path: join(repoRoot, "docs", "img", "report-summary.png") });
      }
    } finally {
      await browser.close();
    }
  }, 300_000);
});
