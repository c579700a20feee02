// Hostile inputs through the real CLI (issue 25, items 1 and 7): files of a submission that would hang or mislead
// the harness — an api.h that is a FIFO (it hung `run` silently; `init` left the instance out), a source or an
// include folder linked out of the submission (hashed and read with the harness's rights), a FIFO header deep in
// the tree (it would hang the compiler), a meta.json that is a FIFO for `init --update` — and arguments that would
// write where nobody asked or split nothing: two instances with one name (one store path), `--out ''` (the current
// folder), `--shard 1/99999999999999999999`. Each must be refused before anything runs: exit 2 within the guard
// (a hang is killed and fails the case), the path, JSON pointer or flag named, nothing of a host file quoted,
// nothing written to the store, no stack trace (bad-input-tools' checks).
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type BadInputCase, corpusRoot, expectCleanRefusal, runBadInput } from "./bad-input-tools.ts";
import { type CliResult, cliBin, copySubmission, iccsDir, type SubmissionMeta } from "./fixture-tools.ts";

const root = corpusRoot("hostile-input");
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A host file the cases link to: none of its bytes may appear in any output. */
const secretText = `NGCC-HOST-SECRET-${randomBytes(8).toString("hex")}`;
const secretFile = join(root, "host-secret.h");
writeFileSync(secretFile, `#define CRYPTO_SECRETKEYBYTES 1 /* ${secretText} */\n`);

/** Hangs are killed after this long and fail the case (a refusal takes well under a second). */
const GUARD_MS = 60_000;

const PUFFIN = "Reference_Implementation/Puffin-128";
const COMMON = "Reference_Implementation/common";

