// The variable-latency memcheck (native/valgrind-varlat: Debian's valgrind 3.19 with ngcc-varlat.patch, built by
// native/valgrind-varlat/build.sh under /opt/ngcc-valgrind or NGCC_VARLAT_PREFIX): the constant-time step runs it
// with --variable-latency-errors=yes, so an integer division with a secret-derived operand is reported as its own
// error kind (UninitVarLat), beside stock memcheck's branch and address findings. Found here, with its version and
// the stamp build.sh wrote (the source version and the patch's SHA-256): a build of another patch than the one
// beside this code is not used.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { nativeDir } from "./native.ts";
import { runProcess } from "./proc.ts";
import { HOST_CONTEXT } from "./run-context.ts";
import { sha256 } from "./store.ts";

/** The option the patch adds. */
export const VARLAT_OPTION = "--variable-latency-errors=yes";
/**
 * What a variable-latency run adds to memcheck's options: the patch's option, and every guest register written
 * back at each instruction. By default VEX keeps the instruction pointer current only where memory is accessed, so
 * a division in a small leaf function was reported at its caller's call line (the stale instruction pointer of the
 * last memory access); with this the report names the division's own line.
 */
export const VARLAT_OPTIONS = [VARLAT_OPTION, "--vex-iropt-register-updates=allregs-at-each-insn"] as const;
/** memcheck's XML kind for a variable-latency instruction with an undefined operand (the patch's). */
export const VARLAT_KIND = "UninitVarLat";

/** The variable-latency memcheck, found and checked. */
export interface VarlatTool {
  /** The launcher (…/bin/valgrind). */
  valgrind: string;
  /** First line of its --version. */
  version: string;
  /** SHA-256 of the patch it was built with (from build.sh's stamp, equal to native/valgrind-varlat's). */
  patchSha256: string;
}

export const varlatPrefix = (): string => process.env.NGCC_VARLAT_PREFIX || "/opt/ngcc-valgrind";

/** The command that builds it (named in every "not run" reason; the runner package ships native/ too). */
export const VARLAT_BUILD = "native/valgrind-varlat/build.sh";

/** The SHA-256 of the patch beside this code. */
export function varlatPatchSha256(): string {
  return sha256(readFileSync(join(nativeDir(), "valgrind-varlat", "ngcc-varlat.patch")));
}

/** The variable-latency memcheck under the prefix, or why it cannot be used (then the check is not run). */
export async function findVarlat(): Promise<{ tool: VarlatTool } | { reason: string }> {
  const prefix = varlatPrefix();
  const valgrind = join(prefix, "bin", "valgrind");
  const build = `build it with ${VARLAT_BUILD} (as root)`;
  if (!existsSync(valgrind)) return { reason: `the variable-latency memcheck is not built (no ${valgrind}): ${build}` };
  const stampFile = join(prefix, "ngcc-varlat.stamp");
  const stamp = existsSync(stampFile) ? readFileSync(stampFile, "utf8").trim() : "";
  const patchSha256 = varlatPatchSha256();
  if (!stamp.endsWith(`ngcc-varlat.patch ${patchSha256}`)) {
    return {
      reason: `${prefix} was not built from this version's ngcc-varlat.patch (its stamp: "${stamp}"): ${build}`,
    };
  }
  const opts = { timeoutMs: 60_000, sandbox: false, context: HOST_CONTEXT } as const;
  const v = await runProcess([valgrind, "--version"], opts);
  const t = await runProcess([valgrind, "--tool=memcheck", VARLAT_OPTION, "-q", "/bin/true"], opts);
  if (v.spawnError || v.exitCode !== 0 || t.spawnError || t.exitCode !== 0) {
    return { reason: `${valgrind} does not run memcheck with ${VARLAT_OPTION}: ${build}` };
  }
  return { tool: { valgrind, version: v.stdout.trim().split("\n")[0] ?? "", patchSha256 } };
}
