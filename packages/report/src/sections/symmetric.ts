// The "Symmetric primitives" section of the algorithm page: the survey verdict, and the share of each operation in
// each profiled symbol group with calls per operation. Every word about the groups comes from the records: the
// groups and labels of the hash-profile records (the campaign's profiler groups as recorded), "ICCS" only when
// those groups are the ICCS placeholders and DRNG, the survey's wording from its verdict and findings.
import type { HashProfileRecord, SurveyRecord } from "@ngcc-perf/schema";
import { formatCalls, formatShare } from "../format.ts";
import type { AlgorithmRecord } from "../load.ts";
import { type Cell, type Chart, type ChartDatum, cell, type Inline, text } from "../model.ts";
import {
  allSynthesized,
  DASH,
  EMULATED,
  failedText,
  leadCells,
  leadHeaders,
  listText,
  NOT_MEASURED,
  rowName,
  section,
  shortList,
} from "../parts.ts";
import { type AlgorithmView, byOperation, OPERATION_ORDER, type SystemView } from "../view.ts";

/**
 * The ICCS placeholder hash functions and DRNG of NGCC submissions (fixtures/iccs/iccs.h): how records that do not
 * say whether a group is ICCS (made before groups carried `iccs`) are worded. A record's `iccs` and `kind` win.
 */
const ICCS_HASH = new Set(["pseudohash", "pseudoXOF", "sm3hash"]);
const ICCS_DRNG = new Set(["randombytes"]);

export interface Group {
  name: string;
  label: string;
  symbols: string[];
  /** hash, drng or other, when the records say so. */
  kind?: "hash" | "drng" | "other";
  /** Whether the group is ICCS placeholder functions, when the records say so. */
  iccs?: boolean;
}

type RecordedGroup = { name: string; label?: string; symbols?: string[]; kind?: Group["kind"]; iccs?: boolean };

/** Adds a record's groups to a list (by name): labels, symbols, and what the records say of kind and ICCS. */
function addGroups(out: Group[], groups: ReadonlyArray<RecordedGroup>): void {
  for (const g of groups) {
    const have = out.find((o) => o.name === g.name);
    if (!have) {
      out.push({
        name: g.name,
        label: g.label ?? g.name,
        symbols: [...(g.symbols ?? [])],
        ...(g.kind ? { kind: g.kind } : {}),
        ...(g.iccs !== undefined ? { iccs: g.iccs } : {}),
      });
      continue;
    }
    for (const s of g.symbols ?? []) if (!have.symbols.includes(s)) have.symbols.push(s);
    have.kind ??= g.kind;
    // ICCS only when every record that says so says ICCS.
    if (g.iccs !== undefined) have.iccs = (have.iccs ?? true) && g.iccs;
  }
}

/** Symbol groups in the order the profiles give them, with their labels and every symbol any record lists. */
export function groupsOf(profiles: ReadonlyArray<HashProfileRecord>): Group[] {
  const out: Group[] = [];
  for (const p of profiles) addGroups(out, (p.groups ?? []) as RecordedGroup[]);
  return out;
}

/** The DRNG's group: the one of kind drng, else named drng, else the one holding randombytes (the profiler's rule). */
function drngOf(groups: ReadonlyArray<Group>): Group | undefined {
  return (
    groups.find((g) => g.kind === "drng") ??
    groups.find((g) => g.name === "drng" && g.kind === undefined) ??
    groups.find((g) => g.kind === undefined && g.symbols.some((s) => /randombytes/i.test(s)))
  );
}

interface GroupWords {
  /** The hash groups are the ICCS placeholders. */
  iccs: boolean;
  /** The hash groups' labels, e.g. pseudohash/XOF/sm3 or fips202/sha2. */
  hashLabel: string;
  /** `the ICCS placeholder hash functions and in the ICCS DRNG`, or the groups named by label and symbols. */
  phrase: string;
}

/** Whether a group is ICCS: as its records say, else (older records) by the ICCS function names. */
function isIccs(g: Group, names: ReadonlySet<string>): boolean {
  if (g.iccs !== undefined) return g.iccs;
  return g.symbols.length > 0 && g.symbols.every((s) => names.has(s));
}

