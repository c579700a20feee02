// Constant fingerprints of symmetric primitives, searched for in the bytes of compiled objects: round
// constants, S-boxes, initial values and magic strings survive compilation as tables or immediates.

export interface FingerprintHit {
  /** The primitive, e.g. Keccak-f[1600]. */
  primitive: string;
  /** What matched, e.g. "Keccak round constants (22 of 22)". */
  evidence: string;
}

interface WordSet {
  primitive: string;
  what: string;
  bytes: 4 | 8;
  words: readonly bigint[];
  /** Distinct words (or, with pairs, consecutive pairs) that must be present. */
  need: number;
  /** Skip when this primitive was already found (its constants contain these words). */
  unless?: string;
  /** Count consecutive pairs (words[i], words[i+1]) stored next to each other instead of single words. */
  pairs?: boolean;
}

interface ByteRun {
  primitive: string;
  what: string;
  runs: readonly number[][];
  /** Runs that must all be present. */
  all: boolean;
}

const hex = (s: string) =>
  s
    .split(/\s+/)
    .filter(Boolean)
    .map((x) => BigInt(`0x${x}`));

/** Keccak-f[1600] round constants with at least 3 non-zero bytes (the others are too common). */
const KECCAK_RC = [
  ...new Set(
    hex(`
  0000000000008082 800000000000808a 8000000080008000 000000000000808b 0000000080000001 8000000080008081
  8000000000008009 000000000000008a 0000000000000088 0000000080008009 000000008000000a 000000008000808b
  800000000000008b 8000000000008089 8000000000008003 8000000000008002 8000000000000080 000000000000800a
  800000008000000a 8000000080008081 8000000000008080 0000000080000001 8000000080008008`),
  ),
].filter((w) => [...wordBytes(w, 8, true)].filter((b) => b !== 0).length >= 3);

const SHA256_K = hex(`
  428a2f98 71374491 b5c0fbcf e9b5dba5 3956c25b 59f111f1 923f82a4 ab1c5ed5 d807aa98 12835b01 243185be 550c7dc3
  72be5d74 80deb1fe 9bdc06a7 c19bf174 e49b69c1 efbe4786 0fc19dc6 240ca1cc 2de92c6f 4a7484aa 5cb0a9dc 76f988da
  983e5152 a831c66d b00327c8 bf597fc7 c6e00bf3 d5a79147 06ca6351 14292967 27b70a85 2e1b2138 4d2c6dfc 53380d13
  650a7354 766a0abb 81c2c92e 92722c85 a2bfe8a1 a81a664b c24b8b70 c76c51a3 d192e819 d6990624 f40e3585 106aa070
  19a4c116 1e376c08 2748774c 34b0bcb5 391c0cb3 4ed8aa4a 5b9cca4f 682e6ff3 748f82ee 78a5636f 84c87814 8cc70208
  90befffa a4506ceb bef9a3f7 c67178f2`);

const SHA512_K = hex(`
  428a2f98d728ae22 7137449123ef65cd b5c0fbcfec4d3b2f e9b5dba58189dbbc 3956c25bf348b538 59f111f1b605d019
  923f82a4af194f9b ab1c5ed5da6d8118 d807aa98a3030242 12835b0145706fbe 243185be4ee4b28c 550c7dc3d5ffb4e2
  72be5d74f27b896f 80deb1fe3b1696b1 9bdc06a725c71235 c19bf174cf692694 e49b69c19ef14ad2 efbe4786384f25e3
  0fc19dc68b8cd5b5 240ca1cc77ac9c65 2de92c6f592b0275 4a7484aa6ea6e483 5cb0a9dcbd41fbd4 76f988da831153b5`);

const SHA256_IV = hex("6a09e667 bb67ae85 3c6ef372 a54ff53a 510e527f 9b05688c 1f83d9ab 5be0cd19");

const SM3_IV = hex("7380166f 4914b2b9 172442d7 da8a0600 a96f30bc 163138aa e38dee4d b0fb0e4e");

const WORD_SETS: WordSet[] = [
  { primitive: "Keccak-f[1600]", what: "Keccak round constants", bytes: 8, words: KECCAK_RC, need: 8 },
  { primitive: "SHA-512", what: "SHA-512 round constants", bytes: 8, words: SHA512_K, need: 8 },
  // SHA-512's constants hold SHA-256's as their high halves: SHA-256 needs its words side by side.
  { primitive: "SHA-256", what: "SHA-256 round constant pairs", bytes: 4, words: SHA256_K, need: 16, pairs: true },
  { primitive: "SHA-256", what: "SHA-256 initial value", bytes: 4, words: SHA256_IV, need: 5, pairs: true },
  { primitive: "SHA-256", what: "SHA-256 round constants", bytes: 4, words: SHA256_K, need: 32, unless: "SHA-512" },
  { primitive: "SM3", what: "SM3 initial value", bytes: 4, words: SM3_IV, need: 6 },
];

