// A measurement's records built from recorded driver output, no C compiled: the campaign's run context replays
// what the memory executable printed once (driver-output.recorded.json) and the measurement's build is replaced by
// a recorded one. What instanceStep adds (header, inputs hash, failure records with the build facts, the KAT gate)
// and what the memory measurement makes of the output (maxima, distributions, limits) are asserted exactly.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { recordPath, validate } from "@ngcc-perf/schema";
import { afterAll, describe, expect, it } from "vitest";
import { memoryMeasurement } from "../memory.ts";
import type { Replay } from "../run-context.ts";
import { recordedFacts as facts, recordedOutput, replayedEnv, runReplayed } from "./replay-kit.ts";

const tmp = mkdtempSync(join(tmpdir(), "ngcc-measurement-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const recorded = recordedOutput("driver-output");

/** The memory executable as it printed once, for the operation and input count the command asks for. */
const memoryReplay =
  (forge: (op: string, out: Record<string, unknown>) => Record<string, unknown> = (_op, o) => o): Replay =>
  async (argv) => {
    const arg = (name: string) => argv[argv.indexOf(name) + 1] as string;
    const out = {
      ...recorded["driver-memory"],
      op: arg("--op"),
      inputs: { count: 3, asked: Number(arg("--inputs")), limitedBy: "time-limit", source: "kat-seeds" },
    };
    return { stdout: `${JSON.stringify(forge(arg("--op"), out))}\n`, exitCode: 0 };
  };

/** The memory step over sig-91 of the demo campaign, every process replayed, the build a recorded one. */
async function run(name: string, replay: Replay, kat?: string) {
  const out = join(tmp, name);
  const env = replayedEnv(out, replay, undefined, ["sig-91"], kat !== undefined);
  const r = await runReplayed(
    { ...memoryMeasurement, katGate: true },
    env,
    async () =>
      ({
        cached: true,
        facts,
        driver: facts.artifact,
      }) as never,
  );
  const { units } = r;
  if (kat) {
    for (const u of units) {
      const path = recordPath(out, { kind: "kat", key: u.key as never });
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, JSON.stringify({ verdict: kat, outcome: "output-differs" }));
    }
  }
  const summary = await r.run();
  const read = (profile: string, operation: string) => {
    const key = { ...(units[0]?.key as object), buildProfile: profile, operation } as never;
    return JSON.parse(readFileSync(recordPath(out, { kind: "memory", key }), "utf8"));
  };
  return { summary, read, units: units.length, profiles: [...new Set(units.map((u) => u.key.buildProfile))] };
}

describe("a measurement on recorded driver output", () => {
  it("writes a valid record per operation: the header, the inputs hash and the memory figures", async () => {
    const r = await run("ok", memoryReplay());
    expect(r.summary).toMatchObject({ planned: 3 * r.units, records: 3 * r.units, failed: 0 });
    const rec = r.read(r.profiles[0] as string, "sign");
    expect(validate("memory", rec).errors).toEqual([]);
    expect(rec).toMatchObject({
      kind: "memory",
      status: "ok",
      algorithmId: "sig-91",
      buildProfile: r.profiles[0],
      operation: "sign",
      build: facts,
      stackBytes: 14040,
      stackBaselineBytes: 32,
      heapPeakBytes: 0,
      distribution: { stackBytes: { min: 14040, median: 14040, max: 14040, maxInput: 0 } },
      inputs: { count: 3, asked: 100, limitedBy: "time-limit", source: "kat-seeds" },
    });
    expect(rec.inputsHash).toMatch(/^[0-9a-f]{64}$/);
    expect(rec.limits).toEqual([
      "3 of 100 inputs: the run stopped at its time limit (a quarter of the operation timeout)",
    ]);
    expect(rec.commands[0].argv).toEqual(expect.arrayContaining(["memory", "--op", "sign", "--measure", "highwater"]));
  });

  it("makes a forged output a failure record of that operation alone, with the build facts and the command", async () => {
    const forged = memoryReplay((op, o) => (op === "verify" ? { ...o, stackBytes: "14040" } : o));
    const r = await run("forged", forged);
    expect(r.summary.failed).toBe(r.units);
    const rec = r.read(r.profiles[0] as string, "verify");
    expect(validate("memory", rec).errors).toEqual([]);
    expect(rec).toMatchObject({ status: "failed", failure: { reason: "driver-output" }, build: facts });
    expect(rec.failure.message).toMatch(/\/stackBytes/);
    expect(rec.commands[0].argv).toEqual(expect.arrayContaining(["--op", "verify"]));
    expect(r.read(r.profiles[0] as string, "sign").status).toBe("ok");
  });

  it("gates on the KAT: a failed KAT is a failure record of every operation, nothing run", async () => {
    let ran = 0;
    const counting: Replay = async (argv, cwd) => {
      if (argv[0] === facts.artifact) ran++;
      return memoryReplay()(argv, cwd);
    };
    const r = await run("gated", counting, "FAIL");
    expect(ran).toBe(0);
    expect(r.summary.failed).toBe(3 * r.units);
    expect(r.read(r.profiles[0] as string, "keygen")).toMatchObject({
      status: "failed",
      failure: { reason: "kat-failed" },
    });
  });
});
