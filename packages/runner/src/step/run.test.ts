// The step runner with a step that runs no C: planning, selection, shards, resume, failure records, progress.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type InstanceKey, recordPath } from "@ngcc-perf/schema";
import { afterAll, describe, expect, it } from "vitest";
import { type Failure, type Job, runStep, type StepDefinition, type Unit } from "./run.ts";
import type { ProgressEvent } from "./types.ts";

const tmp = mkdtempSync(join(tmpdir(), "ngcc-step-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

class Broken extends Error {}

interface Work {
  /** What run does: "ok", throw a known error, throw an unknown one, or forget a record. */
  mode: "ok" | "known" | "bug" | "forget" | "fail-record";
  hash: string;
}

function unit(instance: string, buildProfile: string, mode: Work["mode"] = "ok", hash = "h1"): Unit<Work> {
  const key: InstanceKey = { system: "t_1", algorithmId: "kem-1", instance, buildProfile };
  return {
    key,
    profile: { name: buildProfile, cflags: ["-O2"], ldflags: [] },
    names: [`kem-1/${instance}`, instance, "kem-1"],
    jobs: ["keygen", "enc", "dec"].map(
      (operation): Job => ({ operation, entry: { kind: "timing", key: { ...key, operation } }, inputsHash: hash }),
    ),
    work: { mode, hash },
  };
}

function step(
  units: Array<Unit<Work>>,
  runs: string[],
  gate?: (u: Unit<Work>) => Failure | null,
): StepDefinition<Work> {
  return {
    name: "time",
    plan: () => units,
    gate,
    failureOf: (err) => (err instanceof Broken ? { reason: "compile-error", message: err.message } : null),
    outcomeOf: (r) => {
      const rec = r as { status: string; failure?: { reason: string; message: string } };
      return rec.status === "ok" ? null : (rec.failure ?? { reason: "error", message: "" });
    },
    failureRecord: (_u, job, f) => ({ status: "failed", failure: f, inputsHash: job.inputsHash, op: job.operation }),
    run: async (u, pending, ctx) => {
      runs.push(`${u.key.buildProfile}/${"instance" in u.key ? u.key.instance : ""}`);
      for (const job of pending) {
        if (u.work.mode === "known") throw new Broken("does not compile");
        if (u.work.mode === "bug") throw new TypeError("a bug");
        if (u.work.mode === "forget" && job.operation === "dec") return;
        ctx.write(
          job,
          u.work.mode === "fail-record" && job.operation === "enc"
            ? { status: "failed", failure: { reason: "crash", message: "SIGSEGV" } }
            : { status: "ok", inputsHash: job.inputsHash },
        );
      }
    },
  };
}

const read = (out: string, u: Unit<Work>, op: string) =>
  JSON.parse(
    readFileSync(recordPath(out, { kind: "timing", key: { ...(u.key as InstanceKey), operation: op } }), "utf8"),
  );

describe("runStep", () => {
  it("plans every job before the first one runs and reports exactly that many", async () => {
    const out = join(tmp, "a");
    const events: ProgressEvent[] = [];
    const units = [unit("A", "o0"), unit("A", "o3"), unit("B", "o3", "fail-record")];
    const s = await runStep(step(units, []), { out, onProgress: (e) => events.push(e) });
    expect(events[0]).toEqual({ type: "plan", step: "time", total: 9, units: 3 });
    const jobs = events.filter((e) => e.type === "job");
    expect(jobs).toHaveLength(9);
    expect(jobs.map((e) => (e.type === "job" ? e.done : 0))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(s).toMatchObject({ planned: 9, records: 8, failed: 1, skipped: 0 });
    expect(s.failures).toEqual([
      {
        algorithmId: "kem-1",
        instance: "B",
        buildProfile: "o3",
        operation: "enc",
        reason: "crash",
        message: "SIGSEGV",
      },
    ]);
    // Both profiles of A have their own records.
    expect(read(out, units[0] as Unit<Work>, "enc").status).toBe("ok");
    expect(read(out, units[1] as Unit<Work>, "enc").status).toBe("ok");
  });

  it("skips current records on --resume and redoes changed or failed ones", async () => {
    const out = join(tmp, "b");
    await runStep(step([unit("A", "o3"), unit("B", "o3", "fail-record")], []), { out });
    const runs: string[] = [];
    const s = await runStep(step([unit("A", "o3"), unit("B", "o3"), unit("C", "o3", "ok", "h2")], runs), {
      out,
      resume: true,
    });
    // A is current (skipped whole, not run); B's failed enc is redone; C is new.
    expect(runs).toEqual(["o3/B", "o3/C"]);
    expect(s).toMatchObject({ planned: 9, records: 4, failed: 0, skipped: 5 });
    const changed: string[] = [];
    const again = await runStep(step([unit("A", "o3", "ok", "h9")], changed), { out, resume: true });
    expect(changed).toEqual(["o3/A"]);
    expect(again).toMatchObject({ records: 3, skipped: 0 });
  });

  it("turns a known error into failure records for the unit's remaining jobs and goes on", async () => {
    const out = join(tmp, "c");
    const units = [unit("A", "o3", "known"), unit("B", "o3")];
    const s = await runStep(step(units, []), { out });
    expect(s).toMatchObject({ planned: 6, records: 3, failed: 3 });
    expect(read(out, units[0] as Unit<Work>, "dec")).toMatchObject({
      status: "failed",
      failure: { reason: "compile-error", message: "does not compile" },
      inputsHash: "h1",
    });
  });

  it("gates a unit: every job gets the gate's failure record, run is not called", async () => {
    const out = join(tmp, "d");
    const runs: string[] = [];
    const gate = (u: Unit<Work>) =>
      "instance" in u.key && u.key.instance === "A" ? { reason: "kat-failed", message: "KAT FAIL" } : null;
    const s = await runStep(step([unit("A", "o3"), unit("B", "o3")], runs, gate), { out });
    expect(runs).toEqual(["o3/B"]);
    expect(s).toMatchObject({ records: 3, failed: 3 });
    expect(read(out, unit("A", "o3"), "keygen").failure.reason).toBe("kat-failed");
    // A record current for its inputs does not stand once the gate closes (e.g. the KAT now fails).
    const again = await runStep(
      step([unit("B", "o3")], [], () => ({ reason: "kat-failed", message: "now" })),
      {
        out,
        resume: true,
      },
    );
    expect(again).toMatchObject({ skipped: 0, failed: 3 });
    expect(read(out, unit("B", "o3"), "enc").failure.message).toBe("now");
  });

  it("lets an internal error through and refuses a unit that ends without its records", async () => {
    await expect(runStep(step([unit("A", "o3", "bug")], []), { out: join(tmp, "e") })).rejects.toThrow(TypeError);
    await expect(runStep(step([unit("A", "o3", "forget")], []), { out: join(tmp, "f") })).rejects.toThrow(
      /ended without a record for dec/,
    );
  });

  it("selects by --only and splits units into disjoint shards that cover the plan", async () => {
    const units = ["A", "B", "C", "D", "E", "F"].flatMap((i) => [unit(i, "o0"), unit(i, "o3")]);
    const only = await runStep(step(units, []), { out: join(tmp, "g"), only: ["kem-1/B"] });
    expect(only.planned).toBe(6);
    const seen: string[][] = [];
    for (const index of [1, 2, 3]) {
      const runs: string[] = [];
      await runStep(step(units, runs), { out: join(tmp, `s${index}`), shard: { index, count: 3 } });
      seen.push(runs);
    }
    const all = seen.flat().sort();
    expect(all).toEqual(units.map((u) => `${u.key.buildProfile}/${(u.key as InstanceKey).instance}`).sort());
    expect(new Set(all).size).toBe(all.length);
    expect(existsSync(join(tmp, "s1", "data", "t_1"))).toBe(seen[0]?.length !== 0);
  });
});