const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
const bytesOf = (s: string) =>
  s
    .split(/\s+/)
    .filter(Boolean)
    .map((x) => Number.parseInt(x, 16));

const BYTE_RUNS: ByteRun[] = [
  {
    primitive: "ChaCha20/Salsa20",
    what: 'the constant "expand 32-byte k"',
    runs: [ascii("expa"), ascii("nd 3"), ascii("2-by"), ascii("te k")],
    all: true,
  },
  {
    primitive: "AES",
    what: "the AES S-box",
    runs: [bytesOf("63 7c 77 7b f2 6b 6f c5 30 01 67 2b fe d7 ab 76")],
    all: true,
  },
  {
    primitive: "AES",
    what: "the AES inverse S-box",
    runs: [bytesOf("52 09 6a d5 30 36 a5 38 bf 40 a3 9e 81 f3 d7 fb")],
    all: true,
  },
  {
    primitive: "AES",
    what: "an AES T-table",
    runs: [bytesOf("a5 63 63 c6 84 7c 7c f8 99 77 77 ee")],
    all: false,
  },
  {
    primitive: "AES",
    what: "an AES T-table",
    runs: [bytesOf("c6 63 63 a5 f8 7c 7c 84 ee 77 77 99")],
    all: false,
  },
  {
    primitive: "SM4",
    what: "the SM4 S-box",
    runs: [bytesOf("d6 90 e9 fe cc e1 3d b7 16 b6 14 c2 28 fb 2c 05")],
    all: true,
  },
];

function wordBytes(w: bigint, n: 4 | 8, littleEndian: boolean): Buffer {
  const b = Buffer.alloc(n);
  if (n === 8) {
    if (littleEndian) b.writeBigUInt64LE(w);
    else b.writeBigUInt64BE(w);
  } else if (littleEndian) b.writeUInt32LE(Number(w));
  else b.writeUInt32BE(Number(w));
  return b;
}

/** Every fingerprint found in a blob (an object file's bytes). */
export function findFingerprints(blob: Buffer): FingerprintHit[] {
  const hits: FingerprintHit[] = [];
  const seen = new Set<string>();
  for (const set of WORD_SETS) {
    if (set.unless && seen.has(set.unless)) continue;
    let best = 0;
    for (const le of [true, false]) {
      const n = set.pairs
        ? set.words
            .slice(1)
            .filter((w, i) =>
              blob.includes(
                Buffer.concat([wordBytes(set.words[i] as bigint, set.bytes, le), wordBytes(w, set.bytes, le)]),
              ),
            ).length
        : set.words.filter((w) => blob.includes(wordBytes(w, set.bytes, le))).length;
      best = Math.max(best, n);
    }
    const total = set.pairs ? set.words.length - 1 : set.words.length;
    if (best >= set.need && !seen.has(set.primitive)) {
      seen.add(set.primitive);
      hits.push({ primitive: set.primitive, evidence: `${set.what} (${best} of ${total})` });
    }
  }
  for (const r of BYTE_RUNS) {
    const present = r.runs.filter((run) => blob.includes(Buffer.from(run))).length;
    const ok = r.all ? present === r.runs.length : present > 0;
    if (ok && !hits.some((h) => h.primitive === r.primitive && h.evidence === r.what)) {
      hits.push({ primitive: r.primitive, evidence: r.what });
    }
  }
  return hits;
}

/** Primitive names in function names (the survey's "by symbol" evidence). */
const NAME_PATTERNS: Array<[RegExp, string]> = [
  [/keccak|shake|sha3/i, "Keccak-f[1600]"],
  [/sha2(24|56)|sha256/i, "SHA-256"],
  [/sha384|sha512/i, "SHA-512"],
  [/(^|_)sm3/i, "SM3"],
  [/(^|_)sm4/i, "SM4"],
  [/(^|_)aes/i, "AES"],
  [/chacha/i, "ChaCha20"],
  [/salsa20/i, "Salsa20"],
  [/blake2|blake3/i, "BLAKE2/3"],
  [/ascon/i, "Ascon"],
];

/** The primitive a function name suggests, or null. */
export function primitiveFromName(name: string): string | null {
  for (const [re, p] of NAME_PATTERNS) if (re.test(name)) return p;
  return null;
}
