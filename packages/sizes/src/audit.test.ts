import { describe, expect, it } from "vitest";
import type { ApiFigures } from "./api.ts";
import {
  auditAlgorithm,
  authenticationNote,
  kexBandwidth,
  kexRow,
  NOTE_INITIATOR_ONLY,
  NOTE_NO_LONG_TERM_KEY,
  NOTE_RESPONDER_ONLY,
} from "./audit.ts";
import { type CatalogRow, parseCatalog } from "./catalog.ts";
import type { Measured } from "./measured.ts";

const HEADER = "algorithm_id,instance,category,public_key,ciphertext,signature,public_key_a,kex_messages,source,note";
const catalog = (...rows: string[]): CatalogRow[] => parseCatalog(`${HEADER}\n${rows.join("\n")}\n`, "t.csv");

const kem = (pk: number, sk: number, ct: number, ss: number): ApiFigures => ({
  category: "kem",
  algname: null,
  sizes: { publicKeyBytes: pk, secretKeyBytes: sk, ciphertextBytes: ct, sharedSecretBytes: ss },
});
const sign = (pk: number, sk: number, sig: number): ApiFigures => ({
  category: "sign",
  algname: "S",
  sizes: { publicKeyBytes: pk, secretKeyBytes: sk, signatureBytes: sig },
});
const kex = (
  passes: number,
  m1: number,
  m2: number,
  pkA: number,
  skA: number,
  pkB: number,
  skB: number,
  ss = 32,
): ApiFigures => ({
  category: "kex",
  algname: "K",
  sizes: {
    passes,
    msg1Bytes: m1,
    msg2Bytes: m2,
    publicKeyABytes: pkA,
    secretKeyABytes: skA,
    publicKeyBBytes: pkB,
    secretKeyBBytes: skB,
    stateABytes: 0,
    stateBBytes: 0,
    sharedSecretBytes: ss,
  },
});
const sigLengths = (
  min: number,
  mean: number,
  max: number,
  samples: number,
  path = "records/s/S-1__sign.json",
): Measured => ({
  signatureBytes: { min, mean, max, samples, sources: [{ source: "timing", path, min, mean, max, samples }] },
});

describe("key-exchange bandwidth", () => {
  it("counts every protocol message and each required public key once", () => {
    // One pass, responder key only (MAMBA-NIKE-128 in the seeds): 1568 + 0 + 1184.
    expect(kexBandwidth([1568], 0, 1184)).toBe(2752);
    const row = kexRow(kex(2, 1632, 832, 64, 96, 800, 1600));
    expect(row).toEqual({
      passes: 2,
      messageBytes: [1632, 832],
      protocolMessageBytes: 2464,
      publicKeyABytes: 64,
      publicKeyBBytes: 800,
      bandwidthBytes: 1632 + 832 + 64 + 800,
      longTermSecretKeyBytes: 1600,
      sharedSecretBytes: 32,
    });
    // A one-pass exchange lists one message (CRYPTO_KEX_MSG2BYTES is 0 and not a message).
    expect(kexRow(kex(1, 832, 0, 0, 0, 800, 1600)).messageBytes).toEqual([832]);
  });

  it("refuses a C macro that disagrees with the rule", () => {
    const api = kex(1, 832, 0, 0, 0, 800, 1600);
    api.sizes.bandwidthBytes = 832;
    expect(() => kexRow(api)).toThrow(/NGCC_KEX_BANDWIDTH_BYTES/);
  });

  it("says which party the exchange does not authenticate", () => {
    expect(authenticationNote(0, 800)).toBe(NOTE_RESPONDER_ONLY);
    expect(authenticationNote(800, 0)).toBe(NOTE_INITIATOR_ONLY);
    expect(authenticationNote(0, 0)).toBe(NOTE_NO_LONG_TERM_KEY);
    expect(authenticationNote(32, 800)).toBeNull();
  });
});

