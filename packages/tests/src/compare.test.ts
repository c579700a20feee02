// End to end: `ngcc-perf compare` over real timing stores of the fixture kem-90 (docs/report.md, "Comparing
// stores"): a store compared with itself, a copy whose encapsulation does its encryption twice (about twice as
// slow: far beyond the noise band, so noise cannot flip the verdict), one-sided measurements and bad input.
// Asserts verdicts and exit codes, never timings. Also the progress lines of `time`, which print each figure.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixturesDir, iccsDir, makeTempDir, runCli, submissionsDir } from "./fixture-tools.ts";

const tmp = makeTempDir("ngcc-compare-");
afterAll(() => {
  if (!process.env.KEEP) rmSync(tmp, { recursive: true, force: true });
  else console.log("kept", tmp);
});

const TIMING = "{ workerMs: 10, minWorkers: 4, budgetMs: 800 }";

function campaign(name: string, submission: string): string {
  const file = join(tmp, `${name}.yaml`);
  writeFileSync(
    file,
    [
      `name: ${name}`,
      "system: test_1",
      `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
      `timing: ${TIMING}`,
      "algorithms:",
      `  - { id: kem-90, instances: [Puffin-128], source: { submission: ${JSON.stringify(submission)} } }`,
    ].join("\n"),
  );
  return file;
}

/** kem-90 whose crypto_kem_enc runs its encryption once more into a scratch buffer: enc alone slower. */
function slowerEnc(): string {
  const dir = join(tmp, "slow", "kem-90");
  cpSync(join(submissionsDir, "kem-90"), dir, { recursive: true });
  const file = join(dir, "Reference_Implementation", "common", "kem.c");
  const anchor = "    puffin_pke_enc(ct, pk, buf, kr + PUFFIN_SYMBYTES);\n";
  const text = readFileSync(file, "utf8");
  expect(text.split(anchor)).toHaveLength(2);
  const extra = [
    "    {",
    "        /* deliberate slowdown (compare test): the encryption once more, into a scratch buffer */",
    "        unsigned char puffin_scratch[PUFFIN_CIPHERTEXTBYTES];",
    "        volatile unsigned char puffin_sink;",
    "        puffin_pke_enc(puffin_scratch, pk, buf, kr + PUFFIN_SYMBYTES);",
    "        puffin_sink = puffin_scratch[0];",
    "        (void)puffin_sink;",
    "    }",
    "",
  ].join("\n");
  writeFileSync(file, text.replace(anchor, anchor + extra));
  return dir;
}

const storeA = join(tmp, "a");
const storeB = join(tmp, "b");
let timeStderr = "";

interface Row {
  key: { instance: string; operation: string; buildProfile: string };
  verdict: string;
  ratio: number;
  ci95: { low: number; high: number };
}

beforeAll(() => {
  const a = runCli(["time", campaign("a", join(submissionsDir, "kem-90")), "--out", storeA]);
  expect(a.stderr).not.toMatch(/internal error/);
  expect(a.code).toBe(0);
  timeStderr = a.stderr;
  const b = runCli(["time", campaign("b", slowerEnc()), "--out", storeB]);
  expect(b.code).toBe(0);
}, 600_000);

describe("ngcc-perf time's progress lines", () => {
  it("print each published figure as it lands", () => {
    for (const op of ["keygen", "enc", "dec"])
      expect(timeStderr).toMatch(
        new RegExp(
          `^time \\[\\d/3\\] ok +kem-90/Puffin-128 ${op} \\[guide\\] (mean )?[\\d.]+ (ns|µs|ms) ±[\\d.]+ %`,
          "m",
        ),
      );
  });
});

describe("ngcc-perf compare", () => {
  it("says same everywhere for a store compared with itself, exit 0, and writes the page and the JSON", () => {
    const out = join(tmp, "self");
    const r = runCli(["compare", storeA, storeA, "--out", out]);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(0);
    const c = JSON.parse(readFileSync(join(out, "compare.json"), "utf8"));
    expect(c.timings.map((t: Row) => [t.key.operation, t.verdict])).toEqual([
      ["keygen", "same"],
      ["enc", "same"],
      ["dec", "same"],
    ]);
    expect(c.timings.every((t: Row) => t.ratio === 1 && t.ci95.low <= 1 && t.ci95.high >= 1)).toBe(true);
    expect(c.unmatched).toEqual([]);
    expect(c.regressed).toBe(false);
    expect(c.kind).toBe("comparison");
    expect(runCli(["validate", join(out, "compare.json")]).code).toBe(0);
    // The aligned table on stdout: one line per measurement, the verdict last.
    expect(r.stdout).toMatch(/^kem-90\/Puffin-128 enc \[guide\] .* same$/m);
    expect(r.stdout.split("\n").slice(0, 2)).toEqual([`A: ${storeA}`, `B: ${storeA}`]);
    // No temporary left beside the outputs.
    expect(readdirSync(out).sort()).toEqual(["compare.html", "compare.json", "compare.md"]);
    const html = readFileSync(join(out, "compare.html"), "utf8");
    expect(html).toMatch(/<table>[\s\S]*<th scope="col">verdict<\/th>[\s\S]*<\/table>/);
    // The time step counted the reference profile's instructions (they decide each operation's statistic), so
    // the counts are compared too: identical, as every count of the same code is.
    expect(c.instructions.map((x: Row) => [x.key.operation, x.verdict])).toEqual([
      ["keygen", "same"],
      ["enc", "same"],
      ["dec", "same"],
    ]);
    expect(html.match(/<tr><th scope="row">/g)).toHaveLength(6);
    expect(readFileSync(join(out, "compare.md"), "utf8")).toMatch(
      /\| `kem-90\/Puffin-128 dec \[guide\]` \|.*\| same \|/,
    );
  });

  it("reports the slowed operation slower, and only it, with exit 1 (a CI gate): on recorded stores", () => {
    // The verdict logic on recorded samples (fixtures/compare-recorded: the two stores this file's beforeAll made
    // once, kept), so that the verdict follows the code, not the load of the machine the test runs on: compare's
    // bootstrap is seeded, so the same records give the same verdicts on every run.
    const [a, b] = ["a", "b"].map((s) => join(fixturesDir, "compare-recorded", s)) as [string, string];
    const r = runCli(["compare", a, b, "--threshold", "10%", "--json"]);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(1);
    const c = JSON.parse(r.stdout);
    expect(c.threshold).toBe(0.1);
    const verdicts = Object.fromEntries(c.timings.map((t: Row) => [t.key.operation, t.verdict]));
    expect(verdicts).toEqual({ keygen: "same", enc: "slower", dec: "same" });
    expect(c.regressed).toBe(true);
    // Reversed, the same operation is faster, and nothing is slower: exit 0.
    const back = runCli(["compare", b, a, "--threshold", "10%", "--json"]);
    expect(back.code).toBe(0);
    const again = Object.fromEntries(JSON.parse(back.stdout).timings.map((t: Row) => [t.key.operation, t.verdict]));
    expect(again).toEqual({ keygen: "same", enc: "faster", dec: "same" });
  });

  it("compares the stores just measured: exit code and verdicts agree, instruction counts exactly", () => {
    // Real runs assert plumbing, not timings: whatever the load made of the times, the exit code is 1 exactly when a
    // timing is slower; the instruction counts (exact, not timed) say enc alone does more work.
    const r = runCli(["compare", storeA, storeB, "--threshold", "10%", "--json"]);
    expect(r.stderr).not.toMatch(/internal error/);
    const c = JSON.parse(r.stdout);
    expect(c.timings.map((t: Row) => t.key.operation)).toEqual(["keygen", "enc", "dec"]);
    for (const t of c.timings as Row[]) expect(["same", "faster", "slower", "not-comparable"]).toContain(t.verdict);
    const slower = c.timings.some((t: Row) => t.verdict === "slower");
    expect(c.regressed).toBe(slower);
    expect(r.code).toBe(slower ? 1 : 0);
    expect(Object.fromEntries(c.instructions.map((x: Row) => [x.key.operation, x.verdict]))).toEqual({
      keygen: "same",
      enc: "more",
      dec: "same",
    });
  });

  it("lists measurements on one side only", () => {
    const partial = join(tmp, "partial");
    cpSync(storeA, partial, { recursive: true });
    rmSync(join(partial, "data", "test_1", "records", "kem-90", "guide", "Puffin-128__dec.json"));
    expect(runCli(["index", partial]).code).toBe(0);
    const r = runCli(["compare", storeA, partial, "--json"]);
    expect(r.code).toBe(0);
    const c = JSON.parse(r.stdout);
    expect(c.timings).toHaveLength(2);
    expect(c.unmatched).toEqual([
      {
        key: {
          system: "test_1",
          algorithmId: "kem-90",
          instance: "Puffin-128",
          buildProfile: "guide",
          operation: "dec",
        },
        kind: "timing",
        where: "only-a",
        record: "records/kem-90/guide/Puffin-128__dec.json",
      },
    ]);
    const table = runCli(["compare", partial, storeA]);
    expect(table.stdout).toMatch(/^kem-90\/Puffin-128 dec \[guide\] +timing +only in B$/m);
  });

  it("refuses bad input with exit 2, naming the path or the option", () => {
    const missing = join(tmp, "no-such-store");
    const r = runCli(["compare", storeA, missing]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(missing);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const empty = join(tmp, "empty");
    mkdirSync(empty, { recursive: true });
    const e = runCli(["compare", empty, storeA]);
    expect(e.code).toBe(2);
    expect(e.stderr).toContain(`${empty}: no data/ folder`);
    expect(runCli(["compare", storeA, storeB, "--threshold", "lots"]).stderr).toMatch(/--threshold "lots"/);
    expect(runCli(["compare", storeA]).code).toBe(2);
    const p = runCli(["compare", storeA, "--profiles", "guide,o9"]);
    expect(p.code).toBe(2);
    expect(p.stderr).toContain("no timing under build profile o9");
    const out = join(tmp, "file-out");
    writeFileSync(out, "");
    expect(runCli(["compare", storeA, storeA, "--out", out]).code).toBe(2);
    expect(existsSync(join(tmp, "self-unused"))).toBe(false);
  });

  it("compares build profiles within one store", () => {
    const r = runCli(["compare", storeA, "--profiles", "guide,guide", "--json"]);
    expect(r.code).toBe(0);
    const c = JSON.parse(r.stdout);
    expect(c.a).toEqual({ store: storeA, profile: "guide" });
    expect(c.timings.map((t: Row) => t.verdict)).toEqual(["same", "same", "same"]);
  });
});
