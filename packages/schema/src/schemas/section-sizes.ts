// Code and data size by ELF section of an instance's own objects: the code-size record's figures (and, in records
// written before that record kind, the memory record's `sections`).
import { arr, nat, obj, str } from "./common.ts";

/** The section sizes object, described as `description` says. */
export const sectionSizes = (description: string) =>
  obj(
    description,
    {
      textBytes: nat("Executable sections (.text*): code."),
      rodataBytes: nat("Read-only data sections (.rodata*, constants), unwind tables (.eh_frame) left out."),
      dataBytes: nat("Writable initialised data sections (.data*, .data.rel.ro*)."),
      bssBytes: nat("Zero-initialised data sections (.bss*, .tbss, COMMON symbols)."),
      objects: arr("The objects summed (file names in the build's obj/ folder).", { type: "string" }),
      method: str("How, e.g. the ELF section headers read in TypeScript."),
    },
    {
      unwindBytes: nat("Unwind tables (.eh_frame*), not in rodataBytes: embedded builds usually leave them out."),
    },
  );

/** What the code-size record's sections are. */
export const SECTIONS_DESCRIPTION =
  "Code and data size of the instance's own objects (its sources and support code as compiled for this build profile, without the randomness source the harness replaces, the driver and the C library): the sums of the sizes of their allocated ELF sections by kind, read from the section headers. Before the link: alignment padding, linker garbage collection and the C library's code are not in it.";
