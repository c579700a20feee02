// The shipped .rsp checked as a KAT file: every committed fixture is well-formed (KEM, signature, one- and
// two-pass key exchange), and the signature's lengths and a key exchange's fields are checked like a KEM's.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkShippedRsp } from "./rsp-check.ts";

const fixtures = join(import.meta.dirname, "../../../fixtures/submissions");
const tmp = mkdtempSync(join(tmpdir(), "ngcc-rsp-check-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Meta {
  category: "kem" | "sign" | "kex";
  instances: Array<{ name: string; kat: { file: string } }>;
}
const meta = (id: string) => JSON.parse(readFileSync(join(fixtures, id, "meta.json"), "utf8")) as Meta;
const rspOf = (id: string, instance: string) =>
  join(fixtures, id, meta(id).instances.find((i) => i.name === instance)?.kat.file ?? "missing");

/** A copy of a fixture's .rsp with its text edited. */
function edited(id: string, instance: string, edit: (text: string) => string): string {
  const file = join(tmp, `${id}-${instance}-${Math.random().toString(36).slice(2)}.rsp`);
  writeFileSync(file, edit(readFileSync(rspOf(id, instance), "utf8")));
  return file;
}

describe("checkShippedRsp", () => {
  it("finds nothing wrong with any committed fixture .rsp", () => {
    for (const id of ["kem-90", "sig-91", "sig-93", "kex-92"]) {
      const m = meta(id);
      for (const i of m.instances)
        expect(checkShippedRsp(join(fixtures, id, i.kat.file), m.category, 100), i.name).toEqual([]);
    }
  });

  it("checks a signature's mlen and smlen against msg and sm", () => {
    const file = edited("sig-91", "Quill-128", (t) => t.replace("\nmlen = 66\n", "\nmlen = 67\n"));
    const [p, ...rest] = checkShippedRsp(file, "sign", 100);
    expect(rest).toEqual([]);
    expect(p?.message).toBe("entry count = 1: field msg has 66 bytes, mlen says 67");
    expect(p?.line).toBeGreaterThan(1);
  });

  it("wants a key exchange's fields: pk_a and m2 where the instance has them, never an unknown one", () => {
    const file = edited("kex-92", "Heron-2P-128", (t) => t.replace(/\nm2 = /, "\nm3 = "));
    const problems = checkShippedRsp(file, "kex", 100).map((p) => p.message);
    expect(problems[0]).toBe("entry count = 0: unexpected field m3; expected seed, pk_b, sk_b, m1, ss");
    // With too many problems the list is cut and the rest counted.
    const many = checkShippedRsp(
      edited("kex-92", "Heron-2P-128", (t) => t.replace(/\nm2 = /g, "\nm3 = ")),
      "kex",
      100,
    );
    expect(many).toHaveLength(21);
    expect(many[20]?.message).toBe("… and 80 more problems");
  });
});
