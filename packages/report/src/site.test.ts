// The site from small stores made of seed-store records: hostile text stays text, missing and failed records are
// shown plainly, TSC ticks are never called cycles, bad records are rejected with file and pointer, and several
// systems give a comparison page and a working system switcher.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InputError } from "@ngcc-perf/schema";
import { afterAll, describe, expect, it } from "vitest";
import { loadStore } from "./load.ts";
import { parseFormats, renderSite } from "./site.ts";
import {
  algorithmRecordAt,
  editAll,
  katAt,
  readJson,
  recordAt,
  miniStore as seedStore,
  walk,
  writeJson,
} from "./test-store.ts";

const tmp = mkdtempSync(join(tmpdir(), "ngcc-report-unit-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A store holding kem-22 (and kex-06 when asked) of the seed store, under system `system`. */
function miniStore(name: string, options: { system?: string; kex?: boolean } = {}): string {
  return seedStore(join(tmp, name), ["kem-22", ...(options.kex ? ["kex-06"] : [])], options.system ?? "arm_1");
}

const page = (root: string, rel: string) => readFileSync(join(root, "site", rel), "utf8");

describe("the summary of a system", () => {
  it("lists every instance and operation with its time, sizes and shares, exported as CSV and JSON with record paths", async () => {
    const root = miniStore("summary", { kex: true });
    const out = join(tmp, "summary-out");
    await renderSite(root, { out, baseline: "kem-22/Mithril-128" });
    const md = page(out, "arm_1/summary.md");
    expect(md).toContain("| algorithm | instance | operation | time | ± | ratio to kem-22/Mithril-128 |");
    const keygen = readJson(
      recordAt(root, "timing", { algorithmId: "kem-22", instance: "Mithril-128", operation: "keygen" }),
    ) as { aggregates: { meanNs: number } };
    // The baseline's own row has ratio 1; a key exchange has no keygen, so no ratio.
    expect(md).toMatch(/\| \[kem-22\]\(kem-22\.md\) \| `Mithril-128` \| keygen \| [^|]+ \(trials mean\) \| — \| 1× \|/);
    expect(md).toMatch(/\| `MAMBA-NIKE-128` \| init_a \| [^|]+ \| — \| — \|/);
    expect(page(out, "arm_1/index.md")).toContain("[summary](summary.md)");
    const csv = page(out, "arm_1/summary.csv").split("\r\n");
    expect(csv[0]).toMatch(
      /^system,algorithm,name,category,instance,build_profile,operation,status,method,statistic,time_ns,/,
    );
    const row = csv.find((l) => l.startsWith("arm_1,kem-22,") && l.includes(",Mithril-128,") && l.includes(",keygen,"));
    expect(row).toContain(`,${keygen.aggregates.meanNs},`);
    const json = JSON.parse(page(out, "arm_1/summary.json")) as {
      baseline: string;
      rows: Array<{ instance: string; operation: string; ratioToBaseline: number | null; records: { timing: string } }>;
    };
    expect(json.baseline).toBe("kem-22/Mithril-128");
    const r = json.rows.find((x) => x.instance === "Mithril-128" && x.operation === "keygen");
    expect(r?.ratioToBaseline).toBe(1);
    // Record paths resolve from the export's own folder.
    expect(() => readFileSync(join(out, "site", "arm_1", r?.records.timing as string))).not.toThrow();
    expect(json.rows.length).toBe(csv.filter((l) => l !== "").length - 1);
  });

  it("refuses a baseline the store does not hold, or of another shape", async () => {
    const root = miniStore("summary-bad");
    await expect(renderSite(root, { out: join(tmp, "sb"), baseline: "kem-22/Nope-1" })).rejects.toThrow(
      /--baseline kem-22\/Nope-1: no such instance in the store/,
    );
    await expect(renderSite(root, { out: join(tmp, "sb"), baseline: "Mithril-128" })).rejects.toThrow(
      /expected <algorithm-id>\/<instance>/,
    );
  });
});

describe("renderSite", () => {
  it("writes the pages of every system and links only to files that exist", async () => {
    const root = miniStore("plain", { kex: true });
    const out = join(tmp, "plain-out");
    const s = await renderSite(root, { out });
    expect(s.systems).toEqual(["arm_1"]);
    expect(s.algorithms).toBe(2);
    // home, system index, summary, method, sizes, 2 algorithm pages, in 2 formats
    expect(s.pages).toBe(14);
    expect(s.charts).toBe(7);
    const files = walk(join(out, "site")).map((f) => f.slice(out.length + 6));
    for (const rel of [
      "index.html",
      "arm_1/index.md",
      "arm_1/summary.html",
      "arm_1/summary.csv",
      "arm_1/summary.json",
      "arm_1/method.html",
      "arm_1/sizes.md",
      "arm_1/kex-06.html",
    ])
      expect(files).toContain(rel);
    expect(files).toContain("arm_1/img/kem-22-time.svg");
    // The size audit lists a key exchange's own fields (its public keys, messages), not a KEM's empty ones.
    const sizes = page(out, "arm_1/sizes.md");
    expect(sizes).toContain("| `MAMBA-NIKE-128` | public key B | — | 1184 | — | 1184 |");
    expect(sizes).toContain("| `MAMBA-NIKE-128` | message 1 | — | 1568 | — | 1568 |");
    expect(files.some((f) => f.startsWith("compare"))).toBe(false);
    // Every relative link of every HTML page points at a file of the published tree.
    for (const f of files.filter((x) => x.endsWith(".html"))) {
      const html = page(out, f);
      for (const m of html.matchAll(/href="([^"]+)"/g)) {
        const target = decodeURI((m[1] as string).split("#")[0] as string);
        expect(() => readFileSync(join(out, "site", f, "..", target)), `${f} → ${m[1]}`).not.toThrow();
      }
    }
    // The KAT logs are not in the store: their evidence cells are not links. The records are, at the layout's paths
    // (the build profile is a folder), named as the earlier harness named them.
    const html = page(out, "arm_1/kem-22.html");
    expect(html).toContain("<td><code>kat/kem-22/Mithril-128.log</code></td>");
    expect(html).toContain(
      '<a href="../../../plain/data/arm_1/records/kem-22/guide/Mithril-128__dec.json"><code>records/kem-22/Mithril-128__dec.json</code></a>',
    );
  });

  it("renders hostile names, notes and labels as text in HTML, Markdown and SVG", async () => {
    const root = miniStore("hostile");
    const dir = join(root, "data", "arm_1");
    const index = readJson(join(dir, "index.json"));
    index.algorithms[0].name = '<img src=x onerror="alert(1)">';
    index.algorithms[0].links.submission = { label: "evil", href: "javascript:alert(1)" };
    writeJson(join(dir, "index.json"), index);
    const surveyFile = algorithmRecordAt(root, "survey", { algorithmId: "kem-22" });
    const survey = readJson(surveyFile);
    survey.text = "</p><script>alert(2)</script> | *bold* [x](javascript:alert(3)) `code`\n# heading";
    delete survey.curated;
    writeJson(surveyFile, survey);
    editAll(root, "arm_1", (r) => {
      if (r.kind === "hash-profile") r.groups[0].label = "<b>hash</b>";
    });
    const out = join(tmp, "hostile-out");
    await renderSite(root, { out });

    const html = page(out, "arm_1/kem-22.html");
    expect(html).not.toMatch(/<script|<img|<b>|href="javascript/i);
    expect(html).toContain("Submission: evil</li>");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(html).toContain("&lt;/p&gt;&lt;script&gt;alert(2)&lt;/script&gt;");
    expect(html).toContain("&lt;b&gt;hash&lt;/b&gt;");
    expect(page(out, "arm_1/index.html")).not.toMatch(/<img|<script/i);

    const md = page(out, "arm_1/kem-22.md");
    expect(md).toContain('\\<img src=x onerror="alert(1)"\\>');
    expect(md).toContain(
      "\\</p\\>\\<script\\>alert(2)\\</script\\> \\| \\*bold\\* \\[x\\](javascript:alert(3)) \\`code\\` \\# heading",
    );
    expect(md).not.toMatch(/[^\\]\]\(javascript:/);
    expect(md).not.toMatch(/^# heading/m);

    const svg = readFileSync(join(out, "site", "arm_1", "img", "kem-22-share.svg"), "utf8");
    expect(svg).not.toContain("<b>");
    expect(svg).toContain("&lt;b&gt;hash&lt;/b&gt;");
  });

  it("shows missing steps as not measured and failures as FAILED with the reason", async () => {
    const root = miniStore("gaps");
    const dir = join(root, "data", "arm_1");
    rmSync(join(dir, "profile"), { recursive: true });
    for (const instance of ["Mithril-128", "Mithril-256"]) rmSync(katAt(root, { algorithmId: "kem-22", instance }));
    const katFile = katAt(root, { algorithmId: "kem-22", instance: "Mithril-512" });
    const kat = readJson(katFile);
    kat.verdict = "FAIL";
    kat.outcome = "output-differs";
    kat.diagnosis = { differingEntries: 1, firstCount: 37, field: "ct" };
    writeJson(katFile, kat);
    rmSync(join(dir, "sizes"), { recursive: true });
    rmSync(join(dir, "survey"), { recursive: true });
    rmSync(recordAt(root, "timing", { algorithmId: "kem-22", instance: "Mithril-256", operation: "enc" }));
    const failedFile = recordAt(root, "timing", { algorithmId: "kem-22", instance: "Mithril-512", operation: "dec" });
    const failed = readJson(failedFile);
    for (const k of ["trials", "aggregates", "counter", "memory"]) delete failed[k];
    failed.status = "failed";
    failed.failure = { reason: "crash", message: "killed by SIGSEGV", signal: "SIGSEGV" };
    writeJson(failedFile, failed);
    const out = join(tmp, "gaps-out");
    const s = await renderSite(root, { out, formats: ["md"] });
    expect(s.failedRecords).toBe(1);
    const md = page(out, "arm_1/kem-22.md");
    expect(md).toContain("| `Mithril-256` | enc | not measured | — | — | — | — |");
    expect(md).toContain("| `Mithril-512` | dec | FAILED (crash): killed by SIGSEGV | — | — | — | — |");
    expect(md).toContain("| `Mithril-128` | guide | not run |");
    expect(md).toContain(
      "| `Mithril-512` | guide | FAIL: first difference at count 37, field ct (1 differing entry) |",
    );
    expect(md).toContain("No size audit in the store: sizes were not measured.");
    expect(md).toContain("Survey verdict: not surveyed");
    expect(md).toContain("No hash/DRNG profile in the store");
    expect(page(out, "arm_1/index.md")).toContain("1 record(s) of this system are failures");
    expect(page(out, "arm_1/sizes.md")).toContain("Not audited");
  });

  it("works with an index that names no algorithms: algorithms, instances and operations come from the records", async () => {
    // What `ngcc-perf index` writes for a store that had no index (a store without one is refused: load.test.ts).
    const root = miniStore("noindex");
    const indexFile = join(root, "data", "arm_1", "index.json");
    writeJson(indexFile, { ...readJson(indexFile), algorithms: [], systems: undefined, evidenceRoot: undefined });
    const out = join(tmp, "noindex-out");
    await renderSite(root, { out, formats: ["md"] });
    const md = page(out, "arm_1/kem-22.md");
    expect(md).toContain("# kem-22 — performance on AArch64 (system arm_1)");
    expect(md).toContain("- Parameter sets: Mithril-128, Mithril-256, Mithril-512");
    expect(md).toContain("| `Mithril-512` | dec | 2.66 M | 988 µs |");
    expect(md).toContain("Paths are relative to data/arm_1/ in the record store");
  });

  it("calls TSC ticks ticks, never cycles, and says what they count", async () => {
    const root = miniStore("tsc", { system: "x86_1" });
    const dir = join(root, "data", "x86_1");
    const env = readJson(join(dir, "environment.json"));
    const counter = {
      kind: "rdtsc",
      unit: "tsc-ticks",
      rateHz: 2_095_966_672,
      overhead: 40.7,
      description: "x86-64 time-stamp counter",
    };
    env.counter = counter;
    env.processor.architecture = "x86_64";
    writeJson(join(dir, "environment.json"), env);
    editAll(root, "x86_1", (r) => {
      if (r.kind === "timing") r.counter = counter;
    });
    const out = join(tmp, "tsc-out");
    await renderSite(root, { out });
    const md = page(out, "x86_1/kem-22.md");
    expect(md).toContain(
      "| instance | operation | mean TSC ticks | mean time | ops/s | median trial | n (trials × iters) |",
    );
    expect(md).not.toContain("mean cycles");
    expect(md).toContain("TSC ticks at its constant reference rate (2.096 GHz here), not core cycles");
    expect(md).toContain("performance on x86-64 (system x86_1)");
    expect(page(out, "x86_1/method.md")).toContain(
      "tsc-ticks (TSC ticks at a constant reference rate, not core cycles)",
    );
  });

  it("compares several systems side by side and links the same algorithm on each", async () => {
    const root = miniStore("two", { kex: true });
    const x86 = miniStore("two-x86", { system: "x86_1" });
    cpSync(join(x86, "data", "x86_1"), join(root, "data", "x86_1"), { recursive: true });
    const out = join(tmp, "two-out");
    const s = await renderSite(root, { out });
    expect(s.systems).toEqual(["arm_1", "x86_1"]);
    const compare = page(out, "compare.md");
    expect(compare).toContain("| instance | operation | mean time arm_1 | mean time x86_1 | x86_1 / arm_1 |");
    expect(compare).toContain("| `Mithril-128` | keygen | 101 µs | 101 µs | 1× |");
    expect(compare).not.toContain("kex-06");
    const arm = page(out, "arm_1/kem-22.md");
    expect(arm.split("\n")[0]).toBe(
      "[Performance measurements](../index.md) › [arm_1](index.md) › **kem-22** · system: [x86_1](../x86_1/kem-22.md) · **arm_1**",
    );
    // kex-06 exists on arm_1 only: its switcher names x86_1 without a link.
    expect(page(out, "arm_1/kex-06.md").split("\n")[0]).toContain("· system: x86_1 · **arm_1**");
    expect(page(out, "index.md")).toContain("[cross-system page](compare.md)");
  });

  it("rejects a record that does not validate, naming the file, line and pointer", async () => {
    const root = miniStore("bad");
    const f = recordAt(root, "timing", { algorithmId: "kem-22", instance: "Mithril-128", operation: "keygen" });
    const r = readJson(f);
    r.aggregates.meanNs = "fast";
    writeJson(f, r);
    const err = await renderSite(root, { out: join(tmp, "bad-out") }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(/Mithril-128__keygen\.json:\d+:\d+: \/aggregates\/meanNs /);
    expect(() => readdirSync(join(tmp, "bad-out", "site"))).toThrow();
  });

  it("rejects folders that are not stores and unknown formats", () => {
    expect(() => loadStore(join(tmp, "nowhere"))).toThrow(/no such folder/);
    mkdirSync(join(tmp, "empty", "data"), { recursive: true });
    expect(() => loadStore(join(tmp, "empty"))).toThrow(/no system folder/);
    expect(() => parseFormats("md,pdf")).toThrow(InputError);
    expect(parseFormats("html, md")).toEqual(["html", "md"]);
  });
});
