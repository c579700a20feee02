// Errors the user can fix (a bad campaign or record, a missing folder, a compiler not installed): a command
// prints the message alone and exits 2. Anything else thrown is a bug of ngcc-perf itself (exit 70).
export class InputError extends Error {
  override name = "InputError";
}

/** A problem at a place of a file: a ValidationError, an IntegrityFinding of an inconsistent record. */
export interface LocatedProblem {
  /** JSON pointer (RFC 6901) of the offending value; "" (or absent) for the whole document. */
  pointer?: string;
  message: string;
  /** 1-based line and column in the file; 1:1 when not known. */
  line?: number;
  column?: number;
}

/** "line:col pointer message": where in its file the problem is ("(root)" for the whole document), and what. */
export function formatProblem(e: LocatedProblem): string {
  return `${e.line ?? 1}:${e.column ?? 1} ${e.pointer || "(root)"} ${e.message}`;
}

/** "file:line:col pointer message": the one form in which every command names a problem in a file. */
export function formatFileProblem(file: string, e: LocatedProblem): string {
  return `${file}:${formatProblem(e)}`;
}
