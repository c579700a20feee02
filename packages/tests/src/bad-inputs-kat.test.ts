// The bad-input corpus of the KAT step (issue 14, part B): a shipped .rsp that is not a KAT file (odd-length or
// non-hex values, counts out of order, truncated entries, missing fields, binary …) and manifests that cannot be
// trusted (../ and absolute paths, files listed but missing, bad hashes …). Each is a corrupt KAT file: verdict
// FAIL with outcome corrupt-kat — the submission's fault, never reported as the implementation's mismatch — with
// the file and its line on stderr and in the record's corruption; the run goes on (exit 1, as for any failing
// instance; docs/kat.md). Every .rsp case rewrites the manifest to match the broken file, so the parse finds it,
// not the hash. Also: katgen's canaries (a 4-byte overflow past the ciphertext), clean under ASan/UBSan.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type KatRecord, recordPath, validateFile } from "@ngcc-perf/schema";
import { afterAll, describe, expect, it } from "vitest";
import { type BadInputCase, corpusRoot, runBadInput } from "./bad-input-tools.ts";
import {
  buildInstance,
  generateRsp,
  getInstance,
  iccsDir,
  loadSubmission,
  runCliAsync,
  type Submission,
  submissionsDir,
  writeManifest,
} from "./fixture-tools.ts";

const root = corpusRoot("kat");
afterAll(() => rmSync(root, { recursive: true, force: true }));

const RSP = "KAT/Puffin-128/PQCkemKAT_1632.rsp";
const MANIFEST = "KAT/kat.sha256";
/** Lines of entry k of a kem .rsp (header, empty line, then 7 lines per entry). */
const line = (k: number, field: "count" | "seed" | "pk" | "sk" | "ct" | "ss") =>
  3 + 7 * k + ["count", "seed", "pk", "sk", "ct", "ss"].indexOf(field);

