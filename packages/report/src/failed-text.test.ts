// The failure cell: a compiler's first error line is shown whole, however long its path; the rest fills up to 160
// characters.
import { describe, expect, it } from "vitest";
import { failedText } from "./parts.ts";

describe("failedText", () => {
  it("keeps the first line whole and cuts only what follows", () => {
    const path = `/work/${"deep/".repeat(40)}kem.c`;
    const first = `build of kem-95/Finch-1 failed: ${path}:12:5: error: expected ';' before 'return'`;
    const cell = failedText({
      reason: "compile-error",
      message: `${first}\n  12 |   x = 1\n     |        ^\n${"tail ".repeat(50)}`,
    });
    expect(cell.startsWith(`FAILED (compile-error): ${first}`)).toBe(true);
    expect(cell.endsWith("…")).toBe(true);
  });

  it("gives a short message in full and cuts a long rest at 160 characters", () => {
    expect(failedText({ reason: "crash", message: "killed by SIGSEGV\nin dec" })).toBe(
      "FAILED (crash): killed by SIGSEGV in dec",
    );
    const cell = failedText({ reason: "error", message: `short\n${"x".repeat(400)}` });
    expect(cell.length).toBeLessThanOrEqual("FAILED (error): ".length + 160);
    expect(failedText(undefined)).toBe("FAILED");
  });
});
