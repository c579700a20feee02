// Drives the built `ngcc-perf` executable as a user would (run `pnpm build` first).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
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
