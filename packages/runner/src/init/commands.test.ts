// Reading a build's compile and link lines without a shell, and sorting their flags into meta.json's fields.
import { describe, expect, it } from "vitest";
import { commandsOfMakeOutput, programsOf, splitCommands } from "./buildsystem/commands.ts";
import { carriedLibraries, sortFlags } from "./buildsystem/flags.ts";
import { algorithmName, instanceNames } from "./names.ts";

describe("command lines", () => {
  it("splits at && ; || outside quotes, keeps quoted words whole", () => {
    expect(splitCommands(`mkdir -p build && gcc '-DNS(s)=x_##s' -DA="b c" -c a.c; echo "x;y"`)).toEqual([
      ["mkdir", "-p", "build"],
      ["gcc", "-DNS(s)=x_##s", "-DA=b c", "-c", "a.c"],
      ["echo", "x;y"],
    ]);
    expect(splitCommands(`cc -DX=\\"v\\" a.c || true`)).toEqual([["cc", '-DX="v"', "a.c"], ["true"]]);
  });

  it("follows -c x.c -o x.o to the link line, one-command builds and archives", () => {
    const text = [
      "make[1]: Entering directory '/p/ref'",
      "gcc -O3 -DK=2 -Iinc -c poly.c -o build/poly.o",
      "gcc -O3 -DK=2 -c kem.c",
      "ar rcs libk.a build/poly.o",
      "gcc -o PQCgenKAT_kem kem.o libk.a PQCgenKAT_kem.c rng.c -lcrypto -lm",
      "cd sub && cc -std=c11 one.c two.c -o ../one",
      "make[1]: Leaving directory '/p/ref'",
    ].join("\n");
    const progs = programsOf(commandsOfMakeOutput(text, "/p"));
    expect(progs.map((p) => [p.path, p.sources.map((s) => s.source), p.libraries])).toEqual([
      [
        "/p/ref/PQCgenKAT_kem",
        ["/p/ref/PQCgenKAT_kem.c", "/p/ref/rng.c", "/p/ref/kem.c", "/p/ref/poly.c"],
        ["crypto", "m"],
      ],
      ["/p/ref/one", ["/p/ref/sub/one.c", "/p/ref/sub/two.c"], []],
    ]);
    expect(progs[0]?.sources.find((s) => s.source.endsWith("poly.c"))?.flags).toEqual(["-O3", "-DK=2", "-Iinc"]);
  });
});

describe("flags", () => {
  it("carries -D (function-like too), -I made absolute, -std/-m/-f; says why others are not carried", () => {
    const f = sortFlags(
      [
        "-O3",
        "-g",
        "-Wall",
        "-march=native",
        "-mavx2",
        "-std=c11",
        "-fno-strict-aliasing",
        "-fPIC",
        "-DCRYPTO_NAMESPACE(s)=x_##s",
        "-DN=2",
        "-I",
        "inc",
        "-I../common",
      ],
      "/p/ref",
    );
    expect(f.defines).toEqual(["CRYPTO_NAMESPACE(s)=x_##s", "N=2"]);
    expect(f.includeDirs).toEqual(["/p/ref/inc", "/p/common"]);
    expect(f.cflags).toEqual(["-mavx2", "-std=c11", "-fno-strict-aliasing"]);
    expect(f.dropped.map((d) => d.split(":")[0])).toEqual(["-O3", "-g", "-Wall", "-march=native", "-fPIC"]);
    expect(carriedLibraries(["crypto", "m", "ssl", "crypto"])).toEqual(["crypto", "ssl"]);
  });
});

describe("names", () => {
  it("the algorithm's name ends at a word boundary, never inside a word", () => {
    expect(algorithmName(["Kyber512", "Kyber768", "Kyber1024"])).toBe("Kyber");
    expect(algorithmName(["Puffin-128", "Puffin-192"])).toBe("Puffin");
    expect(algorithmName(["MAYO_1", "MAYO_2"])).toBe("MAYO");
    expect(algorithmName(["Falcon-512", "Falcon-1024"])).toBe("Falcon");
    // The old rule took the common prefix "Sna", a truncated word.
    expect(algorithmName(["Snail", "Snake"])).toBeNull();
    expect(algorithmName(["SPHINCS+"])).toBe("SPHINCS+");
  });

  it("instances are never named after layout folders", () => {
    expect(
      instanceNames([
        { label: "include", fallback: "pkg" },
        { label: "src", fallback: "pkg" },
      ]),
    ).toEqual(["pkg", "pkg-2"]);
    expect(
      instanceNames([
        { algname: "Kyber512", label: "ref", fallback: "pkg" },
        { algname: "Kyber768", label: "ref", fallback: "pkg" },
      ]),
    ).toEqual(["Kyber512", "Kyber768"]);
    expect(
      instanceNames([
        { algname: "SPHINCS+", label: "haraka-128f-simple", fallback: "x" },
        { algname: "SPHINCS+", label: "haraka-128f-robust", fallback: "x" },
      ]),
    ).toEqual(["haraka-128f-simple", "haraka-128f-robust"]);
  });
});
