// `ngcc-perf index`, the deliberate re-index, driven through the built executable (run `pnpm build` first) on copies
// of the seed store: it says what changed, makes validate pass again, writes nothing for a dry run or when a record
// is not valid (schema, place in the store, the identities of timing figures) and refuses what is not a store.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, "..", "bin.js");
const repo = join(here, "..", "..", "..");
const tmp = mkdtempSync(join(tmpdir(), "ngcc-index-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, all: r.stdout + r.stderr };
}
const STACK = /\n\s+at .+\(.*:\d+:\d+\)|node:internal/;

const KEYGEN = "records/kem-22/guide/Mithril-128__keygen.json";
let n = 0;
function store(): { root: string; dir: string } {
  const root = join(tmp, `store-${n++}`);
  cpSync(join(repo, "fixtures/seed-store"), root, { recursive: true });
  return { root, dir: join(root, "data/arm_1") };
}
const replace = (file: string, from: string, to: string) => {
  const text = readFileSync(file, "utf8");
  expect(text).toContain(from);
  writeFileSync(file, text.replace(from, to));
};

describe("ngcc-perf index", () => {
  it("rebuilds the index after deliberate edits, says what changed, and validate passes again", () => {
    const { root, dir } = store();
    const indexFile = join(dir, "index.json");
    const bytes = readFileSync(indexFile, "utf8");
    const before = JSON.parse(bytes);
    replace(join(dir, KEYGEN), '"peakRssKiB": 1488', '"peakRssKiB": 1500');
    rmSync(join(dir, "records/kem-22/guide/Mithril-256__dec.json"));
    const added = join(dir, "records/kem-22/guide/Mithril-1024__dec.json");
    cpSync(join(dir, "records/kem-22/guide/Mithril-512__dec.json"), added);
    replace(added, '"instance": "Mithril-512"', '"instance": "Mithril-1024"');
    expect(cli("validate", root).code).toBe(2);

    const dry = cli("index", root, "--dry-run");
    expect(dry.code, dry.all).toBe(0);
    expect(dry.stderr).toContain("index.json: would be rewritten for 212 file(s)");
    expect(readFileSync(indexFile, "utf8")).toBe(bytes);

    const r = cli("index", root, "--json");
    expect(r.code, r.all).toBe(0);
    expect(r.stderr).toContain(`${join(dir, "index.json")}: rewritten for 212 file(s)`);
    expect(r.stderr).toMatch(new RegExp(`\\n  changed +${KEYGEN}\\n`));
    expect(r.stderr).toMatch(/\n {2}added +records\/kem-22\/guide\/Mithril-1024__dec\.json\n/);
    expect(r.stderr).toMatch(/\n {2}removed +records\/kem-22\/guide\/Mithril-256__dec\.json\n/);
    expect(JSON.parse(r.stdout).systems[0]).toMatchObject({
      system: "arm_1",
      changed: [KEYGEN],
      added: ["records/kem-22/guide/Mithril-1024__dec.json"],
      removed: ["records/kem-22/guide/Mithril-256__dec.json"],
      written: true,
    });
    const after = JSON.parse(readFileSync(indexFile, "utf8"));
    expect(after.algorithms).toEqual(before.algorithms);
    expect(after.provenance.origin).toBe("synthesized");
    expect(after.provenance.note).toMatch(
      /^Rebuilt by ngcc-perf index from the files on disk \(1 changed, 1 added, 1 removed\)\. Before: Index of the synthesized seed store/,
    );
    // the re-hash on record: when, by whom, against which index, which files
    expect(after.reindexed).toEqual([
      {
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        command: "ngcc-perf index",
        tool: { name: "ngcc-perf", version: expect.any(String) },
        by: expect.stringMatching(/\S/),
        previousIndex: createHash("sha256").update(bytes).digest("hex"),
        changed: [KEYGEN],
        added: ["records/kem-22/guide/Mithril-1024__dec.json"],
        removed: ["records/kem-22/guide/Mithril-256__dec.json"],
      },
    ]);

    const v = cli("validate", root);
    expect(v.code, v.all).toBe(0);
    expect(v.stderr).toContain("1 system folder(s) match their index");
    const again = cli("index", root);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain("index.json: matches its 212 file(s); not rewritten");
  });

  it("writes nothing when a record is not valid, is in another record's place, or contradicts itself", () => {
    const cases: Array<[string, (dir: string) => void, RegExp]> = [
      [
        "meanNs × 1000",
        (dir) => replace(join(dir, KEYGEN), '"meanNs": 100806.47721954576', '"meanNs": 100806477.21954576'),
        /Mithril-128__keygen\.json:\d+:\d+ \/aggregates\/meanNs is 100806477\.2, but Σ ns \/ n of the trials = 100806\.4772/,
      ],
      [
        "schema",
        (dir) => replace(join(dir, KEYGEN), '"status": "ok"', '"status": "fine"'),
        /Mithril-128__keygen\.json:\d+:\d+ \/status must be one of/,
      ],
      [
        "misplaced",
        (dir) => cpSync(join(dir, KEYGEN), join(dir, "records/kem-22/guide/Mithril-256__keygen.json")),
        /Mithril-256__keygen\.json: instance "Mithril-128" in the record, but its place in the store says "Mithril-256"/,
      ],
      [
        "index",
        (dir) => replace(join(dir, "index.json"), '"kind": "store-index"', '"kind": "store-indx"'),
        /index\.json: not a valid store index: .* — fix it, or remove it/,
      ],
    ];
    for (const [name, breakIt, message] of cases) {
      const { root, dir } = store();
      breakIt(dir);
      const index = readFileSync(join(dir, "index.json"), "utf8");
      const r = cli("index", root);
      expect(r.code, name).toBe(2);
      expect(r.stdout, name).toMatch(message);
      expect(r.stderr, name).toMatch(/problem\(s\) in the records, so no index was rebuilt/);
      expect(r.all, name).not.toMatch(STACK);
      expect(readFileSync(join(dir, "index.json"), "utf8"), name).toBe(index);
    }
  });

  it("creates an index without algorithms for a store that has none; the report then reads the records", () => {
    const { root, dir } = store();
    rmSync(join(dir, "index.json"));
    expect(cli("report", root, "--out", join(tmp, "site-none")).code).toBe(2);
    const r = cli("index", root);
    expect(r.code, r.all).toBe(0);
    expect(r.stderr).toContain("index.json: created for 212 file(s)");
    const index = JSON.parse(readFileSync(join(dir, "index.json"), "utf8"));
    expect(index.algorithms).toEqual([]);
    expect(index.provenance.origin).toBe("curated");
    expect(index.reindexed).toHaveLength(1);
    expect(index.reindexed[0]).toMatchObject({ previousIndex: null, changed: [], removed: [] });
    expect(index.reindexed[0].added).toHaveLength(212);
    expect(cli("validate", root).code).toBe(0);
    const report = cli("report", root, "--out", join(tmp, "site-created"), "--format", "md");
    expect(report.code, report.all).toBe(0);
  });

  it("refuses a part of a system folder, a folder that is not a store and a missing argument (exit 2)", () => {
    const { dir } = store();
    const part = cli("index", join(dir, "records"));
    expect(part.code).toBe(2);
    expect(part.stderr).toContain("rebuilds a whole system's index, so name the store");
    const none = cli("index", join(repo, "packages/schema/examples"));
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("no system folder (data/<system>/) found; expected a record store");
    expect(cli("index").code).toBe(2);
    expect(cli("index", "--help").stdout).toContain("ngcc-perf index <store-dir>");
    expect(cli("--help").stdout).toMatch(/\n {2}index +rebuild a store's index\.json/);
  });
});
