import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { combine, lengthStats, readMeasured } from "./measured.ts";

const dir = mkdtempSync(join(tmpdir(), "ngcc-sizes-measured-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function put(rel: string, value: unknown) {
  const p = join(dir, rel);
  mkdirSync(join(p, ".."), { recursive: true });
  writeFileSync(p, typeof value === "string" ? value : JSON.stringify(value));
}

describe("lengthStats", () => {
  it("reads {min,mean,max,samples} and the driver's {min,max,sum,count}; anything else is no measurement", () => {
    expect(lengthStats({ min: 600, mean: 650, max: 700, samples: 4 })).toEqual({
      min: 600,
      mean: 650,
      max: 700,
      samples: 4,
    });
    expect(lengthStats({ min: 600, max: 700, sum: 2600, count: 4 })).toEqual({
      min: 600,
      mean: 650,
      max: 700,
      samples: 4,
    });
    expect(lengthStats({ min: 700, max: 600, mean: 650, samples: 4 })).toBeNull();
    expect(lengthStats({ min: 600, max: 700, mean: 650, samples: 0 })).toBeNull();
    expect(lengthStats("650")).toBeNull();
  });
});

describe("combine", () => {
  it("takes the smallest minimum, the largest maximum and the mean weighted by samples", () => {
    const d = combine([
      { source: "kat", path: "a", min: 640, mean: 650, max: 660, samples: 100 },
      { source: "timing", path: "b", min: 630, mean: 660, max: 690, samples: 300 },
    ]);
    expect(d).toMatchObject({ min: 630, max: 690, samples: 400, mean: (650 * 100 + 660 * 300) / 400 });
    expect(combine([])).toBeNull();
  });
});

describe("readMeasured", () => {
  it("reads the KAT record's lengths and the successful timing records', naming each source", () => {
    put("kat/s/S-1.json", {
      kind: "kat",
      lengths: {
        publicKeyBytes: { min: 32, mean: 32, max: 32, samples: 100 },
        signatureBytes: { min: 640, mean: 650, max: 660, samples: 100 },
      },
    });
    put("records/s/S-1__sign.json", {
      status: "ok",
      lengths: { signatureBytes: { min: 630, mean: 660, max: 690, samples: 300 } },
    });
    put("records/s/S-1__verify.json", { status: "ok" });
    put("records/s/S-1__keygen.json", {
      status: "failed",
      lengths: { signatureBytes: { min: 1, mean: 1, max: 9999, samples: 1 } },
    });
    const r = readMeasured(dir, "s", "S-1", "sign");
    expect(r.measured.publicKeyBytes).toMatchObject({
      min: 32,
      max: 32,
      samples: 100,
      sources: [{ source: "kat", path: "kat/s/S-1.json" }],
    });
    expect(r.measured.signatureBytes).toMatchObject({ min: 630, max: 690, samples: 400 });
    expect(r.measured.signatureBytes?.sources.map((s) => `${s.source} ${s.path}`)).toEqual([
      "kat kat/s/S-1.json",
      "timing records/s/S-1__sign.json",
    ]);
    expect(r.measured.ciphertextBytes).toBeUndefined();
    expect(r.files.length).toBe(4);
  });

  it("works with only one source, and with none", () => {
    put("records/s/S-2__sign.json", {
      status: "ok",
      lengths: { signatureBytes: { min: 2, mean: 3, max: 4, samples: 2 } },
    });
    expect(readMeasured(dir, "s", "S-2", "sign").measured.signatureBytes?.sources).toHaveLength(1);
    put("kat/k/K-1.json", { lengths: { ciphertextBytes: { min: 768, mean: 768, max: 768, samples: 100 } } });
    expect(Object.keys(readMeasured(dir, "k", "K-1", "kem").measured)).toEqual(["ciphertextBytes"]);
    expect(readMeasured(dir, "k", "K-9", "kem")).toEqual({ measured: {}, files: [] });
  });

  it("skips a record that is not JSON", () => {
    put("records/s/S-3__sign.json", "{ not json");
    expect(readMeasured(dir, "s", "S-3", "sign").measured).toEqual({});
  });
});
