// Section 7 of the algorithm page: the raw evidence index. Per instance (and build profile) the KAT log with its
// SHA-256, then the timing and profile records in alphabetical operation order, each linked where the store holds
// it; the records' own paths come from the loader (the schema's layout), never made here.
import { type HashProfileRecord, harnessRecordPath, type KatRecord, type TimingRecord } from "@ngcc-perf/schema";
import { type Cell, cell, code, type Inline, text } from "../model.ts";
import { isSynthesized, leadCells, leadHeaders, rowName, section, severalProfiles } from "../parts.ts";
import { perCallOf } from "../per-call.ts";
import { type AlgorithmView, alphabetical, type SystemView } from "../view.ts";

/**
 * The name the earlier harness gave a record in its evidence index, for records transcribed from its pages. That
 * harness kept one build profile and no profile folder: `records|profile/<algorithm>/<instance>__<operation>.json`,
 * `kat/<algorithm>/<instance>.log`, relative to the folder its index names (evidenceRoot). It is text only: no file
 * of this store is found or written by it; the link beside it opens this store's record (the layout's path).
 */
function harnessName(
  what: "timing" | "hash-profile" | "kat-log",
  r: { system?: string; algorithmId: string; instance: string; buildProfile: string; operation?: string },
): string {
  const key = {
    system: r.system ?? "x",
    algorithmId: r.algorithmId,
    instance: r.instance,
    buildProfile: r.buildProfile,
  };
  return what === "kat-log"
    ? harnessRecordPath({ kind: "kat-log", key })
    : harnessRecordPath({ kind: what, key: { ...key, operation: r.operation ?? "" } });
}

/**
 * Section 7 names the earlier harness's files: the index and every record of the page were transcribed from it,
 * under the one build profile that harness knew (with several, its names would not tell the profiles apart).
 */
function fromHarness(
  view: SystemView,
  alg: AlgorithmView,
  records: ReadonlyArray<TimingRecord | HashProfileRecord | KatRecord>,
): boolean {
  return (
    Boolean(view.index?.evidenceRoot) &&
    isSynthesized(view.index) &&
    alg.profiles.length <= 1 &&
    records.every(isSynthesized)
  );
}

/** The sentence on what the paths are relative to and what the files hold, as the records show it. */
function pathsNote(view: SystemView, harness: boolean, timings: TimingRecord[], profiles: HashProfileRecord[]): string {
  // An index transcribed from the earlier harness's pages names that harness's folder, in its words.
  if (harness)
    return `Paths are relative to ${view.index?.evidenceRoot} in the harness; each JSON file records its commands, environment and trials.`;
  const ok = [...timings, ...profiles].filter((r) => r.status === "ok");
  const holds: string[] = [];
  if (ok.length && ok.every((r) => r.commands?.length))
    holds.push("each timing and profile record holds the commands that produced it");
  const timed = timings.filter((t) => t.status === "ok");
  // Raw data: the trials of a trials-method record; the samples of a record measured per call (its trials are the
  // workers' totals).
  const perCall = timed.filter((t) => perCallOf(t) !== null);
  const trials = timed.filter((t) => perCallOf(t) === null);
  if (timed.length && trials.every((t) => t.trials?.length) && perCall.every((t) => t.samples?.length))
    holds.push(
      perCall.length === 0
        ? "each timing record holds its raw trials"
        : trials.length === 0
          ? "each timing record holds its raw samples"
          : "each timing record holds its raw trials or, measured per call, its raw samples",
    );
  if (holds.length && view.store.files.has(view.environmentPath()))
    holds.push("environment.json holds the environment");
  return `Paths are relative to data/${view.system}/ in the record store${holds.map((h) => `; ${h}`).join("")}.`;
}

/**
 * The deliberate re-hashes of the store's index (`ngcc-perf index`, recorded in the index's `reindexed`): a run
 * never re-hashes, so each one is a time files were accepted as they were on disk rather than as a run wrote them.
 * Names the files of this page each one changed, added or removed; null when there were none.
 */
function rehashNote(view: SystemView, alg: AlgorithmView): string | null {
  const all = view.index?.reindexed ?? [];
  if (all.length === 0) return null;
  const mine = (p: string) => p.split("/")[1] === alg.id;
  const one = (r: (typeof all)[number]) => {
    const counts = `${r.changed.length} changed, ${r.added.length} added, ${r.removed.length} removed`;
    const here = [...r.changed, ...r.added, ...r.removed].filter(mine);
    const shown = here.length > 4 ? [...here.slice(0, 4), `${here.length - 4} more`] : here;
    const page = shown.length > 0 ? `; on this page: ${shown.join(", ")}` : "; none on this page";
    return `on ${r.at.slice(0, 16).replace("T", " ")} UTC${r.by ? ` by ${r.by}` : ""} (${counts}${page})`;
  };
  return `The store's index was rebuilt from the files on disk with ${all[0]?.command ?? "ngcc-perf index"} ${all.length === 1 ? "once" : `${all.length} times`} — ${all.map(one).join("; ")} — so those files are vouched for as they were then, not as the run wrote them (index.json, "reindexed").`;
}

