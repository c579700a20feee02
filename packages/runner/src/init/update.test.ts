// init --update: every field a person set is kept (also per instance), what is missing is added, kat.sha256 is
// rewritten for the KAT files the instances name. Before it, the only way to refresh the manifest was --force,
// which discarded the edits.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../errors.ts";
import { initSubmission } from "./index.ts";
import { KEM_C, KEM_DECLS, kemRsp, RB_H, tempTrees } from "./testkit.ts";

const sha256Of = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

const tree = tempTrees();
const sizes = (k: number) =>
  `#define CRYPTO_SECRETKEYBYTES ${100 * k}\n#define CRYPTO_PUBLICKEYBYTES ${10 * k}\n#define CRYPTO_CIPHERTEXTBYTES ${20 * k}\n#define CRYPTO_BYTES 32\n${KEM_DECLS}`;

describe("init --update", () => {
  it("keeps what a person set, adds a new instance and missing fields, rewrites kat.sha256", async () => {
    const kem = KEM_C.replace('#include "randombytes.h"\n', RB_H);
    const dir = tree({
      "Reference_Implementation/Toy-1/api.h": sizes(1),
      "Reference_Implementation/Toy-1/kem.c": kem,
      "Reference_Implementation/Toy-3/api.h": sizes(3),
      "Reference_Implementation/Toy-3/kem.c": kem,
      "KAT/Toy-1/PQCkemKAT_100.rsp": kemRsp(10, 100, 20),
      "KAT/Toy-3/PQCkemKAT_300.rsp": kemRsp(30, 300, 60),
      "KAT/kat.sha256": `${"0".repeat(64)}  Toy-1/PQCkemKAT_100.rsp\n`,
    });
    const mine = {
      schemaVersion: 1,
      id: "kem-30",
      name: "Toy KEM",
      summary: "A toy.",
      category: "kem",
      katManifest: "KAT/kat.sha256",
      instances: [
        {
          name: "Toy-1",
          sources: ["Reference_Implementation/Toy-1/kem.c"],
          defines: ["TOY_FAST"],
          notes: "hand-written",
          kat: { file: "KAT/Toy-1/PQCkemKAT_100.rsp" },
        },
      ],
    };
    writeFileSync(join(dir, "meta.json"), JSON.stringify(mine, null, 2));
    await expect(initSubmission(dir, {})).rejects.toThrow(/exists; init never overwrites it/);
    const r = await initSubmission(dir, { update: true });
    const meta = JSON.parse(readFileSync(join(dir, "meta.json"), "utf8"));
    expect(meta.name).toBe("Toy KEM");
    expect(meta.summary).toBe("A toy.");
    expect(meta.instances.map((i: { name: string }) => i.name)).toEqual(["Toy-1", "Toy-3"]);
    const [one, three] = meta.instances;
    expect(one.defines).toEqual(["TOY_FAST"]);
    expect(one.notes).toBe("hand-written");
    expect(one.apiHeader).toBe("Reference_Implementation/Toy-1/api.h");
    expect(one.kat).toEqual({ file: "KAT/Toy-1/PQCkemKAT_100.rsp", defines: [], randomness: "randombytes" });
    expect(three.kat.file).toBe("KAT/Toy-3/PQCkemKAT_300.rsp");
    expect(r.update?.kept).toEqual(expect.arrayContaining(["name", "summary", "id"]));
    expect(r.update?.added).toEqual(
      expect.arrayContaining([
        "instance Toy-1: apiHeader",
        "instance Toy-1: kat.defines",
        "instance Toy-3",
        "implementations",
      ]),
    );
    expect(readFileSync(join(dir, "KAT/kat.sha256"), "utf8")).toBe(
      `${sha256Of(join(dir, "KAT/Toy-1/PQCkemKAT_100.rsp"))}  Toy-1/PQCkemKAT_100.rsp\n${sha256Of(join(dir, "KAT/Toy-3/PQCkemKAT_300.rsp"))}  Toy-3/PQCkemKAT_300.rsp\n`,
    );
    expect(r.update?.rewrote[0]).toMatch(/^KAT\/kat\.sha256 \(2 KAT file\(s\)/);
  }, 60_000);

  it("without a meta.json: bad input naming the file", async () => {
    const dir = tree({ "Reference_Implementation/Toy-1/api.h": sizes(1) });
    const err = await initSubmission(dir, { update: true }).catch((e) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toMatch(/meta\.json: does not exist; --update refreshes an existing meta\.json/);
  });
});
