// Section 6 of the algorithm page: key, ciphertext and signature sizes (KEM, signature) or the key-exchange
// bandwidth, from the size audits — one per build profile; the profile is a column only when their figures differ.
// The sentences say where the figures came from as the audit records it (catalog or API, per field).
import type { SizeAuditRecord } from "@ngcc-perf/schema";
import { formatBytes, formatG } from "../format.ts";
import type { AlgorithmRecord } from "../load.ts";
import { type Cell, cell, type Inline, text } from "../model.ts";
import {
  DASH,
  failedText,
  instanceCell,
  isSynthesized,
  listText,
  NOT_MEASURED,
  type PathsAt,
  section,
} from "../parts.ts";
import type { AlgorithmView, SystemView } from "../view.ts";

type AuditInstance = SizeAuditRecord["instances"][number];

/** A finding that is a disagreement of figures (not a catalog row missing, or one naming no instance). */
export const isDisagreement = (kind: string): boolean =>
  kind === "catalog-differs-from-api" || kind === "measured-exceeds-api";
type Audit = AlgorithmRecord<SizeAuditRecord>;
const HEADING = "6. Transmission and storage overhead";

/** What a page row shows of an audit's instance (the figures, not how they were found). */
const shownOf = (i: AuditInstance) => JSON.stringify([i.table ?? null, i.kex ?? null, i.failure ?? null]);

/** The audit's instances in page order: the algorithm's instances first, then any others the audit names. */
function instancesOf(alg: AlgorithmView, audit: SizeAuditRecord): AuditInstance[] {
  const by = new Map(audit.instances.map((i) => [i.instance, i]));
  return [
    ...alg.instances.flatMap((i) => (by.has(i) ? [by.get(i) as AuditInstance] : [])),
    ...audit.instances.filter((i) => !alg.instances.includes(i.instance)),
  ];
}

/** The transmitted fields of a KEM or signature row, and where the audit says each came from. */
function sourcesOf(audits: ReadonlyArray<Audit>, kem: boolean): Set<"catalog" | "api"> {
  const fields = kem
    ? (["publicKeyBytes", "ciphertextBytes"] as const)
    : (["publicKeyBytes", "signatureBytes"] as const);
  const found = new Set<"catalog" | "api">();
  for (const { record } of audits)
    for (const i of record.instances)
      for (const f of fields) {
        if (i.table?.[f] === undefined) continue;
        const from = i.tableFrom?.[f] ?? (i.catalog?.[f] === i.table[f] ? "catalog" : "api");
        found.add(from);
      }
  return found;
}

function catalogSentence(audits: ReadonlyArray<Audit>, kem: boolean, link: Inline): Inline[] {
  const path = audits.map((a) => a.record.catalog?.path).find((p) => p !== undefined);
  const catalog = path ? `curated ${path} catalog` : "curated size catalog";
  const what = kem ? "External public-key, ciphertext and signature sizes" : "External public-key and signature sizes";
  const rest = kem
    ? "secret-key and shared-secret lengths remain API figures"
    : "secret-key lengths remain API figures";
  const sources = sourcesOf(audits, kem);
  if (sources.size === 0) return [text("No sizes were found for any instance: see the "), link, text(" for why.")];
  const follow =
    sources.has("api") && !sources.has("catalog")
      ? `No figure comes from a size catalog: all sizes shown are API figures. See the `
      : sources.has("api")
        ? `${what} follow the ${catalog} where it lists them, else the API (see the notes below); ${rest}. See the `
        : `${what} follow the ${catalog}; ${rest}. See the `;
  return [text(follow), link, text(" for disagreements.")];
}