export function evidenceSection(view: SystemView, alg: AlgorithmView) {
  const timings = view.timingsOf(alg.id);
  const profiles = view.hashProfilesOf(alg.id);
  const harness = fromHarness(view, alg, [...timings, ...profiles, ...view.katsOf(alg.id)]);
  const after: Inline[][] = [];
  const example = timings[0] ?? profiles[0];
  const examplePath = example ? view.pathOf(example) : undefined;
  if (harness && examplePath)
    after.push([
      text(
        `The file names above are the earlier harness's. The links open the records of this store made from its pages, under data/${view.system}/ with the build profile in their paths (e.g. `,
      ),
      view.fileLink(examplePath),
      text(")."),
    ]);
  const more = alsoInStore(view, alg);
  if (more.length) after.push(more);
  const rehashes = rehashNote(view, alg);
  if (rehashes) after.push([text(rehashes)]);
  return section("evidence", "7. Raw evidence index", {
    notes: [[text(pathsNote(view, harness, timings, profiles))]],
    tables: [
      {
        caption: `Records and logs behind the ${alg.id} page`,
        headers: [...leadHeaders(alg), "item", "file"],
        rows: evidenceRows(view, alg, harness),
        rowHeaders: true,
      },
    ],
    after,
  });
}

/** Per row: its KAT log with the log's SHA-256, then its timing and profile records in alphabetical operation order,
 * each named as the earlier harness named it (records transcribed from it) or by its path, and linked. */
function evidenceRows(view: SystemView, alg: AlgorithmView, harness: boolean): Cell[][] {
  const timings = view.timingsOf(alg.id);
  const profiles = view.hashProfilesOf(alg.id);
  const byOp = (a: { operation: string }, b: { operation: string }) => alphabetical(a.operation, b.operation);
  const fileCell = (record: TimingRecord | HashProfileRecord): Cell => {
    const rel = view.pathOf(record);
    if (rel === undefined) return cell("not in the store");
    return [view.fileLink(rel, harness ? harnessName(record.kind, record) : rel)];
  };
  const rows: Cell[][] = [];
  for (const row of view.rowsOf(alg)) {
    const lead = leadCells(alg, row);
    const mine = <T extends { instance: string; buildProfile: string }>(x: T) =>
      x.instance === row.instance && x.buildProfile === row.profile;
    const k = view.katOf(alg.id, row);
    if (k) {
      const digest = String(k.log.sha256 ?? k.log.sha256Prefix ?? "");
      const log = String(k.log.path);
      rows.push([
        ...lead,
        [text("KAT log (sha256 "), code(`${digest.slice(0, 16)}…`), text(")")],
        [view.fileLink(log, harness ? harnessName("kat-log", k) : log)],
      ]);
    }
    for (const t of timings.filter(mine).sort(byOp)) rows.push([...lead, cell(`timing ${t.operation}`), fileCell(t)]);
    for (const p of profiles.filter(mine).sort(byOp))
      rows.push([...lead, cell(`hash profile ${p.operation}`), fileCell(p)]);
  }
  return rows;
}

/** `Also in the store: …`: the page's KAT records, size audits and surveys and the environment, each linked; none
 * when the store holds none of them. */
function alsoInStore(view: SystemView, alg: AlgorithmView): Inline[] {
  const several = severalProfiles(alg);
  const extra: Array<[string, string | undefined]> = [
    ...view
      .katsOf(alg.id)
      .map((k): [string, string | undefined] => [
        `KAT record ${rowName(alg, { instance: k.instance, profile: k.buildProfile })}`,
        view.pathOf(k),
      ]),
    ...view
      .auditsOf(alg.id)
      .map((a): [string, string | undefined] => [
        `size audit${several ? ` (${a.key.buildProfile})` : ""}`,
        view.pathOf(a.record),
      ]),
    ...view
      .surveysOf(alg.id)
      .map((s): [string, string | undefined] => [
        `survey${several ? ` (${s.key.buildProfile})` : ""}`,
        view.pathOf(s.record),
      ]),
    ["environment", view.environmentPath()],
  ];
  const more: Inline[] = [];
  for (const [label, rel] of extra) {
    if (rel === undefined || !view.store.files.has(rel)) continue;
    more.push(text(more.length ? "; " : "Also in the store: "), text(`${label} `), view.fileLink(rel));
  }
  if (more.length) more.push(text("."));
  return more;
}