/** kem-90 copied into dir/kem-90 with only Puffin-128, `edit` applied to its meta.json; a campaign over it. */
function puffin(dir: string, edit: (m: SubmissionMeta & Record<string, unknown>) => void = () => {}): string {
  const sub = copySubmission("kem-90", dir);
  const metaFile = join(sub.dir, "meta.json");
  const meta = JSON.parse(readFileSync(metaFile, "utf8")) as SubmissionMeta & Record<string, unknown>;
  meta.instances = meta.instances.filter((i) => i.name === "Puffin-128");
  edit(meta);
  writeFileSync(metaFile, `${JSON.stringify(meta, null, 2)}\n`);
  writeFileSync(
    join(dir, "campaign.yaml"),
    [
      "name: hostile-input",
      "system: test_1",
      `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
      "timing: { workerMs: 2, minWorkers: 2, budgetMs: 20, keyPairs: 1, inputPool: 4 }",
      "algorithms:",
      `  - { id: kem-90, source: { submission: ${JSON.stringify(sub.dir)} } }`,
      "",
    ].join("\n"),
  );
  return sub.dir;
}

const fifo = (p: string) => {
  rmSync(p, { force: true });
  execFileSync("mkfifo", [p]);
};
const run = (d: string, ...more: string[]) => [
  "run",
  join(d, "campaign.yaml"),
  "--out",
  join(d, "out"),
  "--steps",
  "build,kat",
  ...more,
];

/** Nothing of a store was written, and no host byte was quoted. */
const nothingWritten = (r: CliResult, dir: string) => {
  expect(existsSync(join(dir, "out")), "the store was created").toBe(false);
  expect(r.stdout + r.stderr).not.toContain(secretText);
};

const cases: BadInputCase[] = [
  {
    id: "run-fifo-api-h",
    // The folder form (no apiHeader): the header was read with readFileSync, which blocked for ever.
    setup: (d) => {
      const sub = puffin(d, (m) => {
        for (const i of m.instances) delete (i as { apiHeader?: string }).apiHeader;
      });
      fifo(join(sub, PUFFIN, "api.h"));
    },
    argv: (d) => run(d),
    message:
      /meta\.json: \/instances\/0\/folder: Reference_Implementation\/Puffin-128\/api\.h is a FIFO \(named pipe\), not a regular file; expected the API header/,
    check: nothingWritten,
    timeoutMs: GUARD_MS,
  },
  {
    id: "run-fifo-api-header",
    // The apiHeader form: it was refused as "not an API header", which says nothing of the FIFO.
    setup: (d) => fifo(join(puffin(d), PUFFIN, "api.h")),
    argv: (d) => run(d),
    message: /\/instances\/0\/apiHeader: Reference_Implementation\/Puffin-128\/api\.h is a FIFO \(named pipe\)/,
    check: nothingWritten,
    timeoutMs: GUARD_MS,
  },
  {
    id: "run-source-linked-out",
    setup: (d) => {
      const sub = puffin(d, (m) => void m.instances[0]?.sources.push(`${COMMON}/host.c`));
      symlinkSync(secretFile, join(sub, COMMON, "host.c"));
    },
    argv: (d) => run(d),
    message:
      /\/instances\/0\/sources\/3: Reference_Implementation\/common\/host\.c leads out of the submission folder through a symbolic link \(it is not read\)/,
    check: nothingWritten,
    timeoutMs: GUARD_MS,
  },
  {
    id: "run-header-linked-out",
    // A header of an include folder: every build step's inputs hash read it.
    setup: (d) => symlinkSync(secretFile, join(puffin(d), COMMON, "host.h")),
    argv: (d) => run(d),
    message:
      /\/instances\/0\/includeDirs\/1: Reference_Implementation\/common\/host\.h \(a header in Reference_Implementation\/common, hashed with the build's inputs\) leads out of the submission folder/,
    check: nothingWritten,
    timeoutMs: GUARD_MS,
  },
  {
    id: "run-include-dir-linked-out",
    setup: (d) => {
      const sub = puffin(d, (m) => void m.instances[0]?.includeDirs?.push("sys"));
      symlinkSync("/usr/include", join(sub, "sys"));
    },
    argv: (d) => run(d),
    message: /\/instances\/0\/includeDirs\/2: sys leads out of the submission folder through a symbolic link/,
    check: nothingWritten,
    timeoutMs: GUARD_MS,
  },
  {
    id: "run-fifo-deep-header",
    // Below an include folder, where only the compiler looks (#include "sub/x.h"): it would block the build.
    setup: (d) => {
      const sub = puffin(d);
      mkdirSync(join(sub, COMMON, "sub"));
      fifo(join(sub, COMMON, "sub", "x.h"));
    },
    argv: (d) => run(d),
    message:
      /kem-90\/Reference_Implementation\/common\/sub\/x\.h: is a FIFO \(named pipe\) in the submission of algorithm kem-90/,
    check: nothingWritten,
    timeoutMs: GUARD_MS,
  },
  {
    id: "run-duplicate-instance",
    // Both wrote data/test_1/…/Puffin-128: the size audit then blamed an overflow that did not exist.
    setup: (d) =>
      void puffin(d, (m) => {
        const first = m.instances[0] as (typeof m.instances)[number];
        m.instances.push({ ...first, defines: ["PUFFIN_OWN_KECCAK"] });
      }),
    argv: (d) => run(d),
    message:
      /kem-90\/meta\.json:\d+:\d+ \/instances\/1\/name "Puffin-128" is the name of \/instances\/0 too; expected a name unique among the instances/,
    check: nothingWritten,
    timeoutMs: GUARD_MS,
  },
  {
    id: "validate-duplicate-instance-case",
    setup: (d) =>
      void puffin(d, (m) => {
        const first = m.instances[0] as (typeof m.instances)[number];
        m.instances.push({ ...first, name: "PUFFIN-128" });
      }),
    argv: (d) => ["validate", join(d, "kem-90", "meta.json")],
    message: /0 of 1 file\(s\) valid/,
    check: (r) => {
      expect(r.stdout).toMatch(
        /meta\.json:\d+:\d+ \/instances\/1\/name "PUFFIN-128" differs from \/instances\/0's name "Puffin-128" only in case/,
      );
    },
    timeoutMs: GUARD_MS,
  },
  {
    id: "init-fifo-api-h",
    // init left the instance out without a word; now it names the FIFO and writes nothing.
    setup: (d) => {
      const sub = puffin(d);
      rmSync(join(sub, "meta.json"));
      fifo(join(sub, PUFFIN, "api.h"));
    },
    argv: (d) => ["init", join(d, "kem-90")],
    message:
      /^ngcc-perf init: \S*kem-90\/Reference_Implementation\/Puffin-128\/api\.h: is a FIFO \(named pipe\); init reads only the submission's own regular files and folders/m,
    check: (_r, d) => {
      expect(existsSync(join(d, "kem-90", "meta.json")), "init wrote a meta.json").toBe(false);
    },
    timeoutMs: GUARD_MS,
  },
  {
    id: "init-source-linked-out",
    setup: (d) => {
      const sub = puffin(d);
      rmSync(join(sub, "meta.json"));
      symlinkSync(secretFile, join(sub, PUFFIN, "host.c"));
    },
    argv: (d) => ["init", join(d, "kem-90")],
    message: /Puffin-128\/host\.c: is a symbolic link that leaves the submission folder/,
    check: (r, d) => {
      expect(existsSync(join(d, "kem-90", "meta.json")), "init wrote a meta.json").toBe(false);
      expect(r.stdout + r.stderr).not.toContain(secretText);
    },
    timeoutMs: GUARD_MS,
  },
  {
    id: "init-update-fifo-meta",
    setup: (d) => fifo(join(puffin(d), "meta.json")),
    argv: (d) => ["init", join(d, "kem-90"), "--update"],
    message: /kem-90\/meta\.json: is not a regular file; expected the meta\.json to update/,
    timeoutMs: GUARD_MS,
  },
  ...["1/99999999999999999999", "0/3", "4/3", "1/0", "1.5/3", "1/9007199254740993"].map(
    (shard): BadInputCase => ({
      id: `shard-${shard.replace(/\W/g, "_")}`,
      setup: (d) => void puffin(d),
      argv: (d) => run(d, "--shard", shard),
      message: new RegExp(
        `--shard takes K/N, whole numbers with 1 ≤ K ≤ N ≤ 65536 \\(e\\.g\\. 2/4\\), not "${shard.replace(/\./g, "\\.")}"`,
      ),
      check: nothingWritten,
      timeoutMs: GUARD_MS,
    }),
  ),
];

describe("hostile inputs are refused before anything runs", () => {
  it.each(cases.map((c) => [c.id, c] as const))("%s", async (_id, c) => {
    await runBadInput(root, c);
  });
});

/** `ngcc-perf <args>` run from `cwd` (an empty --out resolved against it). */
function cliIn(cwd: string, args: readonly string[]): Promise<CliResult & { signal: NodeJS.Signals | null }> {
  return new Promise((res) => {
    const child = spawn(process.execPath, [cliBin, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill("SIGKILL"), GUARD_MS);
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      res({ code, signal, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") });
    });
  });
}

describe("--out must be a non-empty path", () => {
  it.each([
    ["run", ""],
    ["run", "   "],
    ["kat", ""],
    ["report", ""],
  ])("%s --out %j exits 2 and writes nothing into the current folder", async (command, out) => {
    const dir = join(root, `out-${command}-${out.length}`);
    mkdirSync(dir, { recursive: true });
    puffin(dir);
    const before = readdirSync(dir).sort();
    const argv =
      command === "report"
        ? ["report", dir, "--out", out]
        : [command, join(dir, "campaign.yaml"), "--out", out, ...(command === "run" ? ["--steps", "build"] : [])];
    const r = await cliIn(dir, argv);
    const c: BadInputCase = {
      id: `out-${command}`,
      argv: () => argv,
      message: new RegExp(`^ngcc-perf ${command}: --out ${JSON.stringify(out)}: expected a non-empty path`),
    };
    expectCleanRefusal(r, c, dir);
    expect(readdirSync(dir).sort()).toEqual(before);
  });
});
