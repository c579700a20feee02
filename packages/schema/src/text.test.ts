import { describe, expect, it } from "vitest";
import { shortText, visibleLines, visibleText } from "./text.ts";

describe("visibleText", () => {
  it("escapes the bidi embeddings, overrides and isolates", () => {
    for (const cp of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]) {
      const hex = cp.toString(16).toUpperCase();
      expect(visibleText(`a${String.fromCodePoint(cp)}b`)).toBe(`a\\u${hex}b`);
    }
    expect(visibleText("Puf\u202Enif.h")).toBe("Puf\\u202Enif.h");
  });

  it("escapes C0 and C1 controls, DEL, bidi marks, separators and U+FEFF", () => {
    expect(visibleText("\u0000\u0007\u001b[2J\u007f\u0085\u009b")).toBe(
      "\\u0000\\u0007\\u001B[2J\\u007F\\u0085\\u009B",
    );
    expect(visibleText("\u200e\u200f\u061c\u2028\u2029\ufeffx")).toBe("\\u200E\\u200F\\u061C\\u2028\\u2029\\uFEFFx");
  });

  it("turns line breaks and tabs into spaces and keeps every other character", () => {
    expect(visibleText("first line  \r\n\n  second\tthird\rfourth")).toBe("first line second third fourth");
    const plain = "Ünïcödé ML-KEM-512 — 漢字 עברית 🙂 e\u0301";
    expect(visibleText(plain)).toBe(plain);
  });
});

describe("visibleLines and shortText", () => {
  it("keeps the lines of a message, each made visible", () => {
    expect(visibleLines("one\u202E\n  two\u001b[31m\r\nthree")).toBe("one\\u202E\n  two\\u001B[31m\nthree");
  });

  it("cuts a long value to 80 characters with an ellipsis", () => {
    const s = shortText("x".repeat(20_000_000));
    expect(s).toHaveLength(80);
    expect(s.endsWith("…")).toBe(true);
    expect(shortText("short")).toBe("short");
    expect(shortText("a\u202Eb", 10)).toBe("a\\u202Eb");
  });
});
