// End to end, with real builds (issue 24, classes 9 and 11): a shipped .rsp whose entries agree byte for byte but
// whose first comment line differs (a package's own PQCgenKAT heads it `# ML-KEM-768` where ngcc-perf writes the
// instance name) is a PASS with a warning — in the record, the KAT log, on the console and in section 3 — while an
// entry that differs is still a FAIL naming the entry and field; a .rsp the manifest lists that no instance uses is
// said; the manifest is named by its real path (kem-90/KAT/kat.sha256); and a KAT build that fails shows its file
// from the submission, never from the temporary folder, on the page.
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type KatRecord, recordPath } from "@ngcc-perf/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  copySubmission,
  iccsDir,
  makeTempDir,
  runCliAsync,
  type Submission,
  sha256Hex,
  writeManifest,
} from "./fixture-tools.ts";

const dir = makeTempDir("ngcc-kat-outside-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Lines of entry k of a kem .rsp (header, empty line, then 7 lines per entry). */
const line = (k: number, field: "count" | "ct") => 3 + 7 * k + (field === "count" ? 0 : 4);

function editRsp(sub: Submission, instance: string, edit: (lines: string[]) => string[]): void {
  const file = join(sub.dir, sub.meta.instances.find((i) => i.name === instance)?.kat.file ?? "missing");
  writeFileSync(file, edit(readFileSync(file, "utf8").split("\n")).join("\n"));
}

let run: Awaited<ReturnType<typeof runCliAsync>>;
const out = join(dir, "out");

function kat(instance: string): KatRecord {
  const key = { system: "test_1", algorithmId: "kem-90", instance, buildProfile: "quick" };
  return JSON.parse(readFileSync(recordPath(out, { kind: "kat", key }), "utf8")) as KatRecord;
}

beforeAll(async () => {
  const sub = copySubmission("kem-90", dir);
  // Puffin-128: only the header differs. Puffin-192: entry 5's ct differs (one hex digit).
  editRsp(sub, "Puffin-128", (l) => l.map((s, i) => (i === 0 ? "# ML-KEM-768" : s)));
  editRsp(sub, "Puffin-192", (l) =>
    l.map((s, i) => (i === line(5, "ct") - 1 ? `${s.slice(0, -1)}${s.endsWith("0") ? "1" : "0"}` : s)),
  );
  // Puffin-256: its KAT build stops at an #error in its own api.h (its KAT defines switch it on).
  const api = join(sub.dir, "Reference_Implementation/Puffin-256/api.h");
  writeFileSync(
    api,
    readFileSync(api, "utf8").replace(
      "#define CRYPTO_BYTES",
      "#ifdef KAT_BREAK\n#error broken on purpose\n#endif\n#define CRYPTO_BYTES",
    ),
  );
  const meta = JSON.parse(readFileSync(join(sub.dir, "meta.json"), "utf8"));
  for (const i of meta.instances) if (i.name === "Puffin-256") i.kat.defines = ["KAT_BREAK"];
  writeFileSync(join(sub.dir, "meta.json"), JSON.stringify(meta, null, 2));
  // The manifest matches every shipped file, and lists one more that no instance uses.
  const manifest = writeManifest(sub);
  const extra = join(sub.dir, "KAT/Puffin-512/PQCkemKAT_6400.rsp");
  mkdirSync(join(sub.dir, "KAT/Puffin-512"), { recursive: true });
  writeFileSync(extra, readFileSync(join(sub.dir, "KAT/Puffin-256/PQCkemKAT_3168.rsp")));
  appendFileSync(manifest, `${sha256Hex(readFileSync(extra))}  Puffin-512/PQCkemKAT_6400.rsp\n`);
  writeFileSync(
    join(dir, "campaign.yaml"),
    [
      "name: outside-entries",
      "system: test_1",
      `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
      "buildProfiles: { quick: { cflags: [-O2] } }",
      "timing: { trials: 3, minIterations: 5, targetTrialMs: 1, warmupMs: 1, workerMs: 2, minWorkers: 2, budgetMs: 20 }",
      "algorithms:",
      `  - { id: kem-90, source: { submission: ${JSON.stringify(sub.dir)} }, instances: [Puffin-128, Puffin-192, Puffin-256] }`,
    ].join("\n"),
  );
  run = await runCliAsync(["run", join(dir, "campaign.yaml"), "--out", out, "--steps", "build,kat,time,report"], {
    timeoutMs: 300_000,
  });
}, 320_000);

describe("a .rsp that differs only in its header line, through ngcc-perf run --steps build,kat,time,report", () => {
  const header = `KAT/Puffin-128/PQCkemKAT_1632.rsp differs from the generated file only outside its entries (every entry agrees byte for byte): line 1: "# ML-KEM-768", generated "# Puffin-128"`;
  const unused = `kem-90/KAT/kat.sha256 lists Puffin-512/PQCkemKAT_6400.rsp, not used by any instance (no instance's kat.file in meta.json names it)`;

  it("is a PASS with the difference recorded and warned of in the log and on the console", () => {
    expect(run.code, run.stderr).toBe(1); // Puffin-192 and Puffin-256 fail
    const r = kat("Puffin-128");
    expect(r.verdict).toBe("PASS");
    expect(r.outcome).toBe("match");
    expect(r.manifest).toMatchObject({ path: "kem-90/KAT/kat.sha256", status: "ok" });
    expect(r.warnings).toEqual([unused, header]);
    const log = readFileSync(join(out, "data/test_1", String(r.log.path)), "utf8");
    expect(log).toContain(`warning: ${header}`);
    expect(run.stderr).toContain(`kem-90/Puffin-128: KAT [quick] warning: ${header}`);
    // The unused file is said once on the console, though every instance's record holds it.
    expect(run.stderr.split(unused).length - 1).toBe(1);
    expect(kat("Puffin-192").warnings).toContain(unused);
  });

  it("does not block timing: the instance is timed, the failing ones are not", () => {
    const timing = (instance: string, op: string) =>
      JSON.parse(readFileSync(join(out, "data/test_1/records/kem-90/quick", `${instance}__${op}.json`), "utf8"));
    for (const op of ["keygen", "enc", "dec"]) {
      expect(timing("Puffin-128", op).status).toBe("ok");
      expect(timing("Puffin-192", op).failure.reason).toBe("kat-failed");
    }
  });

  it("an entry that differs is still a FAIL naming the entry and the field", () => {
    const r = kat("Puffin-192");
    expect(r.verdict).toBe("FAIL");
    expect(r.outcome).toBe("output-differs");
    expect(r.diagnosis).toMatchObject({ firstCount: 5, field: "ct", differingEntries: 1 });
    expect(run.stderr).toMatch(
      /kem-90\/Puffin-192 kat \[quick\][^\n]*\n\s+FAIL: KAT mismatch: first difference at count = 5, field ct/,
    );
  });

  it("a KAT build that fails names its file from the submission in the record and on the page", () => {
    const r = kat("Puffin-256");
    expect(r.verdict).toBe("ERROR");
    expect(r.error?.reason).toBe("compile-error");
    expect(r.error?.message).toMatch(
      /kem-90\/Reference_Implementation\/Puffin-256\/api\.h:\d+:\d+: error: #error broken on purpose/,
    );
    expect(r.error?.message).not.toContain(dir);
  });

  it("section 3 shows the PASS with its warning, the unused file, the manifest's path and no temporary path", () => {
    const page = readFileSync(join(out, "site/test_1/kem-90.md"), "utf8");
    expect(page).toMatch(/\| `Puffin-128` \| quick \| PASS, with a warning \(below the table\) \|/);
    expect(page).toContain("SHA-256 manifest kem-90/KAT/kat.sha256 of the submission");
    // Markdown escapes the '#'.
    expect(page).toContain(`Warning, Puffin-128 (quick): ${header.replace(/"#/g, '"\\#')}.`);
    expect(page).toContain(`Warning: ${unused}.`);
    expect(page).toMatch(
      /\| `Puffin-192` \| quick \| FAIL: first difference at count 5, field ct \(1 differing entry\) \|/,
    );
    expect(page).toMatch(
      /\| `Puffin-256` \| quick \| ERROR \(compile-error\): [^|]*kem-90\/Reference_Implementation\/Puffin-256\/api\.h:\d+/,
    );
    for (const f of ["site/test_1/kem-90.md", "site/test_1/kem-90.html"]) {
      expect(readFileSync(join(out, f), "utf8")).not.toContain(dir);
    }
  });
});
