// init on packages without a build system (the folder fallback) and the API header by compilation: each case is
// one of issue 24's classes, and each failed with the text-reading init (init.ts before the modules).
import { describe, expect, it } from "vitest";
import { draftMeta, katSwitchOf } from "./draft.ts";
import { KEM_C, KEM_DECLS, kemRsp, RB_H, tempTrees } from "./testkit.ts";

const tree = tempTrees();
interface Inst {
  name: string;
  sources: string[];
  includeDirs: string[];
  apiHeader?: string;
  libraries?: string[];
  api?: Record<string, string>;
  randombytesSource?: string;
  kat: { file?: string; defines: string[] };
}
const inst = (meta: Record<string, unknown>) => (meta.instances as Inst[])[0] as Inst;

const SIZES = `#define CRYPTO_SECRETKEYBYTES 64
#define CRYPTO_PUBLICKEYBYTES 32
#define CRYPTO_CIPHERTEXTBYTES 48
#define CRYPTO_BYTES 32
`;

describe("the API header and its sizes by compilation (classes 1, 5)", () => {
  it("api.h with sizeof and another header's macros: sizes read, KAT matched (the old init read no sizes)", async () => {
    const dir = tree({
      "Reference_Implementation/Toy-1/params.h":
        "#define TOY_N 16\ntypedef struct { unsigned char a[TOY_N]; unsigned long b[2]; } toy_pk_t;\n",
      "Reference_Implementation/Toy-1/api.h": `#include "params.h"
#define CRYPTO_SECRETKEYBYTES (2 * sizeof(toy_pk_t))
#define CRYPTO_PUBLICKEYBYTES sizeof(toy_pk_t)
#define CRYPTO_CIPHERTEXTBYTES (TOY_N * 3)
#define CRYPTO_BYTES 32
${KEM_DECLS}`,
      "Reference_Implementation/Toy-1/kem.c": KEM_C.replace('#include "randombytes.h"\n', RB_H),
      "KAT/Toy-1/PQCkemKAT_64.rsp": kemRsp(32, 64, 48),
    });
    const r = await draftMeta(dir, { id: "kem-5" });
    expect(inst(r.meta).kat.file).toBe("KAT/Toy-1/PQCkemKAT_64.rsp");
    expect(r.catalogRows[1]).toMatch(/^kem-5,Toy-1,kem,32,48,/);
    expect(r.decided.join("\n")).toContain("Toy-1: sizes by compiling Reference_Implementation/Toy-1/api.h");
  }, 60_000);

  it("api.h with namespaced names only: the header that compiles to the full API is taken (kem.h)", async () => {
    const dir = tree({
      "ref/api.h":
        "#define toy512_SECRETKEYBYTES 64\n#define toy512_PUBLICKEYBYTES 32\nint toy512_keypair(unsigned char *pk, unsigned char *sk);\n",
      "ref/kem.h": `#include "api.h"\n#define CRYPTO_SECRETKEYBYTES toy512_SECRETKEYBYTES\n#define CRYPTO_PUBLICKEYBYTES 32\n#define CRYPTO_CIPHERTEXTBYTES 48\n#define CRYPTO_BYTES 32\n#define crypto_kem_keypair toy512_keypair\n${KEM_DECLS}`,
      "ref/kem.c": KEM_C.replace('#include "api.h"', '#include "kem.h"').replace('#include "randombytes.h"\n', RB_H),
    });
    const r = await draftMeta(dir, { id: "kem-6" });
    expect(inst(r.meta).apiHeader).toBe("ref/kem.h");
    expect(r.decided.join("\n")).toContain("passed over ref/api.h lacks CRYPTO_SECRETKEYBYTES");
  }, 60_000);

  it("a header that does not compile is reported by the compiler's first error line", async () => {
    const dir = tree({
      "Reference_Implementation/Toy-2/api.h": `#include "params.h"\n#define CRYPTO_SECRETKEYBYTES (TOY_N + 1)\n#define CRYPTO_PUBLICKEYBYTES 32\n#define CRYPTO_CIPHERTEXTBYTES 32\n#define CRYPTO_BYTES 32\n${KEM_DECLS}`,
      "Reference_Implementation/Toy-2/kem.c": KEM_C.replace('#include "randombytes.h"\n', RB_H),
    });
    const r = await draftMeta(dir, { id: "kem-7", category: "kem" });
    const line = r.undecided.find((l) => l.startsWith("Toy-2: no header compiles to the NIST API"));
    expect(line).toMatch(/api\.h does not compile: .*params\.h: No such file or directory/);
    expect(r.undecided.join("\n")).not.toMatch(/integer constant/);
  }, 60_000);
});

