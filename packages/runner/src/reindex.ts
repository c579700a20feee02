// Rebuilding a system's index.json from the files on disk (`ngcc-perf index`), after a person has edited, added or
// removed records on purpose — the only deliberate re-hash (a run refuses a store whose files differ from its index,
// store-index.ts). Every record is checked first (its schema, the key its place in the store gives, the identities of
// timing figures) and nothing is written when one is not valid. The rebuilt index keeps the algorithms and the rest
// of the old one, and records the re-hash in its `reindexed` list (when, by whom, which files changed).
import { readFileSync, rmSync } from "node:fs";
import { hostname, userInfo } from "node:os";
import { join } from "node:path";
import {
  checkSystemIntegrity,
  formatFileProblem,
  formatFindings,
  hashFile,
  InputError,
  type IntegrityFinding,
  JOURNAL_FILE,
  keyMismatches,
  keyMismatchMessage,
  parseRecordPath,
  SCHEMA_VERSION,
  type StoreIndexRecord,
  type SystemIntegrity,
  shownDir,
  systemDirsOf,
  validate,
  validateFile,
} from "@ngcc-perf/schema";
import { writeJsonAtomic } from "./store.ts";
import { TOOL } from "./tool.ts";

/** What rebuilding one system's index changes (and, with --json, what `ngcc-perf index` prints). */
export interface SystemChange {
  system: string;
  dir: string;
  /** Files whose hash or size differs from the old index. */
  changed: string[];
  /** Files the old index did not list. */
  added: string[];
  /** Files the old index listed that are gone. */
  removed: string[];
  /** Entries of the old index that could not be checked, with why. */
  dropped: string[];
  /** There was no index.json. */
  created: boolean;
  written: boolean;
}

/** A system folder checked for a rebuild, and how the user named it. */
export interface ReindexCheck {
  check: SystemIntegrity;
  shown: string;
}

/**
 * The system folders of the stores named: absolute folder → the folder as the user would name it (relative when they
 * named a relative path). InputError for a path holding no system folder, or inside one (an index is rebuilt whole).
 */
export function reindexTargets(paths: ReadonlyArray<string>): Map<string, string> {
  const systems = new Map<string, string>();
  for (const p of paths) {
    const refs = systemDirsOf(p);
    if (refs.length === 0)
      throw new InputError(`${p}: no system folder (data/<system>/) found; expected a record store`);
    for (const ref of refs) {
      if (ref.within !== "")
        throw new InputError(
          `${p}: a part of the system folder ${ref.dir}; ngcc-perf index rebuilds a whole system's index, so name the store (the folder holding data/)`,
        );
      systems.set(ref.dir, shownDir(p, ref.dir));
    }
  }
  return systems;
}

/** Checks every system folder before anything is written: the checks, and one line per problem found. */
export function checkForReindex(systems: ReadonlyMap<string, string>): { checks: ReindexCheck[]; errors: string[] } {
  const checks: ReindexCheck[] = [];
  const errors: string[] = [];
  for (const [dir, shown] of systems) {
    const check = checkSystemIntegrity(dir);
    const invalid = check.findings.find((f) => f.problem === "invalid-index");
    if (invalid)
      errors.push(
        `${join(shown, "index.json")}: ${invalid.message} — fix it, or remove it to start an index without algorithms`,
      );
    errors.push(...recordErrors(check, shown));
    checks.push({ check, shown });
  }
  return { checks, errors };
}

/** Schema, key and identity errors of every record of a system folder, one line each. */
function recordErrors(check: SystemIntegrity, shown: string): string[] {
  const lines: string[] = [];
  for (const f of check.files) {
    if (f.kind === "kat-log") continue;
    const file = join(check.dir, ...f.path.split("/"));
    const display = join(shown, ...f.path.split("/"));
    const r = validateFile(file, { kind: f.kind });
    if (!r.valid) {
      for (const e of r.errors) lines.push(formatFileProblem(display, e));
      continue;
    }
    const entry = parseRecordPath(check.system, f.path);
    const mismatches = entry ? keyMismatches(entry, readRecord(file)) : [];
    for (const m of mismatches) lines.push(`${display}: ${keyMismatchMessage(m)}`);
  }
  const inconsistent = check.findings.filter((x) => x.problem === "inconsistent" || x.problem === "unreadable");
  lines.push(...formatFindings({ ...check, findings: inconsistent }, shown));
  return lines;
}

