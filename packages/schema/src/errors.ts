// Errors the user can fix (a bad campaign or record, a missing folder, a compiler not installed): a command
// prints the message alone and exits 2. Anything else thrown is a bug of ngcc-perf itself (exit 70).
export class InputError extends Error {
  override name = "InputError";
}
