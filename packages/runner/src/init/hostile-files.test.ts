// init with the harness's own rights on a hostile folder (issue 25, items 1 and 7): a FIFO api.h, a link out of
// the folder, a meta.json that is a FIFO for --update, a kat.file of ../ to hash, a CMake reply swapped for a FIFO
// or a link. Each is refused with the path named (bad input, exit 2) or not read; none blocks, none of a host
// file's bytes is read or quoted.
import { execFileSync } from "node:child_process";
import { rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InputError } from "../errors.ts";
import { readReplyJson } from "./buildsystem/cmake.ts";
import { draftMeta } from "./draft.ts";
import { initSubmission } from "./index.ts";
import { manifestText } from "./kat-files.ts";
import { KEM_C, KEM_DECLS, kemRsp, RB_H, tempTrees } from "./testkit.ts";
import { isFile, readSome, setSubmissionRoot } from "./util.ts";

const tree = tempTrees();
afterAll(() => setSubmissionRoot(null));

const SECRET = "root:TOP-SECRET-HOST-LINE:19000::::::\n";
const outside = tree({ "shadow.h": SECRET, "secret/key.c": SECRET });

const API_H = `#define CRYPTO_SECRETKEYBYTES 100
#define CRYPTO_PUBLICKEYBYTES 10
#define CRYPTO_CIPHERTEXTBYTES 20
#define CRYPTO_BYTES 32
${KEM_DECLS}`;

/** A folder-layout KEM init drafts one instance of (Toy-1), with its KAT file. */
function toy(): string {
  return tree({
    "Reference_Implementation/Toy-1/api.h": API_H,
    "Reference_Implementation/Toy-1/kem.c": KEM_C,
    "Reference_Implementation/Toy-1/randombytes.h": RB_H,
    "KAT/Toy-1/PQCkemKAT_100.rsp": kemRsp(10, 100, 20),
  });
}

const fifo = (p: string) => execFileSync("mkfifo", [p]);

/** The InputError a promise rejects with (its message), failing the test when it resolves. */
async function refused(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return (err as Error).message;
  }
  throw new Error("expected a refusal");
}

