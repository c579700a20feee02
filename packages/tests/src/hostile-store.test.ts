// Issue 25 item 5, "the store never re-hashed blind", through the built `ngcc-perf` on copies of one small store
// (kem-90, Puffin-128, `--steps kat,time`): a record edited, deleted or forged after a run, or an index removed, is
// refused by the next `run --steps sizes,report` (exit 2, each file named, nothing written: no index rebuilt, no
// page); a run killed with SIGKILL after it rewrote a record is resumed (its write journal vouches for what it wrote);
// code planted in the submission that forges or edits records while the run measures it — at load time by a
// constructor, at exit by a destructor, with the sandbox switched off so the writes land — is named at the run's end
// and nothing is indexed; `ngcc-perf index` is the one deliberate re-hash, recorded in the index and on the page.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  catalogFile,
  cliBin,
  iccsDir,
  makeHostileSubmission,
  makeTempDir,
  runCliAsync,
  submissionsDir,
} from "./fixture-tools.ts";

const tmp = makeTempDir("ngcc-hostile-store-");
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const FAST = "{ workerMs: 2, minWorkers: 2, budgetMs: 20, keyPairs: 1, inputPool: 4 }";
const STACK = /\n\s+at .+:\d+:\d+\)|internal error/;
const SYSTEM = "test_1";
const JOURNAL = ".write-journal.jsonl";
const ENC = "records/kem-90/guide/Puffin-128__enc.json";
const KAT = "kat/kem-90/guide/Puffin-128.json";
const FORGED = "records/kem-90/guide/Puffin-192__keygen.json";

