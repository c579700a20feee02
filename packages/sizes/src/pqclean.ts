// A size catalog for PQClean's schemes, made from the lengths in their META.yml files (as collected in
// fixtures/reference/pqclean-meta-lengths.json): one row per scheme, algorithm id and instance both the
// scheme's folder name, as a campaign names a PQClean algorithm (source: { pqclean: <folder> }).
import { InputError } from "@ngcc-perf/runner";
import type { CatalogRow } from "./catalog.ts";

interface MetaEntry {
  "length-public-key"?: number;
  "length-ciphertext"?: number;
  "length-signature"?: number;
  type?: string;
  name?: string;
}

/** Rows for every `crypto_kem/<scheme>` and `crypto_sign/<scheme>` key of the META lengths file, in its order. */
export function pqcleanCatalogRows(
  meta: Record<string, unknown>,
  file = "pqclean-meta-lengths.json",
): Omit<CatalogRow, "line">[] {
  const src = meta._source as { repo?: string; commit?: string } | undefined;
  const at = src?.commit ? ` @ ${src.commit.slice(0, 12)}` : "";
  const rows: Omit<CatalogRow, "line">[] = [];
  for (const [key, value] of Object.entries(meta)) {
    if (key.startsWith("_")) continue;
    const m = /^crypto_(kem|sign)\/([A-Za-z0-9][A-Za-z0-9_.+-]*)$/.exec(key);
    const e = value as MetaEntry;
    if (!m || typeof e !== "object" || e === null)
      throw new InputError(`${file}: /${key}: expected crypto_kem/<scheme> or crypto_sign/<scheme> with its lengths`);
    const kem = m[1] === "kem";
    const need = (field: keyof MetaEntry): number => {
      const v = e[field];
      if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) {
        throw new InputError(`${file}: /${key}/${field}: expected a length in bytes`);
      }
      return v;
    };
    const scheme = m[2] as string;
    rows.push({
      algorithmId: scheme,
      instance: scheme,
      category: kem ? "kem" : "sign",
      publicKeyBytes: need("length-public-key"),
      ciphertextBytes: kem ? need("length-ciphertext") : null,
      signatureBytes: kem ? null : need("length-signature"),
      publicKeyABytes: null,
      kexMessageBytes: null,
      source: `${src?.repo ?? "PQClean/PQClean"}${at} ${key}/META.yml`,
      note: "",
    });
  }
  return rows;
}