function wordsOf(groups: ReadonlyArray<Group>): GroupWords {
  const drng = drngOf(groups);
  const hash = groups.filter((g) => g !== drng && g.kind !== "drng");
  // The survey's placeholders are the ICCS groups when there are any (a submission's own SHA-3 group beside them is
  // its own code), else every hash group — as the profiler's placeholderGroups.
  const iccsGroups = hash.filter((g) => isIccs(g, ICCS_HASH));
  const iccs = iccsGroups.length > 0;
  const iccsDrng = drng !== undefined && isIccs(drng, ICCS_DRNG);
  const hashPhrase = listText([
    ...new Set(
      hash.map((g) =>
        isIccs(g, ICCS_HASH)
          ? "the ICCS placeholder hash functions"
          : `the ${g.label} functions (${shortList(g.symbols)})`,
      ),
    ),
  ]);
  // A group that says it is not ICCS is named by its label ("randombytes"); older records' DRNG as "the DRNG (…)".
  // A label that is a function's name takes no article: "in randombytes", "in randombytes (PQCLEAN_randombytes)".
  const ownDrng = (g: Group) => {
    const name = /^[a-z_][a-z0-9_]*$/.test(g.label) ? g.label : `the ${g.label}`;
    return g.symbols.length === 1 && g.label === g.symbols[0] ? name : `${name} (${shortList(g.symbols)})`;
  };
  const drngPhrase = drng
    ? iccsDrng
      ? "the ICCS DRNG"
      : drng.iccs === false
        ? ownDrng(drng)
        : `the DRNG (${shortList(drng.symbols)})`
    : "";
  const phrase = [hashPhrase, drngPhrase].filter((p) => p !== "").join(" and in ");
  const placeholders = (iccs ? iccsGroups : hash).filter((g) => g.kind !== "other");
  return { iccs, hashLabel: listText(placeholders.map((g) => g.label)) || "hash", phrase };
}

/** Without profiles, the survey's own findings (and the groups it names) say whether they are the ICCS ones. */
function surveyWords(survey: SurveyRecord, groups: ReadonlyArray<Group>): GroupWords | null {
  if (groups.length) return wordsOf(groups);
  const recorded: Group[] = [];
  addGroups(recorded, (survey.automatic?.groups ?? []) as RecordedGroup[]);
  const found = survey.automatic?.placeholders;
  if (recorded.length && recorded.every((g) => g.iccs !== undefined)) {
    const drng = drngOf(recorded);
    const hash = recorded.filter((g) => g !== drng && g.kind !== "drng" && g.kind !== "other");
    const iccs = hash.some((g) => g.iccs === true);
    return { iccs, hashLabel: iccs ? "placeholder" : listText(hash.map((g) => g.label)) || "hash", phrase: "" };
  }
  if (!found?.length) return null;
  const iccs = found.every((s) => ICCS_HASH.has(s) || ICCS_DRNG.has(s));
  return { iccs, hashLabel: iccs ? "placeholder" : "profiled hash", phrase: "" };
}

const VERDICT_OUTSIDE_ICCS: Record<SurveyRecord["verdict"], (label: string) => string> = {
  "ICCS-only": (label) => `${label} functions only`,
  mixed: (label) => `mixed (${label} functions and own primitives)`,
  bypass: (label) => `bypass (no ${label} function)`,
};

/** The survey's one-line summary from its findings, in the words of its groups. */
function findingsText(a: NonNullable<SurveyRecord["automatic"]>, w: GroupWords): string {
  const drngSymbols = new Set((a.instances ?? []).flatMap((i) => i.drng ?? []));
  const hashUsed = a.instances?.length
    ? [...new Set(a.instances.flatMap((i) => i.placeholders ?? []))].sort()
    : (a.placeholders ?? []).filter((s) => !drngSymbols.has(s) && !/randombytes/i.test(s));
  const functions = w.iccs ? "placeholders" : `${w.hashLabel} functions`;
  const parts: string[] = [];
  parts.push(
    hashUsed.length
      ? `${functions} ${shortList(hashUsed)}`
      : `no ${w.iccs ? "placeholder hash" : w.hashLabel} function referenced`,
  );
  const own = [...new Set((a.ownPrimitives ?? []).map((p) => p.name))];
  if (own.length) {
    const perInstance = (a.instances ?? []).filter((i) => i.ownPrimitives !== undefined);
    const withOwn = perInstance.filter((i) => i.ownPrimitives?.length).map((i) => i.instance);
    const all = perInstance.length === 0 || withOwn.length === (a.instances ?? []).length;
    parts.push(all ? `own ${listText(own)}` : `own ${listText(own)} in ${listText(withOwn)}`);
  }
  const shims = a.shims ?? [];
  if (shims.length) {
    const first = shims[0];
    const eg = first ? ` (e.g. ${first.symbol} → ${first.forwardsTo.split(", ")[0]})` : "";
    parts.push(`${shims.length} shim${shims.length > 1 ? "s" : ""} over ${functions}${eg}`);
  }
  const drngSwitch = (a.switches ?? []).find((s) => s.effect.startsWith("DRNG"));
  if (drngSwitch) parts.push(drngSwitch.effect.replace(/ — .*$/, ""));
  else if (a.instances?.length && a.instances.every((i) => (i.drng ?? []).length === 0)) parts.push("no DRNG call");
  return parts.join("; ");
}

