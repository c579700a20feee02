// Maps JSON pointers to line and column in the text a value was parsed from.
import { findNodeAtLocation, type Node, parseTree } from "jsonc-parser";
import { type Document, isMap, isNode, isScalar, type LineCounter } from "yaml";

export interface Position {
  line: number;
  column: number;
}

/** Splits an RFC 6901 JSON pointer into its reference tokens. */
export function pointerTokens(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Builds a JSON pointer from tokens. */
export function toPointer(tokens: ReadonlyArray<string | number>): string {
  return tokens.map((t) => `/${String(t).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

/** Line/column (1-based) of a character offset. */
export function offsetToPosition(text: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(Math.max(offset, 0), text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

export interface Locator {
  /** Position of the value at `pointer`, or of its nearest existing ancestor; `key` prefers the property name. */
  locate(pointer: string, key?: boolean): Position;
}

export function jsonLocator(text: string): Locator {
  const tree = parseTree(text, [], { disallowComments: true, allowTrailingComma: false });
  return {
    locate(pointer, key = false) {
      if (!tree) return { line: 1, column: 1 };
      const tokens = pointerTokens(pointer).map((t) => (/^(0|[1-9]\d*)$/.test(t) ? Number(t) : t));
      for (let n = tokens.length; n >= 0; n--) {
        const path = tokens.slice(0, n);
        const node: Node | undefined = n === 0 ? tree : findNodeAtLocation(tree, path);
        if (node) {
          // A property value's parent is the "property" node whose first child is the key.
          const target = key && node.parent?.type === "property" ? (node.parent.children?.[0] ?? node) : node;
          return offsetToPosition(text, target.offset);
        }
      }
      return { line: 1, column: 1 };
    },
  };
}

export function yamlLocator(doc: Document, lineCounter: LineCounter): Locator {
  return {
    locate(pointer, key = false) {
      const tokens = pointerTokens(pointer).map((t) => (/^(0|[1-9]\d*)$/.test(t) ? Number(t) : t));
      // A property name (an unknown field): the key of its pair in the parent mapping.
      const last = tokens[tokens.length - 1];
      const parent =
        !key || last === undefined
          ? undefined
          : tokens.length === 1
            ? doc.contents
            : doc.getIn(tokens.slice(0, -1), true);
      if (isMap(parent)) {
        const pair = parent.items.find((p) => isScalar(p.key) && String(p.key.value) === String(last));
        if (pair && isNode(pair.key) && pair.key.range) {
          const pos = lineCounter.linePos(pair.key.range[0]);
          return { line: pos.line, column: pos.col };
        }
      }
      for (let n = tokens.length; n >= 0; n--) {
        const node = n === 0 ? doc.contents : doc.getIn(tokens.slice(0, n), true);
        if (isNode(node) && node.range) {
          const pos = lineCounter.linePos(node.range[0]);
          return { line: pos.line, column: pos.col };
        }
      }
      return { line: 1, column: 1 };
    },
  };
}
