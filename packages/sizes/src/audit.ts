// The audit of one algorithm: catalog vs API vs measured per instance and field, the section-6 rows and
// their notes. Pure: every input is passed in, so the rules can be tested without a compiler.
import type { SizeAuditRecord } from "@ngcc-perf/schema";
import type { ApiFigures } from "./api.ts";
import type { CatalogRow, Category } from "./catalog.ts";
import { MEASURED_FIELDS, type Measured } from "./measured.ts";

export type AuditInstance = SizeAuditRecord["instances"][number];

/**
 * The findings that are disagreements of figures; a catalog row missing for an instance ("not in the catalog") or
 * naming no instance is a finding of the catalog's coverage, counted and worded apart.
 */
export const DISAGREEMENT_KINDS = ["catalog-differs-from-api", "measured-exceeds-api"] as const;
export type Finding = SizeAuditRecord["findings"][number];
type Field = NonNullable<Finding["field"]>;

export interface InstanceInput {
  instance: string;
  /** null when the API figures could not be read (then `failure` says why). */
  api: ApiFigures | null;
  failure?: AuditInstance["failure"];
  commands?: AuditInstance["commands"];
  measured: Measured;
}

export interface AuditInput {
  algorithmId: string;
  category: Category;
  /** The instances audited, in page order. */
  instances: InstanceInput[];
  /** Every instance the algorithm has in the campaign (a catalog row naming another is unknown). */
  knownInstances: readonly string[];
  /** The catalog's rows (all algorithms), or null when the campaign names no catalog. */
  catalog: readonly CatalogRow[] | null;
}

export interface AuditResult {
  instances: AuditInstance[];
  findings: Finding[];
  notes: string[];
}

/** The seeds' note for an exchange where only the responder holds a long-term key. */
export const NOTE_RESPONDER_ONLY =
  "Only the responder's long-term public key is required; this exchange does not authenticate the initiator as a mutually authenticated protocol would.";
export const NOTE_INITIATOR_ONLY =
  "Only the initiator's long-term public key is required; this exchange does not authenticate the responder as a mutually authenticated protocol would.";
export const NOTE_NO_LONG_TERM_KEY =
  "Neither party has a long-term public key; this exchange authenticates neither party, as an unauthenticated protocol would not.";

/** Bandwidth as ngcc-perf reports it (docs/key-exchange.md): every message plus each required public key once. */
export function kexBandwidth(messages: readonly number[], publicKeyABytes: number, publicKeyBBytes: number): number {
  return messages.reduce((s, m) => s + m, 0) + publicKeyABytes + publicKeyBBytes;
}

/** The key-exchange section-6 row from the API figures. */
export function kexRow(api: ApiFigures): NonNullable<AuditInstance["kex"]> {
  const s = api.sizes;
  const n = (v: number | undefined) => v ?? 0;
  const passes = n(s.passes);
  const messageBytes = passes >= 2 ? [n(s.msg1Bytes), n(s.msg2Bytes)] : [n(s.msg1Bytes)];
  const publicKeyABytes = n(s.publicKeyABytes);
  const publicKeyBBytes = n(s.publicKeyBBytes);
  const bandwidthBytes = kexBandwidth(messageBytes, publicKeyABytes, publicKeyBBytes);
  if (s.bandwidthBytes !== undefined && s.bandwidthBytes !== bandwidthBytes) {
    throw new Error(
      `bandwidth rule disagrees with NGCC_KEX_BANDWIDTH_BYTES (${bandwidthBytes} vs ${s.bandwidthBytes}): native/include/ngcc_kex.h and audit.ts must change together`,
    );
  }
  return {
    passes,
    messageBytes,
    protocolMessageBytes: messageBytes.reduce((a, b) => a + b, 0),
    publicKeyABytes,
    publicKeyBBytes,
    bandwidthBytes,
    longTermSecretKeyBytes: Math.max(n(s.secretKeyABytes), n(s.secretKeyBBytes)),
    sharedSecretBytes: n(s.sharedSecretBytes),
  };
}

/** Which note on authentication a key exchange needs, if any. */
export function authenticationNote(publicKeyABytes: number, publicKeyBBytes: number): string | null {
  if (publicKeyABytes === 0 && publicKeyBBytes > 0) return NOTE_RESPONDER_ONLY;
  if (publicKeyABytes > 0 && publicKeyBBytes === 0) return NOTE_INITIATOR_ONLY;
  if (publicKeyABytes === 0 && publicKeyBBytes === 0) return NOTE_NO_LONG_TERM_KEY;
  return null;
}

const FIELD_LABEL: Record<Field, string> = {
  publicKeyBytes: "public key",
  secretKeyBytes: "secret key",
  ciphertextBytes: "ciphertext",
  signatureBytes: "signature",
  sharedSecretBytes: "shared secret",
  publicKeyABytes: "initiator's public key (public_key_a)",
  publicKeyBBytes: "responder's public key (public_key)",
  message1Bytes: "pass-1 message",
  message2Bytes: "pass-2 message",
  passes: "number of protocol messages",
};

