/**
 * `ngcc-perf init` on real third-party code with its own build system (issue 24): PQClean as the pqclean@0.8.1 npm
 * package ships it — each scheme's folder with its own Makefile (`-I../../../common`, objects into a static library)
 * and the shared `common/` folder beside it, in PQClean's own layout (nothing re-laid, nothing edited). init drafts
 * meta.json with no option but --id and no hand edit; then `run --steps build,kat,sizes,report`: the KAT equals
 * PQClean's own published nistkat-sha256 (META.yml, kept in fixtures/reference — not made by ngcc-perf), the sizes
 * equal PQClean's META.yml lengths, and the page says nothing of ICCS and names no instance after a folder.
 * Behaviour only, never timings.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { filesUnder, fixturesDir, makeTempDir, pqcleanDir, runCliAsync } from "./fixture-tools.ts";

const work = makeTempDir("ngcc-init-pqclean-tree-");
afterAll(() => {
  if (!process.env.NGCC_KEEP_TEMP) rmSync(work, { recursive: true, force: true });
});

const nistkat = JSON.parse(
  readFileSync(join(fixturesDir, "reference", "pqclean-nistkat-sha256.json"), "utf8"),
) as Record<string, string>;
const lengths = JSON.parse(readFileSync(join(fixturesDir, "reference", "pqclean-meta-lengths.json"), "utf8")) as Record<
  string,
  Record<string, number>
>;

interface Draft {
  name: string;
  category: string;
  iccs?: unknown;
  instances: Array<{ name: string; sources: string[]; includeDirs: string[]; cflags?: string[] }>;
}

/** PQClean's scheme folder and common/ copied in PQClean's own layout. */
function packageOf(kind: "crypto_kem" | "crypto_sign", scheme: string): string {
  const dir = join(work, scheme, "pkg");
  mkdirSync(join(dir, kind, scheme), { recursive: true });
  cpSync(join(pqcleanDir, "common"), join(dir, "common"), { recursive: true });
  cpSync(join(pqcleanDir, kind, scheme, "clean"), join(dir, kind, scheme, "clean"), { recursive: true });
  return dir;
}

const cases = [
  { kind: "crypto_kem" as const, scheme: "ml-kem-768", id: "kem-97", category: "kem" },
  { kind: "crypto_sign" as const, scheme: "ml-dsa-44", id: "sig-97", category: "sign" },
];

describe.each(cases)("PQClean's $scheme in its own layout, with its own Makefile", ({ kind, scheme, id, category }) => {
  const dir = packageOf(kind, scheme);
  const out = join(work, scheme, "out");
  let init: Awaited<ReturnType<typeof runCliAsync>>;
  let run: Awaited<ReturnType<typeof runCliAsync>>;
  let draft: Draft;

  it("init drafts meta.json from the Makefile's compile lines, with no option but --id", async () => {
    init = await runCliAsync(["init", dir, "--id", id], { timeoutMs: 300_000 });
    expect(init.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND/);
    expect(init.code, init.stdout + init.stderr).toBe(0);
    draft = JSON.parse(readFileSync(join(dir, "meta.json"), "utf8")) as Draft;
    expect(draft.category).toBe(category);
    expect(draft.iccs ?? null).toBeNull();
    expect(init.stdout).toMatch(/make -n/);
    expect(draft.instances).toHaveLength(1);
    const inst = draft.instances[0] as Draft["instances"][number];
    expect(inst.name).not.toMatch(/^(clean|common|crypto_kem|crypto_sign|src|ref|include)$/);
    expect(inst.sources.some((s) => s.endsWith("common/randombytes.c"))).toBe(false);
    expect(inst.sources.some((s) => s.endsWith("common/fips202.c"))).toBe(true);
  }, 320_000);

  it("run builds it, its KAT equals PQClean's published hash, its sizes PQClean's META.yml", async () => {
    const campaign = join(work, scheme, "campaign.yaml");
    writeFileSync(
      campaign,
      [
        `name: pqclean-tree-${scheme}`,
        "system: x86_1",
        "defaultProfile: guide",
        "buildProfiles: { guide: { cflags: [-O2] } }",
        "algorithms:",
        `  - id: ${id}`,
        "    source: { submission: pkg }",
        `    kat: { sha256: "${nistkat[`${kind}/${scheme}`]}", form: single, source: "PQClean META.yml nistkat-sha256" }`,
        "",
      ].join("\n"),
    );
    run = await runCliAsync(["run", campaign, "--out", out, "--steps", "build,kat,sizes,report"], {
      timeoutMs: 600_000,
    });
    expect(run.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND/);
    expect(run.code, run.stderr).toBe(0);
    const records = filesUnder(join(out, "data"))
      .filter((f) => f.endsWith(".json"))
      .map((f) => JSON.parse(readFileSync(f, "utf8")) as Record<string, unknown>);
    const kat = records.filter((r) => r.kind === "kat");
    expect(kat).toHaveLength(1);
    expect(kat[0]?.verdict).toBe("PASS");
    const meta = lengths[`${kind}/${scheme}`] as Record<string, number>;
    const audit = JSON.stringify(records.filter((r) => r.kind === "size-audit"));
    expect(audit).toContain(`"publicKeyBytes":${meta["length-public-key"]}`);
    expect(audit).toContain(`"secretKeyBytes":${meta["length-secret-key"]}`);
    if (category === "kem") expect(audit).toContain(`"ciphertextBytes":${meta["length-ciphertext"]}`);
    else expect(audit).toContain(`"signatureBytes":${meta["length-signature"]}`);
  }, 620_000);

  it("the page says nothing of ICCS and names no instance after a folder", () => {
    const file = filesUnder(join(out, "site", "x86_1")).find((f) => f.endsWith(".md") && f.includes(id));
    expect(file, "the algorithm's page").toBeDefined();
    const page = readFileSync(file as string, "utf8");
    expect(page.split("\n").filter((l) => /\bICCS\b|placeholder/i.test(l))).toEqual([]);
    expect(page).not.toMatch(/`(clean|common|src|ref|include)`/);
  });
});
