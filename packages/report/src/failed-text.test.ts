// The failure cell: a compiler's first error line is shown whole, however long its path; the rest fills up to 160
// characters.
import { describe, expect, it } from "vitest";
import { failedText, pagePaths } from "./parts.ts";

describe("failedText", () => {
  it("keeps the first line whole and cuts only what follows", () => {
    const path = `kem-95/${"deep/".repeat(40)}kem.c`;
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

  it("shows no absolute path of a build folder, a submission or a home: from the store, the submission or …/", () => {
    const at = { system: "test_1", algorithmId: "kem-90" };
    const message = [
      "compiling kem-90/Puffin-128 (KAT build) (kem.c) failed: /tmp/wk-exp/kem-90/Reference_Implementation/common/kem.c:76:13: error: expected ‘;’ before ‘}’ token",
      "In file included from /home/eval/ngcc/out/build/test_1/kem-90/quick/kat-Puffin-128-0a1b/ngcc_katgen.c:40:",
      "/home/eval/pkgs/mlkem/ref/poly.c:3:10: fatal error: ‘/usr/include/openssl/sha.h’ not found",
    ].join("\n");
    const shown = pagePaths(message, at);
    expect(shown).toBe(
      [
        "compiling kem-90/Puffin-128 (KAT build) (kem.c) failed: kem-90/Reference_Implementation/common/kem.c:76:13: error: expected ‘;’ before ‘}’ token",
        "In file included from <build>/test_1/kem-90/quick/kat-Puffin-128-0a1b/ngcc_katgen.c:40:",
        "…/ref/poly.c:3:10: fatal error: ‘/usr/include/openssl/sha.h’ not found",
      ].join("\n"),
    );
    const cell = failedText({ reason: "compile-error", message }, at);
    expect(cell).not.toMatch(/\/tmp\/|\/home\//);
    expect(cell).toMatch(
      /^FAILED \(compile-error\): compiling .* failed: kem-90\/Reference_Implementation\/common\/kem\.c:76:13: error/,
    );
    // Relative paths, the store's <build> and URLs stay as they are.
    expect(pagePaths("see <build>/x/y and kem-90/KAT/kat.sha256 at https://example.org/a/b")).toBe(
      "see <build>/x/y and kem-90/KAT/kat.sha256 at https://example.org/a/b",
    );
  });
});
