// The campaign's toolchain (`compiler:` in the campaign): the compiler with its own flags and sysroot, and an
// emulator prefix through which everything it builds is run (a cross toolchain: aarch64-linux-gnu-gcc with
// `qemu-aarch64 -L /usr/aarch64-linux-gnu`). It travels in the run's context (run-context.ts) to every process
// started. With none, the host's compiler and no prefix, as before.
import { basename } from "node:path";

export interface TargetToolchain {
  /** The compiler command (argv[0] of every compile and link). */
  cc: string;
  /** Added right after the compiler to every compile and link: the toolchain's own flags, before the profile's. */
  cflags: string[];
  /** Added to every link, after cflags. */
  ldflags: string[];
  /**
   * The target's system root (its libc and loader, which the emulator loads): readable in the sandbox. Not given
   * to the compiler (Debian's cross gcc finds it itself and refuses --sysroot there); a compiler that needs it
   * gets --sysroot=<dir> in cflags.
   */
  sysroot: string | null;
  /** The argv prefix every program the toolchain built is run through (empty: run directly). */
  emulator: string[];
  /** The target architecture as uname -m prints it there (aarch64); null: the host's. */
  arch: string | null;
  /** The binary tools of the target (objcopy, nm, objdump): <triplet>-objcopy for <triplet>-gcc, else objcopy. */
  binutilsPrefix: string;
}

export const HOST_TOOLCHAIN: TargetToolchain = {
  cc: process.env.CC ?? "gcc",
  cflags: [],
  ldflags: [],
  sysroot: null,
  emulator: [],
  arch: null,
  binutilsPrefix: "",
};

/** True when the campaign's programs run through an emulator: nothing they do is a timing. */
export function emulated(t: TargetToolchain): boolean {
  return t.emulator.length > 0;
}

/** `<triplet>-` of a cross compiler named `<triplet>-gcc` (or -cc, -clang, -gcc-12), else "". */
export function binutilsPrefixOf(cc: string): string {
  const m = /^(.+-)(?:gcc|cc|clang)(?:-[0-9.]+)?$/.exec(basename(cc));
  return m?.[1] ?? "";
}

/** A binary tool of the target: aarch64-linux-gnu-objcopy for aarch64-linux-gnu-gcc, $OBJCOPY (…) when set. */
export function targetTool(name: "objcopy" | "nm" | "objdump", t: TargetToolchain): string {
  return process.env[name.toUpperCase()] ?? `${t.binutilsPrefix}${name}`;
}

/** Whether a compiler command line links (no -c, -E, -S, --version). */
function links(args: readonly string[]): boolean {
  return !args.some((a) => a === "-c" || a === "-E" || a === "-S" || a === "--version" || a === "-dumpmachine");
}

/**
 * A command line as it is run: the toolchain's flags after the compiler (cflags, and ldflags when it links);
 * anything else unchanged.
 */
export function withToolchainFlags(argv: readonly string[], t: TargetToolchain): string[] {
  const [file, ...rest] = argv;
  if (file === undefined || file !== t.cc) return [...argv];
  if (rest.includes("--version")) return [...argv];
  const extra = [...t.cflags, ...(links(rest) ? t.ldflags : [])];
  return [file, ...extra, ...rest];
}

/** A program the toolchain built, as it is run: behind the emulator prefix when there is one. */
export function targetArgv(argv: readonly string[], t: TargetToolchain): string[] {
  return [...t.emulator, ...argv];
}

/** What the toolchain's flags add to the compiler's identity (cache keys): "" for the host's. */
export function toolchainIdentity(t: TargetToolchain): string {
  if (t.cflags.length === 0 && t.ldflags.length === 0) return "";
  return JSON.stringify({ cflags: t.cflags, ldflags: t.ldflags });
}
