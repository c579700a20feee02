import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readSubmissionBytes, readSubmissionText } from "./submission-file.ts";

const root = mkdtempSync(join(tmpdir(), "ngcc-subfile-"));
const outside = mkdtempSync(join(tmpdir(), "ngcc-subfile-out-"));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const sub = join(root, "sub");
mkdirSync(join(sub, "KAT", "set"), { recursive: true });
mkdirSync(join(sub, "common"), { recursive: true });
writeFileSync(join(sub, "KAT", "kat.sha256"), "ab  set/x.rsp\n");
writeFileSync(join(sub, "common", "params.h"), "#define N 3\n");
writeFileSync(join(outside, "secret"), "root:SECRET-HASH:19000:0:99999:7:::\n");
symlinkSync(join(outside, "secret"), join(sub, "KAT", "set", "x.rsp"));
symlinkSync("../common", join(sub, "KAT", "linked"));
symlinkSync("/etc/passwd", join(sub, "meta.json"));
execFileSync("mkfifo", [join(sub, "fifo.rsp")]);

describe("readSubmissionBytes", () => {
  it("reads a regular file inside the folder, and through a link that stays inside", () => {
    expect(readSubmissionText(sub, join(sub, "KAT", "kat.sha256"), 1024).text).toBe("ab  set/x.rsp\n");
    expect(readSubmissionText(sub, "KAT/linked/params.h", 1024).text).toBe("#define N 3\n");
  });

  it("refuses a link that leaves the folder, without reading the target", () => {
    const r = readSubmissionBytes(sub, "KAT/set/x.rsp", 1024);
    expect(r.error).toMatch(/symbolic link that leaves the submission folder/);
    expect(JSON.stringify(r)).not.toContain("SECRET");
    expect(readSubmissionBytes(sub, "meta.json", 1024).error).toMatch(/leaves the submission folder/);
  });

  it("refuses a path outside, a FIFO (without blocking), a folder and a file above the cap", () => {
    expect(readSubmissionBytes(sub, "../../etc/passwd", 1024).error).toMatch(/outside the submission folder/);
    expect(readSubmissionBytes(sub, "fifo.rsp", 1024).error).toMatch(/not a regular file/);
    expect(readSubmissionBytes(sub, "KAT", 1024).error).toMatch(/a folder/);
    expect(readSubmissionBytes(sub, "KAT/kat.sha256", 4).error).toMatch(/at most 4 bytes/);
    expect(readSubmissionBytes(sub, "none.rsp", 4).error).toMatch(/does not exist/);
  });
});
