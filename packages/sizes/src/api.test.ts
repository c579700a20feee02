// Why an API header's sizes could not be read, in words that are true: a header that does not compile (a header
// it includes is missing) is said so with the compiler's first error line, a missing macro is named, and only a
// macro that is there but is no integer constant is "does not compile as an integer constant". Paths are shown
// from the submission (kem-90/…) and ngcc-perf (<ngcc-perf>/native/…), never from the temporary folder.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadCampaign, resolveAlgorithms, toolchain } from "@ngcc-perf/runner";
import { afterAll, describe, expect, it } from "vitest";
import { ApiError, readApiFigures } from "./api.ts";

const repo = join(dirname(fileURLToPath(import.meta.url)), "../../..");
const tmp = mkdtempSync(join(tmpdir(), "ngcc-sizes-api-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const API = "Reference_Implementation/Puffin-128/api.h";

/** kem-90 copied with Puffin-128's api.h edited; the failure readApiFigures throws for it. */
async function failureOf(name: string, edit: (text: string) => string): Promise<ApiError> {
  const dir = join(tmp, name);
  cpSync(join(repo, "fixtures/submissions/kem-90"), join(dir, "kem-90"), { recursive: true });
  const api = join(dir, "kem-90", API);
  writeFileSync(api, edit(readFileSync(api, "utf8")));
  const file = join(dir, "campaign.yaml");
  writeFileSync(
    file,
    [
      "name: api",
      "system: t_1",
      `iccs: { dir: ${JSON.stringify(join(repo, "fixtures/iccs"))} }`,
      "algorithms:",
      `  - { id: kem-90, instances: [Puffin-128], source: { submission: ${JSON.stringify(join(dir, "kem-90"))} } }`,
    ].join("\n"),
  );
  const campaign = loadCampaign(file);
  const spec = resolveAlgorithms(campaign)[0]?.instances[0];
  if (!spec) throw new Error("no instance");
  const build = join(dir, "out", "build");
  try {
    await readApiFigures(spec, await toolchain(campaign.context), join(build, "t_1", "kem-90", "guide"), {
      buildTimeoutMs: 60_000,
      runTimeoutMs: 30_000,
      buildDir: build,
    });
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error("api.h was read");
}

describe("an API header whose sizes cannot be read", () => {
  it("a header that does not compile: said so, with the compiler's first error line", async () => {
    const e = await failureOf("missing-include", (t) =>
      t.replace("#define PUFFIN_API_H", '#define PUFFIN_API_H\n#include "no_such_header.h"'),
    );
    expect(e.reason).toBe("compile-error");
    const [first] = e.message.split("\n");
    expect(first).toMatch(
      /^kem-90\/Puffin-128: kem-90\/Reference_Implementation\/Puffin-128\/api\.h does not compile: kem-90\/Reference_Implementation\/Puffin-128\/api\.h:\d+:\d+: fatal error: no_such_header\.h: No such file or directory$/,
    );
    expect(e.message).not.toMatch(/integer constant/);
    expect(e.message).not.toContain(tmp);
  }, 60_000);

  it("a size macro that is there but no integer constant: named, with the first error line", async () => {
    const e = await failureOf("not-a-number", (t) =>
      t.replace(/#define CRYPTO_PUBLICKEYBYTES .*/, "#define CRYPTO_PUBLICKEYBYTES 800 +"),
    );
    const [first] = e.message.split("\n");
    expect(first).toMatch(
      /^kem-90\/Puffin-128: kem-90\/Reference_Implementation\/Puffin-128\/api\.h: the size macro CRYPTO_PUBLICKEYBYTES does not compile as an integer constant: <ngcc-perf>\/native\/printparams\/ngcc_printparams\.c:\d+:\d+: error: /,
    );
    expect(e.message).not.toContain(tmp);
    expect(e.message).not.toContain(repo);
  }, 60_000);

  it("a size macro that is not defined: named as missing", async () => {
    const e = await failureOf("undefined", (t) => t.replace(/#define CRYPTO_CIPHERTEXTBYTES .*/, ""));
    expect(e.message.split("\n")[0]).toMatch(
      /^kem-90\/Puffin-128: kem-90\/Reference_Implementation\/Puffin-128\/api\.h does not define CRYPTO_CIPHERTEXTBYTES: <ngcc-perf>\/native\/printparams\/ngcc_printparams\.c:\d+:\d+: error: ‘CRYPTO_CIPHERTEXTBYTES’ undeclared/,
    );
  }, 60_000);
});
