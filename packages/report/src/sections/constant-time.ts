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

/** One finding in words: place, kind (a variable-latency one named as such), count, and accepted (reason) or open. */
export function findingText(f: Finding): string {
  const status = f.status === "accepted" ? `accepted: ${f.reason ?? ""}` : "OPEN";
  const kind = f.check === "variable latency" ? "variable latency: div on secret" : f.kind;
  return `${findingPlace(f)} ${kind} × ${f.count} — ${status}`;
}

type Checks = NonNullable<ConstantTimeRecord["checks"]>;
type Outcome = Checks["variableLatency"];

/** One check's outcome in a cell: pass, OPEN (n), accepted (n), not run. */
function outcomeText(o: Outcome | undefined): string {
  if (!o) return "not run";
  if (o.status === "open") return `OPEN (${o.open}${o.accepted ? `, ${o.accepted} accepted` : ""})`;
  if (o.status === "accepted") return `accepted (${o.accepted})`;
  return o.status;
}

const VERDICT: Record<string, string> = { pass: "pass", "leaks found": "LEAKS FOUND" };

type Level = NonNullable<ConstantTimeRecord["levels"]>[number];

type Statistical = NonNullable<ConstantTimeRecord["statistical"]>;

const count = (n: number) => n.toLocaleString("en-US");

/** The statistical test's verdict in a cell: LEAK / leak likely / no leak detected with |t| and measurements. */
export function statisticalText(st: Statistical | undefined): string {
  if (!st) return DASH;
  if (st.status === "not run") return `not run: ${st.reason ?? "no reason recorded"}`;
  const text = statisticalVerdict(st);
  return st.accepted ? `${text} — accepted: ${st.accepted}` : text;
}

function statisticalVerdict(st: Statistical): string {
  const t = `|t| ${(st.maxT ?? 0).toFixed(1)}`;
  const n = count(st.measurements ?? 0);
  if (st.status === "leak") return `LEAK (${t}, ${st.test ?? "?"}, at ${n} measurements)`;
  if (st.status === "leak likely") return `leak likely (${t}, ${st.test ?? "?"}, at ${n} measurements)`;
  if (st.status === "too few measurements") return `too few measurements (${n}; ${t})`;
  return `no leak detected at ${n} measurements (${t})`;
}

/**
 * The submission's own declassifications over the levels: each site as file:line with its calls (per level when
 * they differ), then calls at sites the program did not list; "none"; a dash for records from before the hook.
 */
export function declassifiedText(levels: readonly Level[]): string {
  if (levels.every((l) => l.declassifiedSites === undefined)) return DASH;
  const sites = new Map<string, Map<string, number>>();
  for (const l of levels)
    for (const x of l.declassifiedSites ?? []) {
      const at = `${x.file}:${x.line}`;
      const perLevel = sites.get(at) ?? new Map<string, number>();
      perLevel.set(l.level, (perLevel.get(l.level) ?? 0) + x.calls);
      sites.set(at, perLevel);
    }
  const parts = [...sites].map(([at, perLevel]) => {
    const counts = levels.map((l) => perLevel.get(l.level) ?? 0);
    const calls = counts.every((n) => n === counts[0])
      ? `${counts[0]} call(s) at each level`
      : `calls ${levels.map((l, i) => `${l.level} ${counts[i]}`).join(", ")}`;
    return `${at} (${calls})`;
  });
  const other = Math.max(0, ...levels.map((l) => l.declassifyOtherCalls ?? 0));
  if (other) parts.push(`${other} call(s) at further sites, not listed`);
  return parts.length ? parts.join("; ") : "none";
}

