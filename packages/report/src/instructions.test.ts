// Section 4's instruction counts (the instructions step): a store with instructions records for one instance of
// kem-22 shows them in their own table labelled "instructions (valgrind)" — the whole count per call, the calls
// counted, a failed record as FAILED with its reason, "not measured" for the other instances — with the note
// saying what is counted (never cycles); a page whose algorithm has no such record shows no such table.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatInstructions } from "./sections/instructions.ts";
import { renderSite } from "./site.ts";
import { miniStore, stepRecordBase, writeKeygenAndFailedDec } from "./test-store.ts";

const tmp = mkdtempSync(join(tmpdir(), "ngcc-report-instructions-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const root = join(tmp, "store");
const out = join(tmp, "out");
const page = (rel: string) => readFileSync(join(out, "site", rel), "utf8");

function record(operation: string, ok: boolean) {
  const base = stepRecordBase("instructions", operation);
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
  writeKeygenAndFailedDec(root, record);
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
