// The submission's kat.sha256 (sha256sum format): parsing with line numbers and checking the .rsp files it
// lists. A mismatch means a corrupt or altered KAT file, which is reported apart from implementation failures.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { sha256 } from "@ngcc-perf/runner";

export interface ManifestLine {
  digest: string;
  path: string;
  line: number;
}

export interface ParsedManifest {
  lines: ManifestLine[];
  /** Lines that are not "<64 hex>  <path>" (1-based line number and text). */
  malformed: { line: number; text: string }[];
}

export function parseManifest(text: string): ParsedManifest {
  const lines: ManifestLine[] = [];
  const malformed: { line: number; text: string }[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.replace(/\r$/, "");
    if (line.trim() === "" || line.startsWith("#")) return;
    const m = /^([0-9a-fA-F]{64}) [ *](.+)$/.exec(line);
    if (!m?.[1] || !m[2]) malformed.push({ line: i + 1, text: line.slice(0, 120) });
    else lines.push({ digest: m[1].toLowerCase(), path: m[2], line: i + 1 });
  });
  return { lines, malformed };
}

export interface ManifestCheck {
  status: "ok" | "mismatch" | "missing";
  /** Shown in the report, e.g. kem-90/kat.sha256. */
  display: string;
  /** The instance's file as the manifest names it. */
  listedAs?: string;
  expected?: string;
  actual?: string | null;
  /** Problems in words (file:line …), for the log and the record's messages. */
  problems: string[];
  warnings: string[];
}

/**
 * Checks the manifest entry of one .rsp file. `missing` when there is no manifest (a warning, the
 * comparison still runs); `mismatch` when the file's digest differs, the file is not there, the manifest
 * does not list it, or a line of the manifest is malformed.
 */
export function checkManifestFor(manifestPath: string, rspPath: string, display: string): ManifestCheck {
  if (!existsSync(manifestPath)) {
    return { status: "missing", display, problems: [], warnings: [`no KAT manifest at ${manifestPath}`] };
  }
  const parsed = parseManifest(readFileSync(manifestPath, "utf8"));
  const problems = parsed.malformed.map(
    (m) => `${manifestPath}:${m.line}: expected "<64 hex digits>  <path>", found ${JSON.stringify(m.text)}`,
  );
  const rel = relative(dirname(manifestPath), rspPath).split(sep).join("/");
  const entry = parsed.lines.find((l) => l.path.replace(/^\.\//, "") === rel);
  if (!entry) {
    problems.push(`${manifestPath}: does not list ${rel}`);
    return { status: "mismatch", display, listedAs: rel, problems, warnings: [] };
  }
  const actual = existsSync(rspPath) ? sha256(readFileSync(rspPath)) : null;
  if (actual !== entry.digest) {
    problems.push(
      actual === null
        ? `${manifestPath}:${entry.line}: lists ${rel}, which does not exist`
        : `${manifestPath}:${entry.line}: ${rel} has SHA-256 ${actual}, the manifest says ${entry.digest} (corrupt or altered KAT file)`,
    );
  }
  return {
    status: problems.length ? "mismatch" : "ok",
    display,
    listedAs: rel,
    expected: entry.digest,
    actual,
    problems,
    warnings: [],
  };
}

export function manifestPathOf(submissionDir: string, manifest: string): string {
  return join(submissionDir, manifest);
}
