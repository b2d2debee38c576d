/**
 * Rejects regular expressions prone to catastrophic backtracking before a session can hang on one.
 *
 * A backtracking engine goes exponential when a repeated part can match the same text in more
 * than one way. Two shapes cover the classic cases, and both are detected here on a small parse
 * of the pattern:
 * - a repeat inside a repeat: `(a+)+`, `(\w*)*`, `(x+y?){2,}`;
 * - a repeated alternation whose branches can start with the same character: `(a|ab)*`, `(\w|\d)+`.
 * A third shape is polynomial but still fatal on long text: two unbounded repeats in sequence
 * that can match the same characters, with everything between them matchable by the first and
 * something after the second that can fail: `a.*b.*c`, `\bx\b.*\band\b.*\bbecause\b` (cubic: a
 * 5,000-character message takes seconds, a workflow task has five). A single repeat (`a.*b`) or
 * a last repeat nothing can fail after (`.*foo.*`) is at most quadratic, and `message_regex`
 * only looks at the first MESSAGE_REGEX_TEXT_LIMIT characters of a message.
 */

type CharSet = boolean[]; // index 0..127 for ASCII, 128 for "any other character"
const SIZE = 129;

type Node =
  | { kind: "chars"; set: CharSet }
  | { kind: "empty" } // assertions and anchors: match no character
  | { kind: "group"; branches: Node[][] }
  | { kind: "repeat"; node: Node; min: number; max: number; source: string };

function setOf(predicate: (code: number) => boolean, other: boolean): CharSet {
  const set = Array.from({ length: SIZE }, (_, code) => (code < 128 ? predicate(code) : other));
  return set;
}

const anySet = (): CharSet => setOf(() => true, true);
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isWord = (c: number): boolean =>
  isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13);

function escapeSet(letter: string, ignoreCase: boolean): CharSet {
  switch (letter) {
    case "d":
      return setOf(isDigit, false);
    case "D":
      return setOf((c) => !isDigit(c), true);
    case "w":
      return setOf(isWord, false);
    case "W":
      return setOf((c) => !isWord(c), true);
    case "s":
      return setOf(isSpace, true);
    case "S":
      return setOf((c) => !isSpace(c), true);
    case "n":
      return literal("\n", false);
    case "t":
      return literal("\t", false);
    case "r":
      return literal("\r", false);
    default:
      // \p{…}, \u…, \x…, back-references: treat as "could be anything".
      if (/[pPuxc0-9k]/.test(letter)) return anySet();
      return literal(letter, ignoreCase);
  }
}

function literal(char: string, ignoreCase: boolean): CharSet {
  const code = char.charCodeAt(0);
  if (code >= 128) return setOf(() => false, true);
  const lower = char.toLowerCase().charCodeAt(0);
  const upper = char.toUpperCase().charCodeAt(0);
  return setOf((c) => c === code || (ignoreCase && (c === lower || c === upper)), false);
}

function union(a: CharSet, b: CharSet): CharSet {
  return a.map((value, index) => value || (b[index] ?? false));
}

function overlaps(a: CharSet, b: CharSet): boolean {
  return a.some((value, index) => value && (b[index] ?? false));
}

class Parser {
  private position = 0;
  private readonly pattern: string;
  private readonly ignoreCase: boolean;

  constructor(pattern: string, ignoreCase: boolean) {
    this.pattern = pattern;
    this.ignoreCase = ignoreCase;
  }

  parse(): Node {
    const node = this.alternation();
    return node;
  }

  private peek(): string | undefined {
    return this.pattern[this.position];
  }

  private alternation(): Node {
    const branches: Node[][] = [this.sequence()];
    while (this.peek() === "|") {
      this.position++;
      branches.push(this.sequence());
    }
    return { kind: "group", branches };
  }

  private sequence(): Node[] {
    const items: Node[] = [];
    for (
      let char = this.peek();
      char !== undefined && char !== "|" && char !== ")";
      char = this.peek()
    ) {
      const start = this.position;
      const atom = this.atom();
      items.push(this.quantified(atom, start));
    }
    return items;
  }

  private atom(): Node {
    const char = this.pattern[this.position++] ?? "";
    switch (char) {
      case "(": {
        let lookaround = false;
        if (this.peek() === "?") {
          const rest = this.pattern.slice(this.position, this.position + 3);
          lookaround = /^\?(=|!|<=|<!)/.test(rest);
          const named = /^\?<[A-Za-z_$][\w$]*>/.exec(this.pattern.slice(this.position));
          this.position += named ? named[0].length : rest.startsWith("?<") ? 3 : 2;
        }
        const inner = this.alternation();
        this.position++; // ")"
        return lookaround ? { kind: "empty" } : inner;
      }
      case "[":
        return { kind: "chars", set: this.characterClass() };
      case ".":
        return { kind: "chars", set: anySet() };
      case "^":
      case "$":
        return { kind: "empty" };
      case "\\": {
        const letter = this.pattern[this.position++] ?? "\\";
        return letter === "b" || letter === "B"
          ? { kind: "empty" }
          : { kind: "chars", set: escapeSet(letter, this.ignoreCase) };
      }
      default:
        return { kind: "chars", set: literal(char, this.ignoreCase) };
    }
  }

