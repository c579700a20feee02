// The KAT gate of the measurements: an instance is measured under a build profile only when its KAT record there
// says PASS (or there is none); otherwise every job gets a failure record saying why, blaming what the KAT record
// blames (the submission's KAT file or the implementation).
import { existsSync, readFileSync } from "node:fs";
import { type InstanceKey, recordPath } from "@ngcc-perf/schema";
import type { Failure } from "./step/run.ts";

/** What the gate reads of a KAT record. */
interface KatGist {
  verdict?: string;
  outcome?: string;
  corruption?: Array<{ file?: string; line?: number; message?: string }>;
  diagnosis?: { firstCount?: number; field?: string };
  error?: { reason?: string; message?: string };
  log?: { path?: string };
}

function readKat(out: string, key: InstanceKey): KatGist | null {
  const path = recordPath(out, { kind: "kat", key });
  if (!existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, "utf8")) as KatGist;
  } catch {
    return null;
  }
}

/** The KAT verdict of an instance under a profile, or null when it has none (KAT not run). */
export function katVerdict(out: string, key: InstanceKey): string | null {
  return readKat(out, key)?.verdict ?? null;
}

/** Why a KAT did not pass, blaming what the record blames: the submission's KAT file or the implementation. */
function katCause(k: KatGist): string {
  const cut = (s: string | undefined) => (s ?? "").replace(/\s+/g, " ").slice(0, 160);
  if (k.outcome === "corrupt-kat") {
    const p = k.corruption?.[0];
    const at = p ? ` (${p.file ?? "?"}${p.line ? `:${p.line}` : ""}: ${cut(p.message)})` : "";
    return `the submitted KAT file is corrupt${at}: the submission's fault, not the implementation's`;
  }
  if (k.outcome === "output-differs" && !k.diagnosis && k.error?.message) {
    // No diagnosis: the generator's forms disagreed with each other (tampered or inconsistent output).
    return cut(k.error.message);
  }
  if (k.outcome === "output-differs") {
    const d = k.diagnosis;
    const at =
      d?.firstCount !== undefined ? ` (first at count ${d.firstCount}${d.field ? `, field ${d.field}` : ""})` : "";
    return `the implementation's output differs from its KAT${at}`;
  }
  if (k.outcome === "no-expected-kat") return "there is nothing to compare its KAT output with";
  return k.error ? `${k.error.reason ?? "error"}: ${cut(k.error.message)}` : "its KAT could not be verified";
}

/** The failure that keeps an instance from being timed or profiled: a KAT verdict other than PASS, and why. */
export function katGate(out: string, key: InstanceKey): Failure | null {
  const k = readKat(out, key);
  const verdict = k?.verdict ?? null;
  if (!k || verdict === null || verdict === "PASS") return null;
  const log = k.log?.path ? `the KAT log ${k.log.path}` : "the KAT log";
  return { reason: "kat-failed", message: `not measured: its KAT verdict is ${verdict} — ${katCause(k)} (see ${log})` };
}
