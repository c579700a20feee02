// Forged timings (issue 25, item 4) through the real pipeline (`ngcc-perf run … --steps build,time,report`): copies
// of kem-90 (Puffin-128) whose hostile.c tries to put itself between the timing driver and its JSON and divide the
// samples by 20 — at load time (a constructor; one of priority 101 with a .preinit_array entry as well), at call time
// (the first crypto_kem_enc takes over every pipe descriptor and stdout), at exit (a destructor that appends a forged
// document), and by interposing write() (the driver's own library call). Each is held: the driver's claim of its
// channel defeats it (true figures, nothing rewritten), or the runner refuses the output (a failure record), or the
// cross-checks flag the record and the page marks the figure. The honest copy in the same campaign is unaffected.
// Whether the forger's code ran and whether it rewrote anything it says on stderr (the records' stderrTail), so no
// verdict here depends on a timing.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { iccsDir, makeHostileSubmission, runCliAsync } from "./fixture-tools.ts";

const tmp = mkdtempSync(join(tmpdir(), "ngcc-hostile-time-"));
afterAll(() => {
  if (!process.env.NGCC_KEEP_TMP) rmSync(tmp, { recursive: true, force: true });
});

const FAST = "{ workerMs: 2, minWorkers: 2, budgetMs: 20, keyPairs: 1, inputPool: 4 }";

/**
 * The forger's machinery, at file scope: a pipe put in place of a descriptor, and at exit what reached the pipe
 * sent on to the real channel with every number of the "samples" array divided by 20.
 */
const FORGE = [
  "#include <signal.h>",
  "#include <sys/stat.h>",
  "#include <sys/syscall.h>",
  "static int ngcc_forge_pipe[2] = { -1, -1 };",
  "static int ngcc_forge_real[64];",
  "static int ngcc_forge_reals;",
  "static int ngcc_forge_taken(int fd) {",
  "  for (int i = 0; i < ngcc_forge_reals; i++) if (ngcc_forge_real[i] == fd) return 1;",
  "  return fd == ngcc_forge_pipe[0] || fd == ngcc_forge_pipe[1];",
  "}",
  "/* A pipe or a socket (node's child processes get socket pairs): where the driver's output may go. */",
  "static int ngcc_forge_channel(int fd) {",
  "  struct stat st;",
  "  return fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));",
  "}",
  "static void ngcc_forge_say(const char *s) { (void)!syscall(SYS_write, 2, s, strlen(s)); }",
  "static size_t ngcc_forge(const char *in, size_t n, char *out, size_t cap) {",
  '  static const char key[] = "\\"samples\\":[";',
  "  size_t klen = sizeof key - 1, i = 0, o = 0;",
  "  int inside = 0;",
  "  while (i < n && o + 32 < cap) {",
  "    if (!inside && i + klen <= n && memcmp(in + i, key, klen) == 0) {",
  "      memcpy(out + o, key, klen); o += klen; i += klen; inside = 1; continue;",
  "    }",
  "    if (inside && in[i] >= '0' && in[i] <= '9') {",
  "      unsigned long long v = 0;",
  "      while (i < n && in[i] >= '0' && in[i] <= '9') v = v * 10 + (unsigned)(in[i++] - '0');",
  '      o += (size_t)snprintf(out + o, cap - o, "%llu", v / 20);',
  "      continue;",
  "    }",
  "    if (inside && in[i] == ']') inside = 0;",
  "    out[o++] = in[i++];",
  "  }",
  "  return o;",
  "}",
  "static void ngcc_forge_open(void) {",
  "  if (ngcc_forge_pipe[0] >= 0 || pipe(ngcc_forge_pipe) != 0) return;",
  "  fcntl(ngcc_forge_pipe[0], F_SETFL, O_NONBLOCK);",
  "}",
  "static void ngcc_forge_take(int fd) {",
  "  ngcc_forge_open();",
  "  if (ngcc_forge_reals < 64) ngcc_forge_real[ngcc_forge_reals++] = dup(fd);",
  "  dup2(ngcc_forge_pipe[1], fd);",
  "}",
  "static void ngcc_forge_flush(void) {",
  "  static char in[1 << 20], out[1 << 21];",
  "  size_t n = 0;",
  "  ssize_t r;",
  "  if (ngcc_forge_pipe[0] < 0) return;",
  "  while (n < sizeof in && (r = read(ngcc_forge_pipe[0], in + n, sizeof in - n)) > 0) n += (size_t)r;",
  "  if (n > 0 && memchr(in, '{', n) != NULL) {",
  "    size_t m = ngcc_forge(in, n, out, sizeof out);",
  "    signal(SIGPIPE, SIG_IGN);",
  "    for (int i = 0; i < ngcc_forge_reals; i++) (void)!syscall(SYS_write, ngcc_forge_real[i], out, m);",
  '    ngcc_forge_say("ngcc-hostile-forge: rewrote the driver\'s JSON\\n");',
  '  } else ngcc_forge_say("ngcc-hostile-forge: nothing to rewrite\\n");',
  "}",
];