function catalogOf(row: CatalogRow): NonNullable<AuditInstance["catalog"]> {
  return {
    publicKeyBytes: row.publicKeyBytes,
    ciphertextBytes: row.ciphertextBytes,
    signatureBytes: row.signatureBytes,
    ...(row.publicKeyABytes !== null ? { publicKeyABytes: row.publicKeyABytes } : {}),
    ...(row.kexMessageBytes !== null ? { kexMessageBytes: row.kexMessageBytes } : {}),
    source: row.source,
    note: row.note,
    line: row.line,
  };
}

/** Groups notes: one that applies to every instance stands alone, else it names its instances. */
function groupNotes(perInstance: Array<[string, string]>, all: readonly string[]): string[] {
  const by = new Map<string, string[]>();
  for (const [inst, note] of perInstance) by.set(note, [...(by.get(note) ?? []), inst]);
  return [...by].map(([note, insts]) => (insts.length === all.length ? note : `${insts.join(", ")}: ${note}`));
}

/** What auditing one instance gives: its record entry, its findings, and the notes it asks for. */
interface InstanceAudit {
  entry: AuditInstance;
  findings: Finding[];
  authNote?: string;
  fallbackNote?: string;
}

/** Records a catalog-differs-from-api finding for a field when the row's figure is not the API's. */
type Differs = (field: Field, catalog: number | null, apiValue: number | null) => void;

function differsInto(findings: Finding[], instance: string, row: CatalogRow | null): Differs {
  return (field, catalog, apiValue) => {
    if (!row || catalog === apiValue) return;
    findings.push({
      instance,
      kind: "catalog-differs-from-api",
      field,
      catalog,
      api: apiValue,
      line: row.line,
      note:
        row.note ||
        (catalog === null
          ? `the catalog gives no ${FIELD_LABEL[field]}; the API gives ${apiValue}`
          : `the catalog's ${FIELD_LABEL[field]} is ${catalog} bytes, the API's ${apiValue ?? "none"}`),
    });
  };
}

/** A key exchange's row, the catalog's messages and keys against it, and the note on authentication. */
function auditKex(api: ApiFigures, row: CatalogRow | null, entry: AuditInstance, differs: Differs): string | null {
  const kex = kexRow(api);
  entry.api = { secretKeyBytes: kex.longTermSecretKeyBytes, sharedSecretBytes: kex.sharedSecretBytes, ...api.sizes };
  entry.kex = kex;
  if (row) {
    differs("publicKeyBBytes", row.publicKeyBytes, kex.publicKeyBBytes);
    differs("publicKeyABytes", row.publicKeyABytes, kex.publicKeyABytes);
    const listed = row.kexMessageBytes ?? [];
    if (listed.length !== kex.passes) differs("passes", row.kexMessageBytes ? listed.length : null, kex.passes);
    kex.messageBytes.forEach((m, i) => {
      if (i < listed.length) differs(i === 0 ? "message1Bytes" : "message2Bytes", listed[i] ?? null, m);
    });
  }
  return authenticationNote(kex.publicKeyABytes, kex.publicKeyBBytes);
}

/** A KEM's or signature's section-6 row (catalog figures, else the API's) and the note when it fell back. */
function auditTable(
  api: ApiFigures,
  category: "kem" | "sign",
  row: CatalogRow | null,
  entry: AuditInstance,
  differs: Differs,
): string | null {
  const s = api.sizes;
  const fields: Array<"publicKeyBytes" | "ciphertextBytes" | "signatureBytes"> =
    category === "kem" ? ["publicKeyBytes", "ciphertextBytes"] : ["publicKeyBytes", "signatureBytes"];
  entry.api = { ...s };
  const table: NonNullable<AuditInstance["table"]> = {};
  const from: NonNullable<AuditInstance["tableFrom"]> = {};
  const fellBack: string[] = [];
  for (const f of fields) {
    const apiValue = s[f] ?? null;
    const cat = row ? row[f] : null;
    differs(f, cat, apiValue);
    if (cat !== null) {
      table[f] = cat;
      from[f] = "catalog";
    } else if (apiValue !== null) {
      table[f] = apiValue;
      from[f] = "api";
      fellBack.push(FIELD_LABEL[f]);
    }
  }
  // Section-6 column order: public key, secret key, ciphertext | signature, shared secret.
  entry.table = {
    ...(table.publicKeyBytes !== undefined ? { publicKeyBytes: table.publicKeyBytes } : {}),
    ...(s.secretKeyBytes !== undefined ? { secretKeyBytes: s.secretKeyBytes } : {}),
    ...(table.ciphertextBytes !== undefined ? { ciphertextBytes: table.ciphertextBytes } : {}),
    ...(table.signatureBytes !== undefined ? { signatureBytes: table.signatureBytes } : {}),
    ...(s.sharedSecretBytes !== undefined ? { sharedSecretBytes: s.sharedSecretBytes } : {}),
  };
  entry.tableFrom = from;
  if (fellBack.length === 0) return null;
  return row
    ? `The catalog gives no ${fellBack.join(" or ")}: the API's figure is shown.`
    : `No catalog row: the ${fellBack.join(" and ")} shown are the API's figures.`;
}

