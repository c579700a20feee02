// init reads what the package's Makefile compiles: make -n -B in the sandbox, once per value of the variables that
// choose a parameter set; per-target defines; function-like -D flags; libraries from the link line. Each of these
// drafts was one instance with every variant's files (or none) before init read the build system.
import { describe, expect, it } from "vitest";
import { makeVariables } from "./buildsystem/make.ts";
import { draftMeta } from "./draft.ts";
import { GENKAT_C, KEM_C, KEM_DECLS, kemRsp, RB_C, RB_H, tempTrees } from "./testkit.ts";

const tree = tempTrees();
interface Inst {
  name: string;
  sources: string[];
  defines: string[];
  includeDirs: string[];
  cflags?: string[];
  libraries?: string[];
  apiHeader: string;
  kat: { file?: string };
  randombytesSource?: string;
}
const instancesOf = (meta: Record<string, unknown>) => meta.instances as Inst[];

const PARAMS_API = `#include "params.h"
#define CRYPTO_ALGNAME "Toy-" TOY_NAME
#define CRYPTO_SECRETKEYBYTES (100 * TOY_K)
#define CRYPTO_PUBLICKEYBYTES (sizeof(struct toy_pk))
#define CRYPTO_CIPHERTEXTBYTES (20 * TOY_K)
#define CRYPTO_BYTES 32
struct toy_pk { unsigned char b[10 * TOY_K]; };
${KEM_DECLS}`;

