// Code and data size by section of ELF objects, read from their section headers here (no tool run on objects
// compiled from submitted code). Used by the memory step for the instance's own objects (docs/methodology.md,
// "Memory").

/** Section sizes by kind, in bytes. */
export interface SectionSizes {
  textBytes: number;
  rodataBytes: number;
  dataBytes: number;
  bssBytes: number;
  unwindBytes: number;
}

const SHT_NOBITS = 8;
const SHF_WRITE = 0x1;
const SHF_ALLOC = 0x2;
const SHF_EXECINSTR = 0x4;
const SHN_COMMON = 0xfff2;
const SHT_SYMTAB = 2;
const STB_GLOBAL = 1;
const STB_WEAK = 2;

export class ElfError extends Error {}

/** Which kind an allocated section counts as: text (executable), bss (no bits), data (writable), unwind, rodata. */
export function sectionKind(name: string, type: number, flags: number): keyof SectionSizes | null {
  if ((flags & SHF_ALLOC) === 0) return null;
  if (flags & SHF_EXECINSTR) return "textBytes";
  if (type === SHT_NOBITS) return "bssBytes";
  if (flags & SHF_WRITE) return "dataBytes";
  if (name === ".eh_frame" || name.startsWith(".eh_frame.") || name === ".eh_frame_hdr") return "unwindBytes";
  return "rodataBytes";
}

interface Parsed {
  is64: boolean;
  u16: (o: number) => number;
  u32: (o: number) => number;
  word: (o: number) => number;
  sections: {
    name: string;
    type: number;
    flags: number;
    offset: number;
    size: number;
    link: number;
    entsize: number;
  }[];
}

function parse(buf: Buffer): Parsed {
  if (buf.length < 52 || buf.readUInt32BE(0) !== 0x7f454c46) throw new ElfError("not an ELF file");
  const is64 = buf[4] === 2;
  if (!is64 && buf[4] !== 1) throw new ElfError(`unknown ELF class ${buf[4]}`);
  const le = buf[5] === 1;
  if (!le && buf[5] !== 2) throw new ElfError(`unknown ELF byte order ${buf[5]}`);
  const u16 = (o: number) => (le ? buf.readUInt16LE(o) : buf.readUInt16BE(o));
  const u32 = (o: number) => (le ? buf.readUInt32LE(o) : buf.readUInt32BE(o));
  const word = (o: number) => {
    if (!is64) return u32(o);
    const v = le ? buf.readBigUInt64LE(o) : buf.readBigUInt64BE(o);
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new ElfError("a size or offset beyond 2^53");
    return Number(v);
  };
  if (is64 && buf.length < 64) throw new ElfError("truncated ELF header");
  const shoff = word(is64 ? 0x28 : 0x20);
  const shentsize = u16(is64 ? 0x3a : 0x2e);
  const shnum = u16(is64 ? 0x3c : 0x30);
  const shstrndx = u16(is64 ? 0x3e : 0x32);
  if (shnum === 0) throw new ElfError("no section headers");
  if (shentsize < (is64 ? 64 : 40) || shoff + shnum * shentsize > buf.length)
    throw new ElfError("section headers outside the file");
  if (shstrndx >= shnum) throw new ElfError("no section name table");
  const raw = Array.from({ length: shnum }, (_x, i) => {
    const o = shoff + i * shentsize;
    const h = {
      nameOffset: u32(o),
      type: u32(o + 4),
      flags: word(o + 8),
      offset: word(is64 ? o + 0x18 : o + 0x10),
      size: word(is64 ? o + 0x20 : o + 0x14),
      link: u32(is64 ? o + 0x28 : o + 0x18),
      entsize: word(is64 ? o + 0x38 : o + 0x24),
    };
    if (h.type !== SHT_NOBITS && h.offset + h.size > buf.length) throw new ElfError(`section ${i} outside the file`);
    return h;
  });
  const strtab = raw[shstrndx] as (typeof raw)[number];
  const sections = raw.map(({ nameOffset, ...h }) => ({ ...h, name: stringAt(buf, strtab, nameOffset) }));
  return { is64, u16, u32, word, sections };
}

