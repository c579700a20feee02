import { describe, expect, it } from "vitest";
import {
  binutilsPrefixOf,
  emulated,
  HOST_TOOLCHAIN,
  type TargetToolchain,
  targetArgv,
  targetTool,
  toolchainIdentity,
  withToolchainFlags,
} from "./target.ts";

const cross: TargetToolchain = {
  cc: "aarch64-linux-gnu-gcc",
  cflags: ["-mcpu=neoverse-n1"],
  ldflags: ["-static"],
  sysroot: "/usr/aarch64-linux-gnu",
  emulator: ["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"],
  arch: "aarch64",
  binutilsPrefix: "aarch64-linux-gnu-",
};

describe("the campaign's toolchain", () => {
  it("adds its cflags to every compile and its ldflags to links only, right after the compiler", () => {
    expect(withToolchainFlags(["aarch64-linux-gnu-gcc", "-O3", "-c", "a.c", "-o", "a.o"], cross)).toEqual([
      "aarch64-linux-gnu-gcc",
      "-mcpu=neoverse-n1",
      "-O3",
      "-c",
      "a.c",
      "-o",
      "a.o",
    ]);
    expect(withToolchainFlags(["aarch64-linux-gnu-gcc", "-O3", "-o", "x", "a.o", "-lm"], cross)).toEqual([
      "aarch64-linux-gnu-gcc",
      "-mcpu=neoverse-n1",
      "-static",
      "-O3",
      "-o",
      "x",
      "a.o",
      "-lm",
    ]);
    expect(withToolchainFlags(["aarch64-linux-gnu-gcc", "-E", "-P", "-"], cross)).toEqual([
      "aarch64-linux-gnu-gcc",
      "-mcpu=neoverse-n1",
      "-E",
      "-P",
      "-",
    ]);
    // The compiler's identity and other programs are left alone; the sysroot is never passed.
    expect(withToolchainFlags(["aarch64-linux-gnu-gcc", "--version"], cross)).toEqual([
      "aarch64-linux-gnu-gcc",
      "--version",
    ]);
    expect(withToolchainFlags(["objcopy", "a.o", "b.o"], cross)).toEqual(["objcopy", "a.o", "b.o"]);
    expect(withToolchainFlags(["gcc", "-c", "a.c"], HOST_TOOLCHAIN)).toEqual(["gcc", "-c", "a.c"]);
  });

  it("runs what it built behind the emulator prefix, and only then is emulated", () => {
    expect(targetArgv(["/b/ngcc-driver", "info"], cross)).toEqual([
      "qemu-aarch64",
      "-L",
      "/usr/aarch64-linux-gnu",
      "/b/ngcc-driver",
      "info",
    ]);
    expect(targetArgv(["/b/ngcc-driver", "info"], HOST_TOOLCHAIN)).toEqual(["/b/ngcc-driver", "info"]);
    expect(emulated(cross)).toBe(true);
    expect(emulated(HOST_TOOLCHAIN)).toBe(false);
  });

  it("names the target's binutils after a cross compiler's triplet", () => {
    expect(binutilsPrefixOf("aarch64-linux-gnu-gcc")).toBe("aarch64-linux-gnu-");
    expect(binutilsPrefixOf("/opt/x/bin/riscv64-linux-gnu-gcc-12")).toBe("riscv64-linux-gnu-");
    expect(binutilsPrefixOf("aarch64-linux-gnu-clang")).toBe("aarch64-linux-gnu-");
    expect(binutilsPrefixOf("gcc")).toBe("");
    expect(binutilsPrefixOf("gcc-12")).toBe("");
    expect(binutilsPrefixOf("clang-17")).toBe("");
    const env = process.env.OBJCOPY;
    delete process.env.OBJCOPY;
    try {
      expect(targetTool("objcopy", cross)).toBe("aarch64-linux-gnu-objcopy");
      expect(targetTool("nm", HOST_TOOLCHAIN)).toBe("nm");
    } finally {
      if (env !== undefined) process.env.OBJCOPY = env;
    }
  });

  it("makes its flags part of the compiler's identity (cache keys), and nothing for the host's", () => {
    expect(toolchainIdentity(HOST_TOOLCHAIN)).toBe("");
    expect(toolchainIdentity(cross)).toContain("-mcpu=neoverse-n1");
    expect(toolchainIdentity({ ...cross, cflags: [], ldflags: [] })).toBe("");
  });
});
