// The constant-time section (the constant-time step): a store with constant-time records for one instance of
// kem-22 shows the verdict per operation × level, each finding as file:line (function) kind × count with accepted
// (and the reason) or OPEN, a tool error as such, "not measured" elsewhere, and the limits of the method; a page
// whose algorithm has no such record has no such section.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { validate } from "@ngcc-perf/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderSite } from "./site.ts";
import { miniStore, stepRecordBase, writeStepRecord } from "./test-store.ts";

const tmp = mkdtempSync(join(tmpdir(), "ngcc-report-ct-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const root = join(tmp, "store");
const out = join(tmp, "out");
const page = (rel: string) => readFileSync(join(out, "site", rel), "utf8");

const command = { argv: ["valgrind"], exitCode: 0, signal: null, durationMs: 900, timedOut: false };
const finding = (line: number, status: "open" | "accepted") => ({
  kind: "UninitCondition",
  what: "Conditional jump or move depends on uninitialised value(s)",
  count: 42,
  contexts: 1,
  top: { file: "src/kem.c", line, function: "dec" },
  location: { file: "src/kem.c", line, function: "dec" },
  status,
  ...(status === "accepted" ? { reason: "public seed" } : {}),
});

function record(operation: string, kind: "leak" | "pass" | "tool") {
  const base = stepRecordBase("constant-time", operation);
  if (kind === "tool")
    return {
      ...base,
      status: "failed",
      verdict: "tool error",
      failure: { reason: "timeout", message: "exceeded its time limit of 2 s" },
    };
  const level = (l: string) => ({
    level: l,
    flags: [l, "-g"],
    verdict: kind === "leak" ? "leaks found" : "pass",
    errorsReported: 84,
    findings: kind === "leak" ? [finding(40, "open"), finding(12, "accepted")] : [finding(12, "accepted")],
    command,
  });
  return {
    ...base,
    status: "ok",
    verdict: kind === "leak" ? "leaks found" : "pass",
    tool: { name: "memcheck", version: "valgrind-3.19.0" },
    secret: ["sk"],
    declassified: ["return value"],
    calls: 3,
    levels: [level("-O2"), level("-O3")],
  };
}

beforeAll(async () => {
  miniStore(root, ["kem-22", "kex-06"]);
  for (const [op, kind] of [
    ["keygen", "pass"],
    ["enc", "tool"],
    ["dec", "leak"],
  ] as const) {
    const rec = record(op, kind);
    expect(validate("constant-time", rec).errors).toEqual([]);
    writeStepRecord(root, rec);
  }
  await renderSite(root, { out, formats: ["md"] });
});

describe("the constant-time section", () => {
  it("verdict per operation and level, findings with their place, count and triage, and the limits", () => {
    const md = page("arm_1/kem-22.md");
    expect(md).toContain("## Constant-time smoke test (valgrind memcheck)");
    expect(md).toContain(
      "| `Mithril-128` | keygen | -O2 | pass | src/kem.c:12 (dec) UninitCondition × 42 — accepted: public seed |",
    );
    expect(md).toContain(
      "| `Mithril-128` | dec | -O3 | LEAKS FOUND | src/kem.c:40 (dec) UninitCondition × 42 — OPEN; src/kem.c:12 (dec) UninitCondition × 42 — accepted: public seed |",
    );
    expect(md).toMatch(
      /\| `Mithril-128` \| enc \| — \| TOOL ERROR \| FAILED \(timeout\): exceeded its time limit of 2 s \|/,
    );
    expect(md).toMatch(/\| `Mithril-256` \| keygen \| — \| not measured \| — \|/);
    expect(md).toMatch(/not coverage-guided/);
    expect(md).toMatch(/variable-latency instructions such as division/);
    expect(md).toMatch(/unless a patched valgrind is used/);
    expect(md).toMatch(/only what memcheck's definedness tracking sees/);
  });

  it("no section where the algorithm has no constant-time record", () => {
    expect(page("arm_1/kex-06.md")).not.toContain("Constant-time smoke test");
  });
});
