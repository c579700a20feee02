// The constant-time section of the algorithm page (the constant-time step: valgrind's memcheck with the secrets
// marked undefined, docs/methodology.md "Constant-time smoke test"): the verdict of every instance × operation ×
// optimisation level, each finding as file:line (function) × count, accepted (with the campaign's reason) or
// open, and the limits of the method. Shown only when the algorithm has constant-time records.
import type { ConstantTimeRecord } from "@ngcc-perf/schema";
import { cell, type Inline, text } from "../model.ts";
import { DASH, failedText, leadHeaders, NOT_MEASURED, operationRows, recordOfRow, section } from "../parts.ts";
import type { AlgorithmView, SystemView } from "../view.ts";

type Finding = NonNullable<ConstantTimeRecord["levels"]>[number]["findings"][number];

/** Where a finding is: its first frame inside the submission (else the top frame), as file:line (function). */
export function findingPlace(f: Finding): string {
  const at = f.location ?? f.top;
  const where = at.file ? `${at.file}${at.line ? `:${at.line}` : ""}` : (at.object ?? "?");
  return at.function ? `${where} (${at.function})` : where;
}

/** One finding in words: place, kind, count, and accepted (reason) or open. */
export function findingText(f: Finding): string {
  const status = f.status === "accepted" ? `accepted: ${f.reason ?? ""}` : "OPEN";
  return `${findingPlace(f)} ${f.kind} × ${f.count} — ${status}`;
}

const VERDICT: Record<string, string> = { pass: "pass", "leaks found": "LEAKS FOUND" };

export function constantTimeSection(view: SystemView, alg: AlgorithmView) {
  const records = (view.store.constantTime ?? []).filter((r) => r.algorithmId === alg.id);
  if (records.length === 0) return null;
  const rows = operationRows(view, alg, (lead, row, op) => {
    const r = recordOfRow(records, row, op);
    if (!r) return [[...lead, cell(DASH), cell(NOT_MEASURED), cell(DASH)]];
    if (r.status !== "ok" || !r.levels) {
      const verdict = r.verdict === "tool error" ? "TOOL ERROR" : "FAILED";
      return [[...lead, cell(DASH), cell(verdict), cell(failedText(r.failure, r))]];
    }
    return r.levels.map((l) => {
      const findings: Inline[] = l.findings.length
        ? l.findings.flatMap((f, i) => [...(i > 0 ? [text("; ")] : []), text(findingText(f))])
        : [text("none")];
      return [...lead, cell(l.level), cell(VERDICT[l.verdict] ?? l.verdict), findings];
    });
  });
  const ok = records.find((r) => r.status === "ok");
  const version = ok?.tool?.version ? ` (${ok.tool.version})` : "";
  const keys = ok?.calls ? `${ok.calls} calls (one key pair each)` : "a few calls";
  const notes: Inline[][] = [
    [
      text(
        `Each operation ran under valgrind's memcheck${version}, ${keys} at each optimisation level, built with debug information, with the randomness it draws and its secret inputs (the secret key; a key exchange party's secret key and state) marked undefined and its public outputs (public key, ciphertext, signature, protocol messages, the return value) declassified right after the call. A finding is memcheck's report of secret data deciding a branch or an address (or reaching a system call), at the first source line inside the submission, with the number of times it was seen; "accepted" ones were triaged by the campaign with the reason given, "open" ones were not.`,
      ),
    ],
    [
      text(
        "Limits: a smoke test, not a proof — it is not coverage-guided (only the paths these inputs took were checked); it misses variable-latency instructions such as division on secret data, which memcheck does not report unless a patched valgrind is used; and it sees only what memcheck's definedness tracking sees (no cache-line or timing measurement).",
      ),
    ],
  ];
  return section("constant-time", "Constant-time smoke test (valgrind memcheck)", {
    notes,
    tables: [
      {
        caption: `${alg.id}: constant-time verdict per operation and optimisation level`,
        headers: [...leadHeaders(alg), "operation", "level", "verdict", "findings (file:line (function) kind × count)"],
        rows,
        rowHeaders: true,
      },
    ],
  });
}
