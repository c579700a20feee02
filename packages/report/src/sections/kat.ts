// Section 3 of the algorithm page: the KAT verdict of every instance under every build profile. The sentence
// before the table says what each library was checked against, as its KAT record says: the submitted .rsp files
// or an expected hash, the manifest only when the record names one, "before timing" only when the records show it.
import type { KatRecord, TimingRecord } from "@ngcc-perf/schema";
import { type Cell, cell, type Inline, text } from "../model.ts";
import { allSynthesized, DASH, instanceCell, listText, pagePaths, section } from "../parts.ts";
import type { AlgorithmView, SystemView } from "../view.ts";

/** Whether a warning is about the submission's manifest (said once below the table), not about this comparison. */
const aboutManifest = (k: KatRecord, w: string): boolean => !!k.manifest && w.startsWith(`${k.manifest.path} `);

/** The warnings of a record the page says below the table (a missing manifest is said there already). */
function shownWarnings(k: KatRecord): string[] {
  return (k.warnings ?? []).filter(
    (w) => !(k.manifest?.status === "missing" && w === `no KAT manifest at ${k.manifest.path}`),
  );
}

export function katCell(k: KatRecord): string {
  if (k.verdict === "PASS") {
    const own = shownWarnings(k).filter((w) => !aboutManifest(k, w)).length;
    return own ? `PASS, with ${own === 1 ? "a warning" : `${own} warnings`} (below the table)` : "PASS";
  }
  if (k.verdict === "FAIL") {
    if (k.outcome === "corrupt-kat" || k.manifest?.status === "mismatch") {
      // The record's corruption names the file and line (records before it only had the manifest's mismatch).
      const p = k.corruption?.[0];
      if (!p)
        return "FAIL: the KAT file does not match its manifest (a corrupt or altered KAT file, not the implementation)";
      const more = (k.corruption?.length ?? 1) - 1;
      const at = `${p.file}${p.line ? `, line ${p.line}` : ""}: ${p.message.replace(/\s+/g, " ").slice(0, 160)}`;
      return `FAIL: corrupt KAT file (the submission's KAT file or manifest, not the implementation): ${at}${more > 0 ? ` (and ${more} more problem${more === 1 ? "" : "s"}, see the KAT log)` : ""}`;
    }
    const d = k.diagnosis;
    const where =
      d && d.firstCount !== undefined
        ? `: first difference at count ${d.firstCount}${d.field ? `, field ${d.field}` : ""} (${d.differingEntries} differing entr${d.differingEntries === 1 ? "y" : "ies"})`
        : "";
    // No diagnosis, an error: the generator's outputs disagreed (tampered or inconsistent output), said in words.
    const why = !where && k.error ? `: ${pagePaths(k.error.message, k).replace(/\s+/g, " ").slice(0, 200)}` : "";
    return `FAIL${where}${why}`;
  }
  return `ERROR${k.error ? ` (${k.error.reason}): ${pagePaths(k.error.message, k).replace(/\s+/g, " ").slice(0, 160)}` : ""}`;
}

/** A manifest the KAT step read (not the "(none)" of a record that compared with an expected hash instead). */
function manifestOf(k: KatRecord): string | null {
  const m = k.manifest;
  return m && (m.status === "ok" || m.status === "mismatch") ? m.path : null;
}

/** What a record's generated output was compared with. */
function comparedWith(k: KatRecord): string {
  const manifest = manifestOf(k);
  if (k.expected?.source === "sha256")
    return `the expected SHA-256 of the KAT output${k.expected.note ? ` (${k.expected.note})` : ""}`;
  return `the submitted KAT vectors${manifest ? ` (SHA-256 manifest ${manifest} of the submission)` : ""}`;
}

/** Every timing record of an instance and profile was written after its KAT record. */
function checkedBeforeTiming(kats: ReadonlyArray<KatRecord>, timings: ReadonlyArray<TimingRecord>): boolean {
  let timed = 0;
  for (const t of timings) {
    const k = kats.find((x) => x.instance === t.instance && x.buildProfile === t.buildProfile);
    if (!k || Date.parse(t.provenance.createdAt) < Date.parse(k.provenance.createdAt)) return false;
    timed++;
  }
  return timed > 0;
}

