import { describe, expect, it } from "vitest";
import {
  type GroupSpec,
  interception,
  mentionsIdentifier,
  type ObjectFacts,
  parseNm,
  parseObjdumpEdges,
} from "./objects.ts";

const obj = (object: string, o: Partial<ObjectFacts>): ObjectFacts => ({
  object,
  source: object.replace(/\.o$/, ".c"),
  defined: [],
  locals: [],
  undefined: [],
  edges: [],
  ...o,
});

const groups: GroupSpec[] = [
  { name: "hash", symbols: ["pseudohash", "pseudoXOF", "sm3hash"], symbolLabels: {} },
  { name: "drng", symbols: ["randombytes"], symbolLabels: { randombytes: "drng" } },
];

describe("nm and objdump parsing", () => {
  it("sorts nm -P symbols into defined, local and undefined", () => {
    const text = [
      ".LC0 r 0 ",
      "keccak_f1600 t 0 5e4",
      "keccak_rc r 0 c0",
      "puffin_shake128 T 5f0 1e6",
      "pseudoXOF U         ",
      "table D 0 10",
    ].join("\n");
    expect(parseNm(text)).toEqual({
      defined: ["puffin_shake128", "table"],
      locals: ["keccak_f1600", "keccak_rc"],
      undefined: ["pseudoXOF"],
    });
  });

  it("attributes relocations to the function they occur in", () => {
    const text = [
      "0000000000000000 <puffin_hash_ss>:",
      "   0:\tendbr64",
      "\t\t\t1b: R_X86_64_PLT32\tpseudohash-0x4",
      "\t\t\t2c: R_X86_64_PLT32\tpseudoXOF-0x4",
      "0000000000000040 <gen_matrix.constprop.0>:",
      "\t\t\t50: R_AARCH64_CALL26\tpseudoXOF",
      "\t\t\t58: R_X86_64_PC32\t.LC0-0x4",
    ].join("\n");
    expect(parseObjdumpEdges(text)).toEqual([
      { caller: "puffin_hash_ss", callee: "pseudohash" },
      { caller: "puffin_hash_ss", callee: "pseudoXOF" },
      { caller: "gen_matrix", callee: "pseudoXOF" },
    ]);
  });

  it("finds identifiers outside comments only", () => {
    expect(mentionsIdentifier("/* pseudoXOF */ int x;", "pseudoXOF")).toBe(false);
    expect(mentionsIdentifier("y = my_pseudoXOF2(1);", "pseudoXOF")).toBe(false);
    expect(mentionsIdentifier("pseudoXOF(out, 1, in, 2);", "pseudoXOF")).toBe(true);
  });
});

describe("interception", () => {
  it("wraps a symbol defined in one object and referenced from another", () => {
    const r = interception(
      [
        obj("kem.o", { undefined: ["pseudoXOF", "randombytes"] }),
        obj("pseudo.o", { defined: ["pseudoXOF", "pseudohash"] }),
        obj("drng.o", { defined: ["randombytes"] }),
      ],
      groups,
      () => null,
    );
    expect(r.wrap).toEqual(["pseudoXOF", "randombytes"]);
    expect(r.definedIn).toEqual({ pseudoXOF: "pseudo.o", randombytes: "drng.o" });
    // pseudohash and sm3hash are merely unused while other hash symbols are wrapped: no blind spot
    expect(r.blindSpots).toEqual([]);
  });

  it("reports calls inside the defining object, static and inlined symbols, never a silent 0%", () => {
    const r = interception(
      [
        obj("kem.o", {
          defined: ["pseudohash", "crypto_kem_enc"],
          locals: ["sm3hash"],
          edges: [{ caller: "crypto_kem_enc", callee: "pseudohash" }],
        }),
        obj("other.o", { undefined: ["pseudohash"] }),
      ],
      groups,
      (s) => (s === "pseudoXOF" ? "pke.c" : null),
    );
    expect(r.wrap).toEqual(["pseudohash"]);
    expect(r.blindSpots.map((b) => [b.symbol, b.reason])).toEqual([
      ["pseudohash", "same-object"],
      ["pseudoXOF", "inlined"],
      ["sm3hash", "static"],
      ["randombytes", "not-referenced"],
    ]);
    expect(r.blindSpots[0]?.detail).toContain("crypto_kem_enc");
  });

  it("does not flag calls between the group's own symbols inside their library", () => {
    const pq = [{ name: "hash", symbols: ["shake256", "shake256_inc_absorb"], symbolLabels: {} }];
    const r = interception(
      [
        obj("fips202.o", {
          defined: ["shake256", "shake256_inc_absorb"],
          edges: [{ caller: "shake256", callee: "shake256_inc_absorb" }],
        }),
        obj("poly.o", { undefined: ["shake256"] }),
      ],
      pq,
      () => null,
    );
    expect(r.wrap).toEqual(["shake256"]);
    expect(r.blindSpots).toEqual([]);
  });
});
