// The write journal as the runner keeps it, and verifyStore, on copies of the committed seed store: with the journal
// open every file of the layout written through writeFileAtomic is journaled before and after its rename (nothing
// else is), so what a run wrote — finished or cut off before its rename — passes verifyStore after the process is
// gone, while an edit, a deletion or a forged record is refused naming the file.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { InputError, JOURNAL_FILE, parseJournal } from "@ngcc-perf/schema";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { closeWriteJournal, openWriteJournal, sha256, writeFileAtomic } from "./store.ts";
import { verifyStore } from "./store-index.ts";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const tmp = mkdtempSync(join(tmpdir(), "ngcc-store-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const KEYGEN = "records/kem-22/guide/Mithril-128__keygen.json";
const NEW = "records/kem-22/guide/Mithril-1024__keygen.json";

let n = 0;
let opened: string[] = [];
afterEach(() => {
  for (const d of opened) closeWriteJournal(d, { remove: false });
  opened = [];
});
function store(): { out: string; dir: string } {
  const out = join(tmp, `store-${n++}`);
  cpSync(join(repo, "fixtures", "seed-store"), out, { recursive: true });
  return { out, dir: join(out, "data", "arm_1") };
}
function open(dir: string, continueJournal = false): void {
  const r = verifyStore(dirname(dirname(dir)), "arm_1", "before");
  openWriteJournal(dir, { system: "arm_1", indexSha256: r.indexSha256 ?? null, continueJournal, by: "test" });
  opened.push(dir);
}
const journalOf = (dir: string) => parseJournal(readFileSync(join(dir, JOURNAL_FILE), "utf8"), "arm_1");
const refusal = (out: string): string => {
  try {
    verifyStore(out, "arm_1", "before");
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return (err as Error).message;
  }
  throw new Error("verifyStore did not refuse");
};

describe("the write journal", () => {
  it("journals each file of the layout before and after its rename, and nothing else", () => {
    const { out, dir } = store();
    open(dir);
    const record = readFileSync(join(dir, KEYGEN), "utf8").replace('"peakRssKiB": 1488', '"peakRssKiB": 1500');
    writeFileAtomic(join(dir, KEYGEN), record);
    writeFileAtomic(join(dir, NEW), Buffer.from(record));
    writeFileAtomic(join(dir, "notes.txt"), "outside the layout");
    writeFileAtomic(join(dir, "index.json"), readFileSync(join(dir, "index.json")));
    writeFileAtomic(join(out, "build", "x.json"), "{}");
    const j = journalOf(dir);
    expect(j.problems).toEqual([]);
    expect(j.header).toMatchObject({ system: "arm_1", by: "test" });
    const line = { sha256: sha256(record), bytes: Buffer.byteLength(record) };
    expect(j.writes).toEqual([
      { op: "write", path: KEYGEN, ...line },
      { op: "done", path: KEYGEN, ...line },
      { op: "write", path: NEW, ...line },
      { op: "done", path: NEW, ...line },
    ]);
    closeWriteJournal(dir, { remove: false });
    // after the process: the journal on disk vouches for both, and for nothing more
    expect(verifyStore(out, "arm_1", "before").journal).toBe("current");
    writeFileSync(join(dir, NEW), record.replace('"peakRssKiB": 1500', '"peakRssKiB": 1501'));
    expect(refusal(out)).toMatch(/Mithril-1024__keygen\.json: not indexed, and not what the interrupted run wrote/);
    rmSync(join(dir, JOURNAL_FILE));
    const msg = refusal(out);
    expect(msg).toContain(`${join(dir, KEYGEN)}: changed since the index was written`);
    expect(msg).toContain(`${join(dir, NEW)}: not indexed`);
  });

  it("keeps the old content acceptable when the rename never happens, and writes nothing unjournaled", () => {
    const { out, dir } = store();
    open(dir);
    // a rename that fails after the write was journaled (as a kill between the two would leave it)
    const target = join(dir, NEW);
    mkdirSync(join(target, "sub"), { recursive: true });
    expect(() => writeFileAtomic(target, "{}")).toThrow();
    rmSync(target, { recursive: true });
    expect(journalOf(dir).writes.map((w) => w.op)).toEqual(["write"]);
    closeWriteJournal(dir, { remove: false });
    expect(verifyStore(out, "arm_1", "before").findings).toEqual([]);
    // with the journal closed, writes are not journaled: a later check names them
    writeFileAtomic(join(dir, NEW), "{ }");
    expect(refusal(out)).toMatch(/Mithril-1024__keygen\.json: not indexed, and not what the interrupted run wrote/);
  });

  it("continues the journal of an interrupted run, and starts a new one over a stale journal", () => {
    const { out, dir } = store();
    open(dir);
    writeFileAtomic(join(dir, NEW), "{}");
    closeWriteJournal(dir, { remove: false });
    open(dir, true);
    writeFileAtomic(join(dir, NEW), "{ }");
    expect(journalOf(dir).writes).toHaveLength(4);
    closeWriteJournal(dir, { remove: false });
    expect(verifyStore(out, "arm_1", "before").findings).toEqual([]);
    // a journal started over the old index once the index is replaced vouches for nothing
    const index = JSON.parse(readFileSync(join(dir, "index.json"), "utf8"));
    writeFileSync(join(dir, "index.json"), `${JSON.stringify({ ...index, evidenceRoot: "x/" }, null, 2)}\n`);
    expect(refusal(out)).toMatch(/Mithril-1024__keygen\.json: not indexed: the file is in the store, but index\.json/);
  });
});

describe("verifyStore", () => {
  it("passes a new store and a matching one, and refuses edits, deletions and additions naming each file", () => {
    expect(verifyStore(join(tmp, "fresh"), "arm_1", "before").findings).toEqual([]);
    mkdirSync(join(tmp, "empty", "data", "arm_1"), { recursive: true });
    expect(verifyStore(join(tmp, "empty"), "arm_1", "before").findings).toEqual([]);
    const { out, dir } = store();
    expect(verifyStore(out, "arm_1", "before").findings).toEqual([]);
    writeFileSync(join(dir, KEYGEN), readFileSync(join(dir, KEYGEN), "utf8").replace("1488", "1500"));
    rmSync(join(dir, "records/kem-22/guide/Mithril-256__dec.json"));
    cpSync(join(dir, "records/kem-22/guide/Mithril-512__dec.json"), join(dir, NEW));
    const msg = refusal(out);
    expect(msg).toMatch(
      new RegExp(`^${dir}: the store does not match its index before this run wrote into it, so nothing was written`),
    );
    expect(msg).toContain(`${join(dir, NEW)}: not indexed`);
    expect(msg).toContain(`${join(dir, KEYGEN)}: changed since the index was written`);
    expect(msg).toContain(`${join(dir, "records/kem-22/guide/Mithril-256__dec.json")}: deleted`);
    expect(msg).toContain(`"ngcc-perf index ${out}"`);
    // a store whose index was removed: every record is unvouched for
    rmSync(join(dir, "index.json"));
    expect(refusal(out)).toContain(`${join(dir, "index.json")}: missing`);
  });
});
