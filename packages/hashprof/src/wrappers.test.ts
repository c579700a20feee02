// The generated wrappers, compiled and linked for real with gcc -Wl,--wrap: arguments and return values
// forwarded unchanged, calls counted per symbol, nested calls of a group counted once and not timed twice.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HOST_CONTEXT, nativeDir, runProcess } from "@ngcc-perf/runner";
import { afterAll, describe, expect, it } from "vitest";
import { parseAuxInfo, tableSource, unwrappable, wrapperSource } from "./wrappers.ts";

const work = mkdtempSync(join(tmpdir(), "ngcc-hashprof-wrap-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("gcc -aux-info parsing", () => {
  it("prefers the header declaration and keeps typedef names", () => {
    const text = [
      "/* compiled from: . */",
      "/* /x/iccs.h:57:NC */ extern void pseudoXOF (unsigned char *, size_t,  const unsigned char *, size_t);",
      "/* /x/pseudo.c:20:NF */ extern void pseudoXOF (unsigned char *out, size_t outlen, const unsigned char *in, size_t inlen); /* (out, outlen, in, inlen) unsigned char *out; size_t outlen; const unsigned char *in; size_t inlen; */",
      "/* /x/iccs.h:66:NC */ extern int randombytes (unsigned char *, long long unsigned int);",
      "/* /x/a.h:3:NC */ extern int printf_like (const char *, ...);",
      "/* /x/a.h:4:NC */ extern void cb (void (*) (int), uint64_t [25]);",
      "/* /x/a.c:9:NF */ static int helper (void); /* () */",
    ].join("\n");
    const p = parseAuxInfo(text);
    expect(p.get("pseudoXOF")).toEqual({
      name: "pseudoXOF",
      returnType: "void",
      params: ["unsigned char *", "size_t", "const unsigned char *", "size_t"],
      variadic: false,
      file: "/x/iccs.h",
      line: 57,
    });
    expect(p.get("randombytes")?.params).toEqual(["unsigned char *", "long long unsigned int"]);
    expect(p.get("cb")?.params).toEqual(["void (*) (int)", "uint64_t [25]"]);
    const v = p.get("printf_like");
    expect(v && unwrappable(v)).toMatch(/variable argument list/);
    expect(p.has("helper")).toBe(false);
  });
});