interface Case {
  id: string;
  code: { top?: string[]; atLoad?: string[]; atExit?: string[]; enc?: string[] };
}

const cases: Case[] = [
  {
    // The issue's attack: a constructor puts a pipe in place of stdout before main.
    id: "load-dup2",
    code: {
      top: FORGE,
      atLoad: [
        "  ngcc_forge_take(1);",
        "  atexit(ngcc_forge_flush);",
        '  ngcc_forge_say("ngcc-hostile-forge: installed by a constructor\\n");',
      ],
    },
  },
  {
    // The same from the earliest places a submission can reach: its own .preinit_array entry and a constructor of
    // the highest priority (the driver's objects are linked first, its preinit entry runs first).
    id: "load-101",
    code: {
      top: [
        ...FORGE,
        "static void ngcc_forge_pre(int c, char **v, char **e) {",
        "  (void)c; (void)v; (void)e;",
        "  ngcc_forge_take(1);",
        '  ngcc_forge_say("ngcc-hostile-forge: installed in .preinit_array\\n");',
        "}",
        "#if defined(__PIE__) || !defined(__PIC__) /* executables only: a shared object has no .preinit_array */",
        '__attribute__((used, section(".preinit_array"))) static void (*ngcc_forge_pre_entry)(int, char **, char **) = ngcc_forge_pre;',
        "#endif",
        "__attribute__((constructor(101))) static void ngcc_forge_101(void) {",
        "  ngcc_forge_take(1);",
        "  atexit(ngcc_forge_flush);",
        '  ngcc_forge_say("ngcc-hostile-forge: installed by a constructor of priority 101\\n");',
        "}",
      ],
    },
  },
  {
    // At call time: the first crypto_kem_enc takes over stdout and every pipe descriptor above 2 (where the driver's
    // channel is), so the driver's JSON would go through the forger.
    id: "call-time",
    code: {
      top: FORGE,
      enc: [
        "  static int ngcc_forge_done;",
        "  if (!ngcc_forge_done) {",
        "    ngcc_forge_done = 1;",
        "    ngcc_forge_open();",
        "    for (int fd = 3; fd < 256; fd++)",
        "      if (!ngcc_forge_taken(fd) && ngcc_forge_channel(fd)) ngcc_forge_take(fd);",
        "    ngcc_forge_take(1);",
        "    atexit(ngcc_forge_flush);",
        '    ngcc_forge_say("ngcc-hostile-forge: installed at the first call\\n");',
        "  }",
      ],
    },
  },
  {
    // At exit: a destructor appends a forged document to stdout and to every pipe descriptor above 2.
    id: "exit-append",
    code: {
      top: FORGE,
      atExit: [
        '  static const char forged[] = "{\\"op\\":\\"enc\\",\\"samples\\":[1,1,1]}\\n";',
        "  signal(SIGPIPE, SIG_IGN);",
        "  for (int fd = 1; fd < 256; fd++)",
        "    if (fd != 2 && ngcc_forge_channel(fd)) (void)!syscall(SYS_write, fd, forged, sizeof forged - 1);",
        '  ngcc_forge_say("ngcc-hostile-forge: appended a forged document\\n");',
      ],
    },
  },
  {
    // Before the driver prints: enc, in the sampling run of enc only (its /proc/self/cmdline says so), writes a forged
    // line of its own to every pipe descriptor above 2 (where the driver's channel is) and exits 0, so that the
    // forged line is the one document on the channel. Its samples are divided, it holds a field the driver never
    // prints and a switched-out index past its samples: refused by the schema, a failure record naming enc.
    id: "forge-line",
    code: {
      top: FORGE,
      enc: [
        "  static char cmd[4096];",
        '  int cfd = open("/proc/self/cmdline", O_RDONLY);',
        "  ssize_t clen = cfd < 0 ? -1 : read(cfd, cmd, sizeof cmd - 1);",
        "  if (cfd >= 0) close(cfd);",
        '  if (clen > 0 && memmem(cmd, (size_t)clen, "sample\\0--op\\0enc\\0", 15) != NULL) {',
        '    static const char forged[] = "{\\"op\\":\\"enc\\",\\"samples\\":[1,1,1],\\"switchedOut\\":[7],\\"fast\\":true}\\n";',
        "    signal(SIGPIPE, SIG_IGN);",
        "    for (int fd = 3; fd < 256; fd++)",
        "      if (ngcc_forge_channel(fd)) (void)!syscall(SYS_write, fd, forged, sizeof forged - 1);",
        '    ngcc_forge_say("ngcc-hostile-forge: printed a forged line before the driver\\n");',
        "    _exit(0);",
        "  }",
      ],
    },
  },
  {
    // Past the claim: write() defined by the submission, which the driver's own call binds to (one executable).
    // What is written then is forged; the runner's cross-checks must flag it.
    id: "write-interposed",
    code: {
      top: [
        ...FORGE,
        "ssize_t write(int fd, const void *buf, size_t n);",
        "ssize_t write(int fd, const void *buf, size_t n) {",
        "  static char out[1 << 21];",
        '  if (n > 11 && n < sizeof out / 2 && memmem(buf, n, "\\"samples\\":[", 11) != NULL) {',
        "    size_t m = ngcc_forge(buf, n, out, sizeof out);",
        '    ngcc_forge_say("ngcc-hostile-forge: rewrote the driver\'s JSON\\n");',
        "    return syscall(SYS_write, fd, out, m) == (long)m ? (ssize_t)n : -1;",
        "  }",
        "  return (ssize_t)syscall(SYS_write, fd, buf, n);",
        "}",
      ],
      atLoad: ['  ngcc_forge_say("ngcc-hostile-forge: installed as write()\\n");'],
    },
  },
];

