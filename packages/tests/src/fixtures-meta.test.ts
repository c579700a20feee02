/**
 * Submission metadata (meta.json) and the size catalog
 * (fixtures/catalog/external_sizes.csv) agree with the code: every path
 * exists, KAT file names follow the NIST rule, and the catalog has a row for
 * every instance and disagrees with the API figures exactly where its notes
 * say so.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { catalogFile, listSubmissions, makeTempDir, readApiSizes } from "./fixture-tools.ts";

const work = makeTempDir("ngcc-meta-");
afterAll(() => rmSync(work, { recursive: true, force: true }));
const subs = listSubmissions();

/** Minimal RFC 4180 CSV parser (quoted fields, doubled quotes). */
function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let field = "";
  let row: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field !== "" || row.length) rows.push([...row, field]);
  const [head, ...body] = rows;
  if (!head) return [];
  return body.map((r) => {
    expect(r).toHaveLength(head.length);
    return Object.fromEntries(head.map((h, i) => [h, r[i] ?? ""]));
  });
}

describe("meta.json", () => {
  it.each(subs.map((s) => [s.meta.id, s] as const))(
    "%s: paths exist, names and KAT files are consistent",
    (id, sub) => {
      const m = sub.meta;
      expect(m.id).toBe(id);
      expect(m.schemaVersion).toBe(1);
      expect(["kem", "sign", "kex"]).toContain(m.category);
      expect(m.parameterSets).toEqual(m.instances.map((i) => i.parameterSet));
      expect(existsSync(join(sub.dir, m.katManifest))).toBe(true);
      const stem = { kem: "PQCkemKAT_", sign: "PQCsignKAT_", kex: "PQCkexKAT_" }[m.category];
      for (const inst of m.instances) {
        expect(m.implementations.map((i) => i.name)).toContain(inst.implementation);
        for (const p of [inst.folder, inst.apiHeader, ...inst.sources, ...inst.includeDirs, inst.kat.file]) {
          expect(existsSync(join(sub.dir, p)), p).toBe(true);
        }
        expect(inst.kat.file).toMatch(new RegExp(`^KAT/${inst.name}/${stem}\\d+\\.rsp$`));
      }
    },
  );
});

describe("size catalog", () => {
  const rows = parseCsv(readFileSync(catalogFile, "utf8"));

  it("has one row per fixture instance", () => {
    const want = subs.flatMap((s) => s.meta.instances.map((i) => `${s.meta.id}/${i.name}`)).sort();
    expect(rows.map((r) => `${r.algorithm_id}/${r.instance}`).sort()).toEqual(want);
  });

  it("disagrees with the API figures exactly where a note says so", async () => {
    const disagreements: string[] = [];
    for (const sub of subs) {
      for (const inst of sub.meta.instances) {
        const api = await readApiSizes(sub, inst, work);
        const row = rows.find((r) => r.algorithm_id === sub.meta.id && r.instance === inst.name);
        if (!row) throw new Error(`no catalog row for ${inst.name}`);
        expect(row.category).toBe(sub.meta.category);
        // KAT file name carries the API secret-key size (B's for a key exchange)
        const sk = sub.meta.category === "kex" ? api.secretKeyBytesB : api.secretKeyBytes;
        expect(inst.kat.file.endsWith(`_${sk}.rsp`)).toBe(true);
        const pairs: [string, string, string][] =
          sub.meta.category === "kex"
            ? [
                ["public_key", row.public_key ?? "", String(api.publicKeyBytesB)],
                ["public_key_a", row.public_key_a ?? "", String(api.publicKeyBytesA)],
                [
                  "kex_messages",
                  row.kex_messages ?? "",
                  api.passes === 2 ? `${api.msg1Bytes}+${api.msg2Bytes}` : String(api.msg1Bytes),
                ],
              ]
            : sub.meta.category === "kem"
              ? [
                  ["public_key", row.public_key ?? "", String(api.publicKeyBytes)],
                  ["ciphertext", row.ciphertext ?? "", String(api.ciphertextBytes)],
                ]
              : [
                  ["public_key", row.public_key ?? "", String(api.publicKeyBytes)],
                  ["signature", row.signature ?? "", String(api.signatureBytes)],
                ];
        const differs = pairs.filter(([, cat, a]) => cat !== a).map(([f]) => `${inst.name}.${f}`);
        disagreements.push(...differs);
        expect((row.note ?? "") !== "", `${inst.name}: a note if and only if it disagrees`).toBe(differs.length > 0);
      }
    }
    expect(disagreements.sort()).toEqual([
      "Heron-2P-128.kex_messages",
      "Puffin-256.ciphertext",
      "Quill-V-192.signature",
    ]);
  }, 120_000);
});