/** What the statistical test did, from the first record that ran it (null when none did). */
function statisticalNote(records: readonly ConstantTimeRecord[]): string | null {
  const st = records.find((r) => r.statistical && r.statistical.status !== "not run")?.statistical;
  if (!st) return null;
  const budget = st.budget
    ? `${st.budget.seconds} s or ${count(st.budget.maxMeasurements)} measurements`
    : "its budget";
  const pinned = st.pinnedCpu === null || st.pinnedCpu === undefined ? "" : ` pinned to CPU ${st.pinnedCpu}`;
  return `The statistical test (dudect's fixed-vs-random method) timed calls of two input classes — fixed (the same inputs at every call) and random (fresh inputs: for decapsulation a fixed invalid ciphertext against fresh valid ones; for signing a fixed message and seed against fresh ones; for keygen and encapsulation the randomness drawn) — interleaved in random order, in worker processes${pinned} running the instance built with its build profile's flags, as timed (each record keeps them), with the ${st.counter?.kind ?? "driver's"} counter. Welch's t between the classes on the raw times, on the times below each of 100 percentiles and on their squared distance to the class mean (second order); the largest |t| over the tests with at least 1,000 measurements of each class: LEAK at |t| ≥ ${st.thresholds?.leak ?? 10} (the run then stops), leak likely at ≥ ${st.thresholds?.likely ?? 4.5}, otherwise no leak detected, over ${count(st.thresholds?.enoughMeasurements ?? 10_000)} measurements at least; each operation until a leak or ${budget}. It detects, it does not prove: a virtual machine's noise hides small differences, and no leak detected means none was seen at that many measurements. Every measurement is in the record, per worker.`;
}

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
  const checkRows = operationRows(view, alg, (lead, row, op) => {
    const r = recordOfRow(records, row, op);
    if (!r) return [[...lead, cell(NOT_MEASURED), cell(NOT_MEASURED), cell(NOT_MEASURED), cell(DASH)]];
    if (r.status !== "ok") {
      const failed = r.verdict === "tool error" ? "TOOL ERROR" : "FAILED";
      return [[...lead, cell(failed), cell(failed), cell(failed), cell(DASH)]];
    }
    return [
      [
        ...lead,
        cell(outcomeText(r.checks?.branchIndex)),
        cell(outcomeText(r.checks?.variableLatency)),
        cell(statisticalText(r.statistical)),
        cell(declassifiedText(r.levels ?? [])),
      ],
    ];
  });
  const ok = records.find((r) => r.status === "ok");
  const notRun = [
    ...new Set(
      records.flatMap((r) =>
        r.status !== "ok" || r.checks?.variableLatency.status !== "not run"
          ? r.status === "ok" && !r.checks
            ? ["recorded before the check existed"]
            : []
          : [r.checks.variableLatency.reason ?? "no reason recorded"],
      ),
    ),
  ];
  const varlat = records.find((r) => r.tool?.patchSha256);
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
        varlat
          ? `The variable-latency check ran memcheck patched to report an integer division (x86-64 div/idiv of every width) with a secret-derived operand (ngcc-varlat.patch, SHA-256 ${varlat.tool?.patchSha256?.slice(0, 12)}…, with --variable-latency-errors=yes): the division's latency depends on its operands (the KyberSlash class), which stock memcheck does not report.`
          : `The variable-latency check (integer division on secret data, which stock memcheck does not report) did not run: ${notRun.join("; ")}.`,
      ),
      ...(varlat && notRun.length ? [text(` It did not run for the other records: ${notRun.join("; ")}.`)] : []),
    ],
    ...(statisticalNote(records) ? [[text(statisticalNote(records) as string)]] : []),
    [
      text(
        'The submission can say that data is public by calling crypto_declassify(p, n) (the header crypto_declassify.h ngcc-perf puts on its include path; a no-op in every other build): memcheck sees those bytes as defined from there on, so nothing computed from them afterwards is a finding. "Declassified by the submission" lists every such call site reached while a tested call ran, so the reader sees what the submitter chose to call public; a site there is a claim to check, not a verdict.',
      ),
    ],
    [
      text(
        "Limits: a smoke test, not a proof — it is not coverage-guided (only the paths these inputs took were checked); the variable-latency check knows integer division only (not other operand-dependent instructions a processor may have); memcheck's checks see only what its definedness tracking sees (no cache-line measurement); and the statistical test sees only differences larger than this machine's noise at the measurements it made.",
      ),
    ],
  ];
  return section("constant-time", "Constant-time smoke test (valgrind memcheck)", {
    notes,
    tables: [
      {
        caption: `${alg.id}: constant-time checks per operation, over every optimisation level`,
        headers: [
          ...leadHeaders(alg),
          "operation",
          "branch/index (memcheck)",
          "variable latency (patched memcheck)",
          "statistical test (fixed vs random)",
          "declassified by the submission (file:line)",
        ],
        rows: checkRows,
        rowHeaders: true,
      },
      {
        caption: `${alg.id}: constant-time verdict per operation and optimisation level`,
        headers: [...leadHeaders(alg), "operation", "level", "verdict", "findings (file:line (function) kind × count)"],
        rows,
        rowHeaders: true,
      },
    ],
  });
}
