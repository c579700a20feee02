// The seccomp filter of every sandboxed process (docs/security.md): a classic BPF program, as the kernel's
// seccomp(2) takes it and bubblewrap's `--seccomp FD` loads it, built here from the syscall numbers of the host's
// architecture. It refuses what code in the sandbox needs no part of and what would let it see or steer a
// process outside itself: tracing (`ptrace`, `process_vm_readv`, `process_vm_writev`), the kernel keyrings
// (`keyctl`, `add_key`, `request_key`), `bpf`, performance counters of anything but the calling thread
// (`perf_event_open` with pid ≠ 0 or cpu ≠ -1; the driver counts its own thread, pid 0, cpu -1), and unix
// sockets (`socket(AF_UNIX, …)`: seccomp cannot see a socket's path, so none is allowed — the builds and the
// operations need none). Every other architecture's system calls (i386's `int 0x80` from an x86-64 process,
// x32, arm32 from aarch64) end the process, so no second syscall table gets around the numbers below.
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { arch as hostArch, tmpdir } from "node:os";
import { join } from "node:path";

/** struct seccomp_data: nr (u32), arch (u32), instruction_pointer (u64), args[6] (u64, little-endian here). */
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const argLow = (i: number) => 16 + 8 * i;

// BPF instruction classes and modes (linux/filter.h).
const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_JGE_K = 0x35;
const BPF_RET_K = 0x06;

// seccomp return actions (linux/seccomp.h).
const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const retErrno = (errno: number) => 0x00050000 | (errno & 0xffff);
const EPERM = 1;
const EACCES = 13;
const AF_UNIX = 1;

export interface SyscallTable {
  /** AUDIT_ARCH_* of the native ABI. */
  auditArch: number;
  /** Syscall numbers at or above this are another ABI's (x32); null where there is none. */
  foreignFrom: number | null;
  denied: Record<string, number>;
  socket: number;
  perfEventOpen: number;
}

/** The host architectures ngcc-perf runs on (the syscall numbers of their native ABIs). */
export const SYSCALL_TABLES: Record<string, SyscallTable> = {
  x64: {
    auditArch: 0xc000003e,
    foreignFrom: 0x40000000,
    denied: {
      ptrace: 101,
      process_vm_readv: 310,
      process_vm_writev: 311,
      add_key: 248,
      request_key: 249,
      keyctl: 250,
      bpf: 321,
    },
    socket: 41,
    perfEventOpen: 298,
  },
  arm64: {
    auditArch: 0xc00000b7,
    foreignFrom: null,
    denied: {
      ptrace: 117,
      process_vm_readv: 270,
      process_vm_writev: 271,
      add_key: 217,
      request_key: 218,
      keyctl: 219,
      bpf: 280,
    },
    socket: 198,
    perfEventOpen: 241,
  },
};

interface Insn {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

const load = (offset: number): Insn => ({ code: BPF_LD_W_ABS, jt: 0, jf: 0, k: offset });
const ret = (action: number): Insn => ({ code: BPF_RET_K, jt: 0, jf: 0, k: action >>> 0 });

/**
 * The filter's instructions for `table`. Jumps are relative, so the program is laid out as: the architecture
 * check, one comparison per denied number (each jumping to the EPERM return), the socket and perf_event_open
 * branches, ALLOW; then the returns they jump to.
 */
export function seccompProgram(table: SyscallTable): Insn[] {
  const denied = Object.values(table.denied);
  const p: Insn[] = [];
  // Labels resolved after layout: index of the instruction each named target is.
  const fixups: { at: number; whenTrue?: string; whenFalse?: string }[] = [];
  const jump = (code: number, k: number, whenTrue?: string, whenFalse?: string) => {
    fixups.push({ at: p.length, ...(whenTrue ? { whenTrue } : {}), ...(whenFalse ? { whenFalse } : {}) });
    p.push({ code, jt: 0, jf: 0, k: k >>> 0 });
  };
  p.push(load(OFFSET_ARCH));
  jump(BPF_JEQ_K, table.auditArch, undefined, "kill");
  p.push(load(OFFSET_NR));
  if (table.foreignFrom !== null) jump(BPF_JGE_K, table.foreignFrom, "kill");
  for (const nr of denied) jump(BPF_JEQ_K, nr, "eperm");
  jump(BPF_JEQ_K, table.socket, "socket");
  jump(BPF_JEQ_K, table.perfEventOpen, "perf");
  p.push(ret(RET_ALLOW));
  const labels: Record<string, number> = {};
  labels.socket = p.length;
  p.push(load(argLow(0)));
  jump(BPF_JEQ_K, AF_UNIX, "eacces");
  p.push(ret(RET_ALLOW));
  labels.perf = p.length;
  // pid (args[1]) must be 0 and cpu (args[2]) -1: the calling thread, on whatever CPU it runs.
  p.push(load(argLow(1)));
  jump(BPF_JEQ_K, 0, undefined, "eperm");
  p.push(load(argLow(2)));
  jump(BPF_JEQ_K, 0xffffffff, undefined, "eperm");
  p.push(ret(RET_ALLOW));
  labels.eperm = p.length;
  p.push(ret(retErrno(EPERM)));
  labels.eacces = p.length;
  p.push(ret(retErrno(EACCES)));
  labels.kill = p.length;
  p.push(ret(RET_KILL_PROCESS));
  for (const f of fixups) {
    const insn = p[f.at] as Insn;
    const offset = (label: string | undefined) => {
      if (!label) return 0;
      const target = labels[label];
      if (target === undefined) throw new Error(`seccomp: no label ${label}`);
      const d = target - f.at - 1;
      if (d < 0 || d > 255) throw new Error(`seccomp: jump to ${label} out of range`);
      return d;
    };
    insn.jt = offset(f.whenTrue);
    insn.jf = offset(f.whenFalse);
  }
  return p;
}

/** The program as the kernel reads it: struct sock_filter { u16 code; u8 jt; u8 jf; u32 k; }, little-endian. */
export function encodeProgram(insns: readonly Insn[]): Buffer {
  const b = Buffer.alloc(insns.length * 8);
  insns.forEach((insn, i) => {
    b.writeUInt16LE(insn.code, i * 8);
    b.writeUInt8(insn.jt, i * 8 + 2);
    b.writeUInt8(insn.jf, i * 8 + 3);
    b.writeUInt32LE(insn.k >>> 0, i * 8 + 4);
  });
  return b;
}

let programFile: string | null = null;

/**
 * A new read descriptor on this host's filter (bubblewrap reads it to its end, so each sandbox gets its own);
 * null on an architecture without a table (the sandbox then runs without the filter, and says so).
 */
export function openSeccompProgram(arch = hostArch()): number | null {
  const table = SYSCALL_TABLES[arch];
  if (!table) return null;
  if (!programFile) {
    const dir = mkdtempSync(join(tmpdir(), "ngcc-seccomp-"));
    const file = join(dir, "filter.bpf");
    writeFileSync(file, encodeProgram(seccompProgram(table)), { mode: 0o400 });
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    programFile = file;
  }
  return openSync(programFile, "r");
}

export function closeDescriptor(fd: number | null): void {
  if (fd === null) return;
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

/** Whether the host has a filter (its architecture is one of SYSCALL_TABLES). */
export function seccompAvailable(arch = hostArch()): boolean {
  return SYSCALL_TABLES[arch] !== undefined;
}
