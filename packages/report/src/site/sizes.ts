// The size-audit page of a system: per algorithm the catalog's sizes against the API figures of the compiled
// headers and the lengths measured, and every disagreement found — per build profile when there are several audits.
import type { SizeAuditRecord } from "@ngcc-perf/schema";
import { formatBytes } from "../format.ts";
import { type Cell, cell, code, type Page, type Section, type Table, text } from "../model.ts";
import { DASH, footer, header, listText, section } from "../parts.ts";
import { isDisagreement } from "../sections/sizes.ts";
import type { SiteContext, SystemView } from "../view.ts";

const FIELDS = ["publicKeyBytes", "secretKeyBytes", "ciphertextBytes", "signatureBytes", "sharedSecretBytes"] as const;
const LABEL: Record<string, string> = {
  publicKeyBytes: "public key",
  secretKeyBytes: "secret key",
  ciphertextBytes: "ciphertext",
  signatureBytes: "signature",
  sharedSecretBytes: "shared secret",
  publicKeyABytes: "public key A",
  publicKeyBBytes: "public key B",
  message1Bytes: "message 1",
  message2Bytes: "message 2",
  passes: "passes",
};

const num = (v: number | null | undefined) => (v === undefined || v === null ? DASH : formatBytes(v));
const orDash = (v: number | null | undefined) => (v === undefined || v === null ? DASH : String(v));

type AuditedInstance = SizeAuditRecord["instances"][number];

/**
 * A key exchange's fields: its public keys (the catalog's public key is B's, the responder's, as the audit reads
 * it), long-term secret key, messages and shared secret — catalog, API and the section-6 row the algorithm page
 * shows (messages have fixed lengths: nothing is measured).
 */
function kexFieldRows(i: AuditedInstance, kex: NonNullable<AuditedInstance["kex"]>, lead: Cell[]): Cell[][] {
  const listed = i.catalog?.kexMessageBytes;
  const fields: Array<[string, number | null | undefined, number | undefined]> = [
    ["publicKeyABytes", i.catalog ? (i.catalog.publicKeyABytes ?? null) : undefined, kex.publicKeyABytes],
    ["publicKeyBBytes", i.catalog ? i.catalog.publicKeyBytes : undefined, kex.publicKeyBBytes],
    ["secretKeyBytes", undefined, kex.longTermSecretKeyBytes],
    ...kex.messageBytes.map((m, k): [string, number | null | undefined, number] => [
      k === 0 ? "message1Bytes" : "message2Bytes",
      i.catalog ? (listed?.[k] ?? null) : undefined,
      m,
    ]),
    ["sharedSecretBytes", undefined, kex.sharedSecretBytes],
  ];
  return fields.map(([f, cat, api]) => [
    ...lead,
    cell(LABEL[f] ?? f),
    cell(num(cat)),
    cell(num(api)),
    cell(DASH),
    cell(num(api)),
  ]);
}

/** Catalog, API, measured and shown figure of every size field an instance has. */
function fieldRows(audit: SizeAuditRecord, lead: (instance: string) => Cell[]): Cell[][] {
  const rows: Cell[][] = [];
  for (const i of audit.instances) {
    if (i.kex) {
      rows.push(...kexFieldRows(i, i.kex, lead(i.instance)));
      continue;
    }
    for (const f of FIELDS) {
      const api = i.api?.[f];
      const transmitted = f === "publicKeyBytes" || f === "ciphertextBytes" || f === "signatureBytes";
      const cat = transmitted ? i.catalog?.[f] : undefined;
      const measured = transmitted ? i.measured?.[f] : undefined;
      const shown = i.table?.[f];
      if (api === undefined && (cat === undefined || cat === null) && measured === undefined && shown === undefined)
        continue;
      const m = measured
        ? measured.min === measured.max
          ? formatBytes(measured.max)
          : `${measured.min}–${measured.max}`
        : DASH;
      rows.push([...lead(i.instance), cell(LABEL[f] ?? f), cell(num(cat)), cell(num(api)), cell(m), cell(num(shown))]);
    }
  }
  return rows;
}

function findingRows(audit: SizeAuditRecord, lead: (instance: string) => Cell[]): Cell[][] {
  return audit.findings
    .filter((f) => isDisagreement(f.kind))
    .map((f) => [
      ...lead(f.instance),
      cell(f.kind),
      cell(f.field ? (LABEL[f.field] ?? f.field) : DASH),
      cell(orDash(f.catalog)),
      cell(orDash(f.api)),
      cell(orDash(f.measured)),
      cell(f.note ?? ""),
    ]);
}