  private characterClass(): CharSet {
    let negated = false;
    if (this.peek() === "^") {
      negated = true;
      this.position++;
    }
    let set = setOf(() => false, false);
    let first = true;
    while (this.position < this.pattern.length && (this.peek() !== "]" || first)) {
      first = false;
      let char = this.pattern[this.position++] ?? "";
      if (char === "\\") {
        const letter = this.pattern[this.position++] ?? "\\";
        set = union(set, escapeSet(letter, this.ignoreCase));
        continue;
      }
      if (
        this.peek() === "-" &&
        this.pattern[this.position + 1] !== "]" &&
        this.position + 1 < this.pattern.length
      ) {
        this.position++;
        const end = this.pattern[this.position++] ?? char;
        const from = char.charCodeAt(0);
        const to = end.charCodeAt(0);
        set = union(
          set,
          setOf((c) => c >= from && c <= to, to >= 128),
        );
        char = "";
        continue;
      }
      set = union(set, literal(char, this.ignoreCase));
    }
    this.position++; // "]"
    return negated ? set.map((value) => !value) : set;
  }

  private quantified(atom: Node, start: number): Node {
    const char = this.peek();
    let min: number;
    let max: number;
    if (char === "*" || char === "+" || char === "?") {
      this.position++;
      min = char === "+" ? 1 : 0;
      max = char === "?" ? 1 : Infinity;
    } else if (char === "{") {
      const braces = /^\{(\d+)(,(\d*))?\}/.exec(this.pattern.slice(this.position));
      if (!braces) return atom;
      this.position += braces[0].length;
      min = Number(braces[1]);
      max = braces[2] === undefined ? min : braces[3] === "" ? Infinity : Number(braces[3]);
    } else {
      return atom;
    }
    if (this.peek() === "?") this.position++; // lazy: same backtracking space
    return {
      kind: "repeat",
      node: atom,
      min,
      max,
      source: this.pattern.slice(start, this.position),
    };
  }
}

function nullable(node: Node): boolean {
  switch (node.kind) {
    case "chars":
      return false;
    case "empty":
      return true;
    case "repeat":
      return node.min === 0 || nullable(node.node);
    case "group":
      return node.branches.some((branch) => branch.every(nullable));
  }
}

function firstChars(node: Node): CharSet {
  switch (node.kind) {
    case "chars":
      return node.set;
    case "empty":
      return setOf(() => false, false);
    case "repeat":
      return firstChars(node.node);
    case "group":
      return node.branches.map(firstOfSequence).reduce(
        union,
        setOf(() => false, false),
      );
  }
}

function firstOfSequence(items: readonly Node[]): CharSet {
  let set = setOf(() => false, false);
  for (const item of items) {
    set = union(set, firstChars(item));
    if (!nullable(item)) break;
  }
  return set;
}

function containsUnboundedRepeat(node: Node): boolean {
  switch (node.kind) {
    case "repeat":
      return node.max === Infinity || containsUnboundedRepeat(node.node);
    case "group":
      return node.branches.some((branch) => branch.some(containsUnboundedRepeat));
    default:
      return false;
  }
}

/** Two overlapping unbounded repeats in one sequence, as described at the top of this file. */
function polynomialProblem(items: readonly Node[]): string | undefined {
  const unbounded = items.flatMap((item, index) =>
    item.kind === "repeat" && item.max === Infinity ? [{ item, index }] : [],
  ) as { item: Extract<Node, { kind: "repeat" }>; index: number }[];
  for (const [n, first] of unbounded.entries()) {
    const consumed = firstChars(first.item.node);
    for (const second of unbounded.slice(n + 1)) {
      if (!overlaps(consumed, firstChars(second.item.node))) continue;
      const between = items.slice(first.index + 1, second.index);
      if (!between.every((item) => nullable(item) || overlaps(consumed, firstChars(item))))
        continue;
      if (items.slice(second.index + 1).every(nullable)) continue;
      return `"${first.item.source}" and "${second.item.source}" both repeat without bound over the same characters, which takes polynomial time on a long message that does not match (seconds at a few thousand characters); make one of them specific (e.g. [^,]* instead of .*) or bound it ({0,200})`;
    }
  }
  return undefined;
}

function findProblem(node: Node): string | undefined {
  if (node.kind === "group") {
    for (const branch of node.branches) {
      const polynomial = polynomialProblem(branch);
      if (polynomial !== undefined) return polynomial;
      for (const item of branch) {
        const problem = findProblem(item);
        if (problem !== undefined) return problem;
      }
    }
    return undefined;
  }
  if (node.kind !== "repeat") return undefined;
  if (node.max > 1) {
    if (containsUnboundedRepeat(node.node)) {
      return `"${node.source}" repeats a part that itself repeats without bound (nested quantifiers), which can take exponential time; rewrite it without the inner repeat`;
    }
    const inner = node.node;
    if (inner.kind === "group" && inner.branches.length > 1) {
      const firsts = inner.branches.map(firstOfSequence);
      for (let i = 0; i < firsts.length; i++) {
        for (let j = i + 1; j < firsts.length; j++) {
          if (overlaps(firsts[i] ?? [], firsts[j] ?? [])) {
            return `"${node.source}" repeats alternatives that can match the same text, which can take exponential time; make the alternatives start differently`;
          }
        }
      }
    }
  }
  return findProblem(node.node);
}

/** Why the pattern is unsafe, or undefined when it is fine. Assumes the pattern compiles. */
export function catastrophicBacktrackingReason(pattern: string, flags = ""): string | undefined {
  const tree = new Parser(pattern, flags.includes("i")).parse();
  return findProblem(tree);
}