/** kem-90 copied into dir/kem-90 and a campaign verifying its Puffin-128 alone. */
function setupSubmission(dir: string): Submission {
  cpSync(join(submissionsDir, "kem-90"), join(dir, "kem-90"), { recursive: true });
  writeFileSync(
    join(dir, "campaign.yaml"),
    [
      "name: bad-kat",
      "system: test_1",
      `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
      "buildProfiles: { quick: { cflags: [-O2] } }",
      "algorithms:",
      `  - { id: kem-90, source: { submission: ${JSON.stringify(join(dir, "kem-90"))} }, instances: [Puffin-128] }`,
    ].join("\n"),
  );
  return loadSubmission(join(dir, "kem-90"));
}

/** The shipped Puffin-128 .rsp edited as lines (1-based), the manifest rewritten to match. */
function editRsp(edit: (lines: string[]) => string[] | string | Buffer) {
  return (dir: string) => {
    const sub = setupSubmission(dir);
    const file = join(sub.dir, RSP);
    const out = edit(readFileSync(file, "utf8").split("\n"));
    writeFileSync(file, Array.isArray(out) ? out.join("\n") : out);
    writeManifest(sub);
  };
}

/** The manifest edited as lines; the .rsp files stay as shipped. */
function editManifest(edit: (lines: string[], sub: Submission) => string[] | Buffer) {
  return (dir: string) => {
    const sub = setupSubmission(dir);
    const file = join(sub.dir, MANIFEST);
    const out = edit(readFileSync(file, "utf8").replace(/\n$/, "").split("\n"), sub);
    writeFileSync(file, Array.isArray(out) ? `${out.join("\n")}\n` : out);
  };
}

/** Replaces 1-based line n. */
const setLine = (lines: string[], n: number, f: (l: string) => string) => lines.map((l, i) => (i === n - 1 ? f(l) : l));

const argv = (dir: string) => ["kat", join(dir, "campaign.yaml"), "--out", join(dir, "out")];

function katRecord(dir: string): KatRecord {
  const key = { system: "test_1", algorithmId: "kem-90", instance: "Puffin-128", buildProfile: "quick" };
  const file = recordPath(join(dir, "out"), { kind: "kat", key });
  expect(validateFile(file).errors).toEqual([]);
  return JSON.parse(readFileSync(file, "utf8")) as KatRecord;
}

/** The record says corrupt-kat (not the implementation's mismatch) and names the file and line. */
function corrupt(file: string, line: number | undefined, message: RegExp) {
  return (_r: unknown, dir: string) => {
    const rec = katRecord(dir);
    expect(rec.verdict).toBe("FAIL");
    expect(rec.outcome).toBe("corrupt-kat");
    expect(rec.diagnosis).toBeUndefined();
    expect(rec.error).toBeUndefined();
    const found = rec.corruption?.find((p) => p.file === `kem-90/${file}` && message.test(p.message));
    expect(found, JSON.stringify(rec.corruption)).toBeDefined();
    expect(found?.line).toBe(line);
  };
}

/** stderr names the file (absolute, as in the case's folder) and line, then what is wrong. */
const on = (file: string, line: number | null, what: string) =>
  new RegExp(`FAIL: corrupt KAT file .*kem-90/${file.replace(/\./g, "\\.")}${line ? `:${line}` : ""}: .*${what}`);

const rspCases: BadInputCase[] = [
  {
    id: "rsp-odd-length-hex",
    setup: editRsp((l) => setLine(l, line(3, "pk"), (s) => s.slice(0, -1))),
    argv,
    exit: 1,
    message: on(RSP, line(3, "pk"), "entry count = 3: field pk: odd-length hex \\(1599 digits\\)"),
    check: corrupt(RSP, line(3, "pk"), /odd-length hex/),
  },
  {
    id: "rsp-non-hex-digit",
    setup: editRsp((l) => setLine(l, line(5, "ct"), (s) => `${s.slice(0, 10)}G${s.slice(11)}`)),
    argv,
    exit: 1,
    message: on(RSP, line(5, "ct"), 'field ct: "G" at column 6 of the value is not a hex digit'),
    check: corrupt(RSP, line(5, "ct"), /not a hex digit/),
  },
  {
    id: "rsp-count-out-of-order",
    setup: editRsp((l) => setLine(l, line(4, "count"), () => "count = 5")),
    argv,
    exit: 1,
    message: on(RSP, line(4, "count"), "count = 5 out of order; expected count = 4"),
    check: corrupt(RSP, line(4, "count"), /out of order/),
  },
  {
    id: "rsp-count-not-a-number",
    setup: editRsp((l) => setLine(l, line(2, "count"), () => "count = two")),
    argv,
    exit: 1,
    message: on(RSP, line(2, "count"), 'count is "two"; expected a number'),
    check: corrupt(RSP, line(2, "count"), /expected a number/),
  },
  {
    id: "rsp-truncated-entry",
    // The file ends after the pk line of entry 99: its sk, ct and ss are missing.
    setup: editRsp((l) => [...l.slice(0, line(99, "pk")), ""]),
    argv,
    exit: 1,
    message: on(RSP, line(99, "count"), "entry count = 99 has no field sk \\(truncated entry\\?\\)"),
    check: corrupt(RSP, line(99, "count"), /has no field ct/),
  },
  {
    id: "rsp-truncated-mid-value",
    // Cut in the middle of entry 42's ct (an even number of digits left): shorter than entry 0's ct.
    setup: editRsp(
      (l) => `${l.slice(0, line(42, "ct") - 1).join("\n")}\n${(l[line(42, "ct") - 1] ?? "").slice(0, 105)}`,
    ),
    argv,
    exit: 1,
    message: on(RSP, line(42, "ct"), "entry count = 42: field ct has 50 bytes, entry count = 0 has"),
    check: corrupt(RSP, line(42, "ct"), /field ct has 50 bytes/),
  },
  {
    id: "rsp-missing-field",
    setup: editRsp((l) => l.filter((_, i) => i !== line(10, "ss") - 1)),
    argv,
    exit: 1,
    message: on(RSP, line(10, "count"), "entry count = 10 has no field ss"),
    check: corrupt(RSP, line(10, "count"), /has no field ss/),
  },
  {
    id: "rsp-unexpected-field",
    setup: editRsp((l) => setLine(l, line(7, "pk"), (s) => s.replace(/^pk = /, "pq = "))),
    argv,
    exit: 1,
    message: on(RSP, line(7, "pk"), "entry count = 7: unexpected field pq; expected seed, pk, sk, ct, ss"),
    check: corrupt(RSP, line(7, "pk"), /unexpected field pq/),
  },
  {
    id: "rsp-field-twice",
    setup: editRsp((l) => setLine(l, line(8, "ss"), (s) => `${s}\n${s}`)),
    argv,
    exit: 1,
    message: on(RSP, line(8, "ss") + 1, "entry count = 8: field ss appears twice"),
    check: corrupt(RSP, line(8, "ss") + 1, /appears twice/),
  },
  {
    id: "rsp-not-key-value",
    setup: editRsp((l) => setLine(l, line(20, "sk"), () => "this line is not a field")),
    argv,
    exit: 1,
    message: on(RSP, line(20, "sk"), 'expected "key = value", found "this line is not a field"'),
    check: corrupt(RSP, line(20, "sk"), /expected "key = value"/),
  },
  {
    id: "rsp-binary",
    setup: editRsp(() => Buffer.from([0x23, 0x20, 0x50, 0x0a, 0x0a, 0x63, 0x00, 0xff, 0x13, 0x37, 0x00, 0x0a])),
    argv,
    exit: 1,
    message: on(RSP, 3, "byte 0x00 at offset 6: not a text file"),
    check: corrupt(RSP, 3, /not a text file/),
  },
  {
    id: "rsp-invalid-utf8",
    setup: editRsp((l) =>
      Buffer.concat([
        Buffer.from("# Puffin-128 "),
        Buffer.from([0xff, 0xfe]),
        Buffer.from(`\n${l.slice(1).join("\n")}`),
      ]),
    ),
    argv,
    exit: 1,
    message: /FAIL: corrupt KAT file .*kem-90\/KAT\/Puffin-128\/PQCkemKAT_1632\.rsp:1: invalid UTF-8/,
    check: corrupt(RSP, 1, /invalid UTF-8/),
  },
  {
    id: "rsp-too-few-entries",
    // Entries 0..49, each complete: half the file.
    setup: editRsp((l) => l.slice(0, line(50, "count") - 1)),
    argv,
    exit: 1,
    message: on(RSP, line(49, "ss"), "has 50 entries; expected 100 \\(truncated file\\?\\)"),
    check: corrupt(RSP, line(49, "ss"), /has 50 entries/),
  },
  {
    id: "rsp-empty",
    setup: editRsp(() => ""),
    argv,
    exit: 1,
    message: on(RSP, null, "is empty; expected a NIST \\.rsp with 100 entries"),
    check: corrupt(RSP, undefined, /is empty/),
  },
  {
    id: "rsp-missing-file",
    // meta.json names the file and the manifest lists it, but it is not there.
    setup: (dir) => {
      const sub = setupSubmission(dir);
      rmSync(join(sub.dir, RSP));
    },
    argv,
    exit: 1,
    message: on(RSP, null, "does not exist \\(meta\\.json names it"),
    check: corrupt(MANIFEST, 1, /lists Puffin-128\/PQCkemKAT_1632\.rsp, which does not exist/),
  },
];

const manifestCases: BadInputCase[] = [
  {
    id: "manifest-dotdot-path",
    setup: editManifest((l) => [...l, `${"0".repeat(64)}  ../../../../etc/passwd`]),
    argv,
    exit: 1,
    message: on(MANIFEST, 7, `path "\\.\\./\\.\\./\\.\\./\\.\\./etc/passwd" leaves the manifest's folder`),
    check: corrupt(MANIFEST, 7, /leaves the manifest's folder/),
  },
  {
    id: "manifest-absolute-path",
    setup: editManifest((l) => [`${"1".repeat(64)}  /etc/hostname`, ...l]),
    argv,
    exit: 1,
    message: on(MANIFEST, 1, 'absolute path "/etc/hostname": a manifest lists files below its own folder'),
    check: corrupt(MANIFEST, 1, /absolute path/),
  },
  {
    id: "manifest-listed-but-missing",
    setup: editManifest((l) => [...l.slice(0, 3), `${"a".repeat(64)}  Puffin-512/PQCkemKAT_6400.rsp`, ...l.slice(3)]),
    argv,
    exit: 1,
    message: on(MANIFEST, 4, "lists Puffin-512/PQCkemKAT_6400\\.rsp, which does not exist"),
    check: corrupt(MANIFEST, 4, /which does not exist/),
  },
  {
    id: "manifest-bad-hash",
    setup: editManifest((l) =>
      setLine(l, 1, (s) => `${(Number.parseInt(s[0] as string, 16) ^ 1).toString(16)}${s.slice(1)}`),
    ),
    argv,
    exit: 1,
    message: on(MANIFEST, 1, "Puffin-128/PQCkemKAT_1632\\.rsp has SHA-256 [0-9a-f]{64}, the manifest says"),
    check: async (r, dir) => {
      corrupt(MANIFEST, 1, /has SHA-256/)(r, dir);
      const rec = katRecord(dir);
      expect(rec.manifest?.status).toBe("mismatch");
      expect(rec.manifest?.mismatches?.[0]?.file).toBe("Puffin-128/PQCkemKAT_1632.rsp");
      // The .rsp itself is right: the implementation reproduces it.
      expect(rec.checks?.every((c) => c.match)).toBe(true);
    },
  },
  {
    id: "manifest-short-digest",
    setup: editManifest((l) => setLine(l, 1, (s) => s.slice(1))),
    argv,
    exit: 1,
    message: on(MANIFEST, 1, 'expected "<64 hex digits>  <path>", found "[0-9a-f]{63}  Puffin-128'),
    check: corrupt(MANIFEST, 1, /expected "<64 hex digits>/),
  },
  {
    id: "manifest-does-not-list-the-file",
    setup: editManifest((l) => l.slice(1)),
    argv,
    exit: 1,
    message: on(MANIFEST, null, "does not list Puffin-128/PQCkemKAT_1632\\.rsp, the instance's KAT file"),
    check: corrupt(MANIFEST, undefined, /does not list/),
  },
  {
    id: "manifest-listed-twice",
    setup: editManifest((l) => [...l, `${"b".repeat(64)}  ./Puffin-128/PQCkemKAT_1632.rsp`]),
    argv,
    exit: 1,
    message: on(MANIFEST, 7, "lists Puffin-128/PQCkemKAT_1632\\.rsp again \\(first on line 1\\)"),
    check: corrupt(MANIFEST, 7, /again \(first on line 1\)/),
  },
  {
    id: "manifest-binary",
    setup: editManifest(() => Buffer.from([0x30, 0x31, 0x0a, 0x00, 0x01, 0x02, 0xff, 0x0a])),
    argv,
    exit: 1,
    message: on(MANIFEST, 2, "byte 0x00 at offset 3: not a text file"),
    check: corrupt(MANIFEST, 2, /not a text file/),
  },
];

describe("bad inputs: KAT files and manifests (corrupt-kat)", () => {
  it.concurrent.each([...rspCases, ...manifestCases].map((c) => [c.id, c] as const))(
    "%s",
    async (_id, c) => {
      await runBadInput(root, c);
    },
    180_000,
  );
});

describe("katgen canaries", () => {
  const KEM_C = "Reference_Implementation/common/kem.c";
  const ENC_END = "    puffin_kdf(ss, kr, ct);\n    return 0;\n}\n\nint crypto_kem_dec(";
  /** kem-90 copied into dir with `write` placed at the end of crypto_kem_enc. */
  function overflowing(dir: string, write: string): Submission {
    cpSync(join(submissionsDir, "kem-90"), join(dir, "kem-90"), { recursive: true });
    const file = join(dir, "kem-90", KEM_C);
    const text = readFileSync(file, "utf8");
    expect(text.split(ENC_END)).toHaveLength(2);
    writeFileSync(
      file,
      text.replace(ENC_END, `    puffin_kdf(ss, kr, ct);\n${write}\n    return 0;\n}\n\nint crypto_kem_dec(`),
    );
    return loadSubmission(join(dir, "kem-90"));
  }
  const past4 =
    "    { size_t i; for (i = 0; i < 4; i++) { ct[CRYPTO_CIPHERTEXTBYTES + i] = 0x5a; } } /* 4 bytes past ct */";

  it("a 4-byte write past the ciphertext is a failure naming the buffer and the function (built under ASan/UBSan)", async () => {
    const dir = join(root, "canary-build");
    const sub = overflowing(dir, past4);
    const b = await buildInstance(sub, getInstance(sub, "Puffin-128"), { driver: "katgen", sanitize: true }, dir);
    expect(b.ok, b.stderr).toBe(true);
    const r = spawnSync(b.exe, ["--count", "2"], { encoding: "utf8", timeout: 120_000 });
    expect(r.status, r.stderr).toBe(3);
    expect(r.stderr).toMatch(
      /^katgen: canary overwritten after buffer ct \(\d+ bytes\) by crypto_kem_enc at count = 0: 4 bytes changed, bytes (\d+)\.\.(\d+)$/m,
    );
    const [, first, last] = /bytes (\d+)\.\.(\d+)$/m.exec(r.stderr) ?? [];
    expect(Number(last) - Number(first)).toBe(3);
    expect(r.stderr).not.toMatch(/AddressSanitizer|runtime error/); // inside the guard: the canary's catch
  }, 180_000);

  it("a write before a buffer is caught too", async () => {
    const dir = join(root, "canary-before");
    const sub = overflowing(dir, "    ss[-1] = 0x5a; /* 1 byte before ss */");
    const b = await buildInstance(sub, getInstance(sub, "Puffin-128"), { driver: "katgen" }, dir);
    expect(b.ok, b.stderr).toBe(true);
    const r = spawnSync(b.exe, ["--count", "1"], { encoding: "utf8", timeout: 120_000 });
    expect(r.status, r.stderr).toBe(3);
    expect(r.stderr).toMatch(
      /canary overwritten before buffer ss \(\d+ bytes\) by crypto_kem_enc at count = 0: byte -1/,
    );
  }, 180_000);

  it("through ngcc-perf kat: ERROR with reason canary, the buffer and the function in the record and on stderr", async () => {
    const dir = join(root, "canary-cli");
    overflowing(dir, past4);
    setupCampaignOnly(dir);
    const r = await runCliAsync(argv(dir), { timeoutMs: 180_000 });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/ERROR: wrote past a buffer: canary overwritten after buffer ct .* by crypto_kem_enc/);
    const rec = katRecord(dir);
    expect(rec.verdict).toBe("ERROR");
    expect(rec.error).toMatchObject({ reason: "canary", exitCode: 3 });
    expect(rec.error?.message).toMatch(/buffer ct \(\d+ bytes\) by crypto_kem_enc at count = 0: 4 bytes changed/);
  }, 180_000);

  it("the good fixtures of each category under ASan/UBSan: no canary, their .rsp byte for byte", async () => {
    const dir = join(root, "canary-clean");
    mkdirSync(dir, { recursive: true });
    for (const [id, inst] of [
      ["kem-90", "Puffin-128"],
      ["sig-91", "Quill-128"],
      ["kex-92", "Heron-2P-128"],
    ] as const) {
      const sub = loadSubmission(join(submissionsDir, id));
      const i = getInstance(sub, inst);
      const { text, stderr } = await generateRsp(sub, i, dir, { sanitize: true });
      expect(stderr).toBe("");
      expect(text).toBe(readFileSync(join(sub.dir, i.kat.file), "utf8"));
    }
  }, 600_000);
});

/** The campaign of setupSubmission without copying the submission again. */
function setupCampaignOnly(dir: string) {
  writeFileSync(
    join(dir, "campaign.yaml"),
    [
      "name: canary",
      "system: test_1",
      `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
      "buildProfiles: { quick: { cflags: [-O2] } }",
      "algorithms:",
      `  - { id: kem-90, source: { submission: ${JSON.stringify(join(dir, "kem-90"))} }, instances: [Puffin-128] }`,
    ].join("\n"),
  );
}
