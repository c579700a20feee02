import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { validateFile } from "@ngcc-perf/schema";
import { afterAll, describe, expect, it } from "vitest";
import { InputError } from "./errors.ts";
import { mergeStores } from "./merge.ts";
import { removeStaleTemps } from "./store.ts";
import { listStoreFiles } from "./store-index.ts";

const seed = join(dirname(fileURLToPath(import.meta.url)), "../../../fixtures/seed-store");
const tmp = mkdtempSync(join(tmpdir(), "ngcc-merge-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function copyStore(name: string): string {
  const dir = join(tmp, name);
  cpSync(seed, dir, { recursive: true });
  return dir;
}

/** What `ngcc-perf index` does after a deliberate edit: the index's file list rebuilt from the files. */
function reindex(store: string): void {
  const file = join(store, "data/arm_1/index.json");
  const index = JSON.parse(readFileSync(file, "utf8"));
  index.files = listStoreFiles(join(store, "data/arm_1"));
  writeFileSync(file, `${JSON.stringify(index, null, 2)}\n`);
}

const MITHRIL_KEYGEN = "data/arm_1/records/kem-22/guide/Mithril-128__keygen.json";

describe("removeStaleTemps", () => {
  it("removes temporary files and build folders of dead processes, and nothing else", () => {
    const out = join(tmp, "stale");
    mkdirSync(join(out, "data/x/records/a"), { recursive: true });
    mkdirSync(join(out, "build/x/a/I-guide-0123.tmp-999999999"), { recursive: true });
    mkdirSync(join(out, `build/x/a/J-guide-4567.tmp-${process.pid}`), { recursive: true });
    writeFileSync(join(out, "data/x/records/a/I__keygen.json.999999999.1.tmp"), "{");
    writeFileSync(join(out, "data/x/records/a/I__keygen.json"), "{}");
    expect(removeStaleTemps(out)).toBe(2);
    expect(readdirSync(join(out, "data/x/records/a"))).toEqual(["I__keygen.json"]);
    expect(readdirSync(join(out, "build/x/a"))).toEqual([`J-guide-4567.tmp-${process.pid}`]);
  });
});

describe("mergeStores", () => {
  it("merges two halves of a store back into the whole, with a rebuilt valid index", () => {
    const a = copyStore("a");
    const b = copyStore("b");
    // a keeps the KEMs' timing records, b the key exchange's.
    rmSync(join(a, "data/arm_1/records/kex-06"), { recursive: true });
    for (const d of readdirSync(join(b, "data/arm_1/records"))) {
      if (d !== "kex-06") rmSync(join(b, "data/arm_1/records", d), { recursive: true });
    }
    reindex(a);
    reindex(b);
    const out = join(tmp, "merged");
    const r = mergeStores([a, b], out);
    expect(r.systems).toEqual(["arm_1"]);
    const whole = listStoreFiles(join(seed, "data/arm_1"));
    const merged = listStoreFiles(join(out, "data/arm_1"));
    expect(merged).toEqual(whole);
    const index = JSON.parse(readFileSync(join(out, "data/arm_1/index.json"), "utf8"));
    expect(index.algorithms.map((x: { id: string }) => x.id).sort()).toEqual([
      "kem-02",
      "kem-20",
      "kem-21",
      "kem-22",
      "kex-06",
    ]);
    expect(validateFile(join(out, "data/arm_1/index.json")).errors).toEqual([]);
    expect(r.duplicates).toBeGreaterThan(0); // sizes, surveys, profiles… were in both halves
  });

  it("refuses conflicting duplicates and writes nothing", () => {
    const a = copyStore("c");
    const b = copyStore("d");
    const rec = join(b, MITHRIL_KEYGEN);
    writeFileSync(rec, readFileSync(rec, "utf8").replace('"peakRssKiB": 1488', '"peakRssKiB": 1489'));
    reindex(b);
    const out = join(tmp, "conflict");
    expect(() => mergeStores([a, b], out)).toThrow(InputError);
    expect(() => mergeStores([a, b], out)).toThrow(
      /data\/arm_1\/records\/kem-22\/guide\/Mithril-128__keygen\.json: differs between/,
    );
    expect(existsSync(out)).toBe(false);
  });

  it("refuses invalid records, naming file, line and pointer", () => {
    const a = copyStore("e");
    const rec = join(a, "data/arm_1/records/kem-22/guide/Mithril-128__enc.json");
    writeFileSync(rec, readFileSync(rec, "utf8").replace('"status": "ok"', '"status": "fine"'));
    expect(() => mergeStores([a], join(tmp, "invalid"))).toThrow(
      /Mithril-128__enc\.json:\d+:\d+ \/status must be one of/,
    );
    expect(() => mergeStores([a], join(tmp, "invalid"))).toThrow(
      /Mithril-128__enc\.json: changed since the index was written/,
    );
    expect(existsSync(join(tmp, "invalid"))).toBe(false);
  });

  it("refuses a store whose record was edited after its index was written, and writes nothing", () => {
    const a = copyStore("edited");
    const rec = join(a, MITHRIL_KEYGEN);
    const r = JSON.parse(readFileSync(rec, "utf8"));
    r.aggregates.meanNs *= 1000; // still schema-valid
    writeFileSync(rec, `${JSON.stringify(r, null, 2)}\n`);
    expect(validateFile(rec).errors).toEqual([]);
    const out = join(tmp, "edited-out");
    const err = (() => {
      try {
        mergeStores([a, copyStore("clean")], out);
      } catch (e) {
        return e as Error;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(InputError);
    expect(err?.message).toContain(`${join(a, MITHRIL_KEYGEN)}: changed since the index was written: SHA-256`);
    expect(err?.message).toMatch(/Mithril-128__keygen\.json:\d+:\d+ \/aggregates\/meanNs is /);
    expect(err?.message).toContain("ngcc-perf index");
    expect(err?.message).toContain(`${MITHRIL_KEYGEN}: differs between`); // reported along with it
    expect(existsSync(out)).toBe(false);
    // Re-hashing the edit into the index by hand leaves the figures contradicting each other: still refused.
    reindex(a);
    expect(() => mergeStores([a], out)).toThrow(/\/aggregates\/opsPerSecond is [\d.]+, but 1e9 \/ meanNs = /);
    expect(existsSync(out)).toBe(false);
  });

  it("refuses a store with a deleted record, a record its index does not list, or no index", () => {
    const a = copyStore("deleted");
    rmSync(join(a, "data/arm_1/records/kem-22/guide/Mithril-256__dec.json"));
    const b = copyStore("stray");
    writeFileSync(
      join(b, "data/arm_1/records/kem-22/guide/Mithril-1024__dec.json"),
      readFileSync(join(b, "data/arm_1/records/kem-22/guide/Mithril-256__dec.json")),
    );
    const c = copyStore("unindexed");
    rmSync(join(c, "data/arm_1/index.json"));
    const out = join(tmp, "deleted-out");
    expect(() => mergeStores([a], out)).toThrow(/records\/kem-22\/guide\/Mithril-256__dec\.json: deleted: /);
    expect(() => mergeStores([b], out)).toThrow(/records\/kem-22\/guide\/Mithril-1024__dec\.json: not indexed: /);
    expect(() => mergeStores([c], out)).toThrow(/data\/arm_1\/index\.json: missing: /);
    expect(existsSync(out)).toBe(false);
  });

  it("checks the store merged into as well", () => {
    const out = copyStore("into");
    const rec = join(out, "data/arm_1/sizes/kem-22/guide.json");
    writeFileSync(rec, readFileSync(rec, "utf8").replace(/\n$/, " \n"));
    const before = readFileSync(join(out, "data/arm_1/index.json"), "utf8");
    expect(() => mergeStores([copyStore("other")], out)).toThrow(
      /sizes\/kem-22\/guide\.json: changed since the index was written: SHA-256 [0-9a-f]{16}…, the index says [0-9a-f]{16}…; \d+ bytes, the index says \d+/,
    );
    expect(readFileSync(join(out, "data/arm_1/index.json"), "utf8")).toBe(before);
  });

  it("refuses files outside the store layout (e.g. a store of the layout without build profiles)", () => {
    const a = copyStore("g");
    const old = join(a, "data/arm_1/records/kem-22/Mithril-128__enc.json");
    writeFileSync(old, readFileSync(join(a, "data/arm_1/records/kem-22/guide/Mithril-128__enc.json")));
    expect(() => mergeStores([a], join(tmp, "old-layout"))).toThrow(
      /records\/kem-22\/Mithril-128__enc\.json: not a file of the store layout/,
    );
    expect(existsSync(join(tmp, "old-layout"))).toBe(false);
  });

  it("refuses a folder that is not a store", () => {
    expect(() => mergeStores([tmp], join(tmp, "x"))).toThrow(/not a record store/);
  });
});