describe("wrappers linked with -Wl,--wrap", () => {
  it("forward exactly, count every call and time only the outermost call of a group", async () => {
    const w = (name: string, text: string) => {
      writeFileSync(join(work, name), text);
      return join(work, name);
    };
    const header = w(
      "lib.h",
      `#include <stddef.h>
#include <stdint.h>
typedef struct { int k; } ctx_t;
int h(unsigned char *out, size_t n, const ctx_t *c);
int g(unsigned char *out);
void st(uint64_t s[25]);
int rnd(unsigned char *x, unsigned long long n);
`,
    );
    const libH = w(
      "h.c",
      `#include "lib.h"
int h(unsigned char *out, size_t n, const ctx_t *c) { size_t i; for (i = 0; i < n; i++) out[i] = (unsigned char)(i + c->k); return (int)n * 2 + c->k; }
void st(uint64_t s[25]) { s[24] ^= 0x5a; }
`,
    );
    const libG = w(
      "g.c",
      `#include "lib.h"
int g(unsigned char *out) { ctx_t c = {1}; return h(out, 3, &c) + h(out + 3, 2, &c); }
int rnd(unsigned char *x, unsigned long long n) { unsigned long long i; for (i = 0; i < n; i++) x[i] = 7; return 0; }
`,
    );
    w(
      "main.c",
      `#include <stdio.h>
#include "lib.h"
#include "ngcc_prof.h"
int main(void) {
  unsigned char b[8]; uint64_t s[25] = {0}; ctx_t c = {5}; int sum = 0, i;
  ngcc_prof_reset();
  ngcc_prof_trial_begin();
  for (i = 0; i < 3; i++) sum += g(b);
  sum += h(b, 4, &c) + h(b, 1, &c);
  st(s); rnd(b, 8);
  ngcc_prof_trial_end();
  ngcc_prof_freeze();
  g(b); /* after the freeze: not reported */
  printf("%d %d %llu\\n", sum, b[0], (unsigned long long)s[24]);
  ngcc_prof_json(stdout);
  printf("\\n");
  return 0;
}
`,
    );
    const aux = join(work, "h.aux");
    const cc = async (args: string[]) => {
      const r = await runProcess(["gcc", ...args], { cwd: work, timeoutMs: 60_000, context: HOST_CONTEXT });
      expect(r.stderr).toBe("");
      expect(r.exitCode).toBe(0);
    };
    await cc(["-std=c99", "-O2", "-aux-info", aux, "-c", libH, "-o", join(work, "h.o")]);
    await cc(["-std=c99", "-O2", "-aux-info", join(work, "g.aux"), "-c", libG, "-o", join(work, "g.o")]);
    const protos = new Map([
      ...parseAuxInfo(readFileSync(aux, "utf8")),
      ...parseAuxInfo(readFileSync(join(work, "g.aux"), "utf8")),
    ]);
    const syms = [
      { name: "h", group: 0 },
      { name: "g", group: 0 },
      { name: "st", group: 0 },
      { name: "rnd", group: 1 },
    ];
    const wrapped = syms.map((s, index) => {
      const prototype = protos.get(s.name);
      if (!prototype) throw new Error(`no prototype for ${s.name}`);
      expect(prototype.file).toBe(header);
      return { ...s, index, prototype };
    });
    w("wrap.c", wrapperSource(header, wrapped));
    w("table.c", tableSource(["hash", "drng"], syms));
    const hp = join(nativeDir(), "hashprof");
    const strict = [
      "-std=c99",
      "-O2",
      "-Wall",
      "-Wextra",
      "-Wpedantic",
      "-Wshadow",
      "-Wvla",
      "-Wmissing-prototypes",
      "-Werror",
    ];
    await cc([
      ...strict,
      "-I",
      work,
      "-I",
      hp,
      join(work, "main.c"),
      join(work, "h.o"),
      join(work, "g.o"),
      join(work, "wrap.c"),
      join(work, "table.c"),
      join(hp, "ngcc_prof.c"),
      ...syms.map((s) => `-Wl,--wrap=${s.name}`),
      "-o",
      join(work, "prog"),
    ]);
    const r = await runProcess([join(work, "prog")], { timeoutMs: 10_000, context: HOST_CONTEXT });
    expect(r.exitCode).toBe(0);
    const [values, json] = r.stdout.trim().split("\n");
    // g returns (3*2+1)+(2*2+1) = 12, three times 36; h(4) = 13, h(1) = 7: 56. The last g sets b[0] = 0 + 1;
    // st set s[24] = 0x5a through its array parameter
    expect(values).toBe("56 1 90");
    const prof = JSON.parse(json as string) as {
      totalTicks: number;
      groups: Array<{ name: string; ticks: number; outer: number }>;
      symbols: Array<{ name: string; outer: number; nested: number; ticks: number }>;
    };
    const by = Object.fromEntries(prof.symbols.map((s) => [s.name, s]));
    expect(by.g).toMatchObject({ outer: 3, nested: 0 });
    expect(by.h).toMatchObject({ outer: 2, nested: 6 }); // 2 direct calls; 6 from inside g, counted as nested
    expect(by.st).toMatchObject({ outer: 1, nested: 0 });
    expect(by.rnd).toMatchObject({ outer: 1, nested: 0 });
    const hash = prof.groups.find((g) => g.name === "hash");
    expect(hash?.outer).toBe(6);
    // nested calls are not timed again: the group's time is the sum over its outermost calls only
    expect(hash?.ticks).toBe((by.g?.ticks ?? 0) + (by.h?.ticks ?? 0) + (by.st?.ticks ?? 0));
    expect(hash?.ticks ?? 0).toBeLessThanOrEqual(prof.totalTicks);
  }, 60_000);
});