function verdictLine(entry: AlgorithmRecord<SurveyRecord>, groups: ReadonlyArray<Group>, profile: string | null) {
  const s = entry.record;
  const w = surveyWords(s, groups);
  const verdict = w && !w.iccs ? VERDICT_OUTSIDE_ICCS[s.verdict](w.hashLabel) : s.verdict;
  // A person's wording (the campaign's notes file) as written; else the findings in the groups' words.
  const wording = s.curated?.text ?? (s.automatic && w ? findingsText(s.automatic, w) : s.text);
  return `Survey verdict${profile ? ` (${profile})` : ""}: ${verdict}${wording ? ` — ${wording}` : ""}`;
}

function verdictNotes(view: SystemView, alg: AlgorithmView): Inline[][] {
  const surveys = view.surveysOf(alg.id);
  if (surveys.length === 0) return [[text("Survey verdict: not surveyed")]];
  const groupsFor = (profile: string) =>
    groupsOf(view.hashProfilesOf(alg.id).filter((p) => p.buildProfile === profile));
  const plain = surveys.map((e) => verdictLine(e, groupsFor(e.key.buildProfile), null));
  // Several build profiles that the survey found alike make one line; else a line per profile.
  if (new Set(plain).size === 1) return [[text(plain[0] as string)]];
  return surveys.map((e) => [text(verdictLine(e, groupsFor(e.key.buildProfile), e.key.buildProfile))]);
}

export function symmetricSection(view: SystemView, alg: AlgorithmView) {
  const profiles = view.hashProfilesOf(alg.id);
  const notes = verdictNotes(view, alg);
  if (profiles.length === 0) {
    notes.push([
      text("No hash/DRNG profile in the store: the share of time in the hash functions and the DRNG was not measured."),
    ]);
    return section("symmetric", "Symmetric primitives", { notes });
  }
  const found = groupsOf(profiles);
  const ok = profiles.filter((p) => p.status === "ok");
  const emulatedOnly = ok.length > 0 && ok.every((p) => p.emulated);
  notes.push([text(shareSentence(profiles, wordsOf(found), emulatedOnly))]);
  // Only failure records: one column still carries the reason.
  const groups = found.length ? found : [{ name: "", label: "share", symbols: [] }];
  const shares = shareRows(view, alg, profiles, groups);
  const labels = listText(groups.map((g) => g.label));
  const chart = shareChart(view, alg, groups, labels);
  return section("symmetric", "Symmetric primitives", {
    notes,
    tables: [
      {
        caption: `Share of time in each symbol group (${labels}), ${alg.id}`,
        headers: [...leadHeaders(alg), "operation", ...groups.map((g) => g.label), "calls per operation"],
        rows: shares.rows,
        rowHeaders: true,
      },
    ],
    after: shareNotes(shares, emulatedOnly),
    charts: chart ? [chart] : [],
  });
}

/** The sentence above the share table: what it shares out (or, under an emulator, that it counts calls only). */
function shareSentence(profiles: ReadonlyArray<HashProfileRecord>, words: GroupWords, emulatedOnly: boolean): string {
  const impls = [...new Set(profiles.map((p) => p.implementation))];
  const impl = impls.length ? impls.join(", ") : "measured";
  const ok = profiles.filter((p) => p.status === "ok");
  const sameRun =
    allSynthesized(profiles) || (ok.length > 0 && ok.every((p) => typeof p.unprofiledNsPerOp === "number"));
  return emulatedOnly
    ? `Calls per operation, counted with link-time wrappers in the ${impl} build under the emulator; ${EMULATED}, so no share of time is given:`
    : `Share of each operation spent in ${words.phrase || "the profiled symbol groups"} (${impl} build, measured ${sameRun ? "in the same run " : ""}with link-time wrappers):`;
}

/** The share table's rows, with the blind spots the profiles name and the operation counts behind varying calls. */
interface ShareRows {
  rows: Cell[][];
  /** Each blind spot's symbol with its reason. */
  blind: Map<string, string>;
  /** The operations behind each calls figure shown as mean (min–max). */
  varying: Set<number>;
}

