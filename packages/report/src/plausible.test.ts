// A timing figure that failed a cross-check (the time step's plausibility block, or cycles per instruction against
// the instructions record the store holds, checked when the page is made) is shown marked beside the figure — in
// section 4's table, on the system's index and in the summary — said why under the table, and left out of the
// time chart; a figure that passed is shown as before.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatTime } from "./format.ts";
import { NOT_PLAUSIBLE } from "./plausible.ts";
import { renderSite } from "./site.ts";
import { miniStore, readJson, recordAt, stepRecordBase, writeJson, writeStepRecord } from "./test-store.ts";

const tmp = mkdtempSync(join(tmpdir(), "ngcc-report-plausible-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const root = join(tmp, "store");
const out = join(tmp, "out");
const page = (rel: string) => readFileSync(join(out, "site", rel), "utf8");

/** An instructions record of Mithril-128 (its seed timing: 271,600 core cycles per keygen). */
function counted(operation: string, instructionsPerCall: number) {
  return {
    ...stepRecordBase("instructions", operation),
    status: "ok",
    tool: { name: "callgrind", version: "valgrind-3.19.0" },
    calls: 16,
    warmupCalls: 1,
    chunks: 1,
    collectedIr: Math.round(instructionsPerCall * 16) + 10,
    baselineIr: 10,
    instructionsPerCall,
  };
}

beforeAll(async () => {
  miniStore(root, ["kem-22"]);
  // keygen: 271,600 cycles over 10 million instructions = 0.027 cycles per instruction (flagged at page time).
  writeStepRecord(root, counted("keygen", 10_000_000));
  // enc: a plausible count.
  const enc = readJson(recordAt(root, "timing", { algorithmId: "kem-22", instance: "Mithril-128", operation: "enc" }));
  writeStepRecord(root, counted("enc", enc.aggregates.meanCounter / 0.5));
  // dec: the record's own cross-check flagged (a worker's samples longer than the runner's clock over it).
  const decPath = recordAt(root, "timing", { algorithmId: "kem-22", instance: "Mithril-128", operation: "dec" });
  const dec = readJson(decPath);
  dec.plausibility = {
    verdict: "flagged",
    checks: [
      {
        check: "runner-clock",
        outcome: "flagged",
        message:
          "worker 1: its samples add up to 40.0 ms, more than the runner's clock over its whole process (3.00 ms)",
      },
      { check: "requested-duration", outcome: "pass", message: "fine" },
    ],
  };
  writeJson(decPath, dec);
  await renderSite(root, { out, formats: ["md"] });
});

describe("figures that failed a cross-check", () => {
  it("are marked beside the figure in section 4, with why under the table", () => {
    const md = page("arm_1/kem-22.md");
    const row = (op: string) => md.split("\n").find((l) => l.startsWith(`| \`Mithril-128\` | ${op} |`)) ?? "";
    expect(row("keygen")).toContain(NOT_PLAUSIBLE);
    expect(row("dec")).toContain(NOT_PLAUSIBLE);
    expect(row("enc")).not.toContain(NOT_PLAUSIBLE);
    expect(md.split("\n").find((l) => l.startsWith("| `Mithril-256` | keygen |"))).not.toContain(NOT_PLAUSIBLE);
    expect(md).toMatch(/⚠ not plausible \(2 rows\): the figure failed a cross-check/);
    expect(md).toMatch(
      /Mithril-128 keygen: cycles-per-instruction — 271,600 core cycles per call over 10,000,000 instructions per call counted under valgrind: 0\.027 cycles per instruction, below the plausible 0\.1–8/,
    );
    expect(md).toMatch(/Mithril-128 dec: runner-clock — worker 1: its samples add up to 40\.0 ms/);
    expect(md).not.toMatch(/Mithril-128 enc: /);
  });

  it("are marked on the system's index and in the summary", () => {
    const index = page("arm_1/index.md");
    expect(index).toMatch(/keygen [^,]*\(⚠ not plausible\)/);
    const summary = page("arm_1/summary.md");
    const rows = summary.split("\n").filter((l) => l.includes("`Mithril-128`"));
    expect(rows.find((l) => l.includes("| keygen |"))).toContain(NOT_PLAUSIBLE);
    expect(rows.find((l) => l.includes("| enc |"))).not.toContain(NOT_PLAUSIBLE);
  });

  it("are counted on the method page, which says what in-process timing cannot prevent", () => {
    const md = page("arm_1/method.md");
    expect(md).toMatch(/## Plausibility/);
    expect(md).toMatch(/1 of \d+ timing records carry these checks; 2 failed one and are marked ⚠ not plausible/);
    expect(md).toMatch(/What in-process timing cannot prevent: the submission's code can interpose/);
  });

  it("are left out of the time chart", () => {
    const svg = readFileSync(join(out, "site", "arm_1", "img", "kem-22-time.svg"), "utf8");
    const mean = (op: string) =>
      formatTime(
        readJson(recordAt(root, "timing", { algorithmId: "kem-22", instance: "Mithril-128", operation: op })).aggregates
          .meanNs,
      );
    // Each bar's figure is written after it.
    expect(svg).toContain(`>${mean("enc")}</text>`);
    expect(svg).not.toContain(`>${mean("keygen")}</text>`);
    expect(svg).not.toContain(`>${mean("dec")}</text>`);
  });
});
