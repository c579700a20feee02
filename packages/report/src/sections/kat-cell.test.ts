// The KAT cell of section 3 in words: a corrupt KAT file is the submission's, with its file and line; a canary is
// the implementation's ERROR.
import type { KatRecord } from "@ngcc-perf/schema";
import { describe, expect, it } from "vitest";
import { katCell } from "./kat.ts";

const base = { verdict: "FAIL", outcome: "corrupt-kat" } as KatRecord;

describe("katCell", () => {
  it("names a corrupt KAT file as such, with the file, the line and what is wrong", () => {
    const k: KatRecord = {
      ...base,
      corruption: [
        {
          file: "kem-90/KAT/Puffin-128/PQCkemKAT_1632.rsp",
          line: 26,
          message: "count = 5 out of order; expected count = 4",
        },
        { file: "kem-90/KAT/Puffin-128/PQCkemKAT_1632.rsp", line: 33, message: "count = 5 out of order" },
      ],
    };
    expect(katCell(k)).toBe(
      "FAIL: corrupt KAT file (the submission's KAT file or manifest, not the implementation): kem-90/KAT/Puffin-128/PQCkemKAT_1632.rsp, line 26: count = 5 out of order; expected count = 4 (and 1 more problem, see the KAT log)",
    );
  });

  it("keeps the manifest wording for records without corruption, and shows a canary as the implementation's ERROR", () => {
    expect(katCell({ ...base, manifest: { path: "kem-90/kat.sha256", status: "mismatch" } })).toMatch(
      /does not match its manifest .*not the implementation/,
    );
    const canary = {
      verdict: "ERROR",
      outcome: "error",
      error: {
        reason: "canary",
        message: "wrote past a buffer: canary overwritten after buffer ct (768 bytes) by crypto_kem_enc",
      },
    } as KatRecord;
    expect(katCell(canary)).toMatch(/^ERROR \(canary\): wrote past a buffer: .*buffer ct .* by crypto_kem_enc/);
  });

  it("says a PASS with a warning about its comparison, not one about the submission's manifest", () => {
    const pass = {
      verdict: "PASS",
      outcome: "match",
      manifest: { path: "kem-90/KAT/kat.sha256", status: "ok" },
    } as KatRecord;
    expect(katCell(pass)).toBe("PASS");
    const header = `KAT/Puffin-128/PQCkemKAT_1632.rsp differs from the generated file only outside its entries (every entry agrees byte for byte): line 1: "# ML-KEM-768", generated "# Puffin-128"`;
    expect(katCell({ ...pass, warnings: [header] })).toBe("PASS, with a warning (below the table)");
    const unused =
      "kem-90/KAT/kat.sha256 lists Puffin-512/PQCkemKAT_6400.rsp, not used by any instance (no instance's kat.file in meta.json names it)";
    expect(katCell({ ...pass, warnings: [unused] })).toBe("PASS");
    expect(katCell({ ...pass, warnings: [header, unused] })).toBe("PASS, with a warning (below the table)");
  });
});