/** The bandwidth sentence, said only when every row's bandwidth is its messages plus each public key once. */
function bandwidthSentence(audits: ReadonlyArray<Audit>): string {
  const rows = audits.flatMap((a) => a.record.instances.flatMap((i) => (i.kex ? [i.kex] : [])));
  const sums = rows.every(
    (k) =>
      k.protocolMessageBytes === k.messageBytes.reduce((n, m) => n + m, 0) &&
      k.bandwidthBytes === k.protocolMessageBytes + k.publicKeyABytes + k.publicKeyBBytes,
  );
  const base = sums
    ? "Bandwidth counts all specified protocol messages and each required public key once. Public keys are transmitted bytes too. Certificates and transport framing are excluded."
    : "Bandwidth is the size audit's figure; for some rows it is not the protocol messages plus each public key once (see the size audit).";
  // The earlier harness published its raw timing records alongside; only its transcribed records say so.
  return audits.every((a) => isSynthesized(a.record))
    ? `${base} The published raw timing records are unchanged.`
    : base;
}

function kexCells(i: AuditInstance, at: PathsAt): Cell[] {
  const k = i.kex;
  if (!k)
    return [cell(i.failure ? failedText(i.failure, at) : NOT_MEASURED), ...Array.from({ length: 6 }, () => cell(DASH))];
  return [
    cell(String(k.passes)),
    cell(k.messageBytes.join(" + ")),
    cell(formatBytes(k.protocolMessageBytes)),
    cell(`${k.publicKeyABytes} / ${k.publicKeyBBytes}`),
    cell(formatBytes(k.bandwidthBytes)),
    cell(formatBytes(k.longTermSecretKeyBytes)),
    cell(formatBytes(k.sharedSecretBytes)),
  ];
}

function tableCells(i: AuditInstance, kem: boolean, at: PathsAt): Cell[] {
  const n = (v: number | undefined | null): Cell => cell(v === undefined || v === null ? DASH : formatBytes(v));
  const t = i.table;
  if (!t)
    return [
      cell(i.failure ? failedText(i.failure, at) : NOT_MEASURED),
      ...Array.from({ length: kem ? 3 : 2 }, () => cell(DASH)),
    ];
  return kem
    ? [n(t.publicKeyBytes), n(t.secretKeyBytes), n(t.ciphertextBytes), n(t.sharedSecretBytes)]
    : [n(t.publicKeyBytes), n(t.secretKeyBytes), n(t.signatureBytes)];
}

export function sizesSection(view: SystemView, alg: AlgorithmView) {
  const audits = view.auditsOf(alg.id);
  const first = audits[0];
  if (!first)
    return section("sizes", HEADING, { notes: [[text("No size audit in the store: sizes were not measured.")]] });
  const parts = sizesParts(view, alg, audits, first);
  return alg.category === "kex" ? kexSizes(alg, audits, parts) : tableSizes(alg, parts);
}

/** What section 6 has whatever the category: the audits shown, their rows' lead cells, the notes and lines. */
interface SizesParts {
  /** One audit when every profile's audit shows the same figures, else every audit (each row names its profile). */
  shown: Audit[];
  withProfile: boolean;
  lead: string[];
  /** The rows of the audits shown: instance, profile (when shown), then `cells` of the audit's instance. */
  rowsOf: (cells: (i: AuditInstance) => Cell[]) => Cell[][];
  auditLink: Inline;
  at: PathsAt;
  /** The audits' own notes, each once. */
  notes: Inline[][];
  /** The sentence that the sizes are the same under every profile, when there are several. */
  same: Inline[][];
  /** How many disagreements the audits found, with the link to the size audit; none when there are none. */
  disagreements: Inline[][];
}