describe("init on a hostile folder", () => {
  it("drafts the plain folder", async () => {
    const r = await draftMeta(toy(), { id: "kem-1" });
    expect((r.meta.instances as Array<{ name: string }>).map((i) => i.name)).toEqual(["Toy-1"]);
  });

  it("refuses an api.h that is a FIFO, naming it (the instance was silently left out)", async () => {
    const dir = toy();
    const api = join(dir, "Reference_Implementation/Toy-1/api.h");
    rmSync(api);
    fifo(api);
    const m = await refused(draftMeta(dir, { id: "kem-1" }));
    expect(m).toBe(
      `${api}: is a FIFO (named pipe); init reads only the submission's own regular files and folders (links inside it are followed): remove it or replace it by the file`,
    );
  });

  it("refuses a source or a folder linked out of the submission, quoting nothing of the target", async () => {
    const dir = toy();
    symlinkSync(join(outside, "secret", "key.c"), join(dir, "Reference_Implementation/Toy-1/key.c"));
    const m = await refused(draftMeta(dir, { id: "kem-1" }));
    expect(m).toMatch(/Toy-1\/key\.c: is a symbolic link that leaves the submission folder; init reads only/);
    expect(m).not.toContain("TOP-SECRET");
    const dir2 = toy();
    symlinkSync(join(outside, "secret"), join(dir2, "Reference_Implementation/common"));
    expect(await refused(draftMeta(dir2, { id: "kem-1" }))).toMatch(
      /Reference_Implementation\/common: is a symbolic link that leaves the submission folder/,
    );
  });

  it("follows a link that stays inside the folder", async () => {
    const dir = toy();
    symlinkSync("../Toy-1/randombytes.h", join(dir, "Reference_Implementation/Toy-1/rb.h"));
    const r = await draftMeta(dir, { id: "kem-1" });
    expect((r.meta.instances as unknown[]).length).toBe(1);
  });

  it("--update refuses a meta.json that is a FIFO or a link out (it hung, or echoed the target's first bytes)", async () => {
    const dir = toy();
    fifo(join(dir, "meta.json"));
    expect(await refused(initSubmission(dir, { update: true }, true))).toBe(
      `${join(dir, "meta.json")}: is not a regular file; expected the meta.json to update (a regular file)`,
    );
    const dir2 = toy();
    symlinkSync(join(outside, "shadow.h"), join(dir2, "meta.json"));
    const m = await refused(initSubmission(dir2, { update: true }, true));
    expect(m).toMatch(/meta\.json: is a symbolic link that leaves the submission folder; it is not read/);
    expect(m).not.toContain("TOP-SECRET");
  });

  it("never hashes a KAT file outside the submission into kat.sha256", () => {
    const dir = toy();
    expect(() => manifestText(dir, join(dir, "KAT", "kat.sha256"), ["../../../../../../etc/passwd"])).toThrow(
      /etc\/passwd: a KAT file to list in kat\.sha256 is outside the submission folder/,
    );
    symlinkSync(join(outside, "shadow.h"), join(dir, "KAT", "linked.rsp"));
    expect(() => manifestText(dir, join(dir, "KAT", "kat.sha256"), ["KAT/linked.rsp"])).toThrow(
      /KAT\/linked\.rsp: a KAT file to list in kat\.sha256 is a symbolic link that leaves the submission folder/,
    );
    expect(manifestText(dir, join(dir, "KAT", "kat.sha256"), ["KAT/Toy-1/PQCkemKAT_100.rsp"])).toMatch(
      /^[0-9a-f]{64} {2}Toy-1\/PQCkemKAT_100\.rsp\n$/,
    );
  });
});

describe("init's readers", () => {
  it("read nothing outside the submission, also through a folder linked out, and never block on a FIFO", () => {
    const dir = toy();
    symlinkSync(outside, join(dir, "out"));
    fifo(join(dir, "pipe.h"));
    setSubmissionRoot(dir);
    try {
      expect(readSome(join(dir, "out", "shadow.h"))).toBe("");
      expect(isFile(join(dir, "out", "shadow.h"))).toBe(false);
      expect(readSome(join(outside, "shadow.h"))).toBe("");
      expect(readSome(join(dir, "pipe.h"))).toBe("");
      expect(readSome(join(dir, "Reference_Implementation/Toy-1/api.h"))).toBe(API_H);
    } finally {
      setSubmissionRoot(null);
    }
  });

  it("a CMake file-API reply that is a FIFO, a link out or a path out is named, not read", () => {
    const reply = tree({ "index-1.json": '{"objects":[]}', "bad.json": "not json" });
    fifo(join(reply, "codemodel.json"));
    symlinkSync(join(outside, "shadow.h"), join(reply, "target.json"));
    expect(readReplyJson(reply, "index-1.json")).toEqual({ objects: [] });
    expect(() => readReplyJson(reply, "codemodel.json")).toThrow(
      /^codemodel\.json: the CMake file-API reply is not a regular file; written while the submission's CMakeLists\.txt ran/,
    );
    expect(() => readReplyJson(reply, "target.json")).toThrow(
      /target\.json: the CMake file-API reply is a symbolic link/,
    );
    expect(() => readReplyJson(reply, "../../../../etc/shadow")).toThrow(/is outside the submission folder/);
    expect(() => readReplyJson(reply, "bad.json")).toThrow(/bad\.json: the CMake file-API reply is not a JSON object/);
    expect(() => readReplyJson(reply, undefined)).toThrow(/names no file/);
    for (const name of ["target.json", "bad.json"]) {
      try {
        readReplyJson(reply, name);
      } catch (err) {
        expect((err as Error).message).not.toMatch(/TOP-SECRET|not json/);
      }
    }
  });
});