/** The NUL-terminated string at off in a string table section ("" outside it). */
function stringAt(buf: Buffer, table: { offset: number; size: number }, off: number): string {
  if (off >= table.size) return "";
  const start = table.offset + off;
  const limit = table.offset + table.size;
  const end = buf.indexOf(0, start);
  return buf.toString("latin1", start, end < 0 || end > limit ? limit : end);
}

/** The symbol table entries: name, binding, section index, size. */
function symbols(buf: Buffer, p: Parsed) {
  const out: { name: string; bind: number; shndx: number; size: number }[] = [];
  for (const h of p.sections) {
    if (h.type !== SHT_SYMTAB) continue;
    const ent = h.entsize || (p.is64 ? 24 : 16);
    if (ent < (p.is64 ? 24 : 16)) throw new ElfError("symbol table entries too small");
    const names = p.sections[h.link];
    if (!names) throw new ElfError("symbol table without a string table");
    for (let o = h.offset; o + ent <= h.offset + h.size; o += ent) {
      const info = buf[p.is64 ? o + 4 : o + 12] as number;
      out.push({
        name: stringAt(buf, names, p.u32(o)),
        bind: info >> 4,
        shndx: p.u16(p.is64 ? o + 6 : o + 14),
        size: p.is64 ? p.word(o + 16) : p.u32(o + 8),
      });
    }
  }
  return out;
}

/**
 * The allocated sections of one ELF file (32- or 64-bit, either byte order) summed by kind, plus COMMON symbols
 * (tentative definitions, which gcc before 10 or -fcommon leaves out of .bss in an object) as bss. Throws ElfError
 * on a file that is not ELF or whose headers point outside it.
 */
export function elfSectionSizes(buf: Buffer): SectionSizes {
  const p = parse(buf);
  const sizes: SectionSizes = { textBytes: 0, rodataBytes: 0, dataBytes: 0, bssBytes: 0, unwindBytes: 0 };
  for (const h of p.sections) {
    const kind = sectionKind(h.name, h.type, h.flags);
    if (kind) sizes[kind] += h.size;
  }
  for (const s of symbols(buf, p)) if (s.shndx === SHN_COMMON) sizes.bssBytes += s.size;
  return sizes;
}

/** The global and weak symbols an object defines and those it references without defining. */
export function elfSymbols(buf: Buffer): { defined: string[]; undefined: string[] } {
  const defined: string[] = [];
  const undef: string[] = [];
  for (const s of symbols(buf, parse(buf))) {
    if (!s.name || (s.bind !== STB_GLOBAL && s.bind !== STB_WEAK)) continue;
    (s.shndx === 0 ? undef : defined).push(s.name);
  }
  return { defined, undefined: undef };
}

/**
 * The objects a static link pulls in, as from an archive: every root, then every other object that defines a
 * symbol an object already taken references, until none is added. Indices into objects.
 */
export function pulledObjects(
  objects: readonly { defined: readonly string[]; undefined: readonly string[] }[],
  roots: readonly number[],
): number[] {
  const taken = new Set(roots);
  const wanted = new Set<string>();
  for (const r of roots) for (const u of objects[r]?.undefined ?? []) wanted.add(u);
  let added = true;
  while (added) {
    added = false;
    for (const [k, o] of objects.entries()) {
      if (taken.has(k) || !o.defined.some((d) => wanted.has(d))) continue;
      taken.add(k);
      for (const u of o.undefined) wanted.add(u);
      added = true;
    }
  }
  return [...taken].sort((a, b) => a - b);
}

/** The sums of elfSectionSizes over several files. */
export function addSectionSizes(all: readonly SectionSizes[]): SectionSizes {
  const sum: SectionSizes = { textBytes: 0, rodataBytes: 0, dataBytes: 0, bssBytes: 0, unwindBytes: 0 };
  for (const s of all) for (const k of Object.keys(sum) as (keyof SectionSizes)[]) sum[k] += s[k];
  return sum;
}
