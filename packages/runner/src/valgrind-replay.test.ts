// The instructions and constant-time measurements on valgrind's recorded output, nothing compiled and valgrind not
// run: the replay prints what ngcc-icount and ngcc-ct printed once under callgrind and memcheck and writes the files
// valgrind wrote beside them (testdata/valgrind.recorded.json: the dumps' triggers and totals, the XML report).
// What the records make of them follows from those files alone, so it is asserted exactly.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { recordPath, validate } from "@ngcc-perf/schema";
import { afterAll, describe, expect, it } from "vitest";
import { constantTimeMeasurement } from "./constant-time.ts";
import { instructionsMeasurement } from "./instructions.ts";
import type { Replay } from "./run-context.ts";
import { recordedFacts, replayedEnv, runReplayed } from "./step/replay-kit.ts";

const tmp = mkdtempSync(join(tmpdir(), "ngcc-valgrind-replay-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const recorded = JSON.parse(readFileSync(new URL("./testdata/valgrind.recorded.json", import.meta.url), "utf8")) as {
  callgrind: { stdout: Record<string, unknown>; dumps: Array<{ file: string; trigger: string; summary: number }> };
  memcheck: { stdout: Record<string, unknown>; xml: string };
};
const repo = new URL("../../../", import.meta.url).pathname.replace(/\/$/, "");
const program = join(tmp, "recorded-program"); // underValgrind copies it into its scratch folder
writeFileSync(program, "");

const opOf = (argv: readonly string[]) => argv[argv.indexOf("--op") + 1] as string;
const line = (doc: unknown) => ({ stdout: `${JSON.stringify(doc)}\n`, exitCode: 0 });

/** callgrind over ngcc-icount: its output for the operation asked, its dumps written where it was told. */
const callgrindReplay =
  (dumps = recorded.callgrind.dumps): Replay =>
  async (argv, cwd) => {
    if (argv[0] !== "valgrind" || !cwd) throw new Error(`not replayed: ${argv.join(" ")}`);
    for (const d of dumps) writeFileSync(join(cwd, d.file), `desc: Trigger: ${d.trigger}\nsummary: ${d.summary}\n`);
    return line({ ...recorded.callgrind.stdout, op: opOf(argv) });
  };

/** memcheck over ngcc-ct: its output and its XML report, in the scratch folder it ran in. */
const memcheckReplay: Replay = async (argv, cwd) => {
  if (argv[0] !== "valgrind" || !cwd) throw new Error(`not replayed: ${argv.join(" ")}`);
  const xml = recorded.memcheck.xml.replaceAll("@REPO@", repo).replaceAll("@SCRATCH@", cwd);
  writeFileSync(join(cwd, "memcheck.xml"), xml);
  return line({ ...recorded.memcheck.stdout, op: opOf(argv) });
};

function recordsOf(out: string, kind: "instructions" | "constant-time", key: object) {
  return (operation: string) =>
    JSON.parse(readFileSync(recordPath(out, { kind, key: { ...key, operation } as never }), "utf8"));
}

describe("the instructions measurement on recorded callgrind dumps", () => {
  const run = async (name: string, replay: Replay) => {
    const out = join(tmp, name);
    const env = replayedEnv(out, replay, "valgrind-3.19.0", ["kem-90/Puffin-128"]);
    const build = async () => ({ cached: true, facts: recordedFacts, program }) as never;
    const r = await runReplayed(instructionsMeasurement, env, build);
    const summary = await r.run();
    return { summary, read: recordsOf(out, "instructions", r.units[0]?.key as object), units: r.units.length };
  };

  it("counts each call less the DRBG's share: 1,047,415 per call − 9 × (1 + 2 randombytes calls)", async () => {
    const r = await run("icount", callgrindReplay());
    expect(r.units).toBe(2); // guide and o2
    expect(r.summary).toMatchObject({ planned: 6, records: 6, failed: 0 });
    const rec = r.read("keygen");
    expect(validate("instructions", rec).errors).toEqual([]);
    // The baseline dump (144 over 16 calls) is the cost of one collection switch: 9 instructions, paid once for
    // the call and once for each of its 2 randombytes calls.
    expect(rec.perCall).toMatchObject({ min: 1_047_388, max: 1_047_388, median: 1_047_388 });
    expect(rec.perCall.instructions).toEqual(Array(16).fill(1_047_388));
    expect(rec.tool).toMatchObject({ name: "callgrind", version: "valgrind-3.19.0" });
    expect(rec.build).toEqual(recordedFacts);
  });

  it("fails the operation when a call's dump is missing, naming it", async () => {
    const partial = recorded.callgrind.dumps.filter((d) => d.trigger !== "Client Request: ngcc-call-7");
    const r = await run("icount-partial", callgrindReplay(partial));
    expect(r.summary.failed).toBe(6);
    const rec = r.read("enc");
    expect(validate("instructions", rec).errors).toEqual([]);
    expect(rec).toMatchObject({ status: "failed", failure: { reason: "error" }, build: recordedFacts });
    expect(rec.failure.message).toMatch(/no ngcc-call-7 dump/);
  });
});

describe("the constant-time measurement on a recorded memcheck report", () => {
  const run = async (name: string, triage: unknown[] = []) => {
    const out = join(tmp, name);
    const prepared = { valgrind: "valgrind-3.19.0", varlat: null, varlatReason: "not built (this test)" };
    const env = replayedEnv(out, memcheckReplay, prepared, ["sig-91/Quill-128"]);
    const config = { ...env.campaign.config, constantTime: { ...env.campaign.config.constantTime, triage } };
    const campaign = { ...env.campaign, config: config as typeof env.campaign.config };
    const levels = ["-O2", "-O3"].map((level) => ({ level, flags: [level, "-g"], program }));
    const build = async () => ({ cached: true, builds: levels, facts: recordedFacts }) as never;
    const r = await runReplayed(constantTimeMeasurement, { ...env, campaign }, build);
    const summary = await r.run();
    return { summary, read: recordsOf(out, "constant-time", r.units[0]?.key as object) };
  };

  it("reports the secret-dependent access in sign.c at both levels, open without triage", async () => {
    const r = await run("ct");
    expect(r.summary).toMatchObject({ planned: 3, records: 3, failed: 0 });
    const rec = r.read("sign");
    expect(validate("constant-time", rec).errors).toEqual([]);
    expect(rec.verdict).toBe("leaks found");
    expect(rec.levels.map((l: { level: string; verdict: string }) => [l.level, l.verdict])).toEqual([
      ["-O2", "leaks found"],
      ["-O3", "leaks found"],
    ]);
    const finding = rec.levels[0].findings[0];
    // One error, reported 256 times (the report's errorcounts): an address computed from secret-derived indices.
    expect(finding).toMatchObject({ kind: "UninitValue", status: "open", count: 256 });
    expect(rec.levels[0].errorsReported).toBe(256);
    expect(finding.location).toMatchObject({ file: "Reference_Implementation/common/sign.c", line: 198 });
    // Stock memcheck's kinds are the branch/index check's; the variable-latency check did not run, with the reason.
    expect(finding.check).toBe("branch/index");
    expect(rec.checks).toEqual({
      branchIndex: { status: "open", open: 2, accepted: 0 },
      variableLatency: { status: "not run", open: 0, accepted: 0, reason: "not built (this test)" },
    });
    expect(rec.tool.options).not.toContain("--variable-latency-errors=yes");
  });

  it("accepts the finding the campaign's triage names, with its reason, and passes", async () => {
    const reason = "the recorded finding, accepted for this test";
    const r = await run("ct-triaged", [{ file: "Reference_Implementation/common/sign.c", line: 198, reason }]);
    const rec = r.read("sign");
    expect(rec.verdict).toBe("pass");
    expect(rec.levels[1].findings[0]).toMatchObject({ status: "accepted", reason });
    expect(rec.checks.branchIndex).toEqual({ status: "accepted", open: 0, accepted: 2 });
  });

  it("a triage entry of the other check does not accept the finding", async () => {
    const entry = { file: "Reference_Implementation/common/sign.c", line: 198, check: "variable latency", reason: "x" };
    const rec = (await run("ct-other-check", [entry])).read("sign");
    expect(rec.verdict).toBe("leaks found");
    expect(rec.checks.branchIndex.status).toBe("open");
  });
});