/** The parts of section 6 every category shares, from the algorithm's audits (`first` among them). */
function sizesParts(view: SystemView, alg: AlgorithmView, audits: Audit[], first: Audit): SizesParts {
  // Audits of several profiles that show the same figures make one table; otherwise each row names its profile.
  const same = audits.every(
    (a) =>
      JSON.stringify(instancesOf(alg, a.record).map(shownOf)) ===
      JSON.stringify(instancesOf(alg, first.record).map(shownOf)),
  );
  const shown = same ? [first] : audits;
  const withProfile = shown.length > 1;
  const auditLink: Inline = { text: "size audit", page: "sizes", anchor: alg.id };
  // Disagreements only: an instance not in the catalog, or a row naming no instance, is no disagreement (the notes
  // and the size audit say those apart).
  const findings = new Set(
    audits.flatMap((a) => a.record.findings.filter((f) => isDisagreement(f.kind)).map((f) => JSON.stringify(f))),
  ).size;
  return {
    shown,
    withProfile,
    lead: withProfile ? ["instance", "build profile"] : ["instance"],
    rowsOf: (cells) =>
      shown.flatMap((a) =>
        instancesOf(alg, a.record).map((i) => [
          instanceCell(i.instance),
          ...(withProfile ? [cell(a.key.buildProfile)] : []),
          ...cells(i),
        ]),
      ),
    auditLink,
    at: { system: view.system, algorithmId: alg.id },
    notes: [...new Set(audits.flatMap((a) => a.record.notes ?? []))].map((note) => [text(note)]),
    same:
      audits.length > 1 && same
        ? [[text(`The sizes are the same under build profiles ${listText(audits.map((a) => a.key.buildProfile))}.`)]]
        : [],
    disagreements: findings
      ? [[text(`${findings} disagreement(s) between catalog, API and measurement: see the `), auditLink, text(".")]]
      : [],
  };
}

/** A key exchange's section 6: the bandwidth sentence and the bandwidth table. */
function kexSizes(alg: AlgorithmView, audits: ReadonlyArray<Audit>, p: SizesParts) {
  return section("sizes", HEADING, {
    notes: [[text(bandwidthSentence(audits))], ...p.notes],
    tables: [
      {
        caption: `Key-exchange bandwidth of each ${alg.id} instance (bytes)`,
        headers: [
          ...p.lead,
          "passes",
          "messages (bytes; raw API)",
          "protocol-message bytes",
          "public key A / B",
          "bandwidth (bytes)",
          "long-term sk (API cap)",
          "shared secret",
        ],
        rows: p.rowsOf((i) => kexCells(i, p.at)),
        rowHeaders: true,
      },
    ],
    after: [...p.same, ...p.disagreements],
  });
}

/** A KEM's or signature's section 6: where the sizes come from, the sizes table, variable-length signatures. */
function tableSizes(alg: AlgorithmView, p: SizesParts) {
  const kem = alg.category === "kem";
  return section("sizes", HEADING, {
    notes: [catalogSentence(p.shown, kem, p.auditLink), ...p.notes],
    tables: [
      {
        caption: `Sizes of each ${alg.id} instance (bytes)`,
        headers: kem
          ? [...p.lead, "public key", "secret key", "ciphertext", "shared secret"]
          : [...p.lead, "public key", "secret key", "signature"],
        rows: p.rowsOf((i) => tableCells(i, kem, p.at)),
        rowHeaders: true,
      },
    ],
    after: [...p.same, ...variableSignatures(p), ...p.disagreements],
  });
}

/** A line per instance whose signatures vary in length: the range and mean measured, and the API's cap. */
function variableSignatures({ shown, withProfile }: SizesParts): Inline[][] {
  const variable = shown.flatMap((a) =>
    a.record.instances
      .filter((i) => i.measured?.signatureBytes && i.measured.signatureBytes.min !== i.measured.signatureBytes.max)
      .map((i) => ({ i, name: withProfile ? `${i.instance} (${a.key.buildProfile})` : i.instance })),
  );
  return variable.map(({ i, name }) => {
    const d = i.measured?.signatureBytes as { min: number; mean: number; max: number; samples: number };
    return [
      text(
        `${name}: variable-length signatures, ${d.min}–${d.max} bytes (mean ${formatG(d.mean, 4)}, ${d.samples} signatures measured)${i.api?.signatureBytes ? ` below the API cap of ${i.api.signatureBytes}` : ""}.`,
      ),
    ];
  });
}
