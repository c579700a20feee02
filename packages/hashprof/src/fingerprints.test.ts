import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { findFingerprints, primitiveFromName } from "./fingerprints.ts";

const u64le = (xs: bigint[]) =>
  Buffer.concat(
    xs.map((x) => {
      const b = Buffer.alloc(8);
      b.writeBigUInt64LE(x);
      return b;
    }),
  );
const u32be = (xs: number[]) =>
  Buffer.concat(
    xs.map((x) => {
      const b = Buffer.alloc(4);
      b.writeUInt32BE(x);
      return b;
    }),
  );

const KECCAK_RC = [
  0x0000000000000001n,
  0x0000000000008082n,
  0x800000000000808an,
  0x8000000080008000n,
  0x000000000000808bn,
  0x0000000080000001n,
  0x8000000080008081n,
  0x8000000000008009n,
  0x000000000000008an,
  0x0000000000000088n,
  0x0000000080008009n,
  0x000000008000000an,
  0x000000008000808bn,
  0x800000000000008bn,
  0x8000000000008089n,
  0x8000000000008003n,
  0x8000000000008002n,
  0x8000000000000080n,
  0x000000000000800an,
  0x800000008000000an,
  0x8000000080008081n,
  0x8000000000008080n,
  0x0000000080000001n,
  0x8000000080008008n,
];

const primitives = (b: Buffer) => findFingerprints(b).map((h) => h.primitive);

describe("constant fingerprints", () => {
  const noise = randomBytes(4096);
  it("finds nothing in random bytes", () => {
    expect(findFingerprints(noise)).toEqual([]);
  });
  it("recognises Keccak round constants, the AES S-box, SM3's IV, ChaCha's constant and SHA-256's IV", () => {
    expect(primitives(Buffer.concat([noise, u64le(KECCAK_RC)]))).toEqual(["Keccak-f[1600]"]);
    expect(primitives(Buffer.from("637c777bf26b6fc53001672bfed7ab76ca82c97d", "hex"))).toEqual(["AES"]);
    expect(
      primitives(
        u32be([0x7380166f, 0x4914b2b9, 0x172442d7, 0xda8a0600, 0xa96f30bc, 0x163138aa, 0xe38dee4d, 0xb0fb0e4e]),
      ),
    ).toEqual(["SM3"]);
    expect(primitives(Buffer.from("xxexpand 32-byte kyy"))).toEqual(["ChaCha20/Salsa20"]);
    expect(
      primitives(
        u32be([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]),
      ),
    ).toEqual(["SHA-256"]);
  });
  it("needs most of a table, not one constant", () => {
    expect(findFingerprints(u64le(KECCAK_RC.slice(0, 4)))).toEqual([]);
  });
  it("names primitives from function names", () => {
    expect(primitiveFromName("puffin_shake128")).toBe("Keccak-f[1600]");
    expect(primitiveFromName("aes256_ctr")).toBe("AES");
    expect(primitiveFromName("crypto_kem_keypair")).toBeNull();
  });
});
