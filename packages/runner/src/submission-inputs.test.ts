// Every file the harness reads or hashes of a submission is resolved first (issue 25, items 1 and 7): an api.h that
// is a FIFO hung the CLI (readFileSync of the header, then the inputs hash), a source linked out of the submission
// was hashed and read, a header below an include folder that blocks hung the compiler. Each is refused by
// resolveAlgorithms before anything is built, naming the JSON pointer and the path, none of the content.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadCampaign } from "./campaign.ts";
import { InputError } from "./errors.ts";
import { resolveAlgorithms } from "./instances.ts";
import { declaredSignApi } from "./signapi.ts";
import { isOwnRandombytes, MAX_SOURCE_BYTES, specialFileIn, submissionPathProblem } from "./submission-inputs.ts";

const root = mkdtempSync(join(tmpdir(), "ngcc-submission-inputs-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const secret = join(root, "host-secret.h");
writeFileSync(secret, "#define CRYPTO_SECRETKEYBYTES 1 /* TOP-SECRET-HOST-BYTES */\n");

const API_H = [
  "#define CRYPTO_SECRETKEYBYTES 32",
  "#define CRYPTO_PUBLICKEYBYTES 32",
  "#define CRYPTO_CIPHERTEXTBYTES 32",
  "#define CRYPTO_BYTES 32",
  "int crypto_kem_keypair(unsigned char *pk, unsigned char *sk);",
  "",
].join("\n");

/** A one-instance submission: ref/api.h, ref/kem.c, common/util.h; `instance` overrides meta.json's fields. */
function submission(name: string, instance: Record<string, unknown> = {}): { dir: string; campaign: string } {
  const dir = join(root, name);
  mkdirSync(join(dir, "ref"), { recursive: true });
  mkdirSync(join(dir, "common"), { recursive: true });
  writeFileSync(join(dir, "ref", "api.h"), API_H);
  writeFileSync(
    join(dir, "ref", "kem.c"),
    '#include "api.h"\nint crypto_kem_keypair(unsigned char *pk, unsigned char *sk) { return 0; }\n',
  );
  writeFileSync(join(dir, "common", "util.h"), "#define UTIL 1\n");
  const meta = {
    name: "Toy",
    category: "kem",
    instances: [{ name: "Toy-1", folder: "ref", sources: ["ref/kem.c"], includeDirs: ["ref", "common"], ...instance }],
  };
  writeFileSync(join(dir, "meta.json"), JSON.stringify(meta, null, 2));
  const campaign = join(root, `${name}.yaml`);
  writeFileSync(
    campaign,
    `name: t\nsystem: test_1\nalgorithms:\n  - { id: kem-1, source: { submission: ${JSON.stringify(dir)} } }\n`,
  );
  return { dir, campaign };
}

/** The message resolveAlgorithms refuses the campaign with (an InputError: exit 2), or "" when it accepts it. */
function refusal(campaign: string): string {
  try {
    resolveAlgorithms(loadCampaign(campaign));
    return "";
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return (err as Error).message;
  }
}

const fifo = (p: string) => execFileSync("mkfifo", [p]);

describe("resolveAlgorithms resolves every submission file before use", () => {
  it("accepts the plain submission", () => {
    expect(refusal(submission("plain").campaign)).toBe("");
  });

  it("refuses an api.h that is a FIFO (it hung the CLI), without opening it", () => {
    const s = submission("fifo-api");
    rmSync(join(s.dir, "ref", "api.h"));
    fifo(join(s.dir, "ref", "api.h"));
    expect(refusal(s.campaign)).toMatch(
      /meta\.json: \/instances\/0\/folder: ref\/api\.h is a FIFO \(named pipe\), not a regular file; expected the API header/,
    );
  });

  it("refuses a FIFO named by apiHeader (it was 'not an API header')", () => {
    const s = submission("fifo-apiheader", { apiHeader: "ref/kem.h" });
    fifo(join(s.dir, "ref", "kem.h"));
    expect(refusal(s.campaign)).toMatch(/\/instances\/0\/apiHeader: ref\/kem\.h is a FIFO \(named pipe\)/);
  });

  it("refuses an api.h linked out of the submission, quoting nothing of the target", () => {
    const s = submission("link-api");
    rmSync(join(s.dir, "ref", "api.h"));
    symlinkSync(secret, join(s.dir, "ref", "api.h"));
    const m = refusal(s.campaign);
    expect(m).toMatch(/\/instances\/0\/folder: ref\/api\.h leads out of the submission folder through a symbolic link/);
    expect(m).not.toMatch(/TOP-SECRET|host-secret/);
  });

  it("refuses a source linked out of the submission (it was hashed and read as root)", () => {
    const s = submission("link-source", { sources: ["ref/kem.c", "ref/shadow.c"] });
    symlinkSync("/etc/shadow", join(s.dir, "ref", "shadow.c"));
    expect(refusal(s.campaign)).toMatch(
      /\/instances\/0\/sources\/1: ref\/shadow\.c leads out of the submission folder through a symbolic link \(it is not read\); expected a C file inside the submission/,
    );
  });

  it("refuses a source that is a FIFO, and one above the size cap", () => {
    const s = submission("fifo-source", { sources: ["ref/kem.c", "ref/pipe.c"] });
    fifo(join(s.dir, "ref", "pipe.c"));
    expect(refusal(s.campaign)).toMatch(
      /\/instances\/0\/sources\/1: ref\/pipe\.c is a FIFO \(named pipe\), not a regular file/,
    );
    rmSync(join(s.dir, "ref", "pipe.c"));
    writeFileSync(join(s.dir, "ref", "pipe.c"), "");
    truncateSync(join(s.dir, "ref", "pipe.c"), MAX_SOURCE_BYTES + 1); // sparse: no disk used
    expect(refusal(s.campaign)).toMatch(
      new RegExp(
        `/instances/0/sources/1: ref/pipe\\.c is ${MAX_SOURCE_BYTES + 1} bytes; at most ${MAX_SOURCE_BYTES} bytes are read of it`,
      ),
    );
  });

  it("refuses a header of an include folder that the inputs hash would block on or read from the host", () => {
    const s = submission("fifo-header");
    fifo(join(s.dir, "common", "table.h"));
    expect(refusal(s.campaign)).toMatch(
      /\/instances\/0\/includeDirs\/1: common\/table\.h \(a header in common, hashed with the build's inputs\) is a FIFO/,
    );
    rmSync(join(s.dir, "common", "table.h"));
    symlinkSync(secret, join(s.dir, "common", "table.h"));
    expect(refusal(s.campaign)).toMatch(/\/includeDirs\/1: common\/table\.h .*leads out of the submission folder/);
  });

  it("refuses an include folder linked out of the submission", () => {
    const s = submission("link-include", { includeDirs: ["ref", "common", "sys"] });
    symlinkSync("/usr/include", join(s.dir, "sys"));
    expect(refusal(s.campaign)).toMatch(
      /\/instances\/0\/includeDirs\/2: sys leads out of the submission folder through a symbolic link \(it is not read\); expected a folder inside the submission/,
    );
  });

  it("follows links that stay inside the submission (a shared folder linked into each set)", () => {
    const s = submission("link-inside", { sources: ["ref/kem.c", "ref/shared.c"] });
    writeFileSync(join(s.dir, "common", "shared.c"), "int shared;\n");
    symlinkSync("../common/shared.c", join(s.dir, "ref", "shared.c"));
    symlinkSync("../common/util.h", join(s.dir, "ref", "util.h"));
    expect(refusal(s.campaign)).toBe("");
  });

  it("refuses a FIFO anywhere in the submission (a header below an include folder the compiler would open)", () => {
    const s = submission("fifo-deep");
    mkdirSync(join(s.dir, "common", "sub"));
    fifo(join(s.dir, "common", "sub", "deep.h"));
    expect(refusal(s.campaign)).toMatch(
      /fifo-deep\/common\/sub\/deep\.h: is a FIFO \(named pipe\) in the submission of algorithm kem-1; a submission holds regular files and folders only/,
    );
  });
});

describe("the readers", () => {
  const dir = join(root, "readers");
  mkdirSync(dir);
  writeFileSync(join(dir, "ok.c"), "void randombytes(unsigned char *x, unsigned long long n) { }\n");
  symlinkSync(join(root, "outside-rb.c"), join(dir, "out.c"));
  writeFileSync(join(root, "outside-rb.c"), "void randombytes(unsigned char *x, unsigned long long n) { }\n");
  fifo(join(dir, "pipe.c"));

  it("isOwnRandombytes reads only the submission's regular files (never blocks on a FIFO)", () => {
    expect(isOwnRandombytes(join(dir, "ok.c"), dir)).toBe(true);
    expect(isOwnRandombytes(join(dir, "out.c"), dir)).toBe(false);
    expect(isOwnRandombytes(join(dir, "pipe.c"), dir)).toBe(false);
  });

  it("declaredSignApi does not read a header included from outside the submission", () => {
    const sub = join(root, "sign");
    mkdirSync(sub);
    writeFileSync(
      join(root, "outside-sign.h"),
      "int crypto_sign(unsigned char *sm, unsigned long long *smlen, const unsigned char *m, unsigned long long mlen, const unsigned char *sk);\n",
    );
    writeFileSync(join(sub, "api.h"), '#include "../outside-sign.h"\n');
    expect(declaredSignApi(join(sub, "api.h"), [sub], "", sub).style).toBeNull();
    writeFileSync(
      join(sub, "inside.h"),
      "int crypto_sign(unsigned char *sm, unsigned long long *smlen, const unsigned char *m, unsigned long long mlen, const unsigned char *sk);\n",
    );
    writeFileSync(join(sub, "api.h"), '#include "inside.h"\n');
    expect(declaredSignApi(join(sub, "api.h"), [sub], "", sub).style).toBe("nist");
  });

  it("submissionPathProblem and specialFileIn look without opening", () => {
    expect(submissionPathProblem(dir, "ok.c", "file")).toBeNull();
    expect(submissionPathProblem(dir, "pipe.c", "file")).toBe("is a FIFO (named pipe), not a regular file");
    expect(submissionPathProblem(dir, "ok.c", "folder")).toBe("is a regular file, not a folder");
    expect(submissionPathProblem(dir, "../x.c", "file")).toBe("is outside the submission folder");
    expect(submissionPathProblem(dir, "none.c", "file")).toBe("missing");
    expect(specialFileIn(dir)).toEqual({ path: "pipe.c", what: "a FIFO (named pipe)" });
    expect(specialFileIn(join(root, "plain"))).toBeNull();
  });
});