describe("the signature API through renaming macros", () => {
  it("crypto_sign renamed by a chain of macros (Dilithium's sign.h): its prototype still read, fips204", async () => {
    const dir = tree({
      "ref/sign.h": `#include <stddef.h>
#define CRYPTO_SECRETKEYBYTES 64
#define CRYPTO_PUBLICKEYBYTES 32
#define CRYPTO_BYTES 48
#define TOY_NS(s) toy_##s
#define TOY_TOP toy_sign_top
#define crypto_sign_keypair TOY_NS(keypair)
int crypto_sign_keypair(unsigned char *pk, unsigned char *sk);
#define crypto_sign TOY_TOP
int crypto_sign(unsigned char *sm, size_t *smlen, const unsigned char *m, size_t mlen,
                const unsigned char *ctx, size_t ctxlen, const unsigned char *sk);
`,
      "ref/sign.c":
        '#include "sign.h"\nint crypto_sign_keypair(unsigned char *pk, unsigned char *sk) { (void)pk; (void)sk; return 0; }\n',
    });
    const r = await draftMeta(dir, { id: "sig-1" });
    expect(inst(r.meta).apiHeader).toBe("ref/sign.h");
    expect(inst(r.meta).api).toEqual({ style: "fips204" });
    expect(r.decided.join("\n")).toMatch(/: signature API fips204 \(crypto_sign has 7 parameters with a context\)/);
  }, 60_000);
});

