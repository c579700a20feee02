// Drives the built `ngcc-perf` executable as a user would (run `pnpm build` first).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, "..", "bin.js");
const repo = join(here, "..", "..", "..");
const example = readFileSync(join(repo, "packages/schema/examples/timing.json"), "utf8");
const tmp = mkdtempSync(join(tmpdir(), "ngcc-validate-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, all: r.stdout + r.stderr };
}
const STACK = /\n\s+at .+\(.*:\d+:\d+\)|node:internal/;

describe("ngcc-perf validate", () => {
  it("accepts a valid record and exits 0", () => {
    const f = join(tmp, "ok.json");
    writeFileSync(f, example);
    const r = cli("validate", f);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("1 of 1 file(s) valid");
  });

  it("shows a file name with a bidi or control character escaped, never raw, exit 2", () => {
    const f = join(tmp, "evil\u202egnp.json");
    writeFileSync(f, example.replace('"baselineRssKiB": 1436', '"baselineRssKiB": "x\\u001b[2J"'));
    const r = cli("validate", f);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain("evil\\u202Egnp.json:");
    expect(r.all.includes("\u202e") || r.all.includes("\u001b")).toBe(false);
  });

  it("names the JSON pointer and line of a field of the wrong type, exit 2", () => {
    const f = join(tmp, "bad.json");
    const text = example.replace('"baselineRssKiB": 1436', '"baselineRssKiB": true');
    writeFileSync(f, text);
    const line = text.split("\n").findIndex((l) => l.includes('"baselineRssKiB"')) + 1;
    const r = cli("validate", f);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(
      new RegExp(
        `^${f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:${line}:\\d+ /memory/baselineRssKiB must be integer$`,
        "m",
      ),
    );
  });

  it("accepts the seed store, and names the pointer and line of a wrong-typed field in a copy of one of its records", () => {
    expect(cli("validate", join(repo, "fixtures/seed-store")).code).toBe(0);
    const src = readFileSync(
      join(repo, "fixtures/seed-store/data/arm_1/records/kem-22/guide/Mithril-128__keygen.json"),
      "utf8",
    );
    const text = src.replace(/"elfImageBytes": (\d+)/, '"elfImageBytes": "$1"');
    expect(text).not.toBe(src);
    const f = join(tmp, "Mithril-128__keygen.json");
    writeFileSync(f, text);
    const line = text.split("\n").findIndex((l) => l.includes('"elfImageBytes"')) + 1;
    const r = cli("validate", f);
    expect(r.code).toBe(2);
    expect(r.stdout.trim()).toMatch(new RegExp(`:${line}:\\d+ /memory/elfImageBytes must be integer$`));
  });

  it("accepts a store with its site (summary.json is a schema kind of its own), and names a bad field of it", () => {
    const store = join(tmp, "with-site");
    cpSync(join(repo, "fixtures/seed-store"), store, { recursive: true });
    const rendered = cli("report", store, "--format", "md");
    expect(rendered.code, rendered.all).toBe(0);
    const summary = join(store, "site", "arm_1", "summary.json");
    const ok = cli("validate", store);
    expect(ok.code, ok.all).toBe(0);
    const whole = cli("validate", summary);
    expect(whole.code, whole.all).toBe(0);
    const text = readFileSync(summary, "utf8");
    const bad = text.replace(/"timeNs": ([\d.e+]+)/, '"timeNs": "$1"');
    expect(bad).not.toBe(text);
    writeFileSync(summary, bad);
    const line = bad.split("\n").findIndex((l) => l.includes('"timeNs": "')) + 1;
    const r = cli("validate", summary);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(new RegExp(`summary\\.json:${line}:\\d+ /rows/0/timeNs `));
    expect(r.all).not.toMatch(STACK);
  });

  it("exits 2 with a usage message when no path is named, and for unknown commands", () => {
    expect(cli("validate").code).toBe(2);
    const r = cli("frobnicate");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown command "frobnicate"/);
    expect(cli("--help").code).toBe(0);
  });

  it("reports a missing path", () => {
    const r = cli("validate", join(tmp, "does-not-exist"));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no such file or folder/);
  });

  it("answers hundreds of random and truncated inputs with exit 2 and a message, never a stack trace", () => {
    const dir = join(tmp, "fuzz");
    mkdirSync(dir);
    let seed = 12345;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const n = 300;
    for (let i = 0; i < n; i++) {
      const name = join(dir, `case-${String(i).padStart(3, "0")}.${i % 5 === 0 ? "yaml" : "json"}`);
      const mode = i % 4;
      if (mode === 0) {
        // truncated valid record
        writeFileSync(name, example.slice(0, Math.floor(rand() * (example.length - 1))));
      } else if (mode === 1) {
        // random bytes
        writeFileSync(
          name,
          Buffer.from(Array.from({ length: 1 + Math.floor(rand() * 512) }, () => Math.floor(rand() * 256))),
        );
      } else if (mode === 2) {
        // one byte of a valid record changed
        const pos = Math.floor(rand() * example.length);
        const chars = '{}[]":,0a-';
        const text = example.slice(0, pos) + chars[Math.floor(rand() * chars.length)] + example.slice(pos + 1);
        writeFileSync(name, text === example ? "{" : text);
      } else {
        // random JSON-ish tokens
        const toks = [
          "{",
          "}",
          "[",
          "]",
          '"kind"',
          ":",
          ",",
          '"timing"',
          "1e999",
          "null",
          "-",
          '"\\u0000"',
          "&a",
          "*a",
          "\n",
        ];
        writeFileSync(
          name,
          Array.from({ length: 1 + Math.floor(rand() * 40) }, () => toks[Math.floor(rand() * toks.length)]).join(""),
        );
      }
    }
    const r = cli("validate", dir);
    expect(r.code).toBe(2);
    expect(r.all).not.toMatch(STACK);
    // Every file that is not (by chance) a valid record gets at least one error line.
    const reported = new Set(
      r.stdout
        .split("\n")
        .filter(Boolean)
        .map((l) => l.split(":")[0]),
    );
    const valid = Number(/(\d+) of (\d+) file\(s\) valid/.exec(r.stderr)?.[1]);
    expect(Number(/(\d+) of (\d+) file\(s\) valid/.exec(r.stderr)?.[2])).toBe(n);
    expect(reported.size + valid).toBe(n);
    // A few one at a time, as separate processes.
    for (const i of [0, 1, 2, 3, 5, 7]) {
      const one = cli("validate", join(dir, `case-${String(i).padStart(3, "0")}.${i % 5 === 0 ? "yaml" : "json"}`));
      expect(one.code).toBe(2);
      expect(one.all).not.toMatch(STACK);
    }
  }, 120_000);

  it("refuses a 100 MB file and a YAML bomb with a message", () => {
    const big = join(tmp, "big.json");
    writeFileSync(big, "");
    truncateSync(big, 100 * 1024 * 1024);
    const bomb = join(tmp, "bomb.yaml");
    writeFileSync(
      bomb,
      [
        'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
        ...["b", "c", "d", "e", "f", "g", "h", "i"].map(
          (k, i) => `${k}: &${k} [${Array(9).fill(`*${"abcdefghi"[i]}`).join(",")}]`,
        ),
      ].join("\n"),
    );
    const r = cli("validate", big, bomb);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/big\.json:1:1 \(root\) file is 104857600 bytes/);
    expect(r.stdout).toMatch(/bomb\.yaml:\d+:\d+ \(root\) .*(alias|YAML)/i);
    expect(r.all).not.toMatch(STACK);
  });
});

