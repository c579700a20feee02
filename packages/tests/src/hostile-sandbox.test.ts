// Hostile submissions against the sandbox's own walls (docs/security.md, issue 25 item 6), each through the real
// CLI: descriptors the CLI inherits, a unix socket in a readable folder, tracing the sandbox's first process,
// reading another process's memory or the kernel keyrings, another ABI's system calls, and a campaign kept in
// $HOME. Each attempt is made at load time (a constructor, so in the KAT generator, the driver and every worker)
// or at call time (end of crypto_kem_enc); each must fail inside the sandbox with nothing of the host in any
// record or page, and the honest copy in the same campaign must measure as if alone.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { arch, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliBin, filesUnder } from "./fixture-tools.ts";
import { type HostileCase, hostileCampaign, INTERNAL_ERROR, storeRecords, storeText } from "./hostile-tools.ts";

const tmp = mkdtempSync(join(tmpdir(), "ngcc-hostile-sandbox-"));

/** Whether this kernel serves int $0x80 (i386 system calls) at all: a probe outside the sandbox, i386 getpid. */
function kernelHasIa32(): boolean {
  const src = join(tmp, "ia32-probe.c");
  const exe = join(tmp, "ia32-probe");
  writeFileSync(
    src,
    'int main(void) { long r; __asm__ volatile("int $0x80" : "=a"(r) : "a"(20L) : "memory"); return r > 0 ? 0 : 1; }\n',
  );
  if (spawnSync("cc", ["-O1", "-o", exe, src]).status !== 0) throw new Error("cannot build the i386 probe");
  return spawnSync(exe).status === 0;
}
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const token = randomBytes(8).toString("hex");
const secretText = `NGCC-SECRET-${token}`;

const INCLUDES = ["#include <sys/ptrace.h>", "#include <sys/syscall.h>", "#include <sys/uio.h>", "#include <sys/un.h>"];

