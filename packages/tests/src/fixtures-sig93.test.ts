/**
 * sig-93 Wren: deterministic signing whose number of rejection rounds depends
 * on the message (as Dilithium round 3's default mode). fixtures/tools/wren_rounds.c,
 * built with -DWREN_COUNT_ROUNDS, signs 200 messages under one key pair (keys
 * from the KAT DRBG with a fixed seed) and reports the rounds of every call:
 * the rounds take several values, re-signing a message gives the same
 * signature after the same rounds, verify accepts and rejects as it should,
 * every round costs the same placeholder calls and signing draws no
 * randomness. The timed build (no define) carries no round counter.
 * Behaviour only, never timings.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  getInstance,
  ICCS_HASH_SOURCES,
  iccsDir,
  instanceGccArgs,
  KAT_RNG_SOURCES,
  katgenDir,
  loadSubmission,
  makeTempDir,
  run,
  SANITIZE_CFLAGS,
  STRICT_CFLAGS,
  submissionsDir,
  toolsDir,
} from "./fixture-tools.ts";

const MESSAGES = 200;
const work = makeTempDir("ngcc-sig93-");
afterAll(() => rmSync(work, { recursive: true, force: true }));

const sub = loadSubmission(join(submissionsDir, "sig-93"));
const inst = getInstance(sub, "Wren-128");

interface RoundsReport {
  name: string;
  messages: number;
  rounds: number[];
  resignSame: number;
  accepted: number;
  rejectedMessage: number;
  rejectedSignature: number;
  pk: string;
}

type Counts = Record<"sm3hash" | "pseudohash" | "pseudoXOF" | "randombytes", number>;

/** gcc arguments for wren_rounds: the instance's sources, the ICCS hashes, the KAT DRBG, the counter hook. */
function roundsArgs(exe: string, extra: string[]): string[] {
  const args = [...STRICT_CFLAGS, ...extra, "-DWREN_COUNT_ROUNDS"];
  for (const inc of inst.includeDirs) args.push("-I", join(sub.dir, inc));
  args.push("-I", iccsDir, "-I", katgenDir);
  args.push(...inst.sources.map((s) => join(sub.dir, s)), ...ICCS_HASH_SOURCES, ...KAT_RNG_SOURCES);
  args.push(join(toolsDir, "wren_rounds.c"), "-o", exe);
  return args;
}

async function build(tag: string, extra: string[]): Promise<string> {
  const exe = join(work, `wren_rounds-${tag}`);
  const b = await run("gcc", roundsArgs(exe, extra), { timeoutMs: 120_000 });
  expect(b.stderr).toBe("");
  expect(b.status).toBe(0);
  return exe;
}

async function rounds(exe: string, args: string[], timeoutMs = 60_000): Promise<RoundsReport & { stderr: string }> {
  const r = await run(exe, args, { timeoutMs });
  expect(r.timedOut).toBe(false);
  expect(r.status).toBe(0);
  return { ...(JSON.parse(r.stdout) as RoundsReport), stderr: r.stderr };
}

function histogram(values: number[]): Map<number, number> {
  const h = new Map<number, number>();
  for (const v of values) h.set(v, (h.get(v) ?? 0) + 1);
  return h;
}

let exe = "";
beforeAll(async () => {
  exe = await build("O2", ["-O2"]);
}, 120_000);