describe("ngcc-perf validate: a store against its index", () => {
  const KEYGEN = "records/kem-22/guide/Mithril-128__keygen.json";
  let n = 0;
  /** A copy of the seed store; returns its root and its system folder. */
  function store(): { root: string; dir: string } {
    const root = join(tmp, `store-${n++}`);
    cpSync(join(repo, "fixtures/seed-store"), root, { recursive: true });
    return { root, dir: join(root, "data/arm_1") };
  }
  const edit = (file: string, change: (r: Record<string, Record<string, number>>) => void) => {
    const r = JSON.parse(readFileSync(file, "utf8"));
    change(r);
    writeFileSync(file, `${JSON.stringify(r, null, 2)}\n`);
  };

  it("names a record edited after the index was written (meanNs × 1000, schema-valid), exit 2", () => {
    const { root, dir } = store();
    expect(cli("validate", root).stderr).toContain("1 system folder(s) match their index");
    edit(join(dir, KEYGEN), (r) => {
      r.aggregates = { ...r.aggregates, meanNs: (r.aggregates?.meanNs ?? 0) * 1000 };
    });
    const file = join(dir, KEYGEN);
    for (const target of [root, join(root, "data"), dir, join(dir, "records/kem-22"), file]) {
      const r = cli("validate", target);
      expect(r.code, target).toBe(2);
      expect(r.stdout).toContain(`${file}: changed since the index was written: SHA-256 `);
      // The figures no longer follow from one another either.
      expect(r.stdout).toMatch(
        /Mithril-128__keygen\.json:\d+:\d+ \/aggregates\/meanNs is 100806477\.\d+, but Σ ns \/ n/,
      );
      expect(r.stdout).toMatch(/\/aggregates\/opsPerSecond is 9919\.\d+, but 1e9 \/ meanNs = 9\.919/);
      expect(r.stderr).toContain("ngcc-perf index <store>");
      expect(r.all).not.toMatch(STACK);
    }
    // Another part of the same store is checked for itself.
    expect(cli("validate", join(dir, "records/kem-02")).code).toBe(0);
    const json = JSON.parse(cli("validate", root, "--json").stdout);
    expect(json.integrity[0].findings.map((f: { problem: string; path: string }) => `${f.problem} ${f.path}`)).toEqual([
      `changed ${KEYGEN}`,
    ]);
  }, 60_000);

  it("names a deleted record, a record the index does not list, and a missing index", () => {
    const a = store();
    rmSync(join(a.dir, "records/kem-22/guide/Mithril-256__dec.json"));
    const r1 = cli("validate", a.root);
    expect(r1.code).toBe(2);
    expect(r1.stdout.trim()).toMatch(
      /\/records\/kem-22\/guide\/Mithril-256__dec\.json: deleted: index\.json lists it \(timing, \d+ bytes\), but there is no such file$/,
    );
    const b = store();
    const stray = join(b.dir, "records/kem-22/guide/Mithril-1024__dec.json");
    writeFileSync(
      stray,
      readFileSync(join(b.dir, "records/kem-22/guide/Mithril-512__dec.json"), "utf8").replace(
        '"instance": "Mithril-512"',
        '"instance": "Mithril-1024"',
      ),
    );
    const r2 = cli("validate", b.root);
    expect(r2.code).toBe(2);
    expect(r2.stdout.trim()).toBe(`${stray}: not indexed: the file is in the store, but index.json does not list it`);
    expect(cli("validate", stray).code).toBe(2);
    const c = store();
    rmSync(join(c.dir, "index.json"));
    const r3 = cli("validate", c.root);
    expect(r3.code).toBe(2);
    expect(r3.stdout).toContain(`${join(c.dir, "index.json")}: missing: without index.json`);
    expect(r3.stdout).toContain('rebuild it with "ngcc-perf index <store>"');
  });

  it("catches an edit whose hash was also fixed in the index by hand, by the figures' identities", () => {
    const { root, dir } = store();
    const file = join(dir, KEYGEN);
    edit(file, (r) => {
      const meanNs = (r.aggregates?.meanNs ?? 0) * 1000;
      r.aggregates = { ...r.aggregates, meanNs, opsPerSecond: 1e9 / meanNs };
    });
    const indexFile = join(dir, "index.json");
    const index = JSON.parse(readFileSync(indexFile, "utf8"));
    const entry = index.files.find((f: { path: string }) => f.path === KEYGEN);
    const data = readFileSync(file);
    entry.sha256 = createHash("sha256").update(data).digest("hex");
    entry.bytes = data.length;
    writeFileSync(indexFile, `${JSON.stringify(index, null, 2)}\n`);
    const r = cli("validate", root);
    expect(r.code).toBe(2);
    expect(r.stdout).not.toContain("changed since the index was written");
    expect(r.stdout.trim()).toMatch(
      /^.*Mithril-128__keygen\.json:\d+:\d+ \/aggregates\/meanNs is 100806477\.\d+, but Σ ns \/ n of the trials = 100806\.\d+ \(the figures contradict each other: edited by hand\?\)$/,
    );
    expect(r.stderr).toContain("212 of 213 file(s) valid");
    // A timing record outside any store is checked the same way.
    const loose = join(tmp, "loose-keygen.json");
    writeFileSync(loose, readFileSync(file));
    expect(cli("validate", loose).stdout).toMatch(/loose-keygen\.json:\d+:\d+ \/aggregates\/meanNs is /);
  });
});
