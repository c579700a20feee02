// Hostile submissions against the KAT verdict (issue 25, items 3 and 7), through the real pipeline (`ngcc-perf run
// … --steps …`): a wrong implementation of kem-90's Puffin-128 (its KDF flips a byte of every shared secret, in
// encapsulation and decapsulation alike, so the generator's own checks agree and only the KAT can tell) that tries
// to pass anyway — by copying the shipped .rsp over the generator's output at exit (a destructor), by embedding it
// at build time (.incbin), by a constructor that reads it and pushes it down the generator's pipes, and by taking
// over the generator's output descriptors at call time. Each must be a KAT FAIL (never a PASS) with the record and
// the page saying why, while the honest Puffin-128 beside them passes, and so does one whose .rsp lies in its source
// folder (masked file by file, the sources still built). A 2 GB sparse .rsp and a kat.file that is a folder are a
// corrupt KAT (the size limit named, the record written, no exit 70, also in the profile step), and a submission
// that floods stdout does not break the profiler's KAT check.
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { shippedKatPaths } from "@ngcc-perf/runner";
import { afterAll, describe, expect, it } from "vitest";
import { iccsDir, makeHostileSubmission, runCliAsync } from "./fixture-tools.ts";

const tmp = mkdtempSync(join(tmpdir(), "ngcc-hostile-kat-"));
afterAll(() => (process.env.NGCC_KEEP ? undefined : rmSync(tmp, { recursive: true, force: true })));

const FAST = "{ workerMs: 2, minWorkers: 2, budgetMs: 20, keyPairs: 1, inputPool: 4 }";
const SHIPPED = "KAT/Puffin-128/PQCkemKAT_1632.rsp";
const KEM_C = "Reference_Implementation/common/kem.c";

/** C helpers every hostile case may use: read a whole file, write one, write into every pipe (or socket: how Node hands a child its stdout) it holds. */
const HELPERS = [
  "#include <sys/stat.h>",
  "__attribute__((unused)) static unsigned char *ngcc_read_all(const char *path, size_t *n) {",
  "  int fd = open(path, O_RDONLY);",
  "  size_t cap = 1 << 20;",
  "  unsigned char *b = malloc(cap);",
  "  *n = 0;",
  "  if (fd < 0 || b == NULL) { if (fd >= 0) close(fd); return b; }",
  "  for (;;) {",
  "    ssize_t k;",
  "    if (*n == cap) { unsigned char *c = realloc(b, cap * 2); if (c == NULL) break; b = c; cap *= 2; }",
  "    k = read(fd, b + *n, cap - *n);",
  "    if (k <= 0) break;",
  "    *n += (size_t)k;",
  "  }",
  "  close(fd);",
  "  return b;",
  "}",
  "__attribute__((unused)) static void ngcc_put(const char *path, const unsigned char *b, size_t n) {",
  "  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);",
  "  if (fd >= 0) { if (n) (void)!write(fd, b, n); close(fd); }",
  "}",
  "__attribute__((unused)) static void ngcc_into_pipes(const unsigned char *b, size_t n) {",
  "  for (int fd = 1; fd < 64; fd++) {",
  "    struct stat st;",
  "    if (fd != 2 && fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) && n) (void)!write(fd, b, n);",
  "  }",
  "}",
];

const BESIDE = "Reference_Implementation/Puffin-128/PQCkemKAT_1632.rsp";

/** Moves the copy's .rsp into Puffin-128's source folder (next to api.h), with a manifest there; its new path. */
function moveBeside(dir: string): string {
  renameSync(join(dir, SHIPPED), join(dir, BESIDE));
  const digest = readFileSync(join(dir, "KAT/kat.sha256"), "utf8")
    .split("\n")
    .find((l) => l.endsWith("Puffin-128/PQCkemKAT_1632.rsp"))
    ?.slice(0, 64);
  writeFileSync(join(dir, "Reference_Implementation/Puffin-128/kat.sha256"), `${digest}  PQCkemKAT_1632.rsp\n`);
  const meta = JSON.parse(readFileSync(join(dir, "meta.json"), "utf8"));
  meta.katManifest = "Reference_Implementation/Puffin-128/kat.sha256";
  meta.instances[0].kat.file = BESIDE;
  writeFileSync(join(dir, "meta.json"), JSON.stringify(meta, null, 2));
  return join(dir, BESIDE);
}

