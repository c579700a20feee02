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
const finding = (line: number, status: "open" | "accepted", varlat = false) => ({
  kind: varlat ? "UninitVarLat" : "UninitCondition",
  check: varlat ? "variable latency" : "branch/index",
  what: "Conditional jump or move depends on uninitialised value(s)",
  count: 42,
  contexts: 1,
  top: { file: "src/kem.c", line, function: "dec" },
  location: { file: "src/kem.c", line, function: "dec" },
  status,
  ...(status === "accepted" ? { reason: "public seed" } : {}),
});

const statistical = {
  status: "no leak detected",
  maxT: 1.84,
  test: "raw",
  testMeasurements: 48_000,
  measurements: 48_000,
  perClass: [24_100, 23_900],
  rawT: 1.84,
  secondOrderT: 0.5,
  thresholds: { leak: 10, likely: 4.5, enoughMeasurements: 10_000 },
  budget: { seconds: 10, maxMeasurements: 1_000_000 },
  stoppedBy: "time budget",
  seconds: 10.2,
  classes: { fixed: "one fixed seed", random: "a fresh seed" },
  counter: { kind: "rdtsc", unit: "tsc-ticks", rateHz: 2.1e9 },
  pinnedCpu: 1,
  flags: ["-O3"],
  workers: [],
};

function record(operation: string, kind: "leak" | "pass" | "tool" | "div") {
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
    verdict: kind === "leak" || kind === "div" ? "leaks found" : "pass",
    errorsReported: 84,
    findings:
      kind === "leak"
        ? [finding(40, "open"), finding(12, "accepted")]
        : kind === "div"
          ? [finding(88, "open", true)]
          : [finding(12, "accepted")],
    command,
    // The submission's crypto_declassify sites (div records only; the others are from before the hook).
    ...(kind === "div"
      ? {
          declassifiedSites:
            operation === "dec"
              ? [{ file: "src/kem.c", line: 50, calls: 3, bytes: 12 }]
              : operation === "enc"
                ? [{ file: "src/pke.c", line: 7, calls: l === "-O2" ? 3 : 4, bytes: 16 }]
                : [],
          ...(operation === "enc" ? { declassifyOtherCalls: 2 } : {}),
        }
      : {}),
  });
  const varlat = kind === "div";
  const patchSha256 = "ab".repeat(32);
  return {
    ...base,
    status: "ok",
    verdict: kind === "pass" ? "pass" : "leaks found",
    tool: { name: "memcheck", version: "valgrind-3.19.0", ...(varlat ? { valgrind: "/opt/v", patchSha256 } : {}) },
    checks: {
      branchIndex:
        kind === "leak"
          ? { status: "open", open: 2, accepted: 2 }
          : kind === "div"
            ? { status: "pass", open: 0, accepted: 0 }
            : { status: "accepted", open: 0, accepted: 2 },
      variableLatency: varlat
        ? { status: "open", open: 2, accepted: 0 }
        : { status: "not run", open: 0, accepted: 0, reason: "the variable-latency memcheck is not built" },
    },
    ...(varlat
      ? {
          statistical:
            operation === "dec"
              ? {
                  ...statistical,
                  status: "leak",
                  maxT: 216.94,
                  test: "cropped below p92.3",
                  measurements: 12_000,
                }
              : operation === "enc"
                ? { status: "not run", reason: "off in this campaign" }
                : statistical,
        }
      : {}),
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
    expect(md).toMatch(/knows integer division only/);
    expect(md).toMatch(/memcheck's checks see only what its definedness tracking sees/);
    expect(md).toMatch(/differences larger than this machine's noise/);
    // One row per operation: each check's outcome over every level.
    expect(md).toContain("| `Mithril-128` | keygen | accepted (2) | not run | — | — |");
    expect(md).toContain("| `Mithril-128` | dec | OPEN (2, 2 accepted) | not run | — | — |");
    expect(md).toContain("| `Mithril-128` | enc | TOOL ERROR | TOOL ERROR | TOOL ERROR | — |");
    expect(md).toContain(
      "The variable-latency check (integer division on secret data, which stock memcheck does not report) did not run: the variable-latency memcheck is not built.",
    );
  });

  it("a variable-latency finding: its own kind in the findings, OPEN in its column, the patch named", async () => {
    const root2 = join(tmp, "store-div");
    const out2 = join(tmp, "out-div");
    miniStore(root2, ["kem-22"]);
    for (const op of ["keygen", "enc", "dec"]) {
      const rec = record(op, "div");
      expect(validate("constant-time", rec).errors).toEqual([]);
      writeStepRecord(root2, rec);
    }
    await renderSite(root2, { out: out2, formats: ["md"] });
    const md = readFileSync(join(out2, "site", "arm_1/kem-22.md"), "utf8");
    // The declassified sites: per site its calls (per level when they differ), and calls at unlisted sites.
    expect(md).toContain(
      "| `Mithril-128` | keygen | pass | OPEN (2) | no leak detected at 48,000 measurements (\\|t\\| 1.8) | none |",
    );
    expect(md).toContain(
      "| `Mithril-128` | dec | pass | OPEN (2) | LEAK (\\|t\\| 216.9, cropped below p92.3, at 12,000 measurements) | src/kem.c:50 (3 call(s) at each level) |",
    );
    expect(md).toContain(
      "| `Mithril-128` | enc | pass | OPEN (2) | not run: off in this campaign | src/pke.c:7 (calls -O2 3, -O3 4); 2 call(s) at further sites, not listed |",
    );
    expect(md).toMatch(/dudect's fixed-vs-random method/);
    expect(md).toMatch(/pinned to CPU 1 running the instance built with its build profile's flags, as timed/);
    expect(md).toMatch(/It detects, it does not prove/);
    expect(md).toMatch(/crypto_declassify\(p, n\)/);
    expect(md).toContain("src/kem.c:88 (dec) variable latency: div on secret × 42 — OPEN");
    expect(md).toContain(`ngcc-varlat.patch, SHA-256 ${"ab".repeat(6)}…`);
    expect(md).not.toContain("did not run");
  });

  it("no section where the algorithm has no constant-time record", () => {
    expect(page("arm_1/kex-06.md")).not.toContain("Constant-time smoke test");
  });
});
