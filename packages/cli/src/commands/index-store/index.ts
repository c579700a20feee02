// ngcc-perf index <store-dir>...: rebuilds each system's index.json from the files on disk, after a person has
// edited, added or removed records on purpose — the only deliberate re-hash (a run refuses a store whose files
// differ from its index). Every record is validated first (schema, its place in the store, the identities of timing
// figures); nothing is written when one is not valid. Says what changed, and records it in the index's `reindexed`
// (when, by whom, which files changed against the previous index).
import { readFileSync, rmSync } from "node:fs";
import { hostname, userInfo } from "node:os";
import { isAbsolute, join, relative } from "node:path";
import { parseArgs } from "node:util";
import { writeJsonAtomic } from "@ngcc-perf/runner";
import {
  checkSystemIntegrity,
  formatFindings,
  hashFile,
  InputError,
  type IntegrityFinding,
  JOURNAL_FILE,
  parseRecordPath,
  SCHEMA_VERSION,
  type StoreIndexRecord,
  type SystemIntegrity,
  systemDirsOf,
  TOOL,
  validate,
  validateFile,
} from "@ngcc-perf/schema";
import { EXIT, type Io, UsageError } from "../../io.ts";

export const usage = `ngcc-perf index <store-dir>... [--dry-run] [--json]

Rebuilds data/<system>/index.json of each system of a record store from the files on disk: every
record and KAT log with its SHA-256 and size. For a person who edited, added or removed records on
purpose — validate, report and merge refuse a store whose files differ from its index. Every record is
validated first (its schema, the key its place in the store gives, the identities of timing figures);
when one is not valid nothing is written. The algorithms and the rest of the old index are kept.
Each rebuilt index records the re-hash in its "reindexed" list (when, by whom, which files changed,
were added or removed against the previous index); later runs and merges keep it. A run never re-hashes:
it refuses a store whose files differ from its index, so this is the one way to accept them. The write
journal of an interrupted run (.write-journal.jsonl) is removed, as the new index supersedes it.
Prints what changed per system; --dry-run prints it without writing. Exits 0, or 2 for bad input.`;

interface SystemChange {
  system: string;
  dir: string;
  changed: string[];
  added: string[];
  removed: string[];
  dropped: string[];
  created: boolean;
  written: boolean;
}

/** The record's own key fields must be those its place in the store gives. */
function keyErrors(rel: string, system: string, record: Record<string, unknown>): string[] {
  const entry = parseRecordPath(system, rel);
  if (!entry) return [];
  const errors: string[] = [];
  for (const [field, want] of Object.entries(entry.key)) {
    const got = record[field];
    if (got !== undefined && got !== want)
      errors.push(
        `${field} ${JSON.stringify(got)} in the record, but its place in the store says ${JSON.stringify(want)}`,
      );
  }
  return errors;
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
      for (const e of r.errors)
        lines.push(
          `${display}:${e.line ?? 1}:${e.column ?? 1} ${e.pointer === "" ? "(root)" : e.pointer} ${e.message}`,
        );
      continue;
    }
    for (const e of keyErrors(f.path, check.system, readRecord(file))) lines.push(`${display}: ${e}`);
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

export function indexCommand(argv: string[], io: Io): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      "dry-run": { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    io.out(usage);
    return EXIT.ok;
  }
  if (positionals.length === 0) throw new UsageError("name at least one store folder");
  const systems = new Map<string, string>();
  for (const p of positionals) {
    const refs = systemDirsOf(p);
    if (refs.length === 0)
      throw new InputError(`${p}: no system folder (data/<system>/) found; expected a record store`);
    for (const ref of refs) {
      if (ref.within !== "")
        throw new InputError(
          `${p}: a part of the system folder ${ref.dir}; ngcc-perf index rebuilds a whole system's index, so name the store (the folder holding data/)`,
        );
      systems.set(ref.dir, isAbsolute(p) ? ref.dir : relative(process.cwd(), ref.dir) || ".");
    }
  }
  // 1. Check everything before writing anything.
  const checks: Array<{ check: SystemIntegrity; shown: string }> = [];
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
  if (errors.length > 0) {
    for (const e of errors) io.out(e);
    throw new InputError(
      `${errors.length} problem(s) in the records, so no index was rebuilt (an index vouches for valid records only)`,
    );
  }
  // 2. Rebuild what differs.
  const changes: SystemChange[] = [];
  for (const { check, shown } of checks) {
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
    const differs =
      change.created || change.changed.length + change.added.length + change.removed.length + change.dropped.length > 0;
    let written = false;
    if (differs) {
      const index = rebuilt(check, change);
      const v = validate("store-index", index);
      if (!v.valid)
        throw new Error(`the rebuilt index of ${check.system} does not validate: ${JSON.stringify(v.errors[0])}`);
      if (!values["dry-run"]) {
        writeJsonAtomic(join(check.dir, "index.json"), index);
        // An interrupted run's write journal vouched for files on top of the old index; the new one lists them all.
        rmSync(join(check.dir, JOURNAL_FILE), { force: true });
        written = true;
      }
    }
    changes.push({ ...change, written });
    const where = join(shown, "index.json");
    if (!differs) {
      io.err(`${where}: matches its ${check.files.length} file(s); not rewritten`);
      continue;
    }
    const done = change.created ? "created" : "rewritten";
    io.err(`${where}: ${values["dry-run"] ? `would be ${done}` : done} for ${check.files.length} file(s)`);
    for (const p of change.changed) io.err(`  changed     ${p}`);
    for (const p of change.added) io.err(`  added       ${p}`);
    for (const p of change.removed) io.err(`  removed     ${p}`);
    for (const p of change.dropped) io.err(`  dropped     ${p}`);
  }
  if (values.json) io.out(JSON.stringify({ dryRun: values["dry-run"], systems: changes }, null, 2));
  return EXIT.ok;
}
