// The loader refuses a store whose files do not match its index (a record changed, deleted or added since the index
// was written, or no index at all) and a timing record whose figures contradict each other, naming every file; the
// committed seed store loads.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InputError, storeFiles } from "@ngcc-perf/schema";
import { afterAll, describe, expect, it } from "vitest";
import { loadStore } from "./load.ts";
import { type Rec, readJson, SEED } from "./test-store.ts";

const tmp = mkdtempSync(join(tmpdir(), "ngcc-report-load-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const KEYGEN = "records/kem-22/guide/Mithril-128__keygen.json";
let n = 0;
function store(): { root: string; dir: string } {
  const root = join(tmp, `store-${n++}`);
  cpSync(SEED, join(root, "data", "arm_1"), { recursive: true });
  return { root, dir: join(root, "data", "arm_1") };
}
const writeJson = (p: string, v: unknown) => writeFileSync(p, `${JSON.stringify(v, null, 2)}\n`);
function refusal(root: string): string {
  try {
    loadStore(root);
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return (err as Error).message;
  }
  throw new Error("loaded");
}

describe("loadStore and the store's index", () => {
  it("loads the seed store, whose files match its index", () => {
    const { root } = store();
    expect(loadStore(root).systems[0]?.timings).toHaveLength(99);
  });

  it("refuses a record edited after the index was written (meanNs × 1000, still schema-valid)", () => {
    const { root, dir } = store();
    const r: Rec = readJson(join(dir, KEYGEN));
    r.aggregates.meanNs *= 1000;
    writeJson(join(dir, KEYGEN), r);
    const message = refusal(root);
    expect(message).toContain(`${root}: the store does not match its index, so it is not reported:`);
    expect(message).toContain(`${join(dir, KEYGEN)}: changed since the index was written: SHA-256 `);
    expect(message).toMatch(
      /Mithril-128__keygen\.json:\d+:\d+ \/aggregates\/opsPerSecond is 9919\.\d+, but 1e9 \/ meanNs/,
    );
    expect(message).toContain(`rebuild the index with "ngcc-perf index ${root}"`);
  });

  it("refuses a deleted record instead of showing it as not measured, and a record the index does not list", () => {
    const a = store();
    rmSync(join(a.dir, "records/kem-22/guide/Mithril-256__enc.json"));
    expect(refusal(a.root)).toMatch(/Mithril-256__enc\.json: deleted: index\.json lists it \(timing, \d+ bytes\)/);
    const b = store();
    const stray = join(b.dir, "survey/kem-22/o3.json");
    const survey: Rec = readJson(join(b.dir, "survey/kem-22/guide.json"));
    writeJson(stray, { ...survey, buildProfile: "o3" });
    expect(refusal(b.root)).toContain(
      `${stray}: not indexed: the file is in the store, but index.json does not list it`,
    );
  });

  it("refuses a store without an index, saying how to rebuild it", () => {
    const { root, dir } = store();
    rmSync(join(dir, "index.json"));
    const message = refusal(root);
    expect(message).toContain(`${join(dir, "index.json")}: missing: without index.json`);
    expect(message).toContain('"ngcc-perf index');
  });

  it("refuses an edit whose hash was fixed in the index by hand, by the identities of its figures", () => {
    const { root, dir } = store();
    const r: Rec = readJson(join(dir, KEYGEN));
    r.aggregates.meanNs *= 1000;
    r.aggregates.opsPerSecond = 1e9 / r.aggregates.meanNs;
    writeJson(join(dir, KEYGEN), r);
    const index: Rec = readJson(join(dir, "index.json"));
    index.files = storeFiles(dir);
    writeJson(join(dir, "index.json"), index);
    const message = refusal(root);
    expect(message).not.toContain("changed since");
    expect(message).toMatch(/Mithril-128__keygen\.json:\d+:\d+ \/aggregates\/meanNs is 100806477\.\d+, but Σ ns \/ n/);
    expect(readFileSync(join(dir, KEYGEN), "utf8")).toContain("100806477.");
  });
});
