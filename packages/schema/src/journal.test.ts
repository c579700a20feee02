// The write journal and the check a run makes before it writes into a store (checkSystemIntegrity with
// `journal: true`), on copies of the committed seed store: what an interrupted run wrote — a new record, a record
// rewritten, a rename that never happened — is accepted; an edit, a deletion or a forged record by hand is still
// named; a stale, foreign or broken journal vouches for nothing.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { checkSystemIntegrity, hashFile, type IntegrityFinding } from "./integrity.ts";
import { ABSENT, JOURNAL_FILE, JOURNAL_FORMAT, type JournalWrite, parseJournal, possibleStates } from "./journal.ts";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const seed = join(repo, "fixtures", "seed-store");
const tmp = mkdtempSync(join(tmpdir(), "ngcc-journal-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const KEYGEN = "records/kem-22/guide/Mithril-128__keygen.json";
const NEW = "records/kem-22/guide/Mithril-1024__keygen.json";
const H = (c: string) => c.repeat(64);

let n = 0;
function copy(): string {
  const root = join(tmp, `store-${n++}`);
  cpSync(seed, root, { recursive: true });
  return join(root, "data", "arm_1");
}
const problems = (findings: IntegrityFinding[]) => findings.map((f) => `${f.problem} ${f.path}`);
const indexHash = (dir: string) => {
  const h = hashFile(join(dir, "index.json"));
  return "sha256" in h ? h.sha256 : null;
};
/** The journal line of a file as it is on disk now. */
function line(dir: string, path: string, op: "write" | "done"): JournalWrite {
  const h = hashFile(join(dir, ...path.split("/")));
  if (!("sha256" in h)) throw new Error(h.error);
  return { op, path, sha256: h.sha256, bytes: h.bytes };
}
function journal(dir: string, writes: JournalWrite[], o: { index?: string | null; system?: string } = {}): void {
  const header = {
    journal: JOURNAL_FORMAT,
    version: 1,
    system: o.system ?? "arm_1",
    index: o.index === undefined ? indexHash(dir) : o.index,
    createdAt: "2026-12-01T00:00:00.000Z",
    by: "test",
  };
  writeFileSync(join(dir, JOURNAL_FILE), [header, ...writes].map((l) => `${JSON.stringify(l)}\n`).join(""));
}
const check = (dir: string) => checkSystemIntegrity(dir, { consistency: false, journal: true });
/** Rewrites a record (a different, valid-looking content), as a resumed run or a person would. */
const rewrite = (dir: string, path: string, peak: number) => {
  const file = join(dir, ...path.split("/"));
  writeFileSync(file, readFileSync(file, "utf8").replace(/"peakRssKiB": \d+/, `"peakRssKiB": ${peak}`));
};

describe("possibleStates", () => {
  it("adds a write's content to what the file held and keeps only a done one's", () => {
    const indexed = [{ path: "a", kind: "timing" as const, sha256: H("0"), bytes: 1 }];
    const w = (op: "write" | "done", path: string, c: string): JournalWrite => ({ op, path, sha256: H(c), bytes: 1 });
    const s = (...writes: JournalWrite[]) => [...(possibleStates(indexed, writes).get(writes[0]?.path ?? "") ?? [])];
    expect(s(w("write", "a", "1"))).toEqual([`${H("0")}:1`, `${H("1")}:1`]);
    expect(s(w("write", "a", "1"), w("done", "a", "1"))).toEqual([`${H("1")}:1`]);
    // killed before the rename twice: the index's content or either write
    expect(s(w("write", "a", "1"), w("write", "a", "2"))).toHaveLength(3);
    // renamed, then a resumed run killed before its own rename: the first write or the second, not the index's
    expect(s(w("write", "a", "1"), w("done", "a", "1"), w("write", "a", "2"))).toEqual([`${H("1")}:1`, `${H("2")}:1`]);
    expect(s(w("write", "b", "1"))).toEqual([ABSENT, `${H("1")}:1`]);
    expect(possibleStates(indexed, []).size).toBe(0);
  });
});

describe("parseJournal", () => {
  const head = JSON.stringify({
    journal: JOURNAL_FORMAT,
    version: 1,
    system: "s",
    index: null,
    createdAt: "x",
    by: "t",
  });
  const write = JSON.stringify({ op: "write", path: "kat/a/p/I.json", sha256: H("a"), bytes: 3 });
  it("reads the header and the writes, and leaves out a last line the run was killed while appending", () => {
    const j = parseJournal(`${head}\n${write}\n{"op":"do`, "s");
    expect(j.problems).toEqual([]);
    expect(j.header?.index).toBeNull();
    expect(j.writes).toEqual([{ op: "write", path: "kat/a/p/I.json", sha256: H("a"), bytes: 3 }]);
  });
  it("names each line that is not a header or a write", () => {
    expect(parseJournal("", "s").problems).toEqual(["empty: no header"]);
    expect(parseJournal(`${head}\nnot json\n${write}\n`, "s").problems).toEqual(["line 2: not JSON"]);
    expect(parseJournal(`${head}\n`, "t").problems[0]).toMatch(/^line 1: the journal of system "s", but it is in/);
    expect(parseJournal(`${write}\n`, "s").problems[0]).toMatch(/^line 1: not a write journal/);
    const bad = [
      { op: "write", path: "../x", sha256: H("a"), bytes: 1 },
      { op: "write", path: "x", sha256: "abc", bytes: 1 },
      { op: "write", path: "x", sha256: H("a"), bytes: -1 },
      { op: "move", path: "x", sha256: H("a"), bytes: 1 },
    ];
    const j = parseJournal(`${head}\n${bad.map((b) => JSON.stringify(b)).join("\n")}\n`, "s");
    expect(j.problems.map((p) => p.split(":")[0])).toEqual(["line 2", "line 3", "line 4", "line 5"]);
    expect(j.writes).toEqual([]);
  });
});

describe("checkSystemIntegrity with the write journal", () => {
  it("accepts records an interrupted run wrote and journaled, and only with the option", () => {
    const dir = copy();
    cpSync(join(dir, KEYGEN), join(dir, NEW));
    rewrite(dir, KEYGEN, 1500);
    journal(dir, [line(dir, NEW, "write"), line(dir, NEW, "done"), line(dir, KEYGEN, "write")]);
    const r = check(dir);
    expect(r.findings).toEqual([]);
    expect(r.journal).toBe("current");
    expect(r.indexSha256).toBe(indexHash(dir));
    expect(r.files.find((f) => f.path === KEYGEN)?.sha256).toBe(line(dir, KEYGEN, "done").sha256);
    // validate, the report and merge hold the store to its index alone
    expect(problems(checkSystemIntegrity(dir, { consistency: false }).findings)).toEqual([
      `not-indexed ${NEW}`,
      `changed ${KEYGEN}`,
    ]);
  });

  it("accepts the old content of a record whose rename never happened, and a journaled record never renamed", () => {
    const dir = copy();
    const before = line(dir, KEYGEN, "write");
    rewrite(dir, KEYGEN, 1500);
    cpSync(join(dir, KEYGEN), join(dir, NEW));
    journal(dir, [line(dir, KEYGEN, "write"), line(dir, NEW, "write")]);
    // the run was killed after journaling, before either rename
    cpSync(join(seed, "data", "arm_1", KEYGEN), join(dir, KEYGEN));
    rmSync(join(dir, NEW));
    expect(line(dir, KEYGEN, "write")).toEqual(before);
    expect(check(dir).findings).toEqual([]);
  });

  it("still names an edit, a deletion and a forged record the journal does not vouch for", () => {
    const dir = copy();
    cpSync(join(dir, KEYGEN), join(dir, NEW));
    journal(dir, [line(dir, NEW, "write"), line(dir, NEW, "done")]);
    rewrite(dir, NEW, 1501); // edited after the run wrote it
    rewrite(dir, "records/kem-22/guide/Mithril-128__enc.json", 1502); // an indexed record edited
    rmSync(join(dir, "records/kem-22/guide/Mithril-256__dec.json"));
    cpSync(join(dir, KEYGEN), join(dir, "records/kem-22/guide/Mithril-2048__keygen.json")); // forged
    const r = check(dir);
    expect(problems(r.findings)).toEqual([
      `not-indexed ${NEW}`,
      "changed records/kem-22/guide/Mithril-128__enc.json",
      "not-indexed records/kem-22/guide/Mithril-2048__keygen.json",
      "deleted records/kem-22/guide/Mithril-256__dec.json",
    ]);
    expect(r.findings.find((f) => f.path === NEW)?.message).toMatch(
      /^not indexed, and not what the interrupted run wrote: SHA-256 [0-9a-f]{16}… \(\d+ bytes\), the write journal says [0-9a-f]{16}…$/,
    );
    expect(r.findings.find((f) => f.path.endsWith("Mithril-2048__keygen.json"))?.message).toBe(
      "not indexed: the file is in the store, but index.json does not list it nor the write journal of an interrupted run",
    );
  });

  it("names a record the run rewrote and a person then changed, with both hashes", () => {
    const dir = copy();
    rewrite(dir, KEYGEN, 1500);
    journal(dir, [line(dir, KEYGEN, "write"), line(dir, KEYGEN, "done")]);
    cpSync(join(seed, "data", "arm_1", KEYGEN), join(dir, KEYGEN)); // rolled back to what the index lists
    const r = check(dir);
    expect(problems(r.findings)).toEqual([`changed ${KEYGEN}`]);
    expect(r.findings[0]?.message).toMatch(
      /^changed since it was written: SHA-256 [0-9a-f]{16}… \(\d+ bytes\), but the index says [0-9a-f]{16}… and the write journal [0-9a-f]{16}…$/,
    );
  });

  it("ignores a journal that extends another index (stale) and names a broken one", () => {
    const dir = copy();
    cpSync(join(dir, KEYGEN), join(dir, NEW));
    journal(dir, [line(dir, NEW, "write"), line(dir, NEW, "done")], { index: H("e") });
    const stale = check(dir);
    expect(stale.journal).toBe("stale");
    expect(problems(stale.findings)).toEqual([`not-indexed ${NEW}`]);

    journal(dir, [line(dir, NEW, "write"), line(dir, NEW, "done")], { system: "x86_1" });
    const foreign = check(dir);
    expect(foreign.journal).toBe("unreadable");
    expect(problems(foreign.findings)).toEqual([`journal ${JOURNAL_FILE}`, `not-indexed ${NEW}`]);
    expect(foreign.findings[0]?.message).toMatch(/^not a valid write journal \(line 1: the journal of system "x86_1"/);

    journal(dir, [line(dir, NEW, "write")]);
    writeFileSync(join(dir, JOURNAL_FILE), `${readFileSync(join(dir, JOURNAL_FILE), "utf8")}garbage\n`);
    expect(problems(check(dir).findings)).toEqual([`journal ${JOURNAL_FILE}`, `not-indexed ${NEW}`]);
  });

  it("accepts a store whose first run was killed before its index, when the journal covers every file", () => {
    const dir = copy();
    const paths = checkSystemIntegrity(dir, { consistency: false }).files.map((f) => f.path);
    rmSync(join(dir, "index.json"));
    journal(
      dir,
      paths.flatMap((p) => [line(dir, p, "write"), line(dir, p, "done")]),
      { index: null },
    );
    const r = check(dir);
    expect(r.findings).toEqual([]);
    expect(r.indexSha256).toBeNull();
    cpSync(join(dir, KEYGEN), join(dir, NEW));
    expect(problems(check(dir).findings)).toEqual(["no-index index.json", `not-indexed ${NEW}`]);
    // an index removed by hand: its journal (which extended it) is stale, and every record is unvouched for
    journal(dir, [], { index: H("f") });
    expect(problems(check(dir).findings)).toEqual(["no-index index.json"]);
  });
});