/** Catalog rows missing for an audited instance, or naming no instance: not disagreements, listed apart. */
function rowRows(audit: SizeAuditRecord, lead: (instance: string) => Cell[]): Cell[][] {
  return audit.findings
    .filter((f) => f.kind === "catalog-row-missing" || f.kind === "catalog-row-unknown-instance")
    .map((f) => [
      ...lead(f.instance),
      cell(
        f.kind === "catalog-row-missing"
          ? "not in the catalog"
          : `catalog row naming no instance${f.line ? ` (line ${f.line})` : ""}`,
      ),
      cell(f.note ?? ""),
    ]);
}

/** The sentence of an algorithm's audit: its disagreements, then what the catalog lacks or has in excess. */
function auditSentence(audits: ReadonlyArray<{ record: SizeAuditRecord }>, disagreements: number, profiles: string) {
  const kinds = (kind: string) => [
    ...new Set(audits.flatMap((a) => a.record.findings.filter((f) => f.kind === kind).map((f) => f.instance))),
  ];
  const missing = kinds("catalog-row-missing");
  const unknown = kinds("catalog-row-unknown-instance");
  const head = disagreements
    ? `${disagreements} disagreement(s)${profiles}.`
    : missing.length || unknown.length
      ? `No disagreement where the catalog has a row${profiles}.`
      : `Catalog, API and measurement agree${profiles}.`;
  const notIn = missing.length ? ` Not in the catalog: ${listText(missing)} (the API's figures are shown).` : "";
  const extra = unknown.length ? ` Catalog rows naming no instance: ${listText(unknown)}.` : "";
  return `${head}${notIn}${extra} `;
}

export function sizesPage(ctx: SiteContext, view: SystemView): Page {
  const sections: Section[] = [];
  for (const alg of view.algorithms) {
    const audits = view.auditsOf(alg.id);
    const heading = `${alg.id}${alg.name ? ` ${alg.name}` : ""}`;
    if (audits.length === 0) {
      sections.push(section(alg.id, heading, { notes: [[text("Not audited: no size audit in the store.")]] }));
      continue;
    }
    const several = audits.length > 1;
    const leadHeaders = several ? ["instance", "build profile"] : ["instance"];
    const findings: Cell[][] = [];
    const rows: Cell[][] = [];
    const fields: Cell[][] = [];
    for (const a of audits) {
      const lead = (instance: string): Cell[] =>
        several ? [[code(instance)], cell(a.key.buildProfile)] : [[code(instance)]];
      findings.push(...findingRows(a.record, lead));
      rows.push(...rowRows(a.record, lead));
      fields.push(...fieldRows(a.record, lead));
    }
    const tables: Table[] = [];
    if (findings.length)
      tables.push({
        caption: `Disagreements found for ${alg.id}`,
        headers: [...leadHeaders, "finding", "field", "catalog", "API", "measured", "note"],
        rows: findings,
        rowHeaders: true,
      });
    if (rows.length)
      tables.push({
        caption: `Catalog rows missing for ${alg.id}, or naming no instance of it (not disagreements)`,
        headers: [...leadHeaders, "catalog", "note"],
        rows,
        rowHeaders: true,
      });
    if (fields.length)
      tables.push({
        caption: `Sizes of ${alg.id} from the catalog, the API and measurement (bytes)`,
        headers: [...leadHeaders, "field", "catalog", "API", "measured", "on the page"],
        rows: fields,
        rowHeaders: true,
      });
    const profiles = several ? ` (build profiles ${listText(audits.map((a) => a.key.buildProfile))})` : "";
    sections.push(
      section(alg.id, heading, {
        notes: [
          [
            text(auditSentence(audits, findings.length, profiles)),
            { text: "Page", page: alg.id, anchor: "sizes" },
            text("."),
          ],
        ],
        tables,
      }),
    );
  }
  return {
    kind: "sizes",
    path: `${view.system}/sizes`,
    header: header(ctx, view, "size audit", (other) => `../${other.system}/sizes`),
    title: `Size audit of system ${view.system}`,
    intro: [
      [
        text(
          "Per algorithm: the public-key, ciphertext and signature sizes of the curated catalog against the API figures of the compiled headers and the lengths measured, and every disagreement found. Pages show catalog figures for what is transmitted (the API's where the catalog has none) and API figures for secret keys and shared secrets.",
        ),
      ],
    ],
    sections,
    footer: footer(ctx, view),
  };
}