describe("sig-93 Wren: message-dependent rejection rounds", () => {
  it(`${MESSAGES} messages take several different numbers of rounds`, async () => {
    const r = await rounds(exe, [String(MESSAGES)]);
    expect(r.name).toBe("Wren-128");
    expect(r.messages).toBe(MESSAGES);
    expect(r.rounds).toHaveLength(MESSAGES);
    for (const n of r.rounds) {
      expect(Number.isInteger(n)).toBe(true);
      expect(n).toBeGreaterThanOrEqual(1);
    }
    const h = histogram(r.rounds);
    // geometric with acceptance ~0.36: over 200 messages 1 round is the most common and many take more
    expect(h.size).toBeGreaterThanOrEqual(5);
    expect(Math.min(...r.rounds)).toBe(1);
    expect(Math.max(...r.rounds)).toBeGreaterThanOrEqual(5);
    expect(Math.max(...h.values())).toBeLessThan(0.6 * MESSAGES);
    expect(h.get(1) ?? 0).toBeGreaterThan(0.2 * MESSAGES);
  });

  it("signing is deterministic: the same message gives the same signature after the same rounds", async () => {
    const a = await rounds(exe, [String(MESSAGES)]);
    expect(a.resignSame).toBe(MESSAGES);
    // a fresh process with the same key: the same rounds message for message
    const b = await rounds(exe, [String(MESSAGES)]);
    expect(b.pk).toBe(a.pk);
    expect(b.rounds).toEqual(a.rounds);
    // another key pair: the rounds depend on the key as well as the message
    const c = await rounds(exe, [String(MESSAGES), "7"]);
    expect(c.pk).not.toBe(a.pk);
    expect(c.resignSame).toBe(MESSAGES);
    expect(c.rounds).not.toEqual(a.rounds);
    expect(histogram(c.rounds).size).toBeGreaterThanOrEqual(5);
  });

  it("verify accepts every signature and rejects a changed message or signature", async () => {
    const r = await rounds(exe, [String(MESSAGES)]);
    expect(r.accepted).toBe(MESSAGES);
    expect(r.rejectedMessage).toBe(MESSAGES);
    expect(r.rejectedSignature).toBe(MESSAGES);
  });

  it("clean under AddressSanitizer + UndefinedBehaviorSanitizer", async () => {
    const san = await build("san", SANITIZE_CFLAGS);
    const r = await rounds(san, [String(MESSAGES)], 300_000);
    expect(r.stderr).toBe("");
    const plain = await rounds(exe, [String(MESSAGES)]);
    expect(r.rounds).toEqual(plain.rounds);
    expect([r.resignSame, r.accepted, r.rejectedMessage, r.rejectedSignature]).toEqual([
      MESSAGES,
      MESSAGES,
      MESSAGES,
      MESSAGES,
    ]);
  }, 300_000);

  it("every round costs 2 pseudoXOF and 1 pseudohash calls; signing calls no randombytes", async () => {
    // wren_rounds N KEYSEED R signs every message R more times (only crypto_sign); the difference between
    // R = 1 and R = 0 is one signature of each message: 4 + 2 r pseudoXOF and 3 + r pseudohash calls
    const wrapped = await build("wrap", [
      "-O2",
      join(toolsDir, "wrapcount.c"),
      "-Wl,--wrap=sm3hash,--wrap=pseudohash,--wrap=pseudoXOF,--wrap=randombytes",
    ]);
    const counts = (r: { stderr: string }) => JSON.parse(r.stderr.trim().split("\n").pop() as string) as Counts;
    const r0 = await rounds(wrapped, ["50", "0", "0"]);
    const r1 = await rounds(wrapped, ["50", "0", "1"]);
    expect(r1.rounds).toEqual(r0.rounds);
    const c0 = counts(r0);
    const c1 = counts(r1);
    const total = r0.rounds.reduce((s, n) => s + n, 0);
    expect(c1.pseudoXOF - c0.pseudoXOF).toBe(50 * 4 + 2 * total);
    expect(c1.pseudohash - c0.pseudohash).toBe(50 * 3 + total);
    expect(c1.randombytes - c0.randombytes).toBe(0);
    expect(c1.sm3hash).toBe(0);
    // keygen is the only caller of the DRNG
    expect(c0.randombytes).toBe(1);
  }, 120_000);

  it("the timed build carries no round counter; -DWREN_COUNT_ROUNDS adds wren_sign_rounds", async () => {
    const symbolsOf = async (defines: string[]) => {
      const dir = join(work, `obj-${defines.join("_") || "plain"}`);
      mkdirSync(dir, { recursive: true });
      const args = instanceGccArgs(sub, { ...inst, defines: [...inst.defines, ...defines] }, { driver: "objects" }, "");
      const c = await run("gcc", args, { cwd: dir, timeoutMs: 60_000 });
      expect(c.stderr).toBe("");
      const nm = await run("nm", ["-g", join(dir, "sign.o")]);
      expect(nm.status).toBe(0);
      return nm.stdout;
    };
    const plain = await symbolsOf([]);
    expect(plain).not.toMatch(/wren_sign_rounds/);
    expect(plain).toMatch(/ U randombytes$/m);
    for (const line of plain.split("\n").filter((l) => / [A-TV-Z] /.test(l))) {
      expect(line).toMatch(/ (crypto_sign|crypto_sign_keypair|crypto_sign_open)$/);
    }
    expect(await symbolsOf(["WREN_COUNT_ROUNDS"])).toMatch(/ [BDC] wren_sign_rounds$/m);
  }, 120_000);
});
