/**
 * Names the backtracking-only feature behind an RE2 syntax error, with how to do without it, so
 * a template author sees "uses a lookahead" rather than "invalid or unsupported Perl syntax".
 * RE2 leaves these out on purpose: each needs backtracking, which is what lets one message stall
 * a session. Undefined when the error is an ordinary mistake (RE2's own message says it well).
 */
export function unsupportedFeature(description: string, snippet: string): string | undefined {
  const named = featureOf(description, snippet);
  if (named === undefined) return undefined;
  return `uses ${named.feature} ("${named.syntax}"), which the linear-time regular expression engine (RE2) does not support; ${named.fix}`;
}

interface Feature {
  feature: string;
  syntax: string;
  fix: string;
}

const perlGroups: [prefix: string, feature: string, fix: string][] = [
  ["(?=", "a lookahead", "match the text itself, or split the test into two conditions"],
  ["(?!", "a negative lookahead", "use a separate condition, or a negated class such as [^x]"],
  ["(?<=", "a lookbehind", "match the preceding text itself"],
  ["(?<!", "a negative lookbehind", "use a negated class such as [^x] before the text"],
  ["(?>", "an atomic group", "write a plain group (?:…); RE2 never backtracks anyway"],
  ["(?(", "a conditional group", "write the alternatives with |"],
  ["(?R", "a recursive pattern", "match a bounded nesting depth explicitly"],
  ["(?&", "a recursive pattern", "match a bounded nesting depth explicitly"],
  ["(?P>", "a recursive pattern", "match a bounded nesting depth explicitly"],
  ["(?|", "a branch reset group", "write a plain group (?:…)"],
  ["(?#", "a comment group", "remove the comment, or put it in the condition's description"],
];

const escapes: Record<string, [feature: string, fix: string]> = {
  k: ["a named backreference", "match the text again explicitly, or use two conditions"],
  u: ["a JavaScript \\u escape", "write the code point as \\x{00E9}"],
  c: ["a control-character escape", "write the code as \\x01"],
  Z: ["\\Z", "use $ (end of text) or \\z"],
  G: ["\\G", "anchor with ^ instead"],
  K: ["\\K", "match the text after it in a group instead"],
  R: ["\\R", "use (?:\\r\\n|\\n|\\r)"],
  X: ["\\X", "use \\p{L} or . instead"],
  h: ["\\h", "use [ \\t]"],
};

function featureOf(description: string, snippet: string): Feature | undefined {
  if (/^invalid or unsupported Perl syntax|^invalid named capture/.test(description)) {
    for (const [prefix, feature, fix] of perlGroups) {
      if (snippet.startsWith(prefix)) return { feature, syntax: prefix, fix };
    }
    return undefined;
  }
  if (description.startsWith("invalid escape sequence")) {
    const letter = snippet.slice(1, 2);
    if (/^[1-9]$/.test(letter)) {
      return {
        feature: "a backreference",
        syntax: snippet,
        fix: "match the text again explicitly, or use two conditions",
      };
    }
    const escape = escapes[letter];
    return escape === undefined
      ? undefined
      : { feature: escape[0], syntax: snippet, fix: escape[1] };
  }
  if (description.startsWith("invalid nested repetition operator") && snippet.endsWith("+")) {
    return {
      feature: "a possessive quantifier",
      syntax: snippet,
      fix: `drop the final + (write ${snippet.slice(0, -1)}); RE2 never backtracks anyway`,
    };
  }
  if (description.startsWith("missing closing ]") && snippet.startsWith("[^]")) {
    return { feature: "JavaScript's [^] (any character)", syntax: "[^]", fix: "write [\\s\\S]" };
  }
  return undefined;
}
