/** What init's build-system readers share: where the submission and its scratch copy are, the compiler. */
export interface ReadContext {
  /** The submission folder (absolute). */
  dir: string;
  /** Its copy in the scratch folder (build systems run there; only the scratch folder is writable). */
  copy: string;
  /** The scratch folder. */
  work: string;
  cc: string;
  rel: (p: string) => string;
}

/** One instance's compile set as the package's build system compiles it (paths absolute, in the submission). */
export interface CompileSet {
  /** A name from the build: the variables' values (`sphincs-haraka-128f-simple`) or the program (`test_kyber512`). */
  label: string;
  /** What the set was read from, for `decided`: "make -n -B PARAMS=… PQCgenKAT_sign in Reference_Implementation". */
  from: string;
  /** The folder the build ran in (the instance's folder). */
  folder: string;
  program: string;
  sources: string[];
  defines: string[];
  includeDirs: string[];
  cflags: string[];
  libraries: string[];
  /** Compile-line flags not carried, each with why. */
  dropped: string[];
  /** Defines and cflags on the compile lines of some of the sources only (carried for all: the union). */
  partial: string[];
  /** Read from a library the build makes (no program): the sources its objects need are completed by symbol. */
  archive?: boolean;
}

export interface BuildReading {
  /** "make" | "cmake". */
  system: string;
  sets: CompileSet[];
  decided: string[];
  undecided: string[];
}
