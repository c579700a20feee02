/**
 * sig-94 Shrike, the FIPS 204 context API (issue 15, part C): with "api": { "style": "fips204" } in its meta.json
 * `ngcc-perf run` builds it, its KAT (made by ngcc-perf's KAT generator with -DNGCC_SIGN_API_FIPS204) passes and it
 * is timed, with the empty context and with a campaign's signContext. A wrong style is an API mismatch that says
 * which API was expected and how to choose the other, both ways (sig-94 as nist, sig-93 Wren as fips204), on the
 * console and in the failure records. The context is bound into Shrike's signatures. Behaviour only, never timings.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  filesUnder,
  iccsDir,
  makeTempDir,
  nativeIncludeDir,
  recordsOfKind,
  run,
  runCli,
  STRICT_CFLAGS,
  submissionsDir,
} from "./fixture-tools.ts";

const work = makeTempDir("ngcc-sig94-");
afterAll(() => {
  if (!process.env.NGCC_KEEP_TEMP) rmSync(work, { recursive: true, force: true });
});

/** A copy of a fixture submission with its first instance's meta.json `api` replaced, and a campaign over it. */
function layout(
  name: string,
  id: string,
  api: unknown,
  campaignExtra: string[] = [],
): { campaign: string; out: string } {
  const dir = join(work, name);
  const sub = join(dir, id);
  cpSync(join(submissionsDir, id), sub, { recursive: true });
  const metaPath = join(sub, "meta.json");
  const meta = JSON.parse(readFileSync(metaPath, "utf8")) as { instances: Array<Record<string, unknown>> };
  const inst = meta.instances[0] as Record<string, unknown>;
  if (api === undefined) delete inst.api;
  else inst.api = api;
  writeFileSync(metaPath, `${JSON.stringify(meta, null, 2)}\n`);
  const campaign = join(dir, "campaign.yaml");
  writeFileSync(
    campaign,
    [
      `name: ${name}`,
      "system: x86_1",
      `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
      "defaultProfile: guide",
      "buildProfiles:",
      "  guide:",
      '    cflags: ["-O2"]',
      "timing: { workerMs: 20, budgetMs: 200, trials: 3, minIterations: 5, targetTrialMs: 5 }",
      "algorithms:",
      `  - id: ${id}`,
      `    source: { submission: ${id} }`,
      ...campaignExtra,
      "",
    ].join("\n"),
  );
  return { campaign, out: join(dir, "out") };
}

/** Every string inside a record. */
function strings(v: unknown): string[] {
  if (typeof v === "string") return [v];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (v && typeof v === "object") return Object.values(v).flatMap(strings);
  return [];
}

const runQuick = (campaign: string, out: string) =>
  runCli(["run", campaign, "--out", out, "--steps", "build,kat,time", "--quick"]);

function passesAndIsTimed(r: ReturnType<typeof runCli>, out: string): void {
  expect(r.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND/);
  expect(r.code, r.stderr).toBe(0);
  const kat = recordsOfKind(out, /^kat$/);
  expect(kat).toHaveLength(1);
  expect(kat[0]?.verdict).toBe("PASS");
  const timing = recordsOfKind(out, /^timing$/);
  expect(timing.map((t) => t.operation).sort()).toEqual(["keygen", "sign", "verify"]);
  for (const t of timing) expect(t.status).toBe("ok");
}

describe("sig-94 Shrike with the FIPS 204 context API", () => {
  const plain = layout("fips204", "sig-94", { style: "fips204" });
  const ctx = layout("fips204-ctx", "sig-94", { style: "fips204" }, ['    signContext: "6e676363"']);
  let r: ReturnType<typeof runCli>;
  let rc: ReturnType<typeof runCli>;
  beforeAll(() => {
    r = runQuick(plain.campaign, plain.out);
    rc = runQuick(ctx.campaign, ctx.out);
  }, 900_000);

  it("passes its KAT and is timed (empty context)", () => passesAndIsTimed(r, plain.out));

  it("passes its KAT (made with the empty context) and is timed under the campaign's signContext", () => {
    passesAndIsTimed(rc, ctx.out);
    const commands = filesUnder(join(ctx.out, "build"))
      .filter((f) => f.endsWith(".build.json"))
      .map((f) => readFileSync(f, "utf8"))
      .join("\n");
    expect(commands).toContain("-DNGCC_SIGN_API_FIPS204");
    expect(commands).toContain("-DNGCC_SIGN_CONTEXT=0x6e,0x67,0x63,0x63");
  });

  it("binds the context: a signature under one context fails under another", async () => {
    const ref = join(submissionsDir, "sig-94", "Reference_Implementation");
    const src = join(work, "ctx-bound.c");
    writeFileSync(
      src,
      `#include <stdio.h>
#include <string.h>
#include "api.h"
int randombytes(unsigned char *x, unsigned long long xlen);
int randombytes(unsigned char *x, unsigned long long xlen) {
    memset(x, 7, (size_t)xlen);
    return 0;
}
int main(void) {
    static uint8_t pk[CRYPTO_PUBLICKEYBYTES], sk[CRYPTO_SECRETKEYBYTES], sm[CRYPTO_BYTES + 3], m[CRYPTO_BYTES + 3];
    const uint8_t a[] = {1, 2}, b[] = {1, 3};
    size_t smlen = 0, mlen = 0;
    if (crypto_sign_keypair(pk, sk) != 0 || crypto_sign(sm, &smlen, (const uint8_t *)"abc", 3, a, 2, sk) != 0) {
        return 1;
    }
    printf("%d %d %d\\n", crypto_sign_open(m, &mlen, sm, smlen, a, 2, pk), crypto_sign_open(m, &mlen, sm, smlen, b, 2, pk),
           crypto_sign_open(m, &mlen, sm, smlen, a, 1, pk));
    return 0;
}
`,
    );
    const exe = join(work, "ctx-bound");
    const b = await run("gcc", [
      ...STRICT_CFLAGS.filter((f) => f !== "-Wmissing-prototypes"),
      "-I",
      join(ref, "Shrike-128"),
      "-I",
      join(ref, "common"),
      "-I",
      iccsDir,
      "-I",
      nativeIncludeDir,
      join(ref, "common", "sign.c"),
      join(iccsDir, "pseudo.c"),
      join(iccsDir, "sm3.c"),
      src,
      "-o",
      exe,
    ]);
    expect(b.stderr).toBe("");
    const o = await run(exe, []);
    expect(o.status).toBe(0);
    expect(o.stdout.trim()).toBe("0 -1 -1");
  }, 120_000);
});

describe("an API mismatch says which API was expected and how to choose the other", () => {
  const cases = [
    {
      name: "sig-94 as nist",
      id: "sig-94",
      api: undefined,
      message:
        /API mismatch: ngcc-perf expects the round-3 NIST API crypto_sign\(sm, smlen, m, mlen, sk\); this header \(\S*Shrike-128\/api\.h\) declares crypto_sign with the FIPS 204 context API: set "api": \{ "style": "fips204" \} in meta\.json/,
    },
    {
      name: "sig-93 as fips204",
      id: "sig-93",
      api: { style: "fips204" },
      message:
        /API mismatch: ngcc-perf expects the FIPS 204 context API crypto_sign\(sm, smlen, m, mlen, ctx, ctxlen, sk\); this header \(\S*Wren-128\/api\.h\) declares crypto_sign with the round-3 NIST API: set "api": \{ "style": "nist" \} in meta\.json/,
    },
  ];
  it.each(cases)(
    "$name: on the console and in the failure records",
    ({ name, id, api, message }) => {
      const l = layout(name.replace(/ /g, "-"), id, api);
      const r = runQuick(l.campaign, l.out);
      expect(r.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND/);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/^\s+at /m);
      const failed = [...recordsOfKind(l.out, /^kat$/), ...recordsOfKind(l.out, /^timing$/)];
      expect(failed.length).toBeGreaterThan(0);
      // The failure record of the first step that builds (the KAT) carries the sentence.
      expect(failed.some((rec) => strings(rec).some((s) => message.test(s)))).toBe(true);
    },
    900_000,
  );
});
