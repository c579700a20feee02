// init reads a CMake project as CMake configures it (in the sandbox, a scratch build folder, the file API): the
// KAT program's target with the library targets it links, their defines, include folders and flags; a cache
// variable with a STRINGS property configured once per value. The text-reading init found no parameter set here
// (api.h in include/ without the sources beside it) or one instance with every file.
import { describe, expect, it } from "vitest";
import { cmakeOptions, katSwitchesOf, macroOptions } from "./buildsystem/cmake.ts";
import { draftMeta } from "./draft.ts";
import { GENKAT_C, KEM_C, KEM_DECLS, kemRsp, RB_C, RB_H, tempTrees } from "./testkit.ts";

const tree = tempTrees();

describe("CMake", () => {
  it("one instance per value of a STRINGS cache variable; target sources with its library's", async () => {
    const dir = tree({
      "CMakeLists.txt": `cmake_minimum_required(VERSION 3.10)
project(toy C)
set(LEVEL "1" CACHE STRING "security level")
set_property(CACHE LEVEL PROPERTY STRINGS 1 3)
add_library(toycore STATIC src/kem.c src/hash.c)
target_include_directories(toycore PUBLIC include)
target_compile_definitions(toycore PUBLIC TOY_K=\${LEVEL})
target_compile_options(toycore PUBLIC -O3 -std=c11)
add_executable(PQCgenKAT_kem kat/PQCgenKAT_kem.c kat/rng.c)
target_link_libraries(PQCgenKAT_kem toycore m)
`,
      "include/api.h": `#define TOY_STR2(k) "Toy" #k
#define TOY_STR(k) TOY_STR2(k)
#define CRYPTO_ALGNAME TOY_STR(TOY_K)
#define CRYPTO_SECRETKEYBYTES (100 * TOY_K)
#define CRYPTO_PUBLICKEYBYTES (10 * TOY_K)
#define CRYPTO_CIPHERTEXTBYTES (20 * TOY_K)
#define CRYPTO_BYTES 32
${KEM_DECLS}`,
      "include/randombytes.h": RB_H,
      "src/kem.c": `#include "hash.h"\n${KEM_C}`,
      "src/hash.h": "void toy_hash(void);\n",
      "src/hash.c": '#include "hash.h"\nvoid toy_hash(void) {}\n',
      "kat/PQCgenKAT_kem.c": GENKAT_C,
      "kat/rng.c": RB_C,
      "KAT/Toy3/PQCkemKAT_300.rsp": kemRsp(30, 300, 60),
    });
    const r = await draftMeta(dir, { id: "kem-20" });
    const inst = r.meta.instances as Array<Record<string, unknown>>;
    expect(inst.map((i) => [i.name, i.sources, i.defines, i.includeDirs, i.cflags, i.apiHeader])).toEqual([
      ["Toy1", ["src/hash.c", "src/kem.c"], ["TOY_K=1"], ["include"], ["-std=c11"], "include/api.h"],
      ["Toy3", ["src/hash.c", "src/kem.c"], ["TOY_K=3"], ["include"], ["-std=c11"], "include/api.h"],
    ]);
    expect((inst[1]?.kat as { file?: string } | undefined)?.file).toBe("KAT/Toy3/PQCkemKAT_300.rsp");
    expect(inst[0]?.randombytesSource).toBe("kat/rng.c");
    const said = r.decided.join("\n");
    expect(said).toContain("CMake option LEVEL (default 1) chooses a parameter set");
    expect(said).toContain("Toy3: compile set from cmake -S . -DLEVEL=3 (target PQCgenKAT_kem with toycore)");
    expect(said).toContain("did not carry -O3");
    expect(r.meta.name).toBe("Toy");
    expect(JSON.stringify([r.meta, r.decided, r.undecided])).not.toMatch(/ngcc-init-|\/tmp\//);
  }, 180_000);

  it("reads options, macro values compared by the sources and the switch that adds the KAT program", () => {
    expect(
      cmakeOptions('set(MODE "a" CACHE STRING "")\nif(MODE STREQUAL "b")\nendif()\n').map((o) => o.values),
    ).toEqual([["a", "b"]]);
    expect(
      macroOptions(
        [`set(CMAKE_C_FLAGS "\${CMAKE_C_FLAGS} -DLEVEL=\${LEVEL}")`],
        ["#if (LEVEL == 1)\n#elif (LEVEL == 3)\n"],
      ).map((o) => [o.name, o.values]),
    ).toEqual([["LEVEL", ["1", "3"]]]);
    expect(
      katSwitchesOf(["if(USE_NIST_RAND)\n target_sources(t PRIVATE FromNIST/PQCgenKAT_kem.c)\nelse()\nendif()"]),
    ).toEqual(["USE_NIST_RAND"]);
  });
});
