// The sandbox of runProcess, for real (bubblewrap is installed where these tests run): what a sandboxed process
// sees, may write and may use, its limits, and how its end is reported.
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { arch, homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { pidsCgroupRoot } from "./cgroup.ts";
import { runProcess } from "./proc.ts";
import { HOST_CONTEXT, type RunContext } from "./run-context.ts";
import { DEFAULT_SANDBOX_LIMITS, sandboxArgv, sandboxPath, secretPaths, signalOfStatus } from "./sandbox.ts";

const tmp = mkdtempSync(join(tmpdir(), "ngcc-sandbox-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The run context of the processes below (a test that changes the sandbox's settings sets it, then puts it back). */
let context: RunContext = HOST_CONTEXT;

const sh = (script: string, o: { cwd?: string; writable?: string[]; timeoutMs?: number } = {}) =>
  runProcess(["sh", "-c", script], { timeoutMs: o.timeoutMs ?? 10_000, ...o, context });

describe("the sandbox", () => {
  it("shows the system read-only and nothing of $HOME, /root, /tmp, /var or /run", async () => {
    const planted = join(homedir(), `.ngcc-sandbox-test-${process.pid}`);
    writeFileSync(planted, "secret\n");
    try {
      const r = await sh(`ls / ; cat ${planted} /etc/shadow; ls /root /home /var /run; ls -A /tmp; touch /usr/x /x`);
      expect(r.sandboxed).toBe(true);
      const top = r.stdout.split("\n");
      for (const hidden of ["root", "home", "var", "run", "srv", "mnt", "boot"]) expect(top).not.toContain(hidden);
      expect(top).toContain("usr");
      expect(r.stdout).not.toMatch(/secret|root:/);
      expect(r.stderr).toMatch(new RegExp(`${planted}: No such file`));
      expect(r.stderr).toMatch(/\/etc\/shadow: Permission denied/);
      expect(r.stderr).toMatch(/\/usr\/x'?: Read-only file system/);
    } finally {
      rmSync(planted, { force: true });
    }
  });

  it("masks the files of /etc no one else may read", () => {
    const found = secretPaths();
    if (existsSync("/etc/shadow")) expect(found.files).toContain("/etc/shadow");
    const dir = join(tmp, "etc");
    mkdirSync(join(dir, "private"), { recursive: true });
    writeFileSync(join(dir, "open"), "x");
    writeFileSync(join(dir, "key"), "x", { mode: 0o600 });
    chmodSync(join(dir, "private"), 0o700);
    const mine = secretPaths([dir]);
    expect(mine.files).toEqual([join(dir, "key")]);
    expect(mine.dirs).toEqual([join(dir, "private")]);
  });

  it("lets a process write its own folders and its private /tmp only", async () => {
    const job = join(tmp, "job");
    const other = join(tmp, "other");
    mkdirSync(job, { recursive: true });
    mkdirSync(other, { recursive: true });
    const r = await sh(`echo a > out.txt && echo b > /tmp/t && echo c > ${other}/x; echo done`, { cwd: job });
    expect(r.stdout.trim()).toBe("done");
    expect(readFileSync(join(job, "out.txt"), "utf8")).toBe("a\n");
    expect(existsSync(join(other, "x"))).toBe(false);
    expect(existsSync("/tmp/t") && readFileSync("/tmp/t", "utf8") === "b\n").toBe(false);
    // A folder named writable: [] stays read-only even as the working folder.
    const ro = await runProcess(["sh", "-c", "echo x > y"], { context, cwd: job, writable: [], timeoutMs: 10_000 });
    expect(ro.exitCode).not.toBe(0);
    expect(existsSync(join(job, "y"))).toBe(false);
  });

  it("masks the files it is told to hide, even inside a readable folder, and through a link to them", async () => {
    const dir = join(tmp, "masked");
    mkdirSync(join(dir, "KAT"), { recursive: true });
    writeFileSync(join(dir, "answer.rsp"), "count = 0\n");
    writeFileSync(join(dir, "KAT", "b.rsp"), "count = 1\n");
    writeFileSync(join(dir, "plain.c"), "int x;\n");
    symlinkSync("answer.rsp", join(dir, "alias.rsp"));
    const r = await runProcess(["sh", "-c", "cat answer.rsp alias.rsp plain.c; ls -A KAT; echo end"], {
      context,
      cwd: dir,
      writable: [],
      hidden: [join(dir, "answer.rsp"), join(dir, "KAT")],
      timeoutMs: 10_000,
    });
    expect(r.stdout).toBe("int x;\nend\n");
  });

  it("refuses tracing, keyrings, bpf, others' counters and unix sockets (seccomp), and another ABI's system calls", async () => {
    const exe = join(tmp, "seccomp-probe");
    const source = fileURLToPath(new URL("./testdata/seccomp-probe.c", import.meta.url));
    const cc = await runProcess(["cc", "-std=gnu99", "-O1", "-o", exe, source], {
      context,
      cwd: tmp,
      writable: [tmp],
      timeoutMs: 60_000,
    });
    expect(cc.stderr).toBe("");
    const r = await runProcess([exe], { context, timeoutMs: 10_000 });
    const said = Object.fromEntries(
      r.stdout
        .trim()
        .split("\n")
        .map((l) => l.split(" ", 2) as [string, string]),
    );
    expect(said).toEqual({
      ptrace: "EPERM",
      process_vm_readv: "EPERM",
      keyctl: "EPERM",
      bpf: "EPERM",
      "perf-other": "EPERM",
      "perf-self": said["perf-self"] === "EPERM" ? "not EPERM" : said["perf-self"],
      "socket-unix": "EACCES",
      "socket-inet": "ok",
    });
    if (arch() === "x64") {
      // Where the kernel has its 32-bit system calls (int $0x80 returns outside the sandbox), the filter kills
      // the call (SIGSYS); a kernel built or booted without them refuses it itself (SIGSEGV, before any filter):
      // either way it must not return inside.
      const host = await runProcess([exe, "int80"], { context: HOST_CONTEXT, sandbox: false, timeoutMs: 10_000 });
      const kernelHasIa32 = /int80 returned/.test(host.stdout);
      const int80 = await runProcess([exe, "int80"], { context, timeoutMs: 10_000 });
      expect(int80.signal).toBe(kernelHasIa32 ? "SIGSYS" : host.signal);
      expect(int80.signal).not.toBeNull();
      expect(int80.stdout).not.toMatch(/int80 returned/);
    }
  });

  it("passes no descriptor but stdin, stdout and stderr into the sandbox: inherited ones are closed", async () => {
    const file = join(tmp, "inherited.txt");
    writeFileSync(file, "host file\n");
    const script = [
      `import { runProcess } from ${JSON.stringify(fileURLToPath(new URL("./proc.ts", import.meta.url)))};`,
      `import { HOST_CONTEXT } from ${JSON.stringify(fileURLToPath(new URL("./run-context.ts", import.meta.url)))};`,
      `const r = await runProcess(["sh", "-c", "ls /proc/self/fd; echo written >&7"], { timeoutMs: 10000, context: HOST_CONTEXT });`,
      "process.stdout.write(JSON.stringify(r));",
    ].join("\n");
    const fd = openSync(file, "a");
    try {
      const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
        stdio: ["ignore", "pipe", "pipe", "ignore", "ignore", "ignore", "ignore", fd],
        encoding: "utf8",
        timeout: 60_000,
      });
      const r = JSON.parse(child.stdout) as { stdout: string; stderr: string };
      expect(r.stdout.trim().split("\n").sort()).toEqual(["0", "1", "2", "3"]); // 3: ls's own listing
      expect(r.stderr).toMatch(/7: Bad file descriptor/);
      expect(readFileSync(file, "utf8")).toBe("host file\n");
    } finally {
      closeSync(fd);
    }
  });

  it("has no network, its own PID namespace and a clean environment", async () => {
    process.env.NGCC_SANDBOX_LEAK = "leak";
    try {
      const r = await sh("cat /proc/net/dev | grep -c : ; echo pid=$$; env | sort");
      const lines = r.stdout.split("\n");
      expect(lines[0]).toBe("1"); // the loopback device only
      expect(r.stdout).toMatch(/pid=[0-9]\n/);
      expect(r.stdout).not.toMatch(/NGCC_SANDBOX_LEAK/);
      expect(r.stdout).toMatch(/^HOME=\/nonexistent$/m);
      expect(r.stdout).toMatch(/^TMPDIR=\/tmp$/m);
      expect(r.stdout).toMatch(/^LANG=C\.UTF-8$/m);
    } finally {
      delete process.env.NGCC_SANDBOX_LEAK;
    }
  });

  it("shows nothing of the caller's environment in any process of the sandbox (bwrap's own is /proc/1)", async () => {
    process.env.NGCC_SANDBOX_LEAK = "leak-through-pid-1";
    try {
      const r = await sh("for f in /proc/[0-9]*/environ; do echo \"== $f\"; tr '\\0' '\\n' < $f; done");
      expect(r.stdout).toMatch(/== \/proc\/1\/environ/);
      expect(r.stdout).not.toContain("leak-through-pid-1");
    } finally {
      delete process.env.NGCC_SANDBOX_LEAK;
    }
  });

  it("keeps sysctls and other kernel interfaces read-only, without capabilities", async () => {
    const before = readFileSync("/proc/sys/kernel/core_pattern", "utf8");
    const r = await sh(
      "echo '|/bin/false' > /proc/sys/kernel/core_pattern; grep -E '^(CapEff|NoNewPrivs)' /proc/self/status; unshare -U true || echo no-userns",
    );
    const after = readFileSync("/proc/sys/kernel/core_pattern", "utf8");
    if (after !== before && process.getuid?.() === 0) writeFileSync("/proc/sys/kernel/core_pattern", before);
    expect(after).toBe(before);
    expect(r.stderr).toMatch(/core_pattern: Read-only file system/);
    expect(r.stdout).toMatch(/CapEff:\s+0+\n/);
    expect(r.stdout).toMatch(/NoNewPrivs:\s+1/);
    expect(r.stdout).toMatch(/no-userns/);
  });

  it("applies the resource limits, with the CPU limit twice the time limit", async () => {
    const r = await runProcess(["cat", "/proc/self/limits"], { context, timeoutMs: 30_000 });
    const limit = (name: string) => new RegExp(`^${name}\\s+(\\S+)\\s+(\\S+)`, "m").exec(r.stdout)?.slice(1, 3);
    expect(limit("Max address space")).toEqual([String(8 * 1024 ** 3), String(8 * 1024 ** 3)]);
    expect(limit("Max cpu time")).toEqual(["60", "61"]);
    expect(limit("Max file size")).toEqual([String(1024 ** 3), String(1024 ** 3)]);
    expect(limit("Max processes")).toEqual(["256", "256"]);
    expect(limit("Max open files")).toEqual(["1024", "1024"]);
    expect(limit("Max core file size")).toEqual(["0", "0"]);
  });

  it("ends a process that spends its CPU time with SIGXCPU, and one that writes too large a file with SIGXFSZ", async () => {
    const saved = context.sandbox;
    context = { ...context, sandbox: { ...saved, limits: { ...saved.limits, cpuSeconds: 1, fileSizeBytes: 4096 } } };
    try {
      const cpu = await sh("while :; do :; done", { timeoutMs: 20_000 });
      expect(cpu.timedOut).toBe(false);
      expect(cpu.signal).toBe("SIGXCPU");
      const big = await sh("head -c 100000 /dev/zero > big", { cwd: tmp });
      expect(big.signal).toBe("SIGXFSZ");
    } finally {
      context = { ...context, sandbox: saved };
    }
  });

  it("holds the process limit even when run as root (a pids cgroup of its own), and removes the cgroup after", async () => {
    const saved = context.sandbox;
    const spawn60 = "i=0; while [ $i -lt 60 ]; do sleep 1 & i=$((i+1)); done; echo started $i";
    try {
      context = { ...context, sandbox: { ...saved, limits: { ...saved.limits, processes: 20 } } };
      const few = await sh(spawn60, { timeoutMs: 20_000 });
      expect(few.stdout).not.toMatch(/started/);
      expect(few.stderr).toMatch(/fork/i);
      context = { ...context, sandbox: { ...saved, limits: { ...saved.limits, processes: 200 } } };
      expect((await sh(spawn60, { timeoutMs: 20_000 })).stdout).toBe("started 60\n");
    } finally {
      context = { ...context, sandbox: saved };
    }
    const root = pidsCgroupRoot();
    if (root) {
      await new Promise((res) => setTimeout(res, 500));
      expect(readdirSync(root).filter((f) => f.startsWith(`${process.pid}-`))).toEqual([]);
    }
  });

  it("stops a process that fills its writable folder beyond writableBytes (many small files count too)", async () => {
    const saved = context.sandbox;
    const job = join(tmp, "flood");
    mkdirSync(job, { recursive: true });
    writeFileSync(join(job, "before.bin"), Buffer.alloc(2 * 1024 * 1024)); // held before: not counted
    context = { ...context, sandbox: { ...saved, limits: { ...saved.limits, writableBytes: 1024 * 1024 } } };
    try {
      const flood = await sh("i=0; while :; do i=$((i+1)); : > f$i; done", { cwd: job, timeoutMs: 60_000 });
      expect(flood.timedOut).toBe(false);
      expect(flood.signal).toBe("SIGKILL");
      expect(flood.stderr).toMatch(
        /ngcc-perf: stopped: the process added \d+ bytes to its writable folders, more than the sandbox allows \(limits\.writableBytes: 1048576\)/,
      );
      rmSync(job, { recursive: true });
      mkdirSync(job);
      const small = await sh("head -c 100000 /dev/zero > a; echo ok", { cwd: job, timeoutMs: 60_000 });
      expect(small.stdout).toBe("ok\n");
    } finally {
      context = { ...context, sandbox: saved };
    }
  });

  it("reports a death by signal as the signal, an exit status as itself", async () => {
    expect((await sh("kill -SEGV $$")).signal).toBe("SIGSEGV");
    const r = await sh("exit 3");
    expect(r.exitCode).toBe(3);
    expect(r.signal).toBeNull();
    expect(signalOfStatus(139, { SIGSEGV: 11 })).toBe("SIGSEGV");
    expect(signalOfStatus(1, { SIGSEGV: 11 })).toBeNull();
  });

  it("kills the whole tree at the time limit and when the process ends: no daemon outlives it", async () => {
    const marker = `sleep ${100_000 + (process.pid % 100_000)}`;
    const r = await sh(`setsid ${marker} & ${marker}`, { timeoutMs: 500 });
    expect(r.timedOut).toBe(true);
    const quick = Date.now();
    const ended = await sh(`setsid ${marker} & echo started`);
    expect(ended.stdout.trim()).toBe("started");
    expect(Date.now() - quick).toBeLessThan(5000);
    await new Promise((res) => setTimeout(res, 200));
    const ps = await runProcess(["ps", "-eo", "args="], { context, timeoutMs: 10_000, sandbox: false });
    expect(ps.stdout).not.toMatch(new RegExp(marker));
  });

  it("reports a program that is not there as spawn does, and runs unconfined when told", async () => {
    expect((await runProcess(["no-such-program-ngcc"], { context, timeoutMs: 5000 })).spawnError).toMatch(/ENOENT/);
    const saved = context.sandbox;
    context = { ...context, sandbox: { ...saved, enabled: false } };
    try {
      const r = await runProcess(["sh", "-c", "ls /"], { context, timeoutMs: 5000 });
      expect(r.sandboxed).toBe(false);
      expect(r.stdout.split("\n")).toContain("root");
    } finally {
      context = { ...context, sandbox: saved };
    }
  });

  it("builds its command line from the settings: limits, writable folders, no limits where null", () => {
    const argv = sandboxArgv(
      { argv: ["/bin/true"], cwd: tmp, cwdGiven: true, writable: [tmp], timeoutMs: 2500, statusFd: 3 },
      {
        enabled: true,
        readable: [],
        limits: { ...DEFAULT_SANDBOX_LIMITS, addressSpaceBytes: null, cpuSeconds: null, processes: 7 },
      },
    );
    expect(argv.join(" ")).toContain(`--bind ${tmp} ${tmp}`);
    expect(argv).toContain("--nproc=7");
    expect(argv.some((a) => a.startsWith("--as="))).toBe(false);
    expect(argv.some((a) => a.startsWith("--cpu="))).toBe(false);
    expect(argv).toContain("--die-with-parent");
    expect(argv).toContain("--unshare-all");
    expect(argv.slice(-2)).toEqual(["--", "/bin/true"]);
    expect(sandboxPath("/root/bin:/usr/bin:/bin")).toBe("/usr/bin:/bin");
  });
});
