/**
 * The bad submissions of fixture-tools.ts are made correctly: each fails in
 * exactly the intended way and only there.
 */
import { readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  type BadSubmission,
  buildInstance,
  checkManifest,
  differingRspEntries,
  firstRspDifference,
  generateRsp,
  makeAllBadSubmissions,
  makeTempDir,
  run,
  runRoundtrip,
  submissionsDir,
} from "./fixture-tools.ts";

const work = makeTempDir("ngcc-bad-");
afterAll(() => rmSync(work, { recursive: true, force: true }));
const bad = makeAllBadSubmissions(join(work, "subs"));
const get = (kind: string) => bad.find((b) => b.kind === kind) as BadSubmission;

describe("bad submissions", () => {
  it("are all made", () => {
    expect(bad.map((b) => b.kind)).toEqual([
      "no-compile",
      "crash-dec",
      "hang-sign",
      "overflow-enc",
      "kat-flip-37",
      "bad-manifest",
    ]);
  });

  it.concurrent("no-compile: gcc fails", async () => {
    const b = get("no-compile");
    const built = await buildInstance(b.sub, b.instance, { driver: "roundtrip" }, work);
    expect(built.ok).toBe(false);
    expect(built.stderr).toMatch(/kem\.c:\d+:\d+: error/);
  }, 60_000);

  it.concurrent("crash-dec: decapsulation dies with SIGSEGV", async () => {
    const b = get("crash-dec");
    const built = await buildInstance(b.sub, b.instance, { driver: "roundtrip" }, work);
    expect(built.stderr).toBe("");
    const r = await runRoundtrip(built.exe, 1, 10_000);
    expect(r.signal).toBe("SIGSEGV");
    expect(r.stdout).toBe("");
  }, 60_000);

  it.concurrent("hang-sign: signing never returns", async () => {
    const b = get("hang-sign");
    const built = await buildInstance(b.sub, b.instance, { driver: "roundtrip" }, work);
    expect(built.stderr).toBe("");
    const r = await runRoundtrip(built.exe, 1, 2_000);
    expect(r.timedOut).toBe(true);
    expect(r.signal).toBe("SIGKILL");
  }, 60_000);

  it.concurrent("overflow-enc: canaries and AddressSanitizer catch the write past ct", async () => {
    const b = get("overflow-enc");
    const built = await buildInstance(b.sub, b.instance, { driver: "roundtrip" }, work);
    expect(built.stderr).toBe("");
    const r = await runRoundtrip(built.exe, 1, 10_000);
    expect(r.status).toBe(3);
    expect(r.stderr).toContain("enc wrote outside its buffer ct");
    // the KAT generator's guard bytes around ct catch it (inside its allocation, before ASan would)
    await expect(generateRsp(b.sub, b.instance, work, { sanitize: true })).rejects.toThrow(
      /failed \(3\):\nkatgen: canary overwritten after buffer ct \(\d+ bytes\) by crypto_kem_enc at count = 0/,
    );
  }, 120_000);

  it("kat-flip-37: manifest verifies, the .rsp differs from the real one in one byte of entry 37", async () => {
    const b = get("kat-flip-37");
    const manifest = join(b.sub.dir, b.sub.meta.katManifest);
    expect(checkManifest(manifest).ok).toBe(true);
    expect((await run("sha256sum", ["-c", "kat.sha256"], { cwd: dirname(manifest) })).status).toBe(0);
    const flipped = readFileSync(join(b.sub.dir, b.instance.kat.file), "utf8");
    const good = readFileSync(join(submissionsDir, b.sub.meta.id, b.instance.kat.file), "utf8");
    expect(flipped.length).toBe(good.length);
    const diffs = [...good].flatMap((c, i) => (c === flipped[i] ? [] : [i]));
    expect(diffs).toHaveLength(1);
    expect(firstRspDifference(good, flipped)).toEqual({ entry: 37, field: "ct" });
    expect(differingRspEntries(good, flipped)).toEqual([37]);
  });

  it("bad-manifest: sha256 checking fails; the .rsp itself is the good one", async () => {
    const b = get("bad-manifest");
    const manifest = join(b.sub.dir, b.sub.meta.katManifest);
    const check = checkManifest(manifest);
    expect(check.ok).toBe(false);
    expect(check.mismatched).toEqual(["Puffin-128/PQCkemKAT_1632.rsp"]);
    const r = await run("sha256sum", ["-c", "kat.sha256"], { cwd: dirname(manifest) });
    expect(r.status).not.toBe(0);
    expect(r.stdout).toContain("Puffin-128/PQCkemKAT_1632.rsp: FAILED");
    const good = readFileSync(join(submissionsDir, b.sub.meta.id, b.instance.kat.file));
    expect(readFileSync(join(b.sub.dir, b.instance.kat.file)).equals(good)).toBe(true);
  });
});
