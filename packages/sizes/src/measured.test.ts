import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type InstanceKey, recordPath, type StoreEntry } from "@ngcc-perf/schema";
import { afterAll, describe, expect, it } from "vitest";
import { combine, lengthStats, readMeasured } from "./measured.ts";

const dir = mkdtempSync(join(tmpdir(), "ngcc-sizes-measured-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An instance of algorithm `alg` under profile `p` (default o3) on system t_1. */
const key = (alg: string, instance: string, buildProfile = "o3"): InstanceKey => ({
  system: "t_1",
  algorithmId: alg,
  instance,
  buildProfile,
});
const kat = (k: InstanceKey): StoreEntry => ({ kind: "kat", key: k });
const timing = (k: InstanceKey, operation: string): StoreEntry => ({ kind: "timing", key: { ...k, operation } });

function put(entry: StoreEntry, value: unknown) {
  const p = recordPath(dir, entry);
  mkdirSync(dirname(p), { recursive: true });
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
    const s1 = key("s", "S-1");
    put(kat(s1), {
      kind: "kat",
      lengths: {
        publicKeyBytes: { min: 32, mean: 32, max: 32, samples: 100 },
        signatureBytes: { min: 640, mean: 650, max: 660, samples: 100 },
      },
    });
    put(timing(s1, "sign"), {
      status: "ok",
      lengths: { signatureBytes: { min: 630, mean: 660, max: 690, samples: 300 } },
    });
    put(timing(s1, "verify"), { status: "ok" });
    put(timing(s1, "keygen"), {
      status: "failed",
      lengths: { signatureBytes: { min: 1, mean: 1, max: 9999, samples: 1 } },
    });
    const r = readMeasured(dir, s1, "sign");
    expect(r.measured.publicKeyBytes).toMatchObject({
      min: 32,
      max: 32,
      samples: 100,
      sources: [{ source: "kat", path: "kat/s/o3/S-1.json" }],
    });
    expect(r.measured.signatureBytes).toMatchObject({ min: 630, max: 690, samples: 400 });
    expect(r.measured.signatureBytes?.sources.map((s) => `${s.source} ${s.path}`)).toEqual([
      "kat kat/s/o3/S-1.json",
      "timing records/s/o3/S-1__sign.json",
    ]);
    expect(r.measured.ciphertextBytes).toBeUndefined();
    // Every record read is named with its hash (the audit's inputs hash covers them), failed ones too.
    expect(r.files.map((f) => f.path)).toEqual([
      "kat/s/o3/S-1.json",
      "records/s/o3/S-1__keygen.json",
      "records/s/o3/S-1__sign.json",
      "records/s/o3/S-1__verify.json",
    ]);
    for (const f of r.files) expect(f.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("reads only the records of the build profile asked for", () => {
    const o0 = key("s", "S-1", "o0");
    put(timing(o0, "sign"), {
      status: "ok",
      lengths: { signatureBytes: { min: 700, mean: 710, max: 720, samples: 5 } },
    });
    const r = readMeasured(dir, o0, "sign");
    expect(r.measured.publicKeyBytes).toBeUndefined();
    expect(r.measured.signatureBytes).toMatchObject({ min: 700, max: 720, samples: 5 });
    expect(r.files.map((f) => f.path)).toEqual(["records/s/o0/S-1__sign.json"]);
    // and the o3 figures are untouched by the o0 record
    expect(readMeasured(dir, key("s", "S-1"), "sign").measured.signatureBytes).toMatchObject({ max: 690 });
  });

  it("works with only one source, and with none", () => {
    put(timing(key("s", "S-2"), "sign"), {
      status: "ok",
      lengths: { signatureBytes: { min: 2, mean: 3, max: 4, samples: 2 } },
    });
    expect(readMeasured(dir, key("s", "S-2"), "sign").measured.signatureBytes?.sources).toHaveLength(1);
    put(kat(key("k", "K-1")), { lengths: { ciphertextBytes: { min: 768, mean: 768, max: 768, samples: 100 } } });
    expect(Object.keys(readMeasured(dir, key("k", "K-1"), "kem").measured)).toEqual(["ciphertextBytes"]);
    expect(readMeasured(dir, key("k", "K-9"), "kem")).toEqual({ measured: {}, files: [] });
  });

  it("skips a record that is not JSON (but hashes it, so a repaired record redoes the audit)", () => {
    put(timing(key("s", "S-3"), "sign"), "{ not json");
    const r = readMeasured(dir, key("s", "S-3"), "sign");
    expect(r.measured).toEqual({});
    expect(r.files).toHaveLength(1);
  });

  it("refuses a name that is not a valid path part", () => {
    expect(() => readMeasured(dir, key("s", "../S-1"), "sign")).toThrow(/not a valid name/);
  });
});
