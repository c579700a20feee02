// The bad-input corpus of the command line, campaigns, meta.json and stores (issue 14, part A): each case builds its
// inputs in a folder of its own and runs the built CLI (bad-input-tools.ts), expecting a clean refusal — exit 2, a
// one-line message naming the file and the line or JSON pointer (or the flag) and what was expected, no stack trace,
// no echo of a huge value, nothing half-written. validate prints a file's errors on stdout (its output) and its
// summary on stderr: its cases check both. validate and run read campaigns through the same reader, so they refuse
// invalid UTF-8, binary data, deep nesting and bad names alike (the "agree" cases).
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type BadInputCase, corpusRoot, runBadInput } from "./bad-input-tools.ts";
import type { CliResult } from "./fixture-tools.ts";
import { fixturesDir, iccsDir, submissionsDir } from "./fixture-tools.ts";

const root = corpusRoot("cli");
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SEED = join(fixturesDir, "seed-store");
/** A timing record of the seed store (relative to its system folder). */
const RECORD = "records/kem-02/guide/Amoeba512__dec.json";
const MB20 = 20 * 1024 * 1024;

/** The lines of a campaign over kem-90's Puffin-128 (or the submission given), with `extra` lines before algorithms. */
function campaignText(o: { submission?: string; system?: string; extra?: string[]; algorithm?: string } = {}): string {
  return [
    "name: bad-cli",
    `system: ${o.system ?? "test_1"}`,
    `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
    ...(o.extra ?? []),
    "algorithms:",
    o.algorithm ??
      `  - { id: kem-90, instances: [Puffin-128], source: { submission: ${JSON.stringify(o.submission ?? join(submissionsDir, "kem-90"))} } }`,
    "",
  ].join("\n");
}

function writeCampaign(dir: string, text: string | Buffer, name = "campaign.yaml"): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** A submission folder in dir with the given meta.json (a value, or raw text/bytes) and one empty C file. */
function submission(dir: string, meta: unknown): string {
  const sub = join(dir, "sub");
  mkdirSync(join(sub, "src"), { recursive: true });
  writeFileSync(join(sub, "src", "kem.c"), "int ngcc_nothing;\n");
  writeFileSync(
    join(sub, "meta.json"),
    typeof meta === "string" || Buffer.isBuffer(meta) ? meta : `${JSON.stringify(meta, null, 2)}\n`,
  );
  writeCampaign(dir, campaignText({ submission: sub }).replace("instances: [Puffin-128], ", ""));
  return sub;
}

const META = {
  name: "Toy",
  category: "kem",
  instances: [{ name: "Toy-1", sources: ["src/kem.c"], folder: "src" }],
};

/** A copy of the seed store in dir/store; returns the system folder. */
function seedStore(dir: string): string {
  cpSync(SEED, join(dir, "store"), { recursive: true });
  return join(dir, "store", "data", "arm_1");
}

function editRecord(system: string, edit: (r: Record<string, unknown>) => void): void {
  const file = join(system, RECORD);
  const r = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  edit(r);
  writeFileSync(file, JSON.stringify(r));
}

const deepJson = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
const invalidUtf8 = (text: string) => Buffer.concat([Buffer.from(text), Buffer.from([0xff, 0xfe, 0x41, 0x0a])]);
const binary = (text: string) => Buffer.concat([Buffer.from(text.slice(0, 30)), Buffer.from([0, 1, 2, 3, 10])]);
const run = (dir: string, ...more: string[]) => ["run", join(dir, "campaign.yaml"), "--out", join(dir, "out"), ...more];

/** Nothing of a store or site was written to the case's --out. */
const nothingWritten = (_r: CliResult, dir: string) => {
  expect(existsSync(join(dir, "out", "site")), "a site was written").toBe(false);
  expect(existsSync(join(dir, "out", "data")), "records were written").toBe(false);
};
/** validate's errors are its output (stdout): the line must name the file and place; no huge echo. */
const validateSays = (re: RegExp) => (r: CliResult) => {
  expect(r.stdout).toMatch(re);
  expect(r.stdout.length).toBeLessThan(4096);
};

const campaignCases: BadInputCase[] = [
  {
    id: "campaign-yaml-syntax",
    setup: (d) => void writeCampaign(d, campaignText().replace("name: bad-cli", "name: [unclosed")),
    argv: (d) => run(d),
    message: /campaign\.yaml:\d+:\d+ \(root\) not valid YAML/,
    check: nothingWritten,
  },
  {
    id: "campaign-unknown-key",
    setup: (d) => void writeCampaign(d, campaignText({ extra: ["colour: blue"] })),
    argv: (d) => run(d),
    message: /campaign\.yaml:4:1 \/colour unknown field "colour"/,
    check: nothingWritten,
  },
  {
    id: "campaign-wrong-type",
    setup: (d) => void writeCampaign(d, campaignText({ extra: ["timing: { workerMs: fast }"] })),
    argv: (d) => run(d),
    message: /campaign\.yaml:4:\d+ \/timing\/workerMs must be number/,
    check: nothingWritten,
  },
  {
    id: "campaign-system-leaves-out",
    setup: (d) => void writeCampaign(d, campaignText({ system: "../../../tmp/x" })),
    argv: (d) => run(d),
    message: /campaign\.yaml:2:\d+ \/system must match pattern/,
    check: nothingWritten,
  },
  {
    id: "campaign-algorithm-id-double-underscore",
    setup: (d) =>
      void writeCampaign(
        d,
        campaignText({
          algorithm: `  - { id: kem__90, source: { submission: ${JSON.stringify(join(submissionsDir, "kem-90"))} } }`,
        }),
      ),
    argv: (d) => run(d),
    message: /\/algorithms\/0\/id "kem__90" is not a valid name; expected .*no '__'/,
    check: nothingWritten,
  },
  {
    id: "campaign-instance-leaves-out",
    setup: (d) =>
      void writeCampaign(
        d,
        campaignText().replace("instances: [Puffin-128]", 'instances: ["../../../../tmp/Puffin-128"]'),
      ),
    argv: (d) => run(d),
    message: /\/algorithms\/0\/instances\/0 "\.\.\/\.\.\/\.\.\/\.\.\/tmp\/Puffin-128" is not a valid name/,
    check: nothingWritten,
  },
  {
    id: "campaign-submission-missing",
    setup: (d) => void writeCampaign(d, campaignText({ submission: "../no-such-submission" })),
    argv: (d) => run(d),
    message: /algorithm kem-90: submission folder .*no-such-submission does not exist/,
    check: nothingWritten,
  },
  {
    id: "campaign-invalid-utf8-run",
    setup: (d) => void writeCampaign(d, invalidUtf8(campaignText())),
    argv: (d) => run(d),
    message: /campaign\.yaml:1:1 \(root\) cannot read the campaign: not UTF-8 text \(invalid byte at offset \d+\)/,
    check: nothingWritten,
  },
  {
    id: "campaign-invalid-utf8-validate",
    setup: (d) => void writeCampaign(d, invalidUtf8(campaignText())),
    argv: (d) => ["validate", join(d, "campaign.yaml")],
    message: /0 of 1 file\(s\) valid/,
    check: validateSays(/campaign\.yaml:1:1 \(root\) not UTF-8 text \(invalid byte at offset \d+\)/),
  },
  {
    id: "campaign-binary-run",
    setup: (d) => void writeCampaign(d, binary(campaignText())),
    argv: (d) => run(d),
    message: /campaign\.yaml:1:1 \(root\) cannot read the campaign: binary data \(NUL byte at offset 30\)/,
    check: nothingWritten,
  },
  {
    id: "campaign-binary-validate",
    setup: (d) => void writeCampaign(d, binary(campaignText())),
    argv: (d) => ["validate", join(d, "campaign.yaml")],
    message: /0 of 1 file\(s\) valid/,
    check: validateSays(/campaign\.yaml:1:1 \(root\) binary data \(NUL byte at offset 30\)/),
  },
  {
    id: "campaign-deep-yaml-run",
    setup: (d) => void writeCampaign(d, campaignText({ extra: [`deep: ${deepJson(100_000)}`] })),
    argv: (d) => run(d),
    message: /campaign\.yaml:4:\d+ \(root\) nested more than 64 levels deep/,
    check: nothingWritten,
  },
  {
    id: "campaign-deep-yaml-validate",
    setup: (d) => void writeCampaign(d, campaignText({ extra: [`deep: ${deepJson(100_000)}`] })),
    argv: (d) => ["validate", join(d, "campaign.yaml")],
    message: /0 of 1 file\(s\) valid/,
    check: validateSays(/campaign\.yaml:4:\d+ \(root\) nested more than 64 levels deep/),
  },
  {
    id: "campaign-20mb-value",
    setup: (d) => void writeCampaign(d, campaignText().replace("name: bad-cli", `name: ${"x".repeat(MB20)}`)),
    argv: (d) => run(d),
    message: /campaign\.yaml:1:1 \(root\) cannot read the campaign: file is \d+ bytes; campaigns are at most 1048576/,
    check: nothingWritten,
  },
  {
    id: "campaign-5000-char-system-run",
    setup: (d) => void writeCampaign(d, campaignText({ system: "s".repeat(5000) })),
    argv: (d) => run(d),
    message: /campaign\.yaml:2:9 \/system "s{79}…" \(5000 characters\) is not a valid name; expected .*at most 128/,
    check: nothingWritten,
  },
  {
    id: "campaign-5000-char-system-validate",
    setup: (d) => void writeCampaign(d, campaignText({ system: "s".repeat(5000) })),
    argv: (d) => ["validate", join(d, "campaign.yaml")],
    message: /0 of 1 file\(s\) valid/,
    check: validateSays(/campaign\.yaml:2:9 \/system "s{79}…" \(5000 characters\) is not a valid name/),
  },
];

const metaCases: BadInputCase[] = [
  {
    id: "meta-not-json",
    setup: (d) => void submission(d, '{ "name": "Toy", '),
    argv: (d) => run(d),
    message: /sub\/meta\.json: not valid JSON/,
    check: nothingWritten,
  },
  {
    id: "meta-missing-instances",
    setup: (d) => void submission(d, { name: "Toy", category: "kem" }),
    argv: (d) => run(d),
    message: /sub\/meta\.json: \/instances must list at least one instance/,
    check: nothingWritten,
  },
  {
    id: "meta-missing-sources",
    setup: (d) => void submission(d, { ...META, instances: [{ name: "Toy-1" }] }),
    argv: (d) => run(d),
    message: /sub\/meta\.json: \/instances\/0\/sources must list the instance's C files/,
    check: nothingWritten,
  },
  {
    id: "meta-missing-name",
    setup: (d) => void submission(d, { category: "kem", instances: META.instances }),
    argv: (d) => run(d),
    message: /sub\/meta\.json: \/name is missing; expected a string/,
    check: nothingWritten,
  },
  {
    id: "meta-instance-name-traversal",
    setup: (d) => void submission(d, { ...META, instances: [{ ...META.instances[0], name: "../../../../../tmp/x" }] }),
    argv: (d) => run(d),
    message: /sub\/meta\.json: \/instances\/0\/name: "\.\.\/\.\.\/\.\.\/\.\.\/\.\.\/tmp\/x" is not a valid name/,
    check: (r, d) => {
      nothingWritten(r, d);
      expect(existsSync("/tmp/x.json")).toBe(false);
    },
  },
  {
    id: "meta-instance-name-5000-chars",
    setup: (d) => void submission(d, { ...META, instances: [{ ...META.instances[0], name: "n".repeat(5000) }] }),
    argv: (d) => run(d),
    message: /\/instances\/0\/name: "n{79}…" \(5000 characters\) is not a valid name; expected .*at most 128/,
    check: nothingWritten,
  },
  {
    id: "meta-source-leaves-submission",
    setup: (d) =>
      void submission(d, {
        ...META,
        instances: [{ ...META.instances[0], sources: ["src/kem.c", "../../../etc/passwd"] }],
      }),
    argv: (d) => run(d),
    message: /sub\/meta\.json: \/instances\/0\/sources\/1 "\.\.\/\.\.\/\.\.\/etc\/passwd" leaves the submission folder/,
    check: nothingWritten,
  },
  {
    id: "meta-absolute-kat-file",
    setup: (d) => void submission(d, { ...META, instances: [{ ...META.instances[0], kat: { file: "/etc/shadow" } }] }),
    argv: (d) => run(d),
    message: /sub\/meta\.json: \/instances\/0\/kat\/file "\/etc\/shadow" leaves the submission folder/,
    check: nothingWritten,
  },
  {
    id: "meta-bad-category",
    setup: (d) => void submission(d, { ...META, category: "cipher" }),
    argv: (d) => run(d),
    message: /sub\/meta\.json: \/category must be kem, sign or kex/,
    check: nothingWritten,
  },
  {
    id: "meta-deep-nesting",
    setup: (d) => void submission(d, `{"name": "Toy", "x": ${deepJson(200_000)}}`),
    argv: (d) => run(d),
    message: /sub\/meta\.json:1:\d+ nested more than 64 levels deep/,
    check: nothingWritten,
  },
  {
    id: "meta-invalid-utf8",
    setup: (d) => void submission(d, invalidUtf8(JSON.stringify(META))),
    argv: (d) => run(d),
    message: /sub\/meta\.json: cannot read the submission's metadata \(algorithm kem-90\): not UTF-8 text/,
    check: nothingWritten,
  },
];

const commandCases: BadInputCase[] = [
  { id: "cli-unknown-command", argv: () => ["runn"], message: /^ngcc-perf: unknown command "runn"/ },
  {
    id: "cli-unknown-flag",
    setup: (d) => void writeCampaign(d, campaignText()),
    argv: (d) => run(d, "--fast"),
    message: /^ngcc-perf run: Unknown option '--fast'/,
    check: nothingWritten,
  },
  {
    id: "cli-missing-argument",
    setup: (d) => void writeCampaign(d, campaignText()),
    argv: (d) => ["run", join(d, "campaign.yaml"), "--out"],
    message: /^ngcc-perf run: Option '--out <value>' argument missing/,
  },
  { id: "cli-missing-campaign", argv: () => ["time"], message: /^ngcc-perf time: name exactly one campaign file/ },
  {
    id: "cli-nonexistent-campaign",
    argv: (d) => run(d),
    message: /campaign\.yaml:1:1 \(root\) cannot read the campaign: cannot read: ENOENT \(no such file\)/,
    check: nothingWritten,
  },
  {
    id: "cli-bad-shard",
    setup: (d) => void writeCampaign(d, campaignText()),
    argv: (d) => run(d, "--shard", "3/2"),
    message: /--shard takes K\/N, whole numbers with 1 ≤ K ≤ N ≤ 65536 \(e\.g\. 2\/4\), not "3\/2"/,
    check: nothingWritten,
  },
  {
    id: "cli-bad-steps",
    setup: (d) => void writeCampaign(d, campaignText()),
    argv: (d) => run(d, "--steps", "build,bake"),
    message:
      /--steps takes a comma-separated list of build, kat, time, memory, code-size, instructions, constant-time, profile, sizes, report; not bake/,
    check: nothingWritten,
  },
  {
    id: "cli-bad-jobs",
    setup: (d) => void writeCampaign(d, campaignText()),
    argv: (d) => ["kat", join(d, "campaign.yaml"), "--out", join(d, "out"), "--jobs", "0"],
    message: /--jobs takes a whole number ≥ 1, not "0"/,
  },
  {
    id: "cli-only-matches-nothing",
    setup: (d) => void writeCampaign(d, campaignText()),
    argv: (d) => run(d, "--only", "Puffin-512", "--steps", "build,report"),
    message: /--only "Puffin-512" matches no instance of the campaign; it could match .* of: kem-90\/Puffin-128$/m,
    check: (r, d) => {
      nothingWritten(r, d);
      expect(existsSync(join(d, "out"))).toBe(false);
    },
  },
  {
    id: "cli-out-is-a-file",
    setup: (d) => {
      writeCampaign(d, campaignText());
      writeFileSync(join(d, "out"), "a file\n");
    },
    argv: (d) => run(d),
    message: /--out \S+\/out: is a file, not a folder; expected a folder/,
    check: (_r, d) => expect(readFileSync(join(d, "out"), "utf8")).toBe("a file\n"),
  },
  {
    id: "cli-out-below-a-file",
    setup: (d) => {
      writeCampaign(d, campaignText());
      writeFileSync(join(d, "file"), "a file\n");
    },
    argv: (d) => ["run", join(d, "campaign.yaml"), "--out", join(d, "file", "out")],
    message: /--out \S+\/file\/out: \S+\/file is a file, not a folder/,
  },
  {
    id: "cli-out-not-writable",
    setup: (d) => void writeCampaign(d, campaignText()),
    // /proc refuses new folders to every user (root too, whom permissions do not stop).
    argv: (d) => ["run", join(d, "campaign.yaml"), "--out", "/proc/ngcc-perf-out", "--steps", "build"],
    message: /--out \/proc\/ngcc-perf-out: cannot write in \/proc \(.+\); expected a folder that can be written/,
    check: () => expect(existsSync("/proc/ngcc-perf-out")).toBe(false),
  },
  {
    id: "cli-report-out-is-a-file",
    setup: (d) => {
      seedStore(d);
      writeFileSync(join(d, "out"), "a file\n");
    },
    argv: (d) => ["report", join(d, "store"), "--out", join(d, "out")],
    message: /^ngcc-perf report: --out \S+: is a file, not a folder/,
  },
  {
    id: "cli-merge-out-below-a-file",
    setup: (d) => {
      seedStore(d);
      writeFileSync(join(d, "file"), "a file\n");
    },
    argv: (d) => ["merge", join(d, "store"), "--out", join(d, "file", "merged")],
    message: /^ngcc-perf merge: --out \S+\/file\/merged: \S+\/file is a file, not a folder/,
  },
];

const storeCases: BadInputCase[] = [
  {
    id: "validate-nested-json",
    setup: (d) => void writeFileSync(join(seedStore(d), RECORD), deepJson(200_000)),
    argv: (d) => ["validate", join(d, "store")],
    message: /212 of 213 file\(s\) valid; 1 store integrity problem/,
    check: validateSays(/Amoeba512__dec\.json:1:65 \(root\) nested more than 64 levels deep/),
  },
  {
    id: "validate-invalid-record",
    setup: (d) =>
      editRecord(seedStore(d), (r) => {
        r.meanNs = -1;
      }),
    argv: (d) => ["validate", join(d, "store", "data", "arm_1", RECORD)],
    message: /0 of 1 file\(s\) valid/,
    check: validateSays(/Amoeba512__dec\.json:1:\d+ \/meanNs /),
  },
  {
    id: "validate-changed-record",
    setup: (d) =>
      editRecord(seedStore(d), (r) => {
        r.opsPerSec = Number(r.opsPerSec) * 2;
      }),
    argv: (d) => ["validate", join(d, "store")],
    message: /store integrity problem\(s\) in \S*data\/arm_1/,
    check: validateSays(
      /Amoeba512__dec\.json: changed since the index was written: SHA-256 [0-9a-f]+…, the index says/,
    ),
  },
  {
    id: "validate-missing-record",
    setup: (d) => unlinkSync(join(seedStore(d), RECORD)),
    argv: (d) => ["validate", join(d, "store")],
    message: /212 of 212 file\(s\) valid; 1 store integrity problem/,
    check: validateSays(/Amoeba512__dec\.json: deleted: index\.json lists it/),
  },
  {
    id: "validate-20mb-bad-value",
    setup: (d) =>
      editRecord(seedStore(d), (r) => {
        r.instance = "i".repeat(MB20);
      }),
    argv: (d) => ["validate", join(d, "store", "data", "arm_1", RECORD)],
    message: /0 of 1 file\(s\) valid/,
    check: validateSays(/Amoeba512__dec\.json:1:\d+ \/instance "i{79}…" \(20971520 characters\) is not a valid name/),
  },
  {
    id: "validate-20mb-unknown-key",
    setup: (d) =>
      editRecord(seedStore(d), (r) => {
        r["k".repeat(MB20)] = 1;
      }),
    argv: (d) => ["validate", join(d, "store", "data", "arm_1", RECORD)],
    message: /0 of 1 file\(s\) valid/,
    check: validateSays(/Amoeba512__dec\.json:1:\d+ \/k{79}… unknown field "k{79}…"/),
  },
  {
    id: "validate-20mb-unknown-kind",
    setup: (d) => void writeFileSync(join(d, "record.json"), JSON.stringify({ kind: "t".repeat(MB20) })),
    argv: (d) => ["validate", join(d, "record.json")],
    message: /0 of 1 file\(s\) valid/,
    check: validateSays(/record\.json:1:\d+ \/kind unknown record kind "t{79}…": expected one of/),
  },
  {
    id: "validate-invalid-utf8-record",
    setup: (d) => {
      const file = join(seedStore(d), RECORD);
      const data = readFileSync(file);
      writeFileSync(file, Buffer.concat([data.subarray(0, 50), Buffer.from([0xc3, 0x28]), data.subarray(50)]));
    },
    argv: (d) => ["validate", join(d, "store", "data", "arm_1", RECORD)],
    message: /0 of 1 file\(s\) valid/,
    check: validateSays(/Amoeba512__dec\.json:1:1 \(root\) not UTF-8 text \(invalid byte at offset 50\)/),
  },
  {
    id: "report-nested-json",
    setup: (d) => void writeFileSync(join(seedStore(d), RECORD), deepJson(200_000)),
    argv: (d) => ["report", join(d, "store"), "--out", join(d, "out")],
    message: /Amoeba512__dec\.json:1:65: \(document\) nested more than 64 levels deep/,
    check: nothingWritten,
  },
  {
    id: "report-invalid-utf8-record",
    setup: (d) => {
      const file = join(seedStore(d), RECORD);
      const data = readFileSync(file);
      writeFileSync(file, Buffer.concat([data.subarray(0, 50), Buffer.from([0xc3, 0x28]), data.subarray(50)]));
    },
    argv: (d) => ["report", join(d, "store"), "--out", join(d, "out")],
    message: /Amoeba512__dec\.json:1:1: \(document\) not UTF-8 text \(invalid byte at offset 50\)/,
    check: (r, d) => {
      nothingWritten(r, d);
      expect(r.stderr).not.toContain("\uFFFD");
    },
  },
  {
    id: "report-20mb-key-field",
    setup: (d) =>
      editRecord(seedStore(d), (r) => {
        r.system = "x".repeat(MB20);
      }),
    argv: (d) => ["report", join(d, "store"), "--out", join(d, "out")],
    message: /Amoeba512__dec\.json/,
    check: nothingWritten,
  },
  {
    id: "report-missing-record",
    setup: (d) => unlinkSync(join(seedStore(d), RECORD)),
    argv: (d) => ["report", join(d, "store"), "--out", join(d, "out")],
    message: /the store does not match its index[\s\S]*Amoeba512__dec\.json: deleted/,
    check: nothingWritten,
  },
  {
    id: "merge-nested-json",
    setup: (d) => void writeFileSync(join(seedStore(d), RECORD), deepJson(200_000)),
    argv: (d) => ["merge", join(d, "store"), "--out", join(d, "out")],
    message: /Amoeba512__dec\.json:1:65 \(root\) nested more than 64 levels deep/,
    check: (_r, d) => expect(existsSync(join(d, "out"))).toBe(false),
  },
  {
    id: "merge-changed-record",
    setup: (d) =>
      editRecord(seedStore(d), (r) => {
        r.meanNs = Number(r.meanNs) * 1000;
      }),
    argv: (d) => ["merge", join(d, "store"), "--out", join(d, "out")],
    message: /nothing merged[\s\S]*Amoeba512__dec\.json: changed since the index was written/,
    check: (_r, d) => expect(existsSync(join(d, "out"))).toBe(false),
  },
  {
    id: "merge-20mb-unknown-key",
    setup: (d) =>
      editRecord(seedStore(d), (r) => {
        r["k".repeat(MB20)] = 1;
      }),
    argv: (d) => ["merge", join(d, "store"), "--out", join(d, "out")],
    message: /Amoeba512__dec\.json:1:\d+ \/k{79}… unknown field "k{79}…"/,
    check: (_r, d) => expect(existsSync(join(d, "out"))).toBe(false),
  },
];

const all = [...campaignCases, ...metaCases, ...commandCases, ...storeCases];

describe("bad input: command line, campaigns, meta.json and stores", () => {
  it("has unique case ids", () => {
    expect(new Set(all.map((c) => c.id)).size).toBe(all.length);
  });
  describe.each([
    ["campaign files", campaignCases],
    ["meta.json", metaCases],
    ["the command line", commandCases],
    ["records and stores", storeCases],
  ] as const)("%s", (_name, cases) => {
    for (const c of cases) it.concurrent(c.id, () => runBadInput(root, c), (c.timeoutMs ?? 120_000) + 30_000);
  });
});