/** C that embeds the file `rel` of the submission (an absolute path) at build time and writes it out at exit. */
function incbin(rel: string): (dir: string) => HostileCode {
  return (dir) => ({
    files: {
      "Reference_Implementation/common/blob.c": [
        "/* The shipped KAT, embedded by the assembler at build time. */",
        "extern const unsigned char ngcc_blob_start[], ngcc_blob_end[];",
        `__asm__(".section .rodata\\n.global ngcc_blob_start\\nngcc_blob_start:\\n.incbin \\"${join(dir, rel)}\\"\\n.global ngcc_blob_end\\nngcc_blob_end:\\n.byte 0\\n.previous\\n");`,
        "",
      ].join("\n"),
    },
    sources: ["Reference_Implementation/common/blob.c"],
    top: ["extern const unsigned char ngcc_blob_start[], ngcc_blob_end[];"],
    atExit: [
      "  size_t n = (size_t)(ngcc_blob_end - ngcc_blob_start);",
      '  fprintf(stderr, "ngcc-hostile: embedded at build time: %lu bytes\\n", (unsigned long)n);',
      '  ngcc_put("generated.rsp", ngcc_blob_start, n);',
      "  ngcc_into_pipes(ngcc_blob_start, n);",
    ],
  });
}

type HostileCode = NonNullable<NonNullable<Parameters<typeof makeHostileSubmission>[2]>["code"]>;

interface Case {
  id: string;
  /** The instance computes a wrong shared secret (its KDF flips a byte). */
  wrong?: boolean;
  /** The test's own C (fixture-tools' HostileOptions.code), or made from the copy's folder. */
  code?: HostileCode | ((dir: string) => HostileCode);
  /** Changes to the copy after it is made (its folder given). */
  after?: (dir: string) => void;
}