describe("auditAlgorithm", () => {
  it("finds nothing when catalog, API and measurement agree, and builds the section-6 row", () => {
    const r = auditAlgorithm({
      algorithmId: "k",
      category: "kem",
      instances: [{ instance: "K-1", api: kem(800, 1632, 768, 32), measured: {} }],
      knownInstances: ["K-1"],
      catalog: catalog("k,K-1,kem,800,768,,,,doc,"),
    });
    expect(r.findings).toEqual([]);
    expect(r.notes).toEqual([]);
    expect(r.instances[0]?.table).toEqual({
      publicKeyBytes: 800,
      secretKeyBytes: 1632,
      ciphertextBytes: 768,
      sharedSecretBytes: 32,
    });
    expect(r.instances[0]?.tableFrom).toEqual({ publicKeyBytes: "catalog", ciphertextBytes: "catalog" });
  });

  it("finds each kind: catalog differs, row missing, row for an unknown instance, measured above the cap", () => {
    const r = auditAlgorithm({
      algorithmId: "s",
      category: "sign",
      instances: [
        { instance: "S-1", api: sign(32, 64, 2000), measured: sigLengths(1900, 1990.5, 2001, 40) },
        {
          instance: "S-2",
          api: sign(48, 96, 3000),
          measured: sigLengths(1700, 2100, 2400, 40, "records/s/S-2__sign.json"),
        },
      ],
      knownInstances: ["S-1", "S-2", "S-3"],
      catalog: catalog(
        "s,S-1,sign,32,,1990,,,doc,quotes the mean",
        "s,S-3,sign,64,,4000,,,doc,",
        "s,S-9,sign,64,,4000,,,doc,",
        "other,S-1,sign,1,,1,,,doc,",
      ),
    });
    expect(r.findings).toEqual([
      {
        instance: "S-1",
        kind: "catalog-differs-from-api",
        field: "signatureBytes",
        catalog: 1990,
        api: 2000,
        line: 2,
        note: "quotes the mean",
      },
      expect.objectContaining({
        instance: "S-1",
        kind: "measured-exceeds-api",
        field: "signatureBytes",
        api: 2000,
        measured: 2001,
        catalog: 1990,
      }),
      expect.objectContaining({ instance: "S-2", kind: "catalog-row-missing" }),
      expect.objectContaining({ instance: "S-9", kind: "catalog-row-unknown-instance", line: 4 }),
    ]);
    expect(r.findings[1]?.note).toContain("records/s/S-1__sign.json");
    // S-3 is an instance the campaign left out, not an unknown one; another algorithm's rows are not ours.
    // With no row, S-2's table falls back to the API and says so.
    expect(r.instances[1]?.table).toEqual({ publicKeyBytes: 48, secretKeyBytes: 96, signatureBytes: 3000 });
    expect(r.instances[1]?.tableFrom).toEqual({ publicKeyBytes: "api", signatureBytes: "api" });
    expect(r.notes).toEqual(["S-2: No catalog row: the public key and signature shown are the API's figures."]);
    expect(r.instances[0]?.measured?.signatureBytes).toMatchObject({ min: 1900, max: 2001, samples: 40 });
  });

  it("audits a key exchange's public keys and messages per pass, and notes the authentication", () => {
    const r = auditAlgorithm({
      algorithmId: "x",
      category: "kex",
      instances: [
        { instance: "X-1", api: kex(1, 832, 0, 0, 0, 800, 1600), measured: {} },
        { instance: "X-2P", api: kex(2, 1632, 832, 0, 0, 800, 1600), measured: {} },
        { instance: "X-3", api: kex(2, 1632, 832, 0, 0, 800, 1600), measured: {} },
      ],
      knownInstances: ["X-1", "X-2P", "X-3"],
      catalog: catalog("x,X-1,kex,800,,,0,832,doc,", "x,X-2P,kex,801,,,,832+832,doc,", "x,X-3,kex,800,,,0,1632,doc,"),
    });
    expect(r.findings.map((f) => [f.instance, f.field, f.catalog, f.api])).toEqual([
      ["X-2P", "publicKeyBBytes", 801, 800],
      ["X-2P", "publicKeyABytes", null, 0],
      ["X-2P", "message1Bytes", 832, 1632],
      ["X-3", "passes", 1, 2],
    ]);
    expect(r.instances[1]?.kex?.bandwidthBytes).toBe(1632 + 832 + 800);
    expect(r.instances[1]?.api).toMatchObject({
      secretKeyBytes: 1600,
      sharedSecretBytes: 32,
      passes: 2,
      msg1Bytes: 1632,
    });
    expect(r.notes).toEqual([NOTE_RESPONDER_ONLY]);
  });

  it("names the instances a note applies to when it is not all of them", () => {
    const r = auditAlgorithm({
      algorithmId: "x",
      category: "kex",
      instances: [
        { instance: "X-1", api: kex(1, 832, 0, 0, 0, 800, 1600), measured: {} },
        { instance: "X-M", api: kex(2, 832, 832, 800, 1600, 800, 1600), measured: {} },
      ],
      knownInstances: ["X-1", "X-M"],
      catalog: null,
    });
    expect(r.findings).toEqual([]);
    expect(r.notes[0]).toBe(`X-1: ${NOTE_RESPONDER_ONLY}`);
    expect(r.notes[1]).toMatch(/^No size catalog is configured/);
    expect(r.instances[0]?.catalog).toBeUndefined();
  });

  it("keeps a failed instance with its failure and audits the rest", () => {
    const r = auditAlgorithm({
      algorithmId: "k",
      category: "kem",
      instances: [
        {
          instance: "K-1",
          api: null,
          failure: { reason: "compile-error", message: "api.h: no CRYPTO_BYTES" },
          measured: {},
        },
        { instance: "K-2", api: kem(1, 2, 3, 4), measured: {} },
      ],
      knownInstances: ["K-1", "K-2"],
      catalog: catalog("k,K-1,kem,1,3,,,,doc,", "k,K-2,kem,1,3,,,,doc,"),
    });
    expect(r.instances[0]).toMatchObject({ instance: "K-1", failure: { reason: "compile-error" } });
    expect(r.instances[0]?.table).toBeUndefined();
    expect(r.findings).toEqual([]);
  });

  it("flags a catalog row whose category is not the algorithm's", () => {
    const r = auditAlgorithm({
      algorithmId: "k",
      category: "kem",
      instances: [{ instance: "K-1", api: kem(1, 2, 3, 4), measured: {} }],
      knownInstances: ["K-1"],
      catalog: catalog("k,K-1,sign,1,,3,,,doc,"),
    });
    expect(r.findings.map((f) => [f.kind, f.field])).toEqual([
      ["catalog-differs-from-api", undefined],
      ["catalog-differs-from-api", "ciphertextBytes"],
    ]);
    expect(r.findings[0]?.note).toContain("category is sign");
  });
});
