// The profile step gated on the KAT verdict like timing (issue 14): no shares for an instance whose KAT failed,
// the record says why and blames the right cause — the submission's corrupt KAT file, the implementation's
// output, or the profiler's wrappers — and a CRLF .rsp (which the kat step tolerates) is no failure. Real builds of
// kem-90 copies; shares are never asserted, only whether there are any.
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type HashProfileRecord, recordPath, validateFile } from "@ngcc-perf/schema";
import { afterAll, describe, expect, it } from "vitest";
import {
  copySubmission,
  flipRspByte,
  iccsDir,
  loadSubmission,
  makeTempDir,
  runCliAsync,
  submissionsDir,
  writeManifest,
} from "./fixture-tools.ts";

const work = makeTempDir("ngcc-profile-gate-");
afterAll(() => rmSync(work, { recursive: true, force: true }));

const RSP = "KAT/Puffin-128/PQCkemKAT_1632.rsp";
const QUICK = [
  "timing: { trials: 2, minIterations: 3, targetTrialMs: 1, warmupMs: 1, workerMs: 2, minWorkers: 2, budgetMs: 20 }",
];

/** A campaign over kem-90 copies (id → folder), Puffin-128 only. */
function campaign(name: string, subs: Record<string, string>): string {
  const file = join(work, `${name}.yaml`);
  writeFileSync(
    file,
    [
      `name: ${name}`,
      "system: test_1",
      ...QUICK,
      `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
      "buildProfiles: { quick: { cflags: [-O2] } }",
      "algorithms:",
      ...Object.entries(subs).map(
        ([id, dir]) => `  - { id: ${id}, source: { submission: ${JSON.stringify(dir)} }, instances: [Puffin-128] }`,
      ),
    ].join("\n"),
  );
  return file;
}

/** A kem-90 copy under work/<name> whose Puffin-128 .rsp is edited; the manifest rewritten to match. */
function withRsp(name: string, edit: (text: string) => string): string {
  const sub = copySubmission("kem-90", join(work, name));
  const file = join(sub.dir, RSP);
  writeFileSync(file, edit(readFileSync(file, "utf8")));
  writeManifest(loadSubmission(sub.dir));
  return sub.dir;
}

const OPS = ["keygen", "enc", "dec"] as const;
function profiles(out: string, algorithmId: string): HashProfileRecord[] {
  return OPS.map((operation) => {
    const key = { system: "test_1", algorithmId, instance: "Puffin-128", buildProfile: "quick", operation };
    const file = recordPath(out, { kind: "hash-profile", key });
    expect(validateFile(file).errors).toEqual([]);
    return JSON.parse(readFileSync(file, "utf8")) as HashProfileRecord;
  });
}

/** Every operation failed as kat-failed, with no shares, its message matching `why`. */
function expectGated(records: HashProfileRecord[], why: RegExp) {
  for (const r of records) {
    expect(r.status, r.operation).toBe("failed");
    expect(r.failure?.reason).toBe("kat-failed");
    expect(r.failure?.message).toMatch(why);
    expect(r.groups).toBeUndefined();
    expect(r.calls).toBeUndefined();
  }
}

describe("the profile step and the KAT verdict", () => {
  it("run kat,profile: a corrupt KAT file and an implementation's mismatch are not profiled, each blamed rightly", async () => {
    // Entry 4 numbered 5: a corrupt file, the submission's fault.
    const corrupt = withRsp("corrupt", (t) => t.replace("\ncount = 4\n", "\ncount = 5\n"));
    // A flipped byte in a well-formed file: what the kat step can only see as the implementation's output differing.
    const flipped = withRsp("flipped", (t) => flipRspByte(t, 37, "ct"));
    const file = campaign("gate", { "kem-corrupt": corrupt, "kem-flip": flipped });
    const out = join(work, "out-gate");
    const r = await runCliAsync(["run", file, "--out", out, "--steps", "kat,profile"], { timeoutMs: 300_000 });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at .+:\d+:\d+\)/);
    expectGated(
      profiles(out, "kem-corrupt"),
      /^not measured: its KAT verdict is FAIL — the submitted KAT file is corrupt \(kem-corrupt\/KAT\/Puffin-128\/PQCkemKAT_1632\.rsp:31: count = 5 out of order; expected count = 4\): the submission's fault, not the implementation's \(see the KAT log kat\/kem-corrupt\/quick\/Puffin-128\.log\)$/,
    );
    expectGated(
      profiles(out, "kem-flip"),
      /^not measured: its KAT verdict is FAIL — the implementation's output differs from its KAT \(first at count 37, field ct\)/,
    );
    expect(r.stderr).toMatch(/kem-corrupt\/Puffin-128 .*\n.*the submitted KAT file is corrupt/);
  }, 300_000);

  it("profile alone, no KAT record: a failing profiled KAT check publishes no shares and blames the instance, not the wrappers", async () => {
    const flipped = withRsp("flipped-alone", (t) => flipRspByte(t, 3, "ss"));
    const out = join(work, "out-alone");
    const r = await runCliAsync(["profile", campaign("alone", { "kem-flip": flipped }), "--out", out], {
      timeoutMs: 300_000,
    });
    expect(r.code, r.stderr).toBe(1);
    const records = profiles(out, "kem-flip");
    expectGated(
      records,
      /^profiled KAT build: FAIL: the KAT generator's output differs from KAT\/Puffin-128\/PQCkemKAT_1632\.rsp with and without the profiler's wrappers: the instance does not reproduce its KAT .*not the wrappers$/,
    );
    for (const rec of records) expect(rec.katCheck).toMatchObject({ verdict: "FAIL" });
  }, 300_000);

  it("a CRLF .rsp, which the kat step tolerates, passes the profiled KAT check: shares published", async () => {
    const crlf = join(work, "crlf");
    cpSync(join(submissionsDir, "kem-90"), crlf, { recursive: true });
    const file = join(crlf, RSP);
    writeFileSync(file, readFileSync(file, "utf8").replace(/\n/g, "\r\n"));
    writeManifest(loadSubmission(crlf));
    const out = join(work, "out-crlf");
    const r = await runCliAsync(
      ["run", campaign("crlf", { "kem-crlf": crlf }), "--out", out, "--steps", "kat,profile"],
      {
        timeoutMs: 300_000,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    for (const rec of profiles(out, "kem-crlf")) {
      expect(rec.status, rec.failure?.message).toBe("ok");
      expect(rec.katCheck).toMatchObject({ verdict: "PASS" });
      expect(rec.groups?.length).toBeGreaterThan(0);
    }
  }, 300_000);
});
