// The code-size record: code and data size by ELF section of one instance's own objects under one build profile,
// beside the loadable image of its shared library (the `code-size` step, docs/methodology.md "Memory").
import { arr, nat, obj, pickDefs, str } from "./common.ts";
import { instanceRecord, jobFields } from "./header.ts";
import { SECTIONS_DESCRIPTION, sectionSizes } from "./section-sizes.ts";

export const codeSize = instanceRecord({
  kind: "code-size",
  title: "ngcc-perf code-size record",
  description:
    "Code and data size of one instance under one build profile: its own objects' allocated ELF sections by kind (text, rodata, data, bss, unwind), read from their section headers, and the loadable image (PT_LOAD segments) of the instance's shared library. Exact and repeatable: no process is run.",
  fields: {
    ...jobFields("How the measured objects were built (the timing build; build.artifact its shared library)."),
    sections: sectionSizes(SECTIONS_DESCRIPTION),
    image: obj("The instance's shared library as loaded.", {
      elfImageBytes: nat(
        "The sum of the memory sizes of its PT_LOAD segments (the timing record's memory.elfImageBytes): the instance's code and data after the link, with the support code linked into it, alignment and the dynamic-linking tables.",
      ),
      file: str("The shared library read (its path in the build cache)."),
    }),
    limits: arr("What could not be read, and why (an object that is not ELF).", { type: "string" }),
  },
  defs: pickDefs("provenance", "failure", "build"),
  ok: { required: ["build", "image"] },
});