interface Command {
  argv: string[];
  exitCode: number | null;
  stderrTail?: string;
}
interface Timing {
  status: string;
  failure?: { reason: string; message: string };
  samples?: Array<{ counterDeltas: number[] }>;
  plausibility?: { verdict: string; checks: Array<{ check: string; outcome: string; message: string }> };
  commands?: Command[];
}

const root = join(tmp, "run");
const out = join(root, "out");
let cli: { code: number | null; stdout: string; stderr: string };

function timing(id: string, op: string): Timing {
  const file = join(out, "data", "test_1", "records", id, "guide", `Puffin-128__${op}.json`);
  return JSON.parse(readFileSync(file, "utf8")) as Timing;
}
const stderrOf = (t: Timing) => (t.commands ?? []).map((c) => c.stderrTail ?? "").join("\n");
const OPS = ["keygen", "enc", "dec"];

/** The page of an algorithm (markdown), and its section-4 row of an operation. */
function pageRow(id: string, op: string): string {
  const site = join(out, "site", "test_1");
  const md = readFileSync(join(site, `${id}.md`), "utf8");
  return md.split("\n").find((l) => l.startsWith(`| \`Puffin-128\` | ${op} |`)) ?? "";
}

beforeAll(async () => {
  mkdirSync(root, { recursive: true });
  const lines = [{ id: "honest", code: {} } as Case, ...cases].map(({ id, code }) => {
    const dest = join(root, "submissions", id);
    const { sub } = makeHostileSubmission(dest, [], { code });
    return `  - { id: ${id}, instances: [Puffin-128], source: { submission: ${JSON.stringify(sub.dir)} } }`;
  });
  const file = join(root, "campaign.yaml");
  writeFileSync(
    file,
    [
      "name: hostile-time",
      "system: test_1",
      `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
      `timing: ${FAST}`,
      "timeouts: { buildSeconds: 120, operationSeconds: 30 }",
      "algorithms:",
      ...lines,
      "",
    ].join("\n"),
  );
  cli = await runCliAsync(["run", file, "--out", out, "--steps", "build,time,report"], { timeoutMs: 900_000 });
}, 900_000);

describe("forged timings are held", () => {
  it("the run ends as a run with failures does (exit 1), without an internal error", () => {
    expect(cli.stderr).not.toMatch(/internal error|\n\s+at .+:\d+:\d+\)/);
    expect(cli.code, cli.stderr).toBe(1);
  });

  it("the honest copy is measured, plausible, and unmarked", () => {
    for (const op of OPS) {
      const t = timing("honest", op);
      expect(t.status, t.failure?.message).toBe("ok");
      expect(t.plausibility?.verdict).toBe("plausible");
      // cycles-per-instruction too where the store holds the instructions record the time step counts first
      // (the statistic's decision, with valgrind installed)
      expect(t.plausibility?.checks.map((c) => c.check).filter((c) => c !== "cycles-per-instruction")).toEqual([
        "runner-clock",
        "requested-duration",
        "counter-vs-clock",
        "warm-up-estimate",
        "core-clock",
      ]);
      expect(pageRow("honest", op)).not.toContain("not plausible");
    }
  });

  it("no forged figure is published as valid: where the forger rewrote the JSON, the record is flagged", () => {
    for (const { id } of cases)
      for (const op of OPS) {
        const t = timing(id, op);
        const rewrote = stderrOf(t).includes("ngcc-hostile-forge: rewrote");
        if (t.status === "ok" && rewrote) {
          expect(t.plausibility?.verdict, `${id} ${op}`).toBe("flagged");
          expect(pageRow(id, op), `${id} ${op}`).toContain("⚠ not plausible");
        }
      }
  });

  for (const id of ["load-dup2", "load-101"]) {
    it(`${id}: the driver's claim of its channel defeats the forger — true figures, nothing rewritten`, () => {
      for (const op of OPS) {
        const t = timing(id, op);
        expect(t.status, t.failure?.message).toBe("ok");
        const said = stderrOf(t);
        expect(said).toMatch(/ngcc-hostile-forge: installed/);
        if (id === "load-101") expect(said).toMatch(/installed in \.preinit_array/);
        expect(said).toMatch(/ngcc-hostile-forge: nothing to rewrite/);
        expect(said).not.toMatch(/ngcc-hostile-forge: rewrote/);
        expect(t.plausibility?.verdict).toBe("plausible");
        expect(pageRow(id, op)).not.toContain("not plausible");
      }
    });
  }

  it("call-time: the driver sees its channel replaced and writes nothing (failure records naming it)", () => {
    // The functional check before any timing calls enc: it is refused there, and every operation with it.
    for (const op of OPS) {
      const t = timing("call-time", op);
      expect(t.status).toBe("failed");
      expect(t.failure?.reason).toBe("error");
      expect(t.failure?.message).toMatch(
        /check: driver exited with 2: .*the output channel \(descriptor \d+, claimed before any constructor ran\) no longer names the file it was claimed from/,
      );
      expect(stderrOf(t)).toMatch(/ngcc-hostile-forge: installed at the first call/);
      expect(stderrOf(t)).not.toMatch(/ngcc-hostile-forge: rewrote/);
      expect(pageRow("call-time", op)).toMatch(/FAILED/);
    }
  });

  it("exit-append: a second document on the channel is refused, never read as the first", () => {
    for (const op of OPS) {
      const t = timing("exit-append", op);
      expect(t.status).toBe("failed");
      expect(t.failure?.reason).toBe("driver-output");
      expect(t.failure?.message).toMatch(
        /^Puffin-128: info: the driver's output holds more than its one JSON document: something else in the process wrote to its channel/,
      );
      expect(stderrOf(t)).toMatch(/ngcc-hostile-forge: appended a forged document/);
    }
  });

  it("forge-line: a forged line printed before the driver's is refused by its schema, a failure naming enc", () => {
    const t = timing("forge-line", "enc");
    expect(t.status).toBe("failed");
    expect(t.failure?.reason).toBe("driver-output");
    expect(t.failure?.message).toMatch(
      /^Puffin-128 enc: sample: the driver's output is not what the driver prints \(driver-sample\): .*\/(counter|fast)/,
    );
    expect(stderrOf(t)).toMatch(/ngcc-hostile-forge: printed a forged line before the driver/);
    expect(pageRow("forge-line", "enc")).toMatch(/FAILED/);
    // keygen never calls enc; dec's sampling run makes its ciphertexts with enc, but it is not enc's run
    for (const op of ["keygen", "dec"]) expect(timing("forge-line", op).status, op).toBe("ok");
  });

  it("write-interposed: what reaches the runner is forged, and the record and the page flag it", () => {
    for (const op of OPS) {
      const t = timing("write-interposed", op);
      expect(t.status, t.failure?.message).toBe("ok");
      expect(stderrOf(t)).toMatch(/ngcc-hostile-forge: rewrote the driver's JSON/);
      expect(t.plausibility?.verdict).toBe("flagged");
      const flagged = t.plausibility?.checks.filter((c) => c.outcome === "flagged").map((c) => c.check) ?? [];
      expect(flagged).toContain("warm-up-estimate");
      expect(pageRow("write-interposed", op)).toContain("⚠ not plausible");
    }
    const md = readFileSync(join(out, "site", "test_1", "write-interposed.md"), "utf8");
    expect(md).toMatch(/⚠ not plausible \(3 rows\): the figure failed a cross-check/);
    expect(md).toMatch(
      /Puffin-128 enc: [^\n]*warm-up-estimate — worker 1: its median call \([^)]+\) is faster than an 8th/,
    );
  });

  it("nothing of the forger's is left in the honest copy's records or page", () => {
    const dir = join(out, "data", "test_1", "records", "honest");
    const files = existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String) : [];
    expect(files.length).toBeGreaterThan(0);
    for (const f of files.filter((x) => x.endsWith(".json")))
      expect(readFileSync(join(dir, f), "utf8")).not.toContain("ngcc-hostile-forge");
    expect(readFileSync(join(out, "site", "test_1", "honest.md"), "utf8")).not.toContain("not plausible");
  });
});