/** What a KAT verdict is, and what no check inside the submission's process can rule out (measured records). */
export const KAT_LIMIT =
  "Each verdict is computed by the submission's own code run under the harness's inputs (its seeds, randomness and KAT generator, with the shipped KAT files hidden from the build and from every run, and the output read from a pipe and cross-checked): it shows that the code reproduces the expected answers, not how — code that carries the answers within itself would pass, and no check inside its process can rule that out.";

function katNotes(kats: ReadonlyArray<KatRecord>, timings: ReadonlyArray<TimingRecord>) {
  if (kats.length === 0)
    return [[text("No KAT records in the store: functional testing was not run or not recorded.")]];
  // Records transcribed from the earlier harness's pages keep its wording (its manifests lived in the harness).
  if (allSynthesized(kats)) {
    const manifest = kats.map(manifestOf).find((m) => m !== null) ?? null;
    return [
      [
        text(
          manifest
            ? `Each library was checked against the submitted KAT vectors (SHA-256 manifest ${manifest} in the harness) before timing.`
            : "Each library was checked against the submitted KAT vectors before timing.",
        ),
      ],
    ];
  }
  const checked = kats.filter((k) => k.verdict !== "ERROR");
  const groups = new Map<string, string[]>();
  for (const k of checked) {
    const what = comparedWith(k);
    const names = groups.get(what) ?? [];
    if (!names.includes(k.instance)) names.push(k.instance);
    groups.set(what, names);
  }
  const before = checkedBeforeTiming(kats, timings) ? " before timing" : "";
  const notes: Inline[][] = [];
  if (groups.size === 1 && checked.length === kats.length) {
    notes.push([text(`Each library was checked against ${[...groups.keys()][0]}${before}.`)]);
  } else {
    for (const [what, names] of groups) notes.push([text(`${listText(names)}: checked against ${what}${before}.`)]);
  }
  const errors = kats.filter((k) => k.verdict === "ERROR").map((k) => k.instance);
  if (errors.length)
    notes.push([text(`${listText([...new Set(errors)])}: the KAT check did not complete (ERROR below, with why).`)]);
  notes.push([text(KAT_LIMIT)]);
  return notes;
}

/**
 * Every distinct warning of the records (a difference outside the entries of a .rsp, CRLF line endings, .rsp files
 * the manifest lists that no instance uses), each once with the instances and build profiles it is of.
 */
function katWarnings(kats: ReadonlyArray<KatRecord>): Inline[][] {
  const by = new Map<string, string[]>();
  for (const k of kats)
    for (const w of shownWarnings(k)) {
      const whom = aboutManifest(k, w) ? [] : [`${k.instance} (${k.buildProfile})`];
      by.set(w, [...new Set([...(by.get(w) ?? []), ...whom])]);
    }
  return [...by].map(([w, whom]) => [text(`Warning${whom.length ? `, ${listText(whom)}` : ""}: ${pagePaths(w)}.`)]);
}

export function katSection(view: SystemView, alg: AlgorithmView) {
  const kats = view.katsOf(alg.id);
  const rows: Cell[][] = view.rowsOf(alg).map((row) => {
    const k = view.katOf(alg.id, row);
    return k
      ? [instanceCell(row.instance), cell(k.buildProfile), cell(katCell(k))]
      : [instanceCell(row.instance), cell(row.profile ?? DASH), cell("not run")];
  });
  const manifestProblems = kats.filter((k) => k.manifest?.status === "missing" || k.manifest?.status === "mismatch");
  return section("kat", "3. Functional testing (KAT)", {
    notes: katNotes(kats, view.timingsOf(alg.id)),
    tables: [
      {
        caption: `KAT verdict per instance of ${alg.id}`,
        headers: ["instance", "build flags", "KAT"],
        rows,
        rowHeaders: true,
      },
    ],
    after: [
      ...manifestProblems.map((k) => [
        text(
          `${k.instance} (${k.buildProfile}): KAT manifest ${k.manifest?.path ?? ""} ${k.manifest?.status === "missing" ? "missing" : "does not match the KAT files"}.`,
        ),
      ]),
      ...katWarnings(kats),
    ],
  });
}