describe("sources (classes 3, 4, 7, 8)", () => {
  it("<scheme.h> resolving inside the package counts: common/scheme.c and common/ are taken", async () => {
    const dir = tree({
      "Reference_Implementation/Toy-3/api.h": SIZES + KEM_DECLS,
      "Reference_Implementation/Toy-3/kem.c": `#include <scheme.h>\nint toy_use(unsigned char *x) { return toy_mix(x); }\n${KEM_C.replace('#include "randombytes.h"\n', RB_H)}`,
      "Reference_Implementation/common/scheme.h": "int toy_mix(unsigned char *x);\n",
      "Reference_Implementation/common/scheme.c":
        "#include <scheme.h>\nint toy_mix(unsigned char *x) { return x[0]; }\n",
    });
    const r = await draftMeta(dir, { id: "kem-8" });
    expect(inst(r.meta).sources).toEqual([
      "Reference_Implementation/Toy-3/kem.c",
      "Reference_Implementation/common/scheme.c",
    ]);
    expect(inst(r.meta).includeDirs).toEqual(["Reference_Implementation/Toy-3", "Reference_Implementation/common"]);
  }, 60_000);

  it("a unit that does not compile makes no other unit 'called by nothing'", async () => {
    const dir = tree({
      "Reference_Implementation/Toy-4/api.h": SIZES + KEM_DECLS,
      "Reference_Implementation/Toy-4/kem.c": `#include "sha3.h"\n#include "broken.h"\n${KEM_C.replace('#include "randombytes.h"\n', RB_H)}`,
      "Reference_Implementation/common/broken.h": "void toy_broken(void);\n",
      "Reference_Implementation/common/broken.c":
        '#include "broken.h"\n#include "missing.h"\nvoid toy_broken(void) { toy_sha3(); }\n',
      "Reference_Implementation/common/sha3.h": "void toy_sha3(void);\n",
      "Reference_Implementation/common/sha3.c": '#include "sha3.h"\nvoid toy_sha3(void) {}\n',
    });
    const r = await draftMeta(dir, { id: "kem-9" });
    // The old init dropped sha3.c: only broken.c (which did not compile) calls it.
    expect(inst(r.meta).sources).toEqual([
      "Reference_Implementation/Toy-4/kem.c",
      "Reference_Implementation/common/broken.c",
      "Reference_Implementation/common/sha3.c",
    ]);
    expect(r.undecided.join("\n")).toMatch(/Reference_Implementation\/common\/broken\.c did not compile/);
    expect(r.decided.join("\n")).toContain("Toy-4: kept every source found");
  }, 60_000);

  it("OpenSSL calls without a build system: libraries [crypto]", async () => {
    const dir = tree({
      "Reference_Implementation/Toy-5/api.h": SIZES + KEM_DECLS,
      "Reference_Implementation/Toy-5/kem.c": `#include <openssl/evp.h>\nvoid toy_h(void) { EVP_MD_CTX *c = EVP_MD_CTX_new(); EVP_MD_CTX_free(c); }\n${KEM_C.replace('#include "randombytes.h"\n', RB_H)}`,
    });
    const r = await draftMeta(dir, { id: "kem-10" });
    expect(inst(r.meta).libraries).toEqual(["crypto"]);
    expect(r.decided.join("\n")).toMatch(/Toy-5: libraries crypto \(OpenSSL's libcrypto: calls EVP_MD_CTX_/);
  }, 60_000);

  it("a randombytes renamed by a macro is the submitter's: left out, api.randombytes names the symbol", async () => {
    const dir = tree({
      "Reference_Implementation/Toy-6/api.h": SIZES + KEM_DECLS,
      "Reference_Implementation/Toy-6/randombytes.h":
        "#define randombytes XYZ_randombytes\nint randombytes(unsigned char *x, unsigned long long n);\n",
      "Reference_Implementation/Toy-6/kem.c": KEM_C,
      "Reference_Implementation/Toy-6/entropy.c":
        '#include "randombytes.h"\nint randombytes(unsigned char *x, unsigned long long n) { while (n--) *x++ = 1; return 0; }\n',
    });
    const r = await draftMeta(dir, { id: "kem-11" });
    const i = inst(r.meta);
    expect(i.sources).toEqual(["Reference_Implementation/Toy-6/kem.c"]);
    expect(i.randombytesSource).toBe("Reference_Implementation/Toy-6/entropy.c");
    expect(i.api).toEqual({ randombytes: "XYZ_randombytes" });
    const groups = (r.meta.profiler as { groups: Record<string, { symbols: string[] }> }).groups;
    expect(groups.drng?.symbols).toEqual(["XYZ_randombytes"]);
  }, 60_000);
});

describe("KAT switch and KAT files (classes 8, 11)", () => {
  it("the switch matches _NIST_KAT_, NIST_KAT, KAT_BUILD, GENKAT with underscores as word characters", () => {
    expect(katSwitchOf("#ifdef _NIST_KAT_\n")).toBe("_NIST_KAT_");
    expect(katSwitchOf("#if defined(NIST_KAT)\n")).toBe("NIST_KAT");
    expect(katSwitchOf("#ifndef KAT_BUILD\n")).toBe("KAT_BUILD");
    expect(katSwitchOf("#elif defined GENKAT\n")).toBe("GENKAT");
    expect(katSwitchOf("#ifdef NIST_KAT_MODE\n")).toBeUndefined();
    expect(katSwitchOf("#ifdef MY_KAT\n")).toBeUndefined();
  });

  it(".rsp files no instance uses are said", async () => {
    const dir = tree({
      "Reference_Implementation/Toy-7/api.h": SIZES + KEM_DECLS,
      "Reference_Implementation/Toy-7/kem.c": KEM_C.replace('#include "randombytes.h"\n', RB_H),
      "KAT/Toy-7/PQCkemKAT_64.rsp": kemRsp(32, 64, 48),
      "KAT/Other/PQCkemKAT_99.rsp": kemRsp(10, 99, 10),
    });
    const r = await draftMeta(dir, { id: "kem-12" });
    expect(r.undecided).toContain(
      "KAT files no instance uses: KAT/Other/PQCkemKAT_99.rsp (their sizes match no instance's API header)",
    );
  }, 60_000);
});
