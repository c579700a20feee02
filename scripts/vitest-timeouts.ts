// The per-test time limit of every project: tests here start compilers, sandboxes and the CLI on 2 shared cores, and
// a verdict must not follow the machine's load (vitest's default of 5 s failed CLI tests on a busy machine). A test
// that hangs still fails, after this long.
export const SLOW_MACHINE_TIMEOUT_MS = 120_000;
