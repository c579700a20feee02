// What the report and the CLI show (issue 14, part C), through the built CLI: a name with U+202E shows as the escape
// \u202E on the pages and on stderr, never as the character; a render killed while it builds the site leaves its
// half-built .site-*.tmp, which the next report removes; pages say "Ran unconfined" for records whose commands ran
// without the sandbox.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { copySubmission, iccsDir, makeTempDir, repoRoot, runCli, runCliAsync } from "./fixture-tools.ts";

const tmp = makeTempDir("ngcc-report-text-");
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const SEED = join(repoRoot, "fixtures/seed-store");
const RLO = "\u202E";

// biome-ignore lint/suspicious/noExplicitAny: records are edited untyped; the CLI validates them.
type Rec = any;
const readJson = (p: string): Rec => JSON.parse(readFileSync(p, "utf8"));
const writeJson = (p: string, v: unknown) => writeFileSync(p, `${JSON.stringify(v, null, 2)}\n`);

/** A copy of the seed store at tmp/<name>, edited by `edit(systemDir)` and reindexed with `ngcc-perf index`. */
function seedCopy(name: string, edit: (sys: string) => void = () => {}): string {
  const store = join(tmp, name);
  cpSync(SEED, store, { recursive: true });
  const sys = join(store, "data/arm_1");
  edit(sys);
  const r = runCli(["index", store]);
  expect(r.code, r.stderr).toBe(0);
  return store;
}

const page = (store: string, alg: string, ext: "md" | "html") =>
  readFileSync(join(store, "site/arm_1", `${alg}.${ext}`), "utf8");

describe("bidi and control characters are shown as escapes", { timeout: 120_000 }, () => {
  it("an algorithm name with U+202E and a control character is \\u202E on every page, never the character", () => {
    const store = seedCopy("bidi", (sys) => {
      const index = readJson(join(sys, "index.json"));
      index.algorithms[0].name = `Amo${RLO}abe\u001b[2J`;
      writeJson(join(sys, "index.json"), index);
    });
    const r = runCli(["report", store]);
    expect(r.code, r.stderr).toBe(0);
    const html = page(store, "kem-02", "html");
    const md = page(store, "kem-02", "md");
    // HTML shows the escape as text; Markdown backslash-escapes its backslash, which renders as \u202E.
    expect(html).toContain("kem-02 Amo\\u202Eabe\\u001B[2J");
    expect(md).toContain("Amo\\\\u202Eabe\\\\u001B\\[2J");
    for (const f of [html, md, readFileSync(join(store, "site/arm_1/index.html"), "utf8")]) {
      expect(f).not.toContain(RLO);
      expect(f).not.toContain("\u001b");
    }
  });

  it("an instance name with U+202E in meta.json is refused with the name escaped on stderr", () => {
    const dir = join(tmp, "bidi-meta");
    mkdirSync(dir, { recursive: true });
    const sub = copySubmission("kem-90", dir);
    const metaFile = join(sub.dir, "meta.json");
    const meta = readJson(metaFile);
    meta.instances[0].name = `Puffin-${RLO}821`;
    writeJson(metaFile, meta);
    const campaign = join(dir, "campaign.yaml");
    writeFileSync(
      campaign,
      [
        "name: bidi",
        "system: test_1",
        `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
        "algorithms:",
        `  - { id: kem-90, source: { submission: ${JSON.stringify(sub.dir)} } }`,
        "",
      ].join("\n"),
    );
    const r = runCli(["sizes", campaign, "--out", join(dir, "out")]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain("Puffin-\\u202E821");
    expect(r.stderr).not.toContain(RLO);
  });
});

describe("a half-built site left by a killed render", { timeout: 180_000 }, () => {
  const leftovers = (store: string) => readdirSync(store).filter((n) => /^\.site-.*\.tmp$|^site\..*\.old$/.test(n));

  it("is removed by the next report (the test kills a render while it builds the site)", async () => {
    const store = seedCopy("killed");
    let caught: string[] = [];
    // Kill the render as soon as its temporary site appears; a machine fast enough to finish first gets more tries.
    for (let attempt = 0; attempt < 5 && caught.length === 0; attempt++) {
      let pid = 0;
      const run = runCliAsync(["report", store], { onStart: (p) => (pid = p) });
      const started = Date.now();
      while (Date.now() - started < 60_000) {
        caught = leftovers(store);
        if (caught.length > 0) {
          process.kill(pid, "SIGKILL");
          break;
        }
        await new Promise((res) => setTimeout(res, 2));
        if (!existsSync(`/proc/${pid}`)) break;
      }
      const r = await run;
      if (caught.length > 0) expect(r.signal).toBe("SIGKILL");
    }
    expect(caught.length, "a render was killed while its .site-*.tmp existed").toBeGreaterThan(0);
    expect(leftovers(store).length).toBeGreaterThan(0);
    // An old site of a process long gone, as a kill between the two renames of the swap leaves it.
    mkdirSync(join(store, "site.999999999-1.old"));
    const again = runCli(["report", store]);
    expect(again.code, again.stderr).toBe(0);
    expect(leftovers(store)).toEqual([]);
    expect(existsSync(join(store, "site/arm_1/kem-02.html"))).toBe(true);
  });
});

describe('pages say "ran unconfined"', { timeout: 120_000 }, () => {
  const command = (argv: string[], sandboxed: boolean) => ({
    argv,
    exitCode: 0,
    signal: null,
    durationMs: 1,
    timedOut: false,
    sandboxed,
  });

  it("for the build and timing of a record whose commands say sandboxed: false, and for its KAT", () => {
    const store = seedCopy("unconfined", (sys) => {
      const t = join(sys, "records/kem-20/guide/MAMBA-Frost-128__keygen.json");
      const rec = readJson(t);
      rec.commands = [command(["gcc", "-c", "kem.c"], false), command(["/x/ngcc-driver", "time"], false)];
      writeJson(t, rec);
      const k = join(sys, "kat/kem-20/guide/MAMBA-Frost-192.json");
      const kat = readJson(k);
      kat.commands = [command(["/x/katgen"], false)];
      writeJson(k, kat);
      // A record confined throughout says nothing.
      const c = join(sys, "records/kem-21/guide");
      const first = readdirSync(c).find((n) => n.endsWith("__keygen.json")) as string;
      const confined = readJson(join(c, first));
      confined.commands = [command(["gcc", "-c", "kem.c"], true)];
      writeJson(join(c, first), confined);
    });
    const r = runCli(["report", store]);
    expect(r.code, r.stderr).toBe(0);
    const sentence =
      /Ran unconfined: the build, KAT and timing of MAMBA-Frost-128 and MAMBA-Frost-192 ran submission code without ngcc-perf's sandbox/;
    const apostrophes = (html: string) => html.replace(/&#39;/g, "'");
    expect(apostrophes(page(store, "kem-20", "html"))).toMatch(sentence);
    expect(page(store, "kem-20", "md")).toMatch(sentence);
    expect(apostrophes(readFileSync(join(store, "site/arm_1/index.html"), "utf8"))).toMatch(sentence);
    for (const other of ["kem-21", "kem-02"]) expect(page(store, other, "html")).not.toMatch(/unconfined/);
  });
});