/** One row per operation profiled of every row (one "not measured" row where none was). */
function shareRows(
  view: SystemView,
  alg: AlgorithmView,
  profiles: ReadonlyArray<HashProfileRecord>,
  groups: ReadonlyArray<Group>,
): ShareRows {
  const out: ShareRows = { rows: [], blind: new Map(), varying: new Set() };
  for (const row of view.rowsOf(alg)) {
    // The operations profiled (a key exchange may profile the whole exchange only); none: one "not measured" row.
    const ops = profiles
      .filter((x) => x.instance === row.instance && x.buildProfile === row.profile)
      .map((x) => x.operation)
      .sort(byOperation);
    const lead = leadCells(alg, row);
    if (ops.length === 0) {
      out.rows.push([...lead, cell(DASH), cell(NOT_MEASURED), ...groups.slice(1).map(() => cell(DASH)), cell(DASH)]);
      continue;
    }
    for (const op of ops) {
      const p = view.hashProfileOf(alg.id, row, op) as HashProfileRecord;
      out.rows.push(shareRow(lead, op, p, groups));
      if (p.status !== "ok" || !p.groups) continue;
      for (const c of p.calls ?? [])
        if (c.callsPerOperation && c.callsPerOperation.min !== c.callsPerOperation.max && c.meanPerOperation > 0)
          out.varying.add(c.callsPerOperation.operations);
      for (const b of p.blindSpots ?? []) out.blind.set(b.symbol, b.reason);
    }
  }
  return out;
}

/** An operation's row: its share in each group and its calls per operation, or its failure in the first column. */
function shareRow(lead: Cell[], op: string, p: HashProfileRecord, groups: ReadonlyArray<Group>): Cell[] {
  if (p.status !== "ok" || !p.groups)
    return [...lead, cell(op), ...groups.map((_, i) => cell(i === 0 ? failedText(p.failure, p) : DASH)), cell(DASH)];
  return [
    ...lead,
    cell(op),
    // Under an emulator the profile holds calls only: no share is a time of the target.
    ...groups.map((g) =>
      cell(p.emulated ? EMULATED : formatShare(p.groups?.find((x) => x.name === g.name)?.share ?? 0)),
    ),
    cell(
      formatCalls(
        (p.calls ?? []).map((c) => ({
          label: c.label ?? c.symbol,
          mean: c.meanPerOperation,
          min: c.callsPerOperation?.min,
          max: c.callsPerOperation?.max,
        })),
      ),
    ),
  ];
}

/** The lines under the share table: what a mean (min–max) of calls is over, and the blind spots. */
function shareNotes({ varying, blind }: ShareRows, emulatedOnly: boolean): Inline[][] {
  const after: Inline[][] = [];
  if (varying.size) {
    const n = [...varying].sort((a, b) => a - b);
    const over = n.length === 1 ? `${n[0]}` : `${n[0]}–${n[n.length - 1]}`;
    after.push([
      text(
        `Calls as mean (min–max): the number of calls per operation over the ${over} operations profiled (for a sampling function: 1 + the rejections).`,
      ),
    ]);
  }
  if (blind.size)
    after.push([
      text(
        `Blind spots: ${[...blind].map(([s, r]) => `${s} (${r})`).join(", ")} — calls the link-time wrappers cannot see, so ${emulatedOnly ? "the counts above leave them out" : "the shares above leave them out rather than show them as 0%"}.`,
      ),
    ]);
  return after;
}

function shareChart(view: SystemView, alg: AlgorithmView, groups: ReadonlyArray<Group>, labels: string): Chart | null {
  const data: ChartDatum[] = [];
  const rows: string[] = [];
  const rank = (p: HashProfileRecord) =>
    (alg.instances.indexOf(p.instance) * (alg.profiles.length + 1) + alg.profiles.indexOf(p.buildProfile)) * 100 +
    OPERATION_ORDER.indexOf(p.operation);
  for (const p of [...view.hashProfilesOf(alg.id)].sort((a, b) => rank(a) - rank(b))) {
    if (p.status !== "ok" || !p.groups || p.emulated) continue;
    const row = `${rowName(alg, { instance: p.instance, profile: p.buildProfile })} ${p.operation}`;
    rows.push(row);
    for (const g of groups)
      data.push({ row, series: g.label, value: (p.groups.find((x) => x.name === g.name)?.share ?? 0) * 100 });
  }
  if (!data.length) return null;
  return {
    kind: "share",
    file: `img/${alg.id}-share.svg`,
    title: `Share of time in each symbol group (${labels})`,
    description: `Stacked bars: percentage of each ${alg.id} operation's time spent in each symbol group; the rest of the bar's length to 100% is the algorithm's own code.`,
    data,
    rows,
    series: groups.map((g) => g.label),
  };
}
