// The comparison of one generation with what the instance is expected to produce: each shipped .rsp byte for
// byte (CRLF tolerated, with a warning) and each expected hash; the first mismatch of a shipped file diagnosed.
import { existsSync, readFileSync } from "node:fs";
import { sha256 } from "@ngcc-perf/runner";
import type { KatRecord } from "@ngcc-perf/schema";
import type { Expectation, KatPlan } from "./expect.ts";
import type { KatgenRun } from "./generator.ts";
import { deriveForm, diagnose, type Form, hasCrlf, toLf } from "./rsp.ts";

type Check = NonNullable<KatRecord["checks"]>[number];
type Diagnosis = NonNullable<KatRecord["diagnosis"]>;

export interface Compared {
  checks: Check[];
  diagnosis?: Diagnosis;
  /** The first mismatch in words, for the log and the failure message. */
  text?: string;
  /** Non-fatal findings (CRLF line endings). */
  warnings: string[];
}

/** One expectation's check, and what the comparison found beyond match / no match. */
interface Checked {
  check: Check;
  diagnosis?: Diagnosis;
  text?: string;
  warning?: string;
}

/** A form of the generated output over `entries` entries: as written, or cut from the .rsp when fewer. */
function formOf(run: KatgenRun, form: Form, entries: number): Buffer | undefined {
  if (run.info?.entries === entries || (form === "single" && run.outputs.single)) return run.outputs[form];
  if (!run.outputs.rsp) return undefined;
  return Buffer.from(deriveForm(run.outputs.rsp.toString("latin1"), form, entries), "latin1");
}

function checkOf(e: Expectation, expectedSha256: string, generatedSha256: string, match: boolean): Check {
  return { form: e.form, entries: e.entries, expectedSha256, generatedSha256, match, source: e.source };
}

/** A shipped .rsp file against the generated form: byte for byte after CRLF → LF, diagnosed when it differs. */
function checkFile(e: Expectation & { path: string }, generated: Buffer): Checked {
  const generatedSha256 = sha256(generated);
  if (!existsSync(e.path)) {
    return {
      check: checkOf(e, sha256(""), generatedSha256, false),
      diagnosis: { differingEntries: e.entries },
      text: `the expected KAT file ${e.source} does not exist`,
    };
  }
  const raw = readFileSync(e.path, "latin1");
  const expectedText = toLf(raw);
  const generatedText = generated.toString("latin1");
  const match = expectedText === generatedText;
  const warning = hasCrlf(raw) ? `${e.source} has CRLF line endings; compared as LF` : undefined;
  const check = checkOf(e, sha256(Buffer.from(expectedText, "latin1")), generatedSha256, match);
  if (match) return { check, ...(warning ? { warning } : {}) };
  const d = diagnose(expectedText, generatedText);
  const diagnosis: Diagnosis = {
    differingEntries: d.differingEntries,
    ...(d.firstCount !== undefined ? { firstCount: d.firstCount } : {}),
    ...(d.field ? { field: d.field } : {}),
    ...(d.expected ? { expected: d.expected } : {}),
    ...(d.actual ? { actual: d.actual } : {}),
  };
  return { check, diagnosis, text: d.summary, ...(warning ? { warning } : {}) };
}

/** The generated form's SHA-256 against an expected hash (which cannot say where the output differs). */
function checkHash(e: Expectation & { sha256: string }, generated: Buffer): Checked {
  const generatedSha256 = sha256(generated);
  const match = generatedSha256 === e.sha256;
  const entries = `${e.entries} ${e.entries === 1 ? "entry" : "entries"}`;
  return {
    check: checkOf(e, e.sha256, generatedSha256, match),
    ...(match
      ? {}
      : {
          text: `the ${e.form} form (${entries}) hashes to ${generatedSha256}, expected ${e.sha256} (${e.source}); an expected hash cannot say which entry differs`,
        }),
  };
}

/** Every expectation against the generated forms; the first mismatch that can be described is reported. */
export function compare(plan: KatPlan, run: KatgenRun, warnings: readonly string[] = []): Compared {
  const checked = plan.expectations.flatMap((e): Checked[] => {
    const generated = formOf(run, e.form, e.entries) ?? Buffer.alloc(0);
    if (e.path) return [checkFile({ ...e, path: e.path }, generated)];
    if (e.sha256) return [checkHash({ ...e, sha256: e.sha256 }, generated)];
    return [];
  });
  const diagnosis = checked.find((c) => c.diagnosis)?.diagnosis;
  const text = (diagnosis ? checked.find((c) => c.diagnosis) : checked.find((c) => c.text))?.text;
  return {
    checks: checked.map((c) => c.check),
    ...(diagnosis ? { diagnosis } : {}),
    ...(text ? { text } : {}),
    warnings: [...warnings, ...checked.flatMap((c) => (c.warning ? [c.warning] : []))],
  };
}