/** Runs the CLI with `fds` as its descriptors 3, 4, … (what a shell's `200>file` hands a program). */
function runCliWithDescriptors(
  args: readonly string[],
  fds: Record<number, number>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const top = Math.max(...Object.keys(fds).map(Number));
  const stdio: (number | "ignore" | "pipe")[] = ["ignore", "pipe", "pipe"];
  for (let fd = 3; fd <= top; fd++) stdio.push(fds[fd] ?? "ignore");
  return new Promise((res) => {
    const child = spawn(process.execPath, [cliBin, ...args], { stdio, env });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill("SIGKILL"), 300_000);
    child.stdout?.on("data", (d: Buffer) => out.push(d));
    child.stderr?.on("data", (d: Buffer) => err.push(d));
    child.on("close", (code) => {
      clearTimeout(timer);
      res({ code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") });
    });
  });
}

describe("the sandbox's walls hold against a hostile submission", () => {
  it("passes it no inherited descriptor, no unix socket, no tracing, no other memory, no keyring, no other ABI", async () => {
    const root = join(tmp, "walls");
    const socketPath = join(root, "submissions", "unix-socket", "listener.sock");
    const hostFile = join(tmp, "host-file.txt");
    const secretFile = join(tmp, "secret.txt");
    writeFileSync(hostFile, "host\n");
    writeFileSync(secretFile, `${secretText}\n`, { mode: 0o600 });
    const cases: HostileCase[] = [
      { id: "honest", kinds: [] },
      {
        id: "descriptors",
        kinds: [],
        options: {
          code: {
            atLoad: [
              // Above the process's own (the driver and the generator keep their output on a low descriptor of
              // their own, which the code can always write: docs/security.md), where inherited ones would be.
              "  for (int fd = 64; fd < 1024; fd++) {",
              "    char buf[128];",
              "    ssize_t n = read(fd, buf, sizeof buf - 1);",
              '    if (n > 0) { buf[n] = 0; fprintf(stderr, "ngcc-hostile: fd %d gave: %s\\n", fd, buf); }',
              '    if (write(fd, "NGCC-LEAK\\n", 10) == 10) fprintf(stderr, "ngcc-hostile: fd %d written\\n", fd);',
              "  }",
            ],
          },
        },
      },
      {
        id: "unix-socket",
        kinds: [],
        options: {
          code: {
            top: INCLUDES,
            atLoad: [
              "  int u = socket(AF_UNIX, SOCK_STREAM, 0);",
              "  struct sockaddr_un sa;",
              "  memset(&sa, 0, sizeof sa);",
              "  sa.sun_family = AF_UNIX;",
              `  strncpy(sa.sun_path, ${JSON.stringify(socketPath)}, sizeof sa.sun_path - 1);`,
              '  if (u < 0) note("socket(AF_UNIX)", "", 0);',
              '  else note("connect", sa.sun_path, connect(u, (struct sockaddr *)&sa, sizeof sa) == 0);',
              "  if (u >= 0) close(u);",
            ],
          },
        },
      },
      {
        id: "trace-init",
        kinds: [],
        options: {
          code: {
            top: INCLUDES,
            atLoad: [
              '  note("ptrace(PTRACE_ATTACH, 1)", "", ptrace(PTRACE_ATTACH, 1, NULL, NULL) == 0);',
              '  note("ptrace(PTRACE_SEIZE, 1)", "", ptrace(PTRACE_SEIZE, 1, NULL, NULL) == 0);',
              '  if (getppid() > 1) note("ptrace(PTRACE_ATTACH, parent)", "", ptrace(PTRACE_ATTACH, getppid(), NULL, NULL) == 0);',
            ],
          },
        },
      },
      {
        id: "memory-keys",
        kinds: [],
        options: {
          code: {
            top: INCLUDES,
            enc: [
              "  static int tried;",
              "  if (!tried) {",
              "    char buf[64];",
              "    struct iovec mine = { buf, sizeof buf }, theirs = { (void *)0x400000, sizeof buf };",
              "    tried = 1;",
              '    note("process_vm_readv(1)", "", syscall(SYS_process_vm_readv, 1, &mine, 1, &theirs, 1, 0) >= 0);',
              '    note("keyctl(session keyring)", "", syscall(SYS_keyctl, 0, -3, 0) >= 0);',
              '    note("bpf", "", syscall(SYS_bpf, 0, NULL, 0) >= 0);',
              "  }",
            ],
          },
        },
      },
      {
        id: "fork-bomb",
        kinds: [],
        options: {
          code: {
            atLoad: [
              "  int forked = 0;",
              "  for (int i = 0; i < 100000; i++) {",
              "    pid_t p = fork();",
              "    if (p == 0) { pause(); _exit(0); }",
              '    if (p < 0) { note("fork", "", 0); break; }',
              "    forked++;",
              "  }",
              '  fprintf(stderr, "ngcc-hostile: forked %d\\n", forked);',
            ],
          },
        },
      },
      {
        id: "disk-flood",
        kinds: [],
        options: {
          code: {
            atLoad: [
              "  static char chunk[1 << 16];",
              '  int f = open("flood.bin", O_WRONLY | O_CREAT | O_TRUNC, 0644);',
              '  if (f < 0) note("create", "flood.bin", 0);',
              "  else {",
              "    long total = 0;",
              "    for (;;) { ssize_t n = write(f, chunk, sizeof chunk); if (n <= 0) break; total += n; }",
              '    fprintf(stderr, "ngcc-hostile: flood stopped after %ld bytes\\n", total);',
              "    close(f);",
              "  }",
            ],
          },
        },
      },
      ...(arch() === "x64"
        ? [
            {
              id: "foreign-abi",
              kinds: [],
              options: {
                code: {
                  enc: [
                    "  long r;",
                    '  __asm__ volatile("int $0x80" : "=a"(r) : "a"(26L), "b"(16L), "c"(1L) : "memory"); /* i386 ptrace */',
                    '  fprintf(stderr, "ngcc-hostile: int 0x80 ptrace returned %ld\\n", r);',
                  ],
                },
              },
            } satisfies HostileCase,
          ]
        : []),
    ];
    const { file, out } = hostileCampaign(root, cases, {
      timeouts: "{ buildSeconds: 120, operationSeconds: 20, katSeconds: 30 }",
      extra: ["sandbox: { limits: { processes: 64, writableBytes: 16777216 } }"],
    });
    let connections = 0;
    const listener = createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((res) => listener.listen(socketPath, () => res()));
    const append = openSync(hostFile, "a");
    const secret = openSync(secretFile, "r");
    let r: Awaited<ReturnType<typeof runCliWithDescriptors>>;
    try {
      r = await runCliWithDescriptors(["run", file, "--out", out, "--steps", "build,kat,time,report"], {
        200: append,
        201: secret,
      });
    } finally {
      closeSync(append);
      closeSync(secret);
      await new Promise<void>((res) => listener.close(() => res()));
    }
    expect(r.stderr).not.toMatch(INTERNAL_ERROR);
    const text = storeText(out, true);
    // Every attempt ran and was refused.
    expect(text).not.toMatch(/ngcc-hostile: fd \d+ (gave|written)/);
    expect(text).toMatch(/ngcc-hostile: socket\(AF_UNIX\) : Permission denied/);
    expect(text).toMatch(/ngcc-hostile: ptrace\(PTRACE_ATTACH, 1\) : Operation not permitted/);
    expect(text).toMatch(/ngcc-hostile: ptrace\(PTRACE_SEIZE, 1\) : Operation not permitted/);
    expect(text).toMatch(/ngcc-hostile: process_vm_readv\(1\) : Operation not permitted/);
    expect(text).toMatch(/ngcc-hostile: keyctl\(session keyring\) : Operation not permitted/);
    expect(text).toMatch(/ngcc-hostile: bpf : Operation not permitted/);
    expect(text).not.toMatch(/ngcc-hostile: [^\n]*: succeeded/);
    expect(connections).toBe(0);
    expect(readFileSync(hostFile, "utf8")).toBe("host\n");
    expect(storeText(out).includes(secretText)).toBe(false);

    const kat = storeRecords(out, "kat");
    const timing = storeRecords(out, "records");
    // Refused calls leave the measurement as it is: the KAT passes and every operation is timed, not one timed out.
    for (const id of ["honest", "descriptors", "unix-socket", "trace-init", "memory-keys"]) {
      expect(kat[`${id}/Puffin-128`]?.verdict, id).toBe("PASS");
      for (const op of ["keygen", "enc", "dec"])
        expect(timing[`${id}/Puffin-128__${op}`]?.status, `${id} ${op}`).toBe("ok");
    }
    // The fork bomb met the process limit (as root too: the sandbox's pids cgroup) and measured as it should.
    const forked = [...text.matchAll(/ngcc-hostile: forked (\d+)/g)].map((m) => Number(m[1]));
    expect(forked.length).toBeGreaterThan(0);
    expect(Math.max(...forked)).toBeLessThan(64);
    expect(text).toMatch(/ngcc-hostile: fork : Resource temporarily unavailable/);
    for (const op of ["keygen", "enc", "dec"]) expect(timing[`fork-bomb/Puffin-128__${op}`]?.status, op).toBe("ok");
    // The flood stopped at the writable-folder limit (or could not start where nothing is writable): no large file.
    for (const f of filesUnder(root)) expect(statSync(f).size, f).toBeLessThan(32 * 1024 * 1024);
    expect(kat["disk-flood/Puffin-128"]?.verdict).not.toBe("PASS");
    expect(JSON.stringify(kat["disk-flood/Puffin-128"])).toMatch(/SIGXFSZ|limits\.writableBytes: 16777216/);
    // A system call of another ABI ends the process (SIGSYS from the filter; SIGSEGV from a kernel that has no
    // 32-bit system calls at all, before any filter): a KAT that did not run to its end, nothing timed.
    if (arch() === "x64") {
      const k = kat["foreign-abi/Puffin-128"];
      expect(k?.verdict).not.toBe("PASS");
      expect(JSON.stringify(k)).toMatch(kernelHasIa32() ? /SIGSYS/ : /SIGSEGV/);
      expect(text).not.toMatch(/int 0x80 ptrace returned/);
      expect(r.code).toBe(1);
    } else {
      expect(r.code, r.stderr).toBe(0);
    }
  }, 300_000);

  it("does not make $HOME readable because the campaign lives there", async () => {
    const home = join(tmp, "home");
    const key = join(home, ".ssh", "id_ed25519");
    mkdirSync(join(home, ".ssh"), { recursive: true });
    writeFileSync(key, `${secretText}\n`, { mode: 0o600 });
    writeFileSync(join(home, "notes.txt"), `${secretText}\n`);
    const { file, out } = hostileCampaign(home, [{ id: "home-reader", kinds: ["read-secrets"] }], {
      timeouts: "{ buildSeconds: 120, operationSeconds: 20, katSeconds: 30 }",
      options: () => ({ secrets: [key, join(home, "notes.txt"), join(home, "campaign.yaml")] }),
    });
    const r = await runCliWithDescriptors(
      ["run", file, "--out", out, "--steps", "build,kat"],
      {},
      {
        ...process.env,
        HOME: home,
      },
    );
    expect(r.stderr).not.toMatch(INTERNAL_ERROR);
    expect(r.code, r.stderr).toBe(0);
    const text = storeText(out, true);
    expect(text).toMatch(new RegExp(`ngcc-hostile: read ${key}: No such file`));
    expect(text).toMatch(/ngcc-hostile: read [^\n]*notes\.txt: No such file/);
    expect(text).toMatch(/ngcc-hostile: read [^\n]*campaign\.yaml: No such file/);
    expect(storeText(out).includes(secretText)).toBe(false);
    expect(filesUnder(out).some((f) => f.endsWith(".json"))).toBe(true);
    expect(storeRecords(out, "kat")["home-reader/Puffin-128"]?.verdict).toBe("PASS");
  }, 300_000);

  it("runs a Makefile's $(shell …) at init inside the sandbox: nothing of the host in the draft, no file planted", async () => {
    const dir = join(tmp, "make-shell");
    const planted = join(tmp, "home-secret.txt");
    const hostFile = join(tmp, "init-host-file.txt");
    writeFileSync(planted, `${secretText}\n`, { mode: 0o600 });
    writeFileSync(hostFile, "host\n");
    const files: Record<string, string> = {
      "Reference_Implementation/api.h": [
        "#define CRYPTO_SECRETKEYBYTES 64",
        "#define CRYPTO_PUBLICKEYBYTES 32",
        "#define CRYPTO_CIPHERTEXTBYTES 32",
        "#define CRYPTO_BYTES 32",
        '#define CRYPTO_ALGNAME "Shell"',
        "int crypto_kem_keypair(unsigned char *pk, unsigned char *sk);",
        "int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk);",
        "int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk);",
        "",
      ].join("\n"),
      "Reference_Implementation/kem.c": [
        "#include <string.h>",
        '#include "api.h"',
        "int crypto_kem_keypair(unsigned char *pk, unsigned char *sk) { memset(pk, 1, 32); memset(sk, 2, 64); return 0; }",
        "int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk) { memcpy(ct, pk, 32); memcpy(ss, pk, 32); return 0; }",
        "int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk) { (void)sk; memcpy(ss, ct, 32); return 0; }",
        "",
      ].join("\n"),
      // Every $(shell …) runs while make -n reads the Makefile: the secret files, the inherited descriptor,
      // a file outside the scratch copy.
      "Reference_Implementation/Makefile": [
        `LEAK := $(shell cat /etc/shadow ${planted} 2>&1 | head -c 200 | od -An -tx1 | tr -d ' \\n')`,
        "FD := $(shell echo NGCC-LEAK >&200 && echo wrote-fd)",
        `OUT := $(shell echo pwned > ${join(tmp, "pwned-by-make")} && echo wrote-outside)`,
        "CFLAGS = -O2 -std=c99 -DLEAK=$(LEAK) -DFD=$(FD) -DOUT=$(OUT)",
        "shell-kem: ; $(CC) $(CFLAGS) kem.c -o $@",
        "",
      ].join("\n"),
    };
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(join(dir, rel, ".."), { recursive: true });
      writeFileSync(join(dir, rel), text);
    }
    const fd = openSync(hostFile, "a");
    let r: Awaited<ReturnType<typeof runCliWithDescriptors>>;
    try {
      r = await runCliWithDescriptors(["init", dir, "--id", "kem-96"], { 200: fd });
    } finally {
      closeSync(fd);
    }
    expect(r.stderr).not.toMatch(INTERNAL_ERROR);
    expect(r.code, r.stderr).toBe(0);
    const draft = readFileSync(join(dir, "meta.json"), "utf8");
    // The $(shell …) ran (its error messages are what the define holds) and read nothing.
    const leak = /"LEAK=([0-9a-f]*)"/.exec(draft)?.[1] ?? "";
    expect(Buffer.from(leak, "hex").toString("utf8")).toMatch(/\/etc\/shadow: Permission denied/);
    const said = draft + r.stdout + r.stderr;
    const hex = (t: string) => Buffer.from(t).toString("hex");
    expect(said.includes(secretText) || said.includes(hex(secretText))).toBe(false);
    expect(said.includes(hex("root:"))).toBe(false);
    expect(said).not.toMatch(/wrote-fd|wrote-outside/);
    expect(readFileSync(hostFile, "utf8")).toBe("host\n");
    expect(filesUnder(tmp).some((f) => f.endsWith("pwned-by-make"))).toBe(false);
  }, 300_000);

  it("compiles none of meta.json's -f options into the harness's own code (the driver, the KAT generator)", async () => {
    const root = join(tmp, "instrument");
    const { file, out, submissions } = hostileCampaign(
      root,
      [
        {
          id: "instrument",
          kinds: [],
          options: {
            code: {
              // Called at every entry of every function compiled with -finstrument-functions.
              top: [
                "void __cyg_profile_func_enter(void *fn, void *site) __attribute__((no_instrument_function));",
                "void __cyg_profile_func_exit(void *fn, void *site) __attribute__((no_instrument_function));",
                "void __cyg_profile_func_enter(void *fn, void *site) { (void)fn; (void)site; }",
                "void __cyg_profile_func_exit(void *fn, void *site) { (void)fn; (void)site; }",
              ],
            },
          },
        },
      ],
      { timeouts: "{ buildSeconds: 120, operationSeconds: 20, katSeconds: 30 }" },
    );
    const metaFile = join(submissions.instrument as string, "meta.json");
    const meta = JSON.parse(readFileSync(metaFile, "utf8")) as { instances: { cflags?: string[] }[] };
    for (const i of meta.instances) i.cflags = [...(i.cflags ?? []), "-finstrument-functions"];
    writeFileSync(metaFile, `${JSON.stringify(meta, null, 2)}\n`);
    const r = await runCliWithDescriptors(["run", file, "--out", out, "--steps", "build,kat"], {});
    expect(r.stderr).not.toMatch(INTERNAL_ERROR);
    expect(r.code, r.stderr).toBe(0);
    const objects = filesUnder(join(out, "build")).filter((f) => f.endsWith(".o"));
    const calls = (f: string) =>
      spawnSync("nm", ["-u", f], { encoding: "utf8" }).stdout.includes("__cyg_profile_func_enter");
    const own = objects.filter((f) => /\/(obj-driver|gen)\//.test(f));
    const instance = objects.filter((f) => /\/obj\/.*puffin|\/obj\/.*kem/i.test(f));
    expect(own.length).toBeGreaterThan(0);
    expect(instance.length).toBeGreaterThan(0);
    expect(own.filter(calls)).toEqual([]);
    expect(instance.some(calls)).toBe(true); // the instance's own code is compiled as its meta.json says
  }, 300_000);
});
