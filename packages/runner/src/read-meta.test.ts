// readMeta reads a submission's meta.json with the harness's own rights: a meta.json that is a symbolic link out
// of the submission folder is refused unread (issue 25, item 1: its first bytes were echoed in the error).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readMeta } from "./instances.ts";

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