/** The parsed value of a record that validated (so it parses). */
function readRecord(file: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** Whether the index must be rebuilt: it is missing, or a file differs from what it lists. */
export function indexDiffers(change: Omit<SystemChange, "written">): boolean {
  return (
    change.created || change.changed.length + change.added.length + change.removed.length + change.dropped.length > 0
  );
}

/**
 * Rebuilds one checked system's index when it differs from the files on disk: written (and an interrupted run's
 * write journal removed, the new index superseding it) unless `dryRun`. Returns what changed.
 */
export function reindexSystem(check: SystemIntegrity, dryRun: boolean): SystemChange {
  const of = (problem: IntegrityFinding["problem"]) =>
    check.findings.filter((f) => f.problem === problem).map((f) => f.path);
  const change = {
    system: check.system,
    dir: check.dir,
    changed: of("changed"),
    added: of("not-indexed"),
    removed: of("deleted"),
    dropped: check.findings.filter((f) => f.problem === "index-entry").map((f) => `${f.path}: ${f.message}`),
    created: check.index === null,
  };
  let written = false;
  if (indexDiffers(change)) {
    const index = rebuilt(check, change);
    const v = validate("store-index", index);
    if (!v.valid)
      throw new Error(`the rebuilt index of ${check.system} does not validate: ${JSON.stringify(v.errors[0])}`);
    if (!dryRun) {
      writeJsonAtomic(join(check.dir, "index.json"), index);
      // An interrupted run's write journal vouched for files on top of the old index; the new one lists them all.
      rmSync(join(check.dir, JOURNAL_FILE), { force: true });
      written = true;
    }
  }
  return { ...change, written };
}

function rebuilt(check: SystemIntegrity, change: Omit<SystemChange, "written">): StoreIndexRecord {
  const parts = [
    change.changed.length > 0 ? `${change.changed.length} changed` : "",
    change.added.length > 0 ? `${change.added.length} added` : "",
    change.removed.length > 0 ? `${change.removed.length} removed` : "",
    change.dropped.length > 0
      ? `${change.dropped.length} index entr${change.dropped.length === 1 ? "y" : "ies"} dropped`
      : "",
  ].filter((p) => p !== "");
  const note = `Rebuilt by ngcc-perf index from the files on disk${parts.length > 0 ? ` (${parts.join(", ")})` : ""}.`;
  const old = check.index;
  const previous = old ? hashFile(join(check.dir, "index.json")) : null;
  const entry: NonNullable<StoreIndexRecord["reindexed"]>[number] = {
    at: new Date().toISOString(),
    command: "ngcc-perf index",
    tool: TOOL,
    ...(operator() ? { by: operator() as string } : {}),
    previousIndex: previous && "sha256" in previous ? previous.sha256 : null,
    changed: change.changed,
    // a new index takes every file as it is
    added: old ? change.added : check.files.map((f) => f.path),
    removed: change.removed,
    ...(change.dropped.length > 0 ? { dropped: change.dropped } : {}),
  };
  if (!old) {
    return {
      kind: "store-index",
      schemaVersion: SCHEMA_VERSION,
      provenance: {
        origin: "curated",
        tool: TOOL,
        createdAt: new Date().toISOString(),
        note: `${note} There was no index.json: the algorithms are not known here (the report takes them from the records).`,
      },
      system: check.system,
      algorithms: [],
      files: check.files,
      reindexed: [entry],
    } as StoreIndexRecord;
  }
  // The note of the index as its run wrote it, kept once however often the index is rebuilt.
  const before = old.provenance.note?.startsWith("Rebuilt by ngcc-perf index")
    ? old.provenance.note.split(" Before: ").slice(1).join(" Before: ")
    : old.provenance.note;
  return {
    ...old,
    provenance: {
      origin: old.provenance.origin,
      tool: TOOL,
      createdAt: new Date().toISOString(),
      ...(old.provenance.source ? { source: old.provenance.source } : {}),
      note: before ? `${note} Before: ${before}` : note,
    },
    files: check.files,
    reindexed: [...(old.reindexed ?? []), entry],
  };
}

/** Who re-hashes: user@host (the user left out when the system has no name for it). */
function operator(): string | null {
  let user = "";
  try {
    user = userInfo().username;
  } catch {
    // a user id without a passwd entry (a container)
  }
  const host = hostname();
  return user ? `${user}@${host}` : host || null;
}