function campaignFile(name: string, submission: string, extra: string[] = []): string {
  const file = join(tmp, `${name}.yaml`);
  writeFileSync(
    file,
    [
      `name: store-${name}`,
      `system: ${SYSTEM}`,
      `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
      `timing: ${FAST}`,
      `sizes: { catalog: ${JSON.stringify(catalogFile)} }`,
      ...extra,
      "algorithms:",
      `  - { id: kem-90, instances: [Puffin-128], source: { submission: ${JSON.stringify(submission)} } }`,
      "",
    ].join("\n"),
  );
  return file;
}

const plain = campaignFile("plain", join(submissionsDir, "kem-90"));
const base = join(tmp, "base");
let copies = 0;
/** A copy of the base store (records, index, builds). */
function copy(): { out: string; dir: string } {
  const out = join(tmp, `store-${copies++}`);
  cpSync(base, out, { recursive: true });
  return { out, dir: join(out, "data", SYSTEM) };
}

/** Every file below a folder with its SHA-256: what "nothing written" is checked against. */
function snapshot(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else files[relative(root, p)] = createHash("sha256").update(readFileSync(p)).digest("hex");
    }
  };
  walk(root);
  return files;
}

const cli = (...args: string[]) => runCliAsync(args, { timeoutMs: 600_000 });
const edit = (file: string, from: RegExp, to: string) => {
  const text = readFileSync(file, "utf8");
  expect(text).toMatch(from);
  writeFileSync(file, text.replace(from, to));
};
/** The keygen record made into one of an instance the campaign never measured. */
function forge(dir: string): void {
  const text = readFileSync(join(dir, "records/kem-90/guide/Puffin-128__keygen.json"), "utf8");
  writeFileSync(join(dir, FORGED), text.replaceAll('"Puffin-128"', '"Puffin-192"'));
}

/** `run --steps sizes,report` into a store that no longer matches its index: exit 2, named, nothing written. */
async function refused(out: string, named: RegExp[]): Promise<string> {
  const before = snapshot(out);
  const r = await cli("run", plain, "--out", out, "--steps", "sizes,report");
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toContain(
    `${join(out, "data", SYSTEM)}: the store does not match its index before this run wrote into it, so nothing was written into it and its index was not rebuilt`,
  );
  for (const n of named) expect(r.stderr).toMatch(n);
  expect(r.stderr).toContain(`"ngcc-perf index ${out}"`);
  expect(r.stderr).not.toMatch(STACK);
  expect(snapshot(out)).toEqual(before);
  expect(existsSync(join(out, "site"))).toBe(false);
  return r.stderr;
}

beforeAll(async () => {
  const r = await cli("run", plain, "--out", base, "--steps", "kat,time");
  expect(r.code, r.stderr).toBe(0);
  expect(existsSync(join(base, "data", SYSTEM, JOURNAL))).toBe(false); // removed once the index is written
}, 600_000);

describe("a tampered store stays tampered (issue 25, item 5)", () => {
  it("a record edited after the run: the next run refuses it by name and writes nothing", async () => {
    const { out, dir } = copy();
    edit(join(dir, ENC), /"meanNs": [0-9.]+/, '"meanNs": 5.25');
    await refused(out, [new RegExp(`${join(dir, ENC)}: changed since the index was written: SHA-256 [0-9a-f]{16}…`)]);
    // validate and the report name it too (unchanged behaviour)
    expect((await cli("validate", join(out, "data"))).code).toBe(2);
  }, 600_000);

  it("a record deleted after the run: refused by name", async () => {
    const { out, dir } = copy();
    rmSync(join(dir, ENC));
    await refused(out, [new RegExp(`${join(dir, ENC)}: deleted: index\\.json lists it \\(timing, \\d+ bytes\\)`)]);
  }, 600_000);

  it("a forged record added, or the index removed: refused by name", async () => {
    const { out, dir } = copy();
    forge(dir);
    await refused(out, [
      new RegExp(
        `${join(dir, FORGED)}: not indexed: the file is in the store, but index\\.json does not list it nor the write journal of an interrupted run`,
      ),
    ]);
    rmSync(join(dir, FORGED));
    rmSync(join(dir, "index.json"));
    await refused(out, [new RegExp(`${join(dir, "index.json")}: missing`)]);
  }, 600_000);

  it("killed with SIGKILL after it rewrote a record, then resumed: the journal vouches for what the run wrote", async () => {
    const { out, dir } = copy();
    const index = readFileSync(join(dir, "index.json"), "utf8");
    const env = readFileSync(join(dir, "environment.json"), "utf8");
    // The run rewrites environment.json first (its campaign end is open), then builds and times: killed in between
    // or later, before its index.
    const child = spawn(process.execPath, [cliBin, "run", plain, "--out", out, "--steps", "time"], {
      detached: true,
      stdio: "ignore",
    });
    const exited = new Promise<void>((res) => child.on("exit", () => res()));
    const journal = join(dir, JOURNAL);
    const end = Date.now() + 120_000;
    while (
      Date.now() < end &&
      !(existsSync(journal) && /"op":"done","path":"environment\.json"/.test(readFileSync(journal, "utf8")))
    )
      await new Promise((res) => setTimeout(res, 5));
    process.kill(-(child.pid as number), "SIGKILL");
    await exited;
    expect(readFileSync(join(dir, "index.json"), "utf8")).toBe(index); // killed before its index
    expect(readFileSync(join(dir, "environment.json"), "utf8")).not.toBe(env); // after its first write
    expect(readFileSync(journal, "utf8")).toMatch(/"op":"write","path":"environment\.json"/);

    // Without the journal the same store is one whose environment.json was changed behind its index.
    const bare = join(tmp, "killed-without-journal");
    cpSync(out, bare, { recursive: true });
    rmSync(join(bare, "data", SYSTEM, JOURNAL));
    await refused(bare, [/environment\.json: changed since the index was written/]);

    const r = await cli("run", plain, "--out", out, "--steps", "time,sizes,report", "--resume");
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(journal)).toBe(false);
    const v = await cli("validate", join(out, "data"));
    expect(v.code, v.stdout + v.stderr).toBe(0);
    expect(existsSync(join(out, "site", SYSTEM, "index.html"))).toBe(true);
  }, 600_000);

  it("code planted in the submission that forges or edits records while it is measured is named at the run's end", async () => {
    const { out, dir } = copy();
    const index = readFileSync(join(dir, "index.json"), "utf8");
    const c = (s: string) => JSON.stringify(s);
    // The sandbox would stop both writes (docs/security.md); switched off, the store's own check must catch them.
    const { sub } = makeHostileSubmission(join(tmp, "planted"), [], {
      code: {
        atLoad: [
          `  FILE *f = fopen(${c(join(dir, FORGED))}, "w");`,
          '  if (f) { fputs("{\\"kind\\": \\"timing\\"}\\n", f); fclose(f); }',
        ],
        atExit: [`  FILE *f = fopen(${c(join(dir, KAT))}, "a");`, '  if (f) { fputs(" ", f); fclose(f); }'],
      },
    });
    const file = campaignFile("planted", sub.dir, ["sandbox: { enabled: false }"]);
    const r = await cli("run", file, "--out", out, "--steps", "time,report");
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      `${dir}: the store does not match its index after this run wrote its records (a file changed behind the run), so its index was not rebuilt`,
    );
    expect(r.stderr).toMatch(new RegExp(`${join(dir, KAT)}: changed since the index was written`));
    expect(r.stderr).toMatch(new RegExp(`${join(dir, FORGED)}: not indexed: the file is in the store`));
    expect(r.stderr).not.toMatch(STACK);
    expect(readFileSync(join(dir, "index.json"), "utf8")).toBe(index);
    expect(existsSync(join(out, "site"))).toBe(false);
    // and the next run refuses the store before it writes anything
    await refused(out, [new RegExp(`${join(dir, FORGED)}: not indexed`)]);
  }, 600_000);

  it("ngcc-perf index is the one deliberate re-hash: recorded in the index, kept by the next run, shown on the page", async () => {
    const { out, dir } = copy();
    edit(join(dir, ENC), /"peakRssKiB": \d+/, '"peakRssKiB": 4242');
    await refused(out, [new RegExp(`${join(dir, ENC)}: changed since the index was written`)]);
    const previous = createHash("sha256")
      .update(readFileSync(join(dir, "index.json")))
      .digest("hex");
    const x = await cli("index", out);
    expect(x.code, x.stderr).toBe(0);
    expect(x.stderr).toMatch(new RegExp(`\\n  changed +${ENC}\\n`));

    const r = await cli("run", plain, "--out", out, "--steps", "sizes,report");
    expect(r.code, r.stderr).toBe(0);
    const after = JSON.parse(readFileSync(join(dir, "index.json"), "utf8"));
    expect(after.reindexed).toHaveLength(1);
    expect(after.reindexed[0]).toMatchObject({
      command: "ngcc-perf index",
      tool: { name: "ngcc-perf" },
      previousIndex: previous,
      changed: [ENC],
      added: [],
      removed: [],
    });
    expect(after.reindexed[0].by).toMatch(/.@?./);
    expect(Date.parse(after.reindexed[0].at)).toBeGreaterThan(Date.now() - 600_000);
    expect(after.files.some((f: { path: string }) => f.path.startsWith("sizes/"))).toBe(true);
    expect((await cli("validate", join(out, "data"))).code).toBe(0);
    // Section 7 of the algorithm's page, where the evidence index is described, says so.
    const page = readFileSync(join(out, "site", SYSTEM, "kem-90.md"), "utf8");
    expect(page).toMatch(
      /The store's index was rebuilt from the files on disk with ngcc-perf index once — on \d{4}-\d\d-\d\d \d\d:\d\d UTC by \S+ \(1 changed, 0 added, 0 removed; on this page: records\/kem-90\/guide\/Puffin-128\\_\\_enc\.json\) — so those files are vouched for as they were then, not as the run wrote them/,
    );
    expect(readFileSync(join(out, "site", SYSTEM, "kem-90.html"), "utf8")).toContain(
      "The store&#39;s index was rebuilt from the files on disk with ngcc-perf index once",
    );
  }, 600_000);
});