/** Measured outputs above the API's cap: the implementation writes past buffers sized by the API. */
function exceedsFindings(inst: InstanceInput, api: ApiFigures, row: CatalogRow | null): Finding[] {
  return MEASURED_FIELDS.flatMap((f): Finding[] => {
    const d = inst.measured[f];
    const cap = api.sizes[f];
    if (!d || cap === undefined || d.max <= cap) return [];
    return [
      {
        instance: inst.instance,
        kind: "measured-exceeds-api",
        field: f,
        api: cap,
        measured: d.max,
        ...(row ? { catalog: row[f] } : {}),
        note: `the implementation output a ${FIELD_LABEL[f]} of ${d.max} bytes (${d.sources.map((x) => x.path).join(", ")}), more than the API's ${cap}: an implementation bug (a buffer sized by the API overflows)`,
      },
    ];
  });
}

function auditInstance(input: AuditInput, inst: InstanceInput, rows: readonly CatalogRow[]): InstanceAudit {
  const { algorithmId, category } = input;
  const row = rows.find((r) => r.instance === inst.instance) ?? null;
  const entry: AuditInstance = { instance: inst.instance };
  const findings: Finding[] = [];
  if (input.catalog !== null) {
    entry.catalog = row ? catalogOf(row) : null;
    if (!row) {
      // Not a disagreement: the catalog says nothing of the instance (its figures on the page are the API's).
      const note = `${algorithmId}/${inst.instance} is not in the catalog (no row names it)`;
      findings.push({ instance: inst.instance, kind: "catalog-row-missing", note });
    }
  }
  if (Object.keys(inst.measured).length > 0) entry.measured = inst.measured;
  if (inst.commands) entry.commands = inst.commands;
  if (!inst.api) {
    if (inst.failure) entry.failure = inst.failure;
    return { entry, findings };
  }
  entry.algname = inst.api.algname;
  if (row?.category && row.category !== category) {
    findings.push({
      instance: inst.instance,
      kind: "catalog-differs-from-api",
      line: row.line,
      note: `the catalog row's category is ${row.category}; ${algorithmId}'s api.h is a ${category}`,
    });
  }
  const differs = differsInto(findings, inst.instance, row);
  const authNote = category === "kex" ? auditKex(inst.api, row, entry, differs) : null;
  const fallbackNote = category === "kex" ? null : auditTable(inst.api, category, row, entry, differs);
  findings.push(...exceedsFindings(inst, inst.api, row));
  return { entry, findings, ...(authNote ? { authNote } : {}), ...(fallbackNote ? { fallbackNote } : {}) };
}

/** Rows that name the algorithm but an instance it does not have. */
function unknownRowFindings(input: AuditInput, rows: readonly CatalogRow[]): Finding[] {
  const known = new Set(input.knownInstances);
  return rows
    .filter((r) => !known.has(r.instance))
    .map((r) => ({
      instance: r.instance,
      kind: "catalog-row-unknown-instance" as const,
      line: r.line,
      note: `the catalog names ${input.algorithmId}/${r.instance}, which is not an instance of ${input.algorithmId} (instances: ${input.knownInstances.join(", ")})`,
    }));
}

export function auditAlgorithm(input: AuditInput): AuditResult {
  const rows = (input.catalog ?? []).filter((r) => r.algorithmId === input.algorithmId);
  const audits = input.instances.map((inst) => auditInstance(input, inst, rows));
  const notesOf = (pick: (a: InstanceAudit) => string | undefined) =>
    audits.flatMap((a): Array<[string, string]> => {
      const note = pick(a);
      return note ? [[a.entry.instance, note]] : [];
    });
  const names = input.instances.map((i) => i.instance);
  const noCatalog =
    input.category === "kex"
      ? "No size catalog is configured (campaign sizes.catalog); the figures are the API's, unaudited."
      : "No size catalog is configured (campaign sizes.catalog); public-key, ciphertext and signature sizes are the API's figures.";
  return {
    instances: audits.map((a) => a.entry),
    findings: [...audits.flatMap((a) => a.findings), ...unknownRowFindings(input, rows)],
    notes: [
      ...groupNotes(
        notesOf((a) => a.authNote),
        names,
      ),
      ...(input.catalog === null
        ? [noCatalog]
        : groupNotes(
            notesOf((a) => a.fallbackNote),
            names,
          )),
    ],
  };
}
