// readMeta reads a submission's meta.json with the harness's own rights: a meta.json that is a symbolic link out
// of the submission folder is refused unread (issue 25, item 1: its first bytes were echoed in the error).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readMeta } from "./instances.ts";
import { apiHeaderOf } from "./submission-inputs.ts";

const root = mkdtempSync(join(tmpdir(), "ngcc-read-meta-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("readMeta", () => {
  it("refuses a meta.json that links out of the submission, naming nothing of the target", () => {
    const secret = join(root, "private-key");
    writeFileSync(secret, "-----BEGIN PRIVATE KEY-----\nTOP-SECRET-BYTES\n");
    const sub = join(root, "sub");
    mkdirSync(sub);
    symlinkSync(secret, join(sub, "meta.json"));
    let message = "";
    try {
      readMeta(join(sub, "meta.json"), sub, "kem-1");
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(
      /meta\.json: cannot read the submission's metadata \(algorithm kem-1\): is a symbolic link/,
    );
    expect(message).not.toMatch(/BEGIN|TOP-SECRET/);
  });

  it("refuses two instances with one name, naming the second's JSON pointer (they shared one store path)", () => {
    const sub = join(root, "twice");
    mkdirSync(sub);
    const one = { name: "x-1", sources: ["a.c"] };
    writeFileSync(
      join(sub, "meta.json"),
      JSON.stringify({ name: "X", instances: [one, { ...one, sources: ["b.c"] }] }, null, 2),
    );
    expect(() => readMeta(join(sub, "meta.json"), sub, "kem-1")).toThrow(
      /meta\.json:11:15 \/instances\/1\/name "x-1" is the name of \/instances\/0 too; expected a name unique among the instances/,
    );
    writeFileSync(join(sub, "meta.json"), JSON.stringify({ name: "X", instances: [one, { ...one, name: "X-1" }] }));
    expect(() => readMeta(join(sub, "meta.json"), sub, "kem-1")).toThrow(
      /\/instances\/1\/name "X-1" differs from \/instances\/0's name "x-1" only in case/,
    );
  });

  it("reads a meta.json that is a regular file", () => {
    const sub = join(root, "plain");
    mkdirSync(sub);
    writeFileSync(
      join(sub, "meta.json"),
      JSON.stringify({ name: "X", instances: [{ name: "x-1", sources: ["a.c"] }] }),
    );
    expect(readMeta(join(sub, "meta.json"), sub, "kem-1").name).toBe("X");
  });
});

describe("apiHeaderOf", () => {
  const sub = join(root, "headers");
  mkdirSync(join(sub, "Set-768"), { recursive: true });
  mkdirSync(join(sub, "Set-1152"), { recursive: true });
  writeFileSync(join(sub, "Set-768", "params.h"), "#define CRYPTO_SECRETKEYBYTES 32\n");
  writeFileSync(
    join(sub, "Set-768", "api.h"),
    '#include "params.h"\nint crypto_kem_keypair(unsigned char *pk, unsigned char *sk);\n',
  );
  const outside = join(root, "outside-api.h");
  writeFileSync(outside, "#define CRYPTO_SECRETKEYBYTES 1\n");
  const at = { metaPath: join(sub, "meta.json"), pointer: "/instances/0/apiHeader" };

  it("accepts an api.h that only includes the header naming the API", () => {
    expect(apiHeaderOf(sub, { apiHeader: "Set-768/api.h" }, at).apiDir).toBe(join(sub, "Set-768"));
  });

  it("follows an api.h linked to another set's inside the package (NTRU+'s layout)", () => {
    symlinkSync("../Set-768/api.h", join(sub, "Set-1152", "api.h"));
    symlinkSync("../Set-768/params.h", join(sub, "Set-1152", "params.h"));
    expect(apiHeaderOf(sub, { apiHeader: "Set-1152/api.h" }, at).apiDir).toBe(join(sub, "Set-1152"));
  });

  it("does not read an api.h linked out of the package", () => {
    mkdirSync(join(sub, "Set-x"));
    symlinkSync(outside, join(sub, "Set-x", "api.h"));
    expect(() => apiHeaderOf(sub, { apiHeader: "Set-x/api.h" }, at)).toThrow(
      /\/instances\/0\/apiHeader: Set-x\/api\.h leads out of the submission folder through a symbolic link \(it is not read\)/,
    );
  });
});
