import { sha256 } from "@ngcc-perf/runner";
import type { KatRecord } from "@ngcc-perf/schema";
import type { Expectation, KatPlan } from "./expect.ts";
import type { KatgenRun } from "./generator.ts";
import { compareRsp, deriveForm, diagnose, differenceText, type Form, hasCrlf, toLf } from "./rsp.ts";
import { readShipped } from "./shipped.ts";

type Check = NonNullable<KatRecord["checks"]>[number];
type Diagnosis = NonNullable<KatRecord["diagnosis"]>;

export interface Compared {
  checks: Check[];
  diagnosis?: Diagnosis;
  /** The first mismatch in words, for the log and the failure message. */
  text?: string;
  /** Non-fatal findings (CRLF line endings; differences outside the entries, line by line). */
  warnings: string[];
}

/** One expectation's check, and what the comparison found beyond match / no match. */
interface Checked {
  check: Check;
  diagnosis?: Diagnosis;
  text?: string;
  warnings: string[];
}

/**
 * A form of the generated output over `entries` entries, always from the .rsp read from the generator's stdout
 * (`generated`: how many it holds): the .rsp itself, or the form cut from it.
 */
function formOf(run: KatgenRun, form: Form, entries: number, generated: number): Buffer | undefined {
  if (!run.outputs.rsp) return undefined;
  if (form === "rsp" && entries === generated) return run.outputs.rsp;
  return Buffer.from(deriveForm(run.outputs.rsp.toString("latin1"), form, entries), "latin1");
}

function checkOf(e: Expectation, expectedSha256: string, generatedSha256: string, match: boolean): Check {
  return { form: e.form, entries: e.entries, expectedSha256, generatedSha256, match, source: e.source };
}

/** At most this many differences outside the entries are named in a warning (the rest counted). */
const MAX_NAMED = 5;

/**
 * A shipped .rsp file against the generated form, after CRLF → LF: every entry line byte for byte. Differences
 * only in comment lines, empty lines or the final newline are a match with a warning naming them (a package's
 * own generator heads its file with its own name, `# ML-KEM-768` where ngcc-perf writes `# Kyber768`); any other
 * difference is diagnosed.
 */
function checkFile(e: Expectation & { path: string }, generated: Buffer): Checked {
  const generatedSha256 = sha256(generated);
  const read = readShipped(e.path, e.root);
  if (read.error !== undefined) {
    return {
      check: checkOf(e, sha256(""), generatedSha256, false),
      diagnosis: { differingEntries: e.entries },
      text: `the expected KAT file ${e.source} ${read.error}`,
      warnings: [],
    };
  }
  const raw = read.bytes.toString("latin1");
  const expectedText = toLf(raw);
  const generatedText = generated.toString("latin1");
  const compared = compareRsp(expectedText, generatedText);
  const warnings = hasCrlf(raw) ? [`${e.source} has CRLF line endings; compared as LF`] : [];
  const expectedSha256 = sha256(Buffer.from(expectedText, "latin1"));
  if (compared.equal) return { check: checkOf(e, expectedSha256, generatedSha256, true), warnings };
  if (compared.entriesAgree) {
    const named = compared.differences.slice(0, MAX_NAMED).map(differenceText);
    const more = compared.differences.length - named.length;
    warnings.push(
      `${e.source} differs from the generated file only outside its entries (every entry agrees byte for byte): ${named.join("; ")}${more > 0 ? `; and ${more} more` : ""}`,
    );
    return { check: checkOf(e, expectedSha256, generatedSha256, true), warnings };
  }
  const d = diagnose(expectedText, generatedText);
  const diagnosis: Diagnosis = {
    differingEntries: d.differingEntries,
    ...(d.firstCount !== undefined ? { firstCount: d.firstCount } : {}),
    ...(d.field ? { field: d.field } : {}),
    ...(d.expected ? { expected: d.expected } : {}),
    ...(d.actual ? { actual: d.actual } : {}),
  };
  return { check: checkOf(e, expectedSha256, generatedSha256, false), diagnosis, text: d.summary, warnings };
}

/** The generated form's SHA-256 against an expected hash (which cannot say where the output differs). */
function checkHash(e: Expectation & { sha256: string }, generated: Buffer): Checked {
  const generatedSha256 = sha256(generated);
  const match = generatedSha256 === e.sha256;
  const entries = `${e.entries} ${e.entries === 1 ? "entry" : "entries"}`;
  return {
    check: checkOf(e, e.sha256, generatedSha256, match),
    warnings: [],
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
    const generated = formOf(run, e.form, e.entries, plan.entries) ?? Buffer.alloc(0);
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
    warnings: [...warnings, ...checked.flatMap((c) => c.warnings)],
  };
}
