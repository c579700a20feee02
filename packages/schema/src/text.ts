// Text from a submission or a campaign as it is shown — on a page (HTML, Markdown, SVG) or on a terminal line. Some
// characters change how the text around them is displayed instead of being displayed: the bidirectional embeddings,
// overrides and isolates (U+202A–U+202E, U+2066–U+2069, which can make "abc.h" read as "h.cba"), the bidi marks,
// the C0 and C1 control characters (a terminal acts on ESC, CR, BS …), DEL, the line and paragraph separators and
// U+FEFF. visibleText shows each of them as the escape `\uXXXX` (uppercase hex), so a reader sees that they are there
// and nothing is reordered, overwritten or hidden. Every page and terminal line goes through this one function
// (docs/security.md, "Text shown").

/** The characters visibleText escapes (line breaks and tabs are handled first, see below). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is escaped.
const UNSAFE_TEXT = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** `\u202E` for U+202E. */
function escapeOf(c: string): string {
  return `\\u${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * One line of text as it may be shown: a run of line breaks (with the blanks around it) becomes one space, a tab a
 * space, and every other control, bidi, separator or BOM character its escape `\uXXXX`. Everything else — letters of
 * any script, emoji, combining marks — is kept as is.
 */
export function visibleText(s: string): string {
  return s
    .replace(/[ \t]*(?:\r\n|[\r\n])+[ \t]*/g, " ")
    .replace(/\t/g, " ")
    .replace(UNSAFE_TEXT, escapeOf);
}

/** Several lines (a terminal message): each line through visibleText, the line breaks kept as "\n". */
export function visibleLines(s: string): string {
  return s
    .split(/\r\n|\n/)
    .map((line) => visibleText(line))
    .join("\n");
}

/** A value quoted in a message, cut to `max` characters with an ellipsis (and made visible). */
export function shortText(s: string, max = 80): string {
  // Only the start is looked at: a 20 MB value costs no more than a short one.
  const head = s.length > max * 4 ? s.slice(0, max * 4) : s;
  const v = visibleText(head);
  return v.length > max || head.length < s.length ? `${v.slice(0, Math.max(0, max - 1))}…` : v;
}
