// The generator's forms checked against the .rsp read from its stdout (crossCheck), on recorded texts: what
// agrees is no finding; a rewritten single or all file, an info that counts or measures otherwise, a pipe that
// holds fewer entries or an extra one, a link planted for a form, an info the instance's code rewrote — each named.
import { describe, expect, it } from "vitest";
import { crossCheck, type KatgenInfo, lengthsOfRsp, parseInfo } from "./generator.ts";
import { deriveForm } from "./rsp.ts";

const entry = (i: number, ss: string) =>
  `count = ${i}\nseed = ${"00".repeat(48)}\npk = ${"AB".repeat(4)}\nsk = 0102\nct = ${"CD".repeat(3)}\nss = ${ss}\n`;
const rsp = `# Toy\n\n${entry(0, "11")}\n${entry(1, "22")}\n`;
const info: KatgenInfo = {
  category: "kem",
  algname: "Toy",
  fileName: "PQCkemKAT_2.rsp",
  rng: "nist",
  entries: 2,
  lengths: {
    publicKeyBytes: { min: 4, max: 4, sum: 8, count: 2 },
    ciphertextBytes: { min: 3, max: 3, sum: 6, count: 2 },
  },
};
const forms = {
  single: Buffer.from(deriveForm(rsp, "single", 1), "latin1"),
  all: Buffer.from(deriveForm(rsp, "all", 2), "latin1"),
};

describe("crossCheck", () => {
  it("finds nothing when every form is the piped .rsp's", () => {
    expect(lengthsOfRsp(rsp)).toEqual(info.lengths);
    expect(crossCheck(Buffer.from(rsp), 2, forms, info)).toEqual([]);
  });

  it("names a rewritten form, a planted link and a missing file", () => {
    const single = Buffer.from(entry(0, "99"));
    expect(crossCheck(Buffer.from(rsp), 2, { ...forms, single }, info)).toEqual([
      expect.stringMatching(
        /^generated\.single\.txt \(SHA-256 [0-9a-f]{64}\) is not the single form of the piped \.rsp/,
      ),
    ]);
    const link = { error: "is a symbolic link; it is not read" };
    expect(crossCheck(Buffer.from(rsp), 2, { single: forms.single, all: link }, info)).toEqual([
      "generated.all.txt is a symbolic link; it is not read",
    ]);
    expect(crossCheck(Buffer.from(rsp), 2, { single: forms.single }, info)).toEqual([
      "generated.all.txt does not exist",
    ]);
  });

  it("names a pipe with fewer or more entries than generated, and an info that disagrees", () => {
    const short = `# Toy\n\n${entry(0, "11")}\n`;
    expect(crossCheck(Buffer.from(short), 2, forms, info)[0]).toMatch(
      /^the \.rsp on the generator's stdout holds 1 \(count 0\) entries where 2 \(count 0\.\.1\) were generated/,
    );
    expect(crossCheck(Buffer.from(`${rsp}${entry(0, "11")}`), 2, forms, info)[0]).toMatch(/holds 3 \(count 0, 1, 0\)/);
    expect(crossCheck(Buffer.alloc(0), 2, forms, info)[0]).toMatch(/holds no entries/);
    expect(crossCheck(Buffer.from(rsp), 2, forms, { ...info, entries: 100 })).toEqual([
      "generated.info counts 100 entries, 2 were asked for",
    ]);
    const forged = { ...info, lengths: { ...info.lengths, publicKeyBytes: { min: 1, max: 1, sum: 2, count: 2 } } };
    expect(crossCheck(Buffer.from(rsp), 2, forms, forged)).toEqual([
      'generated.info gives publicKeyBytes {"min":1,"max":1,"sum":2,"count":2}, the piped .rsp shows {"min":4,"max":4,"sum":8,"count":2}',
    ]);
    expect(crossCheck(Buffer.from(rsp), 2, forms, null)).toEqual(["the generator wrote no readable generated.info"]);
  });
});

describe("parseInfo", () => {
  it("reads katgen's info and refuses one with fields of the wrong type", () => {
    expect(parseInfo(JSON.stringify(info))).toEqual(info);
    expect(parseInfo(JSON.stringify({ ...info, failed: { operation: "crypto_kem_dec", count: 3 } }))?.failed).toEqual({
      operation: "crypto_kem_dec",
      count: 3,
    });
    expect(parseInfo(JSON.stringify({ ...info, entries: "100" }))).toBeNull();
    expect(
      parseInfo(JSON.stringify({ ...info, lengths: { publicKeyBytes: { min: -1, max: 1, sum: 1, count: 1 } } })),
    ).toBeNull();
    expect(parseInfo("not json")).toBeNull();
    expect(parseInfo("[]")).toBeNull();
  });
});
