// The harness reads a submission's KAT files with its own rights, outside the sandbox (issue 25, item 1): a
// shipped .rsp or kat.sha256 that is a symbolic link to a file outside the submission (a stand-in for /etc/shadow
// or a private key) is refused unread — the verdict is not PASS, the record says why, and none of the target's
// bytes reach the KAT log, the record, the console or the page. A link that stays inside the submission is
// followed as before. Real builds, behaviour only.
import { readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type KatRecord, recordPath } from "@ngcc-perf/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copySubmission, filesUnder, iccsDir, makeTempDir, runCliAsync, writeManifest } from "./fixture-tools.ts";

const dir = makeTempDir("ngcc-kat-links-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = "root:$6$NGCC-LINK-SECRET-HASH$abcdef:19000:0:99999:7:::";
const out = join(dir, "out");
let run: Awaited<ReturnType<typeof runCliAsync>>;

function kat(instance: string, algorithmId = "kem-90"): KatRecord {
  const key = { system: "test_1", algorithmId, instance, buildProfile: "quick" };
  return JSON.parse(readFileSync(recordPath(out, { kind: "kat", key }), "utf8")) as KatRecord;
}

beforeAll(async () => {
  const secret = join(dir, "shadow");
  writeFileSync(secret, `${SECRET}\n`.repeat(3));
  const sub = copySubmission("kem-90", dir);
  writeManifest(sub);
  const rsp = (name: string) => join(sub.dir, sub.meta.instances.find((i) => i.name === name)?.kat.file ?? "x");
  // Puffin-128's .rsp is a link out of the submission; Puffin-192's a link to a copy inside it (followed).
  rmSync(rsp("Puffin-128"));
  symlinkSync(secret, rsp("Puffin-128"));
  renameSync(rsp("Puffin-192"), join(sub.dir, "KAT", "inside-copy.rsp"));
  symlinkSync(join(sub.dir, "KAT", "inside-copy.rsp"), rsp("Puffin-192"));
  // A second copy whose kat.sha256 itself links out.
  const other = copySubmission("kem-90", join(dir, "manifest-link"));
  const manifest = join(other.dir, other.meta.katManifest);
  rmSync(manifest);
  symlinkSync(secret, manifest);
  writeFileSync(
    join(dir, "campaign.yaml"),
    [
      "name: kat-links",
      "system: test_1",
      `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
      "buildProfiles: { quick: { cflags: [-O2] } }",
      "algorithms:",
      `  - { id: kem-90, source: { submission: ${JSON.stringify(sub.dir)} }, instances: [Puffin-128, Puffin-192] }`,
      `  - { id: kem-91, source: { submission: ${JSON.stringify(other.dir)} }, instances: [Puffin-128] }`,
    ].join("\n"),
  );
  run = await runCliAsync(["run", join(dir, "campaign.yaml"), "--out", out, "--steps", "build,kat,report"], {
    timeoutMs: 300_000,
  });
}, 320_000);

describe("KAT files that are symbolic links", () => {
  it("a .rsp linking out of the submission is not PASS, and says it was not read", () => {
    expect(run.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND/);
    expect(run.code, run.stderr).toBe(1);
    const r = kat("Puffin-128");
    expect(r.verdict).not.toBe("PASS");
    expect(JSON.stringify(r)).toMatch(/symbolic link that leaves the submission folder/);
  });

  it("a link inside the submission is followed: PASS", () => {
    expect(kat("Puffin-192").verdict).toBe("PASS");
  });

  it("a kat.sha256 linking out is a manifest mismatch that says it was not read", () => {
    const r = kat("Puffin-128", "kem-91");
    expect(r.verdict).not.toBe("PASS");
    expect(r.manifest?.status).toBe("mismatch");
    expect(JSON.stringify(r.corruption)).toMatch(
      /"file":"kem-91\/KAT\/kat.sha256","message":"is a symbolic link that leaves/,
    );
  });

  it("nothing of the link's target reaches the console, the store or the site", () => {
    expect(run.stderr + run.stdout).not.toContain("NGCC-LINK-SECRET");
    for (const f of filesUnder(out)) {
      if (/\.(json|log|md|html|csv|txt)$/.test(f))
        expect(readFileSync(f, "latin1"), f).not.toContain("NGCC-LINK-SECRET");
    }
  });
});