describe("Makefile variables choose the parameter sets", () => {
  it("PARAMS=… from params/params-*.h, THASH=… from ifeq: one instance per distinct compile set", async () => {
    const dir = tree({
      "Reference_Implementation/ref/Makefile": `PARAMS = toy-1
THASH = simple
CFLAGS = -Wall -O3 -std=c99 -march=native -DPARAMS=$(PARAMS)
ifeq ($(THASH),robust)
CFLAGS += -DROBUST
endif
SOURCES = kem.c thash_$(THASH).c
PQCgenKAT_kem: $(SOURCES) PQCgenKAT_kem.c randombytes.c
\t$(CC) $(CFLAGS) -o $@ $(SOURCES) PQCgenKAT_kem.c randombytes.c
`,
      "Reference_Implementation/ref/params.h": `#define str(s) #s
#define xstr(s) str(s)
#include xstr(params/params-PARAMS.h)
`,
      "Reference_Implementation/ref/params/params-toy-1.h": '#define TOY_K 1\n#define TOY_NAME "1"\n',
      "Reference_Implementation/ref/params/params-toy-3.h": '#define TOY_K 3\n#define TOY_NAME "3"\n',
      "Reference_Implementation/ref/api.h": PARAMS_API,
      "Reference_Implementation/ref/kem.c": KEM_C,
      "Reference_Implementation/ref/thash_simple.c": "int thash(void) { return 1; }\n",
      "Reference_Implementation/ref/thash_robust.c": "int thash(void) { return 2; }\n",
      "Reference_Implementation/ref/randombytes.h": RB_H,
      "Reference_Implementation/ref/randombytes.c": RB_C,
      "Reference_Implementation/ref/PQCgenKAT_kem.c": GENKAT_C,
      "KAT/PQCkemKAT_100.rsp": kemRsp(10, 100, 20),
      "KAT/PQCkemKAT_300.rsp": kemRsp(30, 300, 60),
    });
    const r = await draftMeta(dir, { id: "kem-1" });
    const inst = instancesOf(r.meta);
    // params.h includes params/params-PARAMS.h: the variable's value names the file (the define is PARAMS=toy-1,
    // so the -D is function of the variable), four combinations of PARAMS and THASH.
    expect(inst.map((i) => [i.name, i.defines, i.sources])).toEqual([
      [
        "toy-1-simple",
        ["PARAMS=toy-1"],
        ["Reference_Implementation/ref/kem.c", "Reference_Implementation/ref/thash_simple.c"],
      ],
      [
        "toy-1-robust",
        ["PARAMS=toy-1", "ROBUST"],
        ["Reference_Implementation/ref/kem.c", "Reference_Implementation/ref/thash_robust.c"],
      ],
      [
        "toy-3-simple",
        ["PARAMS=toy-3"],
        ["Reference_Implementation/ref/kem.c", "Reference_Implementation/ref/thash_simple.c"],
      ],
      [
        "toy-3-robust",
        ["PARAMS=toy-3", "ROBUST"],
        ["Reference_Implementation/ref/kem.c", "Reference_Implementation/ref/thash_robust.c"],
      ],
    ]);
    for (const i of inst) {
      expect(i.cflags).toEqual(["-std=c99"]);
      expect(i.apiHeader).toBe("Reference_Implementation/ref/api.h");
      expect(i.randombytesSource).toBe("Reference_Implementation/ref/randombytes.c");
    }
    // Sizes by compiling api.h with -DPARAMS=… (sizeof, another header): each KAT file matched.
    expect(inst.map((i) => i.kat.file)).toEqual([
      "KAT/PQCkemKAT_100.rsp",
      "KAT/PQCkemKAT_100.rsp",
      "KAT/PQCkemKAT_300.rsp",
      "KAT/PQCkemKAT_300.rsp",
    ]);
    expect(r.catalogRows).toContain(
      "kem-1,toy-3-simple,kem,30,60,,,,API header (ngcc-perf init: replace with the submission document's figures),",
    );
    const said = r.decided.join("\n");
    expect(said).toContain("make variable PARAMS (default toy-1)");
    expect(said).toContain("listed by Reference_Implementation/ref/params/params-*.h (toy-3)");
    expect(said).toContain("make variable THASH (default simple)");
    expect(said).toContain("compared by ifeq/ifneq (robust)");
    expect(said).toContain("toy-3-robust: compile set from make -n -B PARAMS=toy-3 THASH=robust PQCgenKAT_kem");
    expect(said).toContain("sizes by compiling Reference_Implementation/ref/api.h with -DPARAMS=toy-3");
    expect(said).toContain("did not carry -O3: optimisation");
    expect(said).toContain("did not carry -march=native");
    expect(said).toContain("left out Reference_Implementation/ref/PQCgenKAT_kem.c: defines main");
    expect(r.meta.name).toBe("Toy");
    // Nothing init writes holds an absolute path.
    expect(JSON.stringify(r.meta) + r.decided.join("") + r.undecided.join("")).not.toContain(dir);
    expect(JSON.stringify(r.meta) + r.decided.join("") + r.undecided.join("")).not.toMatch(/ngcc-init-/);
  }, 120_000);

  it("per-target defines: the default goal's programs, grouped by compile set, named from CRYPTO_ALGNAME", async () => {
    const dir = tree({
      "ref/Makefile": `CFLAGS = -O2 '-DCRYPTO_NAMESPACE(s)=toy_\\#\\#s'
all: test_toy1 test_toy3 speed_toy1
test_toy%: kem.c test.c
\t$(CC) $(CFLAGS) -DTOY_K=$* kem.c test.c -lcrypto -lgf2x -lm -o $@
speed_toy1: kem.c speed.c
\t$(CC) $(CFLAGS) -DTOY_K=1 kem.c speed.c -lcrypto -o $@
`,
      "ref/api.h": `#define TOY_NAME2(k) "Toy" #k
#define TOY_NAME(k) TOY_NAME2(k)
#define CRYPTO_ALGNAME TOY_NAME(TOY_K)
#define CRYPTO_SECRETKEYBYTES (100 * TOY_K)
#define CRYPTO_PUBLICKEYBYTES (10 * TOY_K)
#define CRYPTO_CIPHERTEXTBYTES (20 * TOY_K)
#define CRYPTO_BYTES 32
#define crypto_kem_keypair CRYPTO_NAMESPACE(keypair)
${KEM_DECLS}`,
      "ref/kem.c": KEM_C.replace(
        '#include "randombytes.h"\n',
        "int randombytes(unsigned char *x, unsigned long long n);\n",
      ),
      "ref/test.c": '#include "api.h"\nint main(void) { return 0; }\n',
      "ref/speed.c": '#include "api.h"\nint main(void) { return 1; }\n',
    });
    const r = await draftMeta(dir, { id: "kem-2" });
    const inst = instancesOf(r.meta);
    expect(inst.map((i) => [i.name, i.defines, i.sources, i.libraries])).toEqual([
      ["Toy1", ["CRYPTO_NAMESPACE(s)=toy_##s", "TOY_K=1"], ["ref/kem.c"], ["gf2x"]],
      ["Toy3", ["CRYPTO_NAMESPACE(s)=toy_##s", "TOY_K=3"], ["ref/kem.c"], ["gf2x"]],
    ]);
    expect(r.meta.name).toBe("Toy");
    // -lm is always linked; -lcrypto only when a kept source calls OpenSSL (here only the KAT program would).
    expect(r.decided).toContain("every instance: libraries gf2x (-l on its link line)");
    expect(r.decided.join("\n")).toContain(
      "every instance: did not carry -lcrypto (on its link line, but no kept source calls OpenSSL",
    );
  }, 120_000);

  it("a bare number from a variable is named with the variable (LEVEL3), never as a bare number", async () => {
    const dir = tree({
      "ref/Makefile": `# LEVEL is 1 or 3
LEVEL ?= 1
PQCgenKAT_kem: kem.c PQCgenKAT_kem.c
\t$(CC) -DTOY_K=$(LEVEL) kem.c PQCgenKAT_kem.c -o $@
`,
      "ref/api.h": `#define CRYPTO_SECRETKEYBYTES (100 * TOY_K)\n#define CRYPTO_PUBLICKEYBYTES (10 * TOY_K)\n#define CRYPTO_CIPHERTEXTBYTES (20 * TOY_K)\n#define CRYPTO_BYTES 32\n${KEM_DECLS}`,
      "ref/kem.c": KEM_C.replace('#include "randombytes.h"\n', RB_H),
      "ref/PQCgenKAT_kem.c": GENKAT_C,
      "KAT/Toy_L1/PQCkemKAT_100.rsp": kemRsp(10, 100, 20),
      "KAT/Toy_L3/PQCkemKAT_300.rsp": kemRsp(30, 300, 60),
    });
    const r = await draftMeta(dir, { id: "kem-3" });
    expect(instancesOf(r.meta).map((i) => [i.name, i.defines, i.kat.file])).toEqual([
      ["LEVEL1", ["TOY_K=1"], "KAT/Toy_L1/PQCkemKAT_100.rsp"],
      ["LEVEL3", ["TOY_K=3"], "KAT/Toy_L3/PQCkemKAT_300.rsp"],
    ]);
    expect(r.decided.join("\n")).toContain(
      "make variable LEVEL (default 1) chooses what is compiled; values: named in the Makefile's comments (3)",
    );
  }, 120_000);

  it("-march=native is not carried; an intrinsic it enabled gives its own flag (-maes), said", async () => {
    const dir = tree({
      "ref/Makefile": `CFLAGS = -O3 -march=native
PQCgenKAT_kem: kem.c aes.c PQCgenKAT_kem.c
\t$(CC) $(CFLAGS) kem.c aes.c PQCgenKAT_kem.c -o $@
`,
      "ref/api.h": `#define CRYPTO_SECRETKEYBYTES 64\n#define CRYPTO_PUBLICKEYBYTES 32\n#define CRYPTO_CIPHERTEXTBYTES 32\n#define CRYPTO_BYTES 32\n${KEM_DECLS}`,
      "ref/kem.c": KEM_C.replace('#include "randombytes.h"\n', RB_H),
      "ref/aes.c": "#include <wmmintrin.h>\n__m128i toy_aes(__m128i a, __m128i k) { return _mm_aesenc_si128(a, k); }\n",
      "ref/PQCgenKAT_kem.c": GENKAT_C,
    });
    const r = await draftMeta(dir, { id: "kem-4" });
    expect(instancesOf(r.meta)[0]?.cflags).toEqual(["-maes"]);
    expect(r.decided.join("\n")).toMatch(/cflags -maes added: ref\/aes\.c uses _mm_aesenc_si128, which needs it/);
    expect(r.undecided.join("\n")).not.toMatch(/did not compile/);
  }, 120_000);

  it("a Makefile that only makes a library: the sources its objects call are found in its include folders", async () => {
    const dir = tree({
      "scheme/clean/Makefile": `CFLAGS = -O3 -std=c99 -I../../common
libtoy.a: kem.o
\t$(AR) -r $@ kem.o
%.o: %.c
\t$(CC) $(CFLAGS) -c -o $@ $<
`,
      "scheme/clean/api.h": `#define CRYPTO_SECRETKEYBYTES 64\n#define CRYPTO_PUBLICKEYBYTES 32\n#define CRYPTO_CIPHERTEXTBYTES 32\n#define CRYPTO_BYTES 32\n${KEM_DECLS}`,
      "scheme/clean/kem.c": `#include "sha.h"\nvoid toy_use(unsigned char *x) { toy_sha(x); }\n${KEM_C.replace('#include "randombytes.h"\n', RB_H)}`,
      "common/sha.h": "void toy_sha(unsigned char *x);\n",
      "common/sha.c": '#include "sha.h"\nvoid toy_sha(unsigned char *x) { x[0] ^= 1; }\n',
      "common/other.c": "int toy_unused(void) { return 0; }\n",
      "common/randombytes.c": RB_C,
    });
    const r = await draftMeta(dir, { id: "kem-5" });
    const i = instancesOf(r.meta)[0] as Inst;
    expect(i.sources).toEqual(["common/sha.c", "scheme/clean/kem.c"]);
    expect(i.includeDirs).toEqual(["common", "scheme/clean"]);
    expect(r.decided.join("\n")).toMatch(/added common\/sha\.c: it defines toy_sha, which the library's objects call/);
  }, 120_000);

  it("finds the variables and their documented values", () => {
    const vars = makeVariables(
      "# PARAM can be 2, 3 or 5\nPARAM ?= 2\nCFLAGS += -DMODE=$(PARAM)\nifeq ($(OPT),1)\nX=1\nendif\n",
      "/nonexistent",
    );
    expect(vars.map((v) => [v.name, v.values])).toEqual([["PARAM", ["2", "3", "5"]]]);
  });
});

describe("an implementation folder another folder's build system compiles (CROSS's layout)", () => {
  it("gives no instance of its own: the build's compile sets, with their -D flags, are its reading", async () => {
    const api = `#ifndef TOY_K
#error define TOY_K
#endif
#define CRYPTO_ALGNAME "Toy"
#define CRYPTO_SECRETKEYBYTES (100 * TOY_K)
#define CRYPTO_PUBLICKEYBYTES (10 * TOY_K)
#define CRYPTO_CIPHERTEXTBYTES (20 * TOY_K)
#define CRYPTO_BYTES 32
${KEM_DECLS}`;
    const dir = tree({
      "Reference_Implementation/include/api.h": api,
      "Reference_Implementation/include/randombytes.h": RB_H,
      "Reference_Implementation/lib/kem.c": KEM_C,
      "Additional_Implementations/KAT_Generation/Makefile": `REF = ../../Reference_Implementation
SRC = $(REF)/lib/kem.c
all: PQCgenKAT_toy1 PQCgenKAT_toy3
PQCgenKAT_toy1: $(SRC) PQCgenKAT_kem.c rng.c
\t$(CC) -O2 -DTOY_K=1 -I $(REF)/include -o $@ $(SRC) PQCgenKAT_kem.c rng.c
PQCgenKAT_toy3: $(SRC) PQCgenKAT_kem.c rng.c
\t$(CC) -O2 -DTOY_K=3 -I $(REF)/include -o $@ $(SRC) PQCgenKAT_kem.c rng.c
`,
      "Additional_Implementations/KAT_Generation/PQCgenKAT_kem.c": GENKAT_C,
      "Additional_Implementations/KAT_Generation/rng.c": `#include "randombytes.h"\n${RB_C.split("\n").slice(1).join("\n")}`,
      "KAT/toy1/PQCkemKAT_100.rsp": kemRsp(10, 100, 20),
      "KAT/toy3/PQCkemKAT_300.rsp": kemRsp(30, 300, 60),
    });
    const r = await draftMeta(dir, { id: "kem-1" });
    const inst = instancesOf(r.meta);
    expect(inst.map((i) => i.defines)).toEqual([["TOY_K=1"], ["TOY_K=3"]]);
    expect(inst.every((i) => i.sources.join() === "Reference_Implementation/lib/kem.c")).toBe(true);
    expect(r.decided.join("\n")).toMatch(/Reference_Implementation\/include: no instance of its own/);
  }, 120_000);
});
