import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "./errors.ts";
import {
  buildPath,
  checkName,
  harnessRecordPath,
  kindOfPath,
  parseHarnessRecordPath,
  parseRecordPath,
  recordPath,
  relativeRecordPath,
  type StoreEntry,
  systemDir,
  unitName,
} from "./layout.ts";

const key = { system: "x86_1", algorithmId: "kem-90", instance: "Puffin-128", buildProfile: "o3", operation: "enc" };
const entries: StoreEntry[] = [
  { kind: "environment", key: { system: "x86_1" } },
  { kind: "store-index", key: { system: "x86_1" } },
  { kind: "timing", key },
  { kind: "hash-profile", key: { ...key, operation: "init_a" } },
  { kind: "kat", key: { system: "x86_1", algorithmId: "kem-90", instance: "Puffin-K-128", buildProfile: "guide" } },
  { kind: "kat-log", key: { system: "x86_1", algorithmId: "kem-90", instance: "Puffin-K-128", buildProfile: "guide" } },
  { kind: "size-audit", key: { system: "arm_1", algorithmId: "sig-91", buildProfile: "o0" } },
  { kind: "survey", key: { system: "arm_1", algorithmId: "sig-91", buildProfile: "o0" } },
  { kind: "instructions", key: { ...key, operation: "dec" } },
  { kind: "constant-time", key: { ...key, operation: "dec" } },
  { kind: "memory", key: { ...key, operation: "dec" } },
];

describe("store layout", () => {
  it("round-trips every kind: path of a key, key of a path, kind of a path", () => {
    const seen = new Set<string>();
    for (const e of entries) {
      const rel = relativeRecordPath(e);
      expect(seen.has(rel)).toBe(false);
      seen.add(rel);
      expect(parseRecordPath(e.key.system, rel)).toEqual(e);
      expect(kindOfPath(rel)).toBe(e.kind);
      expect(recordPath("/s", e)).toBe(join("/s", "data", e.key.system, ...rel.split("/")));
    }
  });

  it("puts the build profile in every record's path", () => {
    const o0 = relativeRecordPath({ kind: "timing", key: { ...key, buildProfile: "o0" } });
    const o3 = relativeRecordPath({ kind: "timing", key });
    expect(o0).not.toBe(o3);
    expect(o3).toBe("records/kem-90/o3/Puffin-128__enc.json");
    expect(relativeRecordPath({ kind: "kat", key })).toBe("kat/kem-90/o3/Puffin-128.json");
    expect(relativeRecordPath({ kind: "size-audit", key })).toBe("sizes/kem-90/o3.json");
  });

  it("knows nothing of files outside the layout", () => {
    for (const rel of [
      "records/kem-90/Puffin-128__enc.json",
      "records/kem-90/o3/Puffin-128.json",
      "kat/kem-90/Puffin.json",
      "sizes/kem-90.json",
      "records/kem-90/o3/a__b__enc.json",
      "records/kem-90/o3/.hidden__enc.json",
      "notes.txt",
    ]) {
      expect(parseRecordPath("x86_1", rel)).toBeNull();
      expect(kindOfPath(rel)).toBeNull();
    }
  });

  it("refuses names that could leave the store or be ambiguous", () => {
    for (const bad of ["../../../../tmp/x", "..", ".", "a/b", "a\\b", "", "-x", "a__b", "x".repeat(129), "a b"]) {
      expect(() => checkName(bad, "instance")).toThrow(InputError);
      expect(() => relativeRecordPath({ kind: "timing", key: { ...key, instance: bad } })).toThrow(InputError);
      expect(() => buildPath("/s", { system: "x86_1", algorithmId: bad, buildProfile: "o3" })).toThrow(InputError);
    }
    expect(() => checkName("../x", "meta.json /instances/0/name")).toThrow(/meta\.json \/instances\/0\/name/);
    for (const good of ["ml-kem-768", "MAMBA-Frost-CC-384", "x86_1", "init_a", "SPHINCS+-128f", "v1.2"]) {
      expect(checkName(good, "name")).toBe(good);
    }
  });

  it("keeps every path inside the store", () => {
    expect(systemDir("out", "x86_1")).toBe(resolve("out", "data", "x86_1"));
    expect(buildPath("/s", { system: "x86_1", algorithmId: "kem-90", buildProfile: "o3" }, "Puffin-128")).toBe(
      "/s/build/x86_1/kem-90/o3/Puffin-128",
    );
    expect(() => systemDir("/s", "..")).toThrow(InputError);
  });

  it("maps the earlier harness's names (no build profile) both ways", () => {
    const expected: Record<string, string> = {
      timing: "records/kem-90/Puffin-128__enc.json",
      "hash-profile": "profile/kem-90/Puffin-128__init_a.json",
      instructions: "instructions/kem-90/Puffin-128__dec.json",
      "constant-time": "constant-time/kem-90/Puffin-128__dec.json",
      memory: "memory/kem-90/Puffin-128__dec.json",
      kat: "kat/kem-90/Puffin-K-128.json",
      "kat-log": "kat/kem-90/Puffin-K-128.log",
      "size-audit": "sizes/sig-91.json",
      survey: "survey/sig-91.json",
    };
    for (const e of entries) {
      const old = harnessRecordPath(e);
      if (expected[e.kind]) expect(old).toBe(expected[e.kind]);
      const profile = "buildProfile" in e.key ? e.key.buildProfile : "";
      expect(parseHarnessRecordPath(e.key.system, old, profile)).toEqual(
        e.kind === "environment" || e.kind === "store-index" ? null : e,
      );
    }
    expect(parseHarnessRecordPath("x86_1", "records/kem-90/o3/Puffin-128__enc.json", "o3")).toBeNull();
  });

  it("names a unit the same way on every host", () => {
    expect(unitName(entries[4]?.key as never)).toBe("kem-90/Puffin-K-128/guide");
    expect(unitName({ system: "x", algorithmId: "sig-91", buildProfile: "o0" })).toBe("sig-91/o0");
  });
});
