// End to end: `ngcc-perf kat` over real C builds of the fixture submissions and the bad ones. Checks the
// verdicts, the diagnosis, the KAT log and its hash, CRLF tolerance, --resume, that one failing instance
// never stops the others, and that every build profile of a campaign gets its own record and log. Never asserts
// a timing.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { katStep } from "@ngcc-perf/kat";
import { loadCampaign, type ProgressEvent, resolveCampaign } from "@ngcc-perf/runner";
import { type InstanceKey, type KatRecord, recordPath, systemDir, validateFile } from "@ngcc-perf/schema";
import { afterAll, describe, expect, it } from "vitest";
import {
  getInstance,
  iccsDir,
  makeBadManifest,
  makeCrashInDec,
  makeFlippedKat,
  makeTempDir,
  runCli,
  sha256Hex,
  submissionsDir,
  writeManifest,
} from "./fixture-tools.ts";

const tmp = makeTempDir("ngcc-kat-");
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const cli = (...args: string[]) => runCli(args);
/** The KAT step's summary in the `--json` output of a campaign command. */
const katSummary = (stdout: string) => (JSON.parse(stdout) as { steps: { kat: Record<string, unknown> } }).steps.kat;

function campaign(name: string, algorithms: string[], profiles = "{ quick: { cflags: [-O2] } }"): string {
  const file = join(tmp, `${name}.yaml`);
  writeFileSync(
    file,
    [
      `name: ${name}`,
      "system: test_1",
      `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
      `buildProfiles: ${profiles}`,
      "algorithms:",
      ...algorithms,
    ].join("\n"),
  );
  return file;
}

const keyOf = (algorithmId: string, instance: string, buildProfile = "quick"): InstanceKey => ({
  system: "test_1",
  algorithmId,
  instance,
  buildProfile,
});
const recordFile = (out: string, alg: string, instance: string, profile?: string) =>
  recordPath(out, { kind: "kat", key: keyOf(alg, instance, profile) });

function record(out: string, alg: string, instance: string, profile?: string): KatRecord {
  return JSON.parse(readFileSync(recordFile(out, alg, instance, profile), "utf8")) as KatRecord;
}

describe("ngcc-perf kat", () => {
  it("gives the bad fixtures their verdicts, verifies the other instances, and exits 1", () => {
    const flipped = makeFlippedKat(join(tmp, "flip"));
    // The flipped copy also ships Puffin-192's file with CRLF line endings (and a manifest that matches it).
    const crlfFile = join(flipped.sub.dir, getInstance(flipped.sub, "Puffin-192").kat.file);
    writeFileSync(crlfFile, readFileSync(crlfFile, "utf8").replace(/\n/g, "\r\n"));
    writeManifest(flipped.sub);
    const manifest = makeBadManifest(join(tmp, "manifest"));
    const crash = makeCrashInDec(join(tmp, "crash"));
    const file = campaign("bad", [
      `  - { id: kem-flip, source: { submission: ${JSON.stringify(flipped.sub.dir)} }, instances: [Puffin-128, Puffin-192] }`,
      `  - { id: kem-manifest, source: { submission: ${JSON.stringify(manifest.sub.dir)} }, instances: [Puffin-128, Puffin-192] }`,
      `  - { id: kem-crash, source: { submission: ${JSON.stringify(crash.sub.dir)} }, instances: [Puffin-128] }`,
      `  - { id: sig-91, source: { submission: ${JSON.stringify(join(submissionsDir, "sig-91"))} }, instances: [Quill-V-192] }`,
      `  - { id: kex-92, source: { submission: ${JSON.stringify(join(submissionsDir, "kex-92"))} }, instances: [Heron-2P-128] }`,
    ]);
    const out = join(tmp, "bad-out");
    const r = cli("kat", file, "--out", out, "--json");
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(1);
    // The pipeline's summary; the step's records are those that say the KAT passed, failed the FAIL and ERROR ones.
    expect(katSummary(r.stdout)).toMatchObject({ planned: 7, records: 4, failed: 3 });

    // Flipped byte in entry 37: FAIL naming count 37 and the field, one entry differing.
    const flip = record(out, "kem-flip", "Puffin-128");
    expect(flip.verdict).toBe("FAIL");
    expect(flip.outcome).toBe("output-differs");
    expect(flip.manifest?.status).toBe("ok");
    expect(flip.diagnosis).toMatchObject({ firstCount: 37, field: "ct", differingEntries: 1 });
    expect(flip.diagnosis?.expected).not.toBe(flip.diagnosis?.actual);
    expect(r.stderr).toMatch(/kem-flip\/Puffin-128[\s\S]*count = 37, field ct/);

    // CRLF only: PASS with a warning.
    const crlf = record(out, "kem-flip", "Puffin-192");
    expect(crlf.verdict).toBe("PASS");
    expect(crlf.warnings?.join(" ")).toMatch(/CRLF/);

    // Altered manifest: a corrupt-KAT failure, kept apart from implementation failures.
    const bad = record(out, "kem-manifest", "Puffin-128");
    expect(bad.verdict).toBe("FAIL");
    expect(bad.outcome).toBe("corrupt-kat");
    expect(bad.manifest?.status).toBe("mismatch");
    expect(bad.manifest?.mismatches?.[0]?.file).toBe("Puffin-128/PQCkemKAT_1632.rsp");
    expect(bad.diagnosis).toBeUndefined(); // the .rsp itself is right: the implementation reproduces it
    expect(bad.checks?.every((c) => c.match)).toBe(true);
    expect(record(out, "kem-manifest", "Puffin-192").verdict).toBe("PASS");

    // Crash in decapsulation: ERROR with the signal and where it happened.
    const crashed = record(out, "kem-crash", "Puffin-128");
    expect(crashed.verdict).toBe("ERROR");
    expect(crashed.error).toMatchObject({ reason: "crash", signal: "SIGSEGV" });
    expect(crashed.error?.message).toMatch(/crypto_kem_dec at count = 0/);

    // The good instances of the campaign are still verified, with lengths for the size audit.
    const quill = record(out, "sig-91", "Quill-V-192");
    expect(quill.verdict).toBe("PASS");
    const sig = quill.lengths?.signatureBytes;
    expect(sig?.samples).toBe(100);
    expect(sig && sig.min < sig.max && sig.max <= 3074).toBe(true);
    expect(record(out, "kex-92", "Heron-2P-128")).toMatchObject({ verdict: "PASS", outcome: "match" });

    // Every record validates; each log is where the record says, with the hash it gives.
    for (const [alg, inst] of [
      ["kem-flip", "Puffin-128"],
      ["kem-flip", "Puffin-192"],
      ["kem-manifest", "Puffin-128"],
      ["kem-manifest", "Puffin-192"],
      ["kem-crash", "Puffin-128"],
      ["sig-91", "Quill-V-192"],
      ["kex-92", "Heron-2P-128"],
    ] as const) {
      expect(validateFile(recordFile(out, alg, inst)).errors).toEqual([]);
      const rec = record(out, alg, inst);
      expect(rec.log.path).toBe(`kat/${alg}/quick/${inst}.log`);
      const log = readFileSync(join(systemDir(out, "test_1"), rec.log.path as string));
      expect(sha256Hex(log)).toBe(rec.log.sha256);
      expect(log.toString()).toContain(`verdict:          ${rec.verdict}`);
    }
    const flipLog = readFileSync(recordPath(out, { kind: "kat-log", key: keyOf("kem-flip", "Puffin-128") }), "utf8");
    expect(flipLog).toMatch(/first count:\s+37/);
    expect(flipLog).toMatch(/\$ gcc /);

    // --resume skips PASS and FAIL records whose inputs are unchanged, and redoes ERROR ones.
    const again = cli("kat", file, "--out", out, "--resume", "--json", "--only", "kem-flip/*", "--only", "kem-crash");
    expect(again.code).toBe(1);
    expect(katSummary(again.stdout)).toMatchObject({ planned: 3, skipped: 2, records: 0, failed: 1 });
  }, 600_000);

  it("verifies every build profile of an instance into its own record and log", async () => {
    const file = campaign(
      "profiles",
      [
        `  - { id: kem-90, source: { submission: ${JSON.stringify(join(submissionsDir, "kem-90"))} }, instances: [Puffin-128], buildProfiles: [quick, o0] }`,
      ],
      "{ quick: { cflags: [-O2] }, o0: { cflags: [-O0] } }",
    );
    const out = join(tmp, "profiles-out");
    const events: ProgressEvent[] = [];
    const options = { out, requireKatPass: false, asked: false, onProgress: (e: ProgressEvent) => events.push(e) };
    const r = await katStep.run(resolveCampaign(loadCampaign(file)), options);
    expect(r).toMatchObject({ planned: 2, records: 2, failed: 0, skipped: 0 });
    expect(events.find((e) => e.type === "plan")).toMatchObject({ step: "kat", total: 2, units: 2 });
    const jobs = events.filter((e) => e.type === "job");
    expect(jobs.map((e) => e.type === "job" && `${e.profile} ${e.status}`).sort()).toEqual(["o0 ok", "quick ok"]);
    const built = events.filter((e) => e.type === "build").map((e) => e.type === "build" && e.profile);
    expect(built.sort()).toEqual(["o0", "quick"]);
    for (const [profile, flag] of [
      ["quick", "-O2"],
      ["o0", "-O0"],
    ] as const) {
      expect(validateFile(recordFile(out, "kem-90", "Puffin-128", profile)).errors).toEqual([]);
      const rec = record(out, "kem-90", "Puffin-128", profile);
      expect(rec).toMatchObject({ buildProfile: profile, verdict: "PASS", outcome: "match" });
      expect(rec.build?.flags).toEqual([flag]);
      expect(rec.build?.artifact).toContain(`/build/test_1/kem-90/${profile}/`);
      expect(rec.log.path).toBe(`kat/kem-90/${profile}/Puffin-128.log`);
      const log = readFileSync(join(systemDir(out, "test_1"), rec.log.path as string));
      expect(sha256Hex(log)).toBe(rec.log.sha256);
      expect(log.toString()).toContain(`build profile:    ${profile}: ${flag}`);
    }
    const [quick, o0] = ["quick", "o0"].map((p) => record(out, "kem-90", "Puffin-128", p));
    expect(quick?.inputsHash).not.toBe(o0?.inputsHash);

    // --resume: both current, nothing rebuilt; the total is still the two jobs.
    events.length = 0;
    const again = await katStep.run(resolveCampaign(loadCampaign(file)), { ...options, resume: true });
    expect(again).toMatchObject({ planned: 2, records: 0, failed: 0, skipped: 2 });
    expect(events.filter((e) => e.type === "build")).toEqual([]);
  }, 300_000);

  it("reports a campaign naming a missing submission as bad input (exit 2, no stack trace)", () => {
    const file = campaign("missing", [
      `  - { id: kem-x, source: { submission: ${JSON.stringify(join(tmp, "nope"))} } }`,
    ]);
    const r = cli("kat", file, "--out", join(tmp, "missing-out"));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/does not exist/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(tmp, "missing-out", "data"))).toBe(false);
  });
});