/** A campaign over one hostile copy of kem-90 (Puffin-128) per case; `shipped` in the C is the copy's .rsp. */
function campaign(name: string, cases: Case[]): { file: string; out: string } {
  const root = join(tmp, name);
  mkdirSync(root, { recursive: true });
  const lines = cases.map((c) => {
    const dest = join(root, "submissions", c.id);
    const dir = join(dest, "kem-90");
    const code = typeof c.code === "function" ? c.code(dir) : c.code;
    const shipped = `__attribute__((unused)) static const char *const shipped = ${JSON.stringify(join(dir, SHIPPED))};`;
    const { sub } = makeHostileSubmission(dest, [], {
      code: { ...code, top: [...HELPERS, shipped, ...(code?.top ?? [])] },
    });
    if (c.wrong) {
      const kem = join(sub.dir, KEM_C);
      const text = readFileSync(kem, "utf8");
      const at = "    pseudoXOF(ss, CRYPTO_BYTES, buf, sizeof buf);\n";
      if (!text.includes(at)) throw new Error("hostile-kat: kem.c has no KDF to break");
      writeFileSync(kem, text.replace(at, `${at}    ss[0] ^= 0x01; /* wrong, in enc and dec alike */\n`));
    }
    c.after?.(sub.dir);
    return `  - { id: ${c.id}, instances: [Puffin-128], source: { submission: ${JSON.stringify(sub.dir)} } }`;
  });
  const file = join(root, "campaign.yaml");
  writeFileSync(
    file,
    [
      `name: hostile-kat-${name}`,
      "system: test_1",
      `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
      `timing: ${FAST}`,
      "timeouts: { buildSeconds: 120, operationSeconds: 20, katSeconds: 60 }",
      "algorithms:",
      ...lines,
      "",
    ].join("\n"),
  );
  return { file, out: join(root, "out") };
}

interface KatRec {
  verdict: string;
  outcome: string;
  diagnosis?: { firstCount?: number; field?: string };
  error?: { reason: string; message: string };
  corruption?: Array<{ file: string; message: string }>;
  commands?: Array<{ argv: string[]; stderrTail?: string; sandboxed?: boolean }>;
}

function katRecord(out: string, id: string): KatRec {
  return JSON.parse(readFileSync(join(out, "data/test_1/kat", id, "guide/Puffin-128.json"), "utf8")) as KatRec;
}

/** The KAT generator's stderr (what the hostile code said), from the record's commands. */
function generatorStderr(r: KatRec): string {
  return (r.commands ?? [])
    .map((c) => (c.argv.some((a) => a.endsWith("/katgen")) ? (c.stderrTail ?? "") : ""))
    .join("\n");
}

/** The KAT cell of Puffin-128 on the algorithm's Markdown page. */
function pageCell(out: string, id: string): string {
  const md = readFileSync(join(out, "site/test_1", `${id}.md`), "utf8");
  const row = md.split("\n").find((l) => l.startsWith("| `Puffin-128` | guide |"));
  return row ?? "";
}

const noInternalError = (stderr: string) => expect(stderr).not.toMatch(/internal error|\n\s+at .+:\d+:\d+\)/);

describe("the shipped KAT files every sandboxed process has masked (shippedKatPaths)", () => {
  const sub = (name: string) => makeHostileSubmission(join(tmp, "masks", name), []).sub.dir;
  it("masks a KAT folder that holds no code whole, and KAT files among sources one by one", () => {
    const plain = sub("plain");
    expect(shippedKatPaths(plain)).toEqual([join(plain, "KAT")]);
    const beside = sub("beside");
    moveBeside(beside);
    expect(shippedKatPaths(beside).sort()).toEqual(
      [
        join(beside, "KAT"),
        join(beside, BESIDE),
        join(beside, "Reference_Implementation/Puffin-128/kat.sha256"),
      ].sort(),
    );
    // A KAT folder with code in it: not the folder, but its code-free folders and every file its manifest lists.
    const mixed = sub("mixed");
    writeFileSync(join(mixed, "KAT/helper.c"), "int ngcc_helper(void);\n");
    const masked = shippedKatPaths(mixed);
    expect(masked).not.toContain(join(mixed, "KAT"));
    expect(masked).toEqual(
      expect.arrayContaining([
        join(mixed, "KAT/Puffin-128"),
        join(mixed, "KAT/kat.sha256"),
        join(mixed, "KAT/Puffin-256/PQCkemKAT_3168.rsp"),
      ]),
    );
    expect(masked.some((p) => p.endsWith(".c") || p.endsWith(".h"))).toBe(false);
  });

  it("never masks what lies outside the submission, whatever its meta.json names", () => {
    const out = sub("outside");
    const meta = JSON.parse(readFileSync(join(out, "meta.json"), "utf8"));
    meta.instances[0].kat.file = "Reference_Implementation/link.rsp";
    meta.katManifest = "../../elsewhere/kat.sha256";
    writeFileSync(join(out, "meta.json"), JSON.stringify(meta));
    symlinkSync(join(iccsDir, "iccs.h"), join(out, "Reference_Implementation/link.rsp"));
    const masked = shippedKatPaths(out);
    expect(masked.every((p) => p.startsWith(`${out}/`))).toBe(true);
    expect(masked).not.toContain(join(out, "Reference_Implementation/link.rsp"));
    expect(shippedKatPaths(join(tmp, "masks", "no-such-submission"))).toEqual([]);
  });
});

describe("a wrong implementation cannot write its KAT verdict", () => {
  it("is a FAIL however it tampers — at exit, at build time, at load time, at call time — and the honest ones pass", async () => {
    const { file, out } = campaign("tamper", [
      { id: "honest" },
      // Honest but chatty on stdout, from a constructor and at every call: none of it reaches the KAT output.
      {
        id: "chatty",
        code: {
          atLoad: ['  printf("chatty: loaded\\n");'],
          enc: ['  printf("chatty: enc\\n");', "  fflush(stdout);"],
        },
      },
      // Its own .rsp next to its api.h: masked as a file, its source folder still there to build from; its
      // constructor reads the .rsp, which is empty in the sandbox.
      {
        id: "beside",
        after: (dir) => {
          const hostile = join(dir, "Reference_Implementation/common/hostile.c");
          const read = `{ size_t n = 0; free(ngcc_read_all(${JSON.stringify(moveBeside(dir))}, &n)); fprintf(stderr, "ngcc-hostile: beside: %lu bytes\\n", (unsigned long)n); }`;
          writeFileSync(
            hostile,
            readFileSync(hostile, "utf8").replace("  (void)note;\n", `  (void)note;\n  ${read}\n`),
          );
        },
      },
      // (a) A destructor copies the shipped .rsp over the generator's output and down its pipes.
      {
        id: "at-exit",
        wrong: true,
        code: {
          atExit: [
            "  size_t n = 0;",
            "  unsigned char *b = ngcc_read_all(shipped, &n);",
            '  fprintf(stderr, "ngcc-hostile: at exit: the shipped .rsp gave %lu bytes\\n", (unsigned long)n);',
            '  if (b && n) { ngcc_put("generated.rsp", b, n); ngcc_into_pipes(b, n); }',
            "  free(b);",
          ],
        },
      },
      // (b) The shipped .rsp embedded at build time, written over the output at exit: in KAT/ (masked whole,
      // absent at build time) and beside the sources (masked as a file, empty at build time).
      { id: "incbin", wrong: true, code: incbin(join(SHIPPED)) },
      { id: "incbin-beside", wrong: true, after: moveBeside, code: incbin(BESIDE) },
      // (c) A constructor reads the shipped .rsp, prints it down every pipe and silences them for the generator.
      {
        id: "at-load",
        wrong: true,
        code: {
          atLoad: [
            "  size_t n = 0;",
            "  unsigned char *b = ngcc_read_all(shipped, &n);",
            '  int devnull = open("/dev/null", O_WRONLY);',
            '  fprintf(stderr, "ngcc-hostile: at load: the shipped .rsp gave %lu bytes\\n", (unsigned long)n);',
            "  ngcc_into_pipes(b, n);",
            "  for (int fd = 1; fd < 64; fd++) {",
            "    struct stat st;",
            "    if (fd != 2 && fd != devnull && fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) dup2(devnull, fd);",
            "  }",
            "  free(b);",
          ],
        },
      },
      // (d) At its first call, it writes the shipped .rsp into the generator's output descriptors and takes them over.
      {
        id: "at-call",
        wrong: true,
        code: {
          enc: [
            "  static int done;",
            "  if (!done) {",
            "    size_t n = 0;",
            "    unsigned char *b = ngcc_read_all(shipped, &n);",
            '    int devnull = open("/dev/null", O_WRONLY);',
            "    done = 1;",
            '    fprintf(stderr, "ngcc-hostile: at call time: the shipped .rsp gave %lu bytes\\n", (unsigned long)n);',
            "    for (int fd = 3; fd < 64; fd++) {",
            "      char link[64], target[4096];",
            "      struct stat st;",
            "      ssize_t k;",
            '      snprintf(link, sizeof link, "/proc/self/fd/%d", fd);',
            "      k = readlink(link, target, sizeof target - 1);",
            "      if (k < 0 || fd == devnull || fstat(fd, &st) != 0) continue;",
            "      target[k] = 0;",
            '      if ((S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) || strstr(target, "generated.")) {',
            "        if (n) (void)!write(fd, b, n);",
            "        dup2(devnull, fd);",
            "      }",
            "    }",
            "    free(b);",
            "  }",
          ],
        },
      },
    ]);
    const r = await runCliAsync(["run", file, "--out", out, "--steps", "kat,report"]);
    noInternalError(r.stderr);
    expect(r.code, r.stderr).toBe(1);

    // The honest ones pass; the one whose .rsp lies among its sources built and read nothing of it.
    expect(katRecord(out, "honest").verdict).toBe("PASS");
    const beside = katRecord(out, "beside");
    expect(beside.verdict, JSON.stringify(beside)).toBe("PASS");
    expect(generatorStderr(beside)).toMatch(/ngcc-hostile: beside: 0 bytes/);
    expect(pageCell(out, "honest")).toMatch(/\| PASS \|/);
    const chatty = katRecord(out, "chatty");
    expect(chatty.verdict, JSON.stringify(chatty.error)).toBe("PASS");
    expect(generatorStderr(chatty)).toMatch(/chatty: loaded\n(chatty: enc\n)+/);

    // The shipped KAT is invisible to every run: each attempt read (or embedded) 0 bytes of it.
    const said: Record<string, RegExp> = {
      "at-exit": /at exit: the shipped \.rsp gave 0 bytes/,
      "at-load": /at load: the shipped \.rsp gave 0 bytes/,
      "at-call": /at call time: the shipped \.rsp gave 0 bytes/,
    };
    for (const [id, line] of Object.entries(said)) {
      const rec = katRecord(out, id);
      expect(rec.verdict, `${id}: ${JSON.stringify(rec.error ?? rec.diagnosis)}`).toBe("FAIL");
      expect(generatorStderr(rec), id).toMatch(line);
      expect(rec.commands?.every((c) => c.sandboxed === true)).toBe(true);
    }
    // Where the output was not touched, the wrong shared secret is found where it is.
    // Embedded at build time: the masked file cannot be opened in the build's sandbox (KAT/ masked whole, the .rsp
    // beside the sources masked as a file), so the build fails and says which file — an ERROR, never a PASS.
    for (const id of ["incbin", "incbin-beside"]) {
      const embedded = katRecord(out, id);
      expect(embedded.verdict, id).toBe("ERROR");
      expect(embedded.error?.reason).toBe("compile-error");
      expect(embedded.error?.message).toMatch(/file not found: .*PQCkemKAT_1632\.rsp/);
      expect(pageCell(out, id)).toMatch(/ERROR \(compile-error\)/);
    }
    for (const id of ["at-exit"]) {
      const rec = katRecord(out, id);
      expect(rec.outcome).toBe("output-differs");
      expect(rec.diagnosis).toMatchObject({ firstCount: 0, field: "ss" });
      expect(pageCell(out, id)).toMatch(/FAIL: first difference at count 0, field ss/);
    }
    // Where the generator's pipe was taken over, its forms disagree: a FAIL that says so, nothing compared.
    for (const id of ["at-load", "at-call"]) {
      const rec = katRecord(out, id);
      expect(rec.outcome).toBe("output-differs");
      expect(rec.diagnosis).toBeUndefined();
      expect(rec.error?.message, id).toMatch(/^tampered or inconsistent KAT output .*holds no entries where 100/);
      expect(pageCell(out, id)).toMatch(/FAIL: tampered or inconsistent KAT output/);
    }
    // The page says what the verdict is, and what no in-process check can rule out.
    const md = readFileSync(join(out, "site/test_1/at-exit.md"), "utf8");
    expect(md).toMatch(/Each verdict is computed by the submission's own code run under the harness's inputs/);
    expect(md).toMatch(/code that carries the answers within itself would pass/);
  }, 300_000);

  it("takes a 2 GB sparse .rsp and a kat.file that is a folder as a corrupt KAT, the record written, also when profiling", async () => {
    const { file, out } = campaign("huge", [
      { id: "honest" },
      { id: "sparse", after: (dir) => truncateSync(join(dir, SHIPPED), 2 * 1024 ** 3) },
      {
        id: "folder",
        after: (dir) => {
          rmSync(join(dir, SHIPPED));
          mkdirSync(join(dir, SHIPPED));
        },
      },
    ]);
    const kat = await runCliAsync(["run", file, "--out", out, "--steps", "kat,report"]);
    noInternalError(kat.stderr);
    expect(kat.code, kat.stderr).toBe(1);
    expect(kat.stderr).toMatch(/sparse\/KAT\/Puffin-128\/PQCkemKAT_1632\.rsp: is 2147483648 bytes; at most 268435456/);
    expect(kat.stderr).toMatch(/folder\/KAT\/Puffin-128\/PQCkemKAT_1632\.rsp: is a folder, not a file/);
    expect(katRecord(out, "honest").verdict).toBe("PASS");
    for (const [id, what] of [
      ["sparse", /is 2147483648 bytes; at most 268435456 bytes are read/],
      ["folder", /is a folder, not a file/],
    ] as const) {
      const rec = katRecord(out, id);
      expect(rec.verdict).toBe("FAIL");
      expect(rec.outcome).toBe("corrupt-kat");
      expect(rec.corruption?.some((p) => what.test(p.message))).toBe(true);
      expect(pageCell(out, id)).toMatch(/FAIL: corrupt KAT file/);
    }
    // The profiler reads the same files: nothing of the 2 GB is read, no exit 70.
    const profile = await runCliAsync(["run", file, "--out", join(out, "..", "out-profile"), "--steps", "profile"]);
    noInternalError(profile.stderr);
    expect(profile.code, profile.stderr).toBe(1);
    const profiled = join(out, "..", "out-profile", "data/test_1/profile");
    const sparse = JSON.parse(readFileSync(join(profiled, "sparse/guide/Puffin-128__enc.json"), "utf8")) as {
      katCheck?: { verdict: string; message?: string };
    };
    expect(sparse.katCheck?.verdict).toBe("ERROR");
    expect(sparse.katCheck?.message).toMatch(/is 2147483648 bytes; at most 268435456 bytes are read/);
  }, 300_000);

  it("does not blame the implementation in the profiler's KAT check when a submission floods stdout", async () => {
    const { file, out } = campaign("flood", [
      {
        id: "flood",
        code: {
          enc: [
            "  static int said;",
            "  if (!said) {",
            "    static char chunk[1 << 20];",
            "    said = 1;",
            "    memset(chunk, 'A', sizeof chunk);",
            "    for (int i = 0; i < 8; i++) fwrite(chunk, 1, sizeof chunk, stdout);",
            "    fflush(stdout);",
            "  }",
          ],
        },
      },
      // (c) again, in the profiler's check: what its constructor pushes down the pipe is no PASS there either.
      {
        id: "at-load",
        wrong: true,
        code: {
          atLoad: [
            "  size_t n = 0;",
            "  unsigned char *b = ngcc_read_all(shipped, &n);",
            '  int devnull = open("/dev/null", O_WRONLY);',
            "  ngcc_into_pipes(b, n);",
            "  for (int fd = 1; fd < 64; fd++) {",
            "    struct stat st;",
            "    if (fd != 2 && fd != devnull && fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) dup2(devnull, fd);",
            "  }",
            "  free(b);",
          ],
        },
      },
    ]);
    const r = await runCliAsync(["run", file, "--out", out, "--steps", "profile"]);
    noInternalError(r.stderr);
    const dir = join(out, "data/test_1/profile");
    const rec = (id: string) =>
      JSON.parse(readFileSync(join(dir, id, "guide/Puffin-128__enc.json"), "utf8")) as {
        status: string;
        katCheck?: { verdict: string; message?: string };
        failure?: { message: string };
      };
    const flood = rec("flood");
    expect(flood.katCheck?.verdict, JSON.stringify(flood.katCheck)).toBe("PASS");
    expect(flood.status, JSON.stringify(flood.failure)).toBe("ok");
    expect(rec("at-load").katCheck?.verdict).not.toBe("PASS");
    expect(rec("at-load").status).toBe("failed");
  }, 300_000);
});
