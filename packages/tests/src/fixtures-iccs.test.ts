/**
 * The ICCS stand-in (fixtures/iccs): SM3 passes the GB/T 32905-2016 vectors
 * and agrees with an independent SM3 (OpenSSL through node:crypto) on many
 * lengths; pseudohash and pseudoXOF are exactly their documented definitions.
 */
import { createHash, getHashes, randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ICCS_HASH_SOURCES,
  iccsDir,
  makeTempDir,
  run,
  SANITIZE_CFLAGS,
  STRICT_CFLAGS,
  toolsDir,
} from "./fixture-tools.ts";

const work = makeTempDir("ngcc-iccs-");
const tool = join(work, "iccs_tool");
const toolSan = join(work, "iccs_tool_san");
afterAll(() => rmSync(work, { recursive: true, force: true }));

beforeAll(async () => {
  const src = [join(toolsDir, "iccs_tool.c"), ...ICCS_HASH_SOURCES];
  const [a, b] = await Promise.all([
    run("gcc", [...STRICT_CFLAGS, "-O2", "-I", iccsDir, ...src, "-o", tool]),
    run("gcc", [...STRICT_CFLAGS, ...SANITIZE_CFLAGS, "-I", iccsDir, ...src, "-o", toolSan]),
  ]);
  expect(a.stderr).toBe("");
  expect(b.stderr).toBe("");
}, 60_000);

const sm3 = (data: Buffer) => createHash("sm3").update(data).digest();
const hasSm3 = getHashes().includes("sm3");

describe("ICCS stand-in", () => {
  it("SM3 passes the GB/T 32905-2016 vectors (also under ASan/UBSan)", async () => {
    for (const exe of [tool, toolSan]) {
      const r = await run(exe, ["vectors"]);
      expect(r.stdout).toBe("ok\n");
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
    }
    expect((await run(tool, ["sm3", Buffer.from("abc").toString("hex")])).stdout.trim()).toBe(
      "66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0",
    );
  });

  const lengths = [0, 1, 3, 31, 32, 55, 56, 57, 63, 64, 65, 119, 120, 128, 200, 1000];
  it.skipIf(!hasSm3)("sm3hash agrees with OpenSSL's SM3", async () => {
    for (const n of lengths) {
      const data = randomBytes(n);
      const r = await run(tool, ["sm3", n ? data.toString("hex") : "-"]);
      expect(r.stdout.trim(), `length ${n}`).toBe(sm3(data).toString("hex"));
    }
  });

  it.skipIf(!hasSm3)("pseudohash = SM3(0x50 || in)", async () => {
    for (const n of lengths) {
      const data = randomBytes(n);
      const r = await run(tool, ["pseudohash", n ? data.toString("hex") : "-"]);
      expect(r.stdout.trim()).toBe(sm3(Buffer.concat([Buffer.from([0x50]), data])).toString("hex"));
    }
  });

  it.skipIf(!hasSm3)("pseudoXOF = SM3(K || BE32(1)) || SM3(K || BE32(2)) || ..., K = SM3(0x58 || in)", async () => {
    for (const [n, outlen] of [
      [0, 0],
      [0, 5],
      [10, 32],
      [34, 512],
      [100, 33],
      [64, 1000],
    ] as const) {
      const data = randomBytes(n);
      const key = sm3(Buffer.concat([Buffer.from([0x58]), data]));
      const blocks: Buffer[] = [];
      for (let i = 1; 32 * (i - 1) < outlen; i++) {
        const ctr = Buffer.alloc(4);
        ctr.writeUInt32BE(i);
        blocks.push(sm3(Buffer.concat([key, ctr])));
      }
      const want = Buffer.concat(blocks).subarray(0, outlen).toString("hex");
      const r = await run(tool, ["pseudoXOF", String(outlen), n ? data.toString("hex") : "-"]);
      expect(r.stdout.trim()).toBe(want);
    }
  });
});
