// Section 4's instruction counts (the instructions step): a store with instructions records for one instance of
// kem-22 shows them in their own table labelled "instructions (valgrind)" — the whole count per call, the calls
// counted, a failed record as FAILED with its reason, "not measured" for the other instances — with the note
// saying what is counted (never cycles); a page whose algorithm has no such record shows no such table.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { recordPath } from "@ngcc-perf/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatInstructions } from "./sections/instructions.ts";
import { renderSite } from "./site.ts";
import { miniStore, writeJson } from "./test-store.ts";

const tmp = mkdtempSync(join(tmpdir(), "ngcc-report-instructions-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const root = join(tmp, "store");
const out = join(tmp, "out");
const page = (rel: string) => readFileSync(join(out, "site", rel), "utf8");

function record(operation: string, ok: boolean) {
  const base = {
    kind: "instructions",
    schemaVersion: 1,
    provenance: {
      origin: "measured",
      tool: { name: "ngcc-perf", version: "0.1.0" },
      createdAt: "2026-12-01T00:00:00Z",
    },
    system: "arm_1",
    algorithmId: "kem-22",
    instance: "Mithril-128",
    implementation: "reference",
    buildProfile: "guide",
    operation,
  };
  return ok
    ? {
        ...base,
        status: "ok",
        tool: { name: "callgrind", version: "valgrind-3.19.0" },
        calls: 16,
        warmupCalls: 1,
        chunks: 1,
        collectedIr: 14_183_960,
        baselineIr: 10,
        instructionsPerCall: 886_496.875,
      }
    : { ...base, status: "failed", failure: { reason: "crash", message: "killed by SIGILL" } };
}

beforeAll(async () => {
  miniStore(root, ["kem-22", "kex-06"]);
  for (const [op, ok] of [
    ["keygen", true],
    ["dec", false],
  ] as const) {
    const key = {
      system: "arm_1",
      algorithmId: "kem-22",
      instance: "Mithril-128",
      buildProfile: "guide",
      operation: op,
    };
    writeJson(recordPath(root, { kind: "instructions", key }), record(op, ok));
  }
  await renderSite(root, { out, formats: ["md"] });
});

describe("instruction counts on the page", () => {
  it("a table of its own, labelled as instructions counted under valgrind, never cycles", () => {
    const md = page("arm_1/kem-22.md");
    expect(md).toContain("| instance | operation | instructions (valgrind) | calls counted |");
    expect(md).toContain(`| \`Mithril-128\` | keygen | ${formatInstructions(886_496.875)} | 16 |`);
    expect(formatInstructions(886_496.875)).toBe("886,497");
    expect(md).toMatch(/\| `Mithril-128` \| dec \| FAILED \(crash\): killed by SIGILL \| — \|/);
    expect(md).toMatch(/\| `Mithril-128` \| enc \| not measured \| — \|/);
    expect(md).toMatch(
      /Instructions \(valgrind\): user-mode instructions executed per call, as valgrind's callgrind \(valgrind-3\.19\.0\) counts them \(Ir\).*not cycles or time\./,
    );
  });

  it("no table where the algorithm has no instructions record", () => {
    expect(page("arm_1/kex-06.md")).not.toContain("instructions (valgrind)");
  });
});
