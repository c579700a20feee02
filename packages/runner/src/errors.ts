// Errors the user can fix (bad campaign, missing folder, compiler not installed): the CLI prints the
// message alone and exits 2. Anything else thrown is a bug of ours.
export class InputError extends Error {
  override name = "InputError";
}
