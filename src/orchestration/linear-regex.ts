import { RE2JS, RE2JSSyntaxException } from "re2js";

/**
 * `message_regex` patterns run on RE2 (re2js: pure JavaScript, deterministic, so it runs in the
 * workflow sandbox). RE2 never backtracks: matching takes time linear in the message, times the
 * size of the compiled program. A backtracking engine (JavaScript's RegExp) can take hours on one
 * message for patterns as plain as `(.*)(.*)(.*)x`, far past a workflow task's 5 seconds.
 */
export type LinearRegex = RE2JS;

export type CompiledRegex =
  | { ok: true; regex: LinearRegex; instructions: number }
  | {
      ok: false;
      field: "value" | "flags";
      message: string;
      /** RE2's own description and the part of the pattern it names, for the loader's wording. */
      syntax?: { description: string; snippet: string };
    };

/**
 * The JavaScript flags a template may give, as RE2 flags. `u` changes nothing: RE2 always matches
 * code points and always knows `\p{…}` classes.
 */
const flagBits: Record<string, number> = {
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
  u: 0,
};

export function compileLinearRegex(pattern: string, flags: string): CompiledRegex {
  let bits = 0;
  for (const flag of flags) {
    const bit = flagBits[flag];
    if (bit === undefined)
      return { ok: false, field: "flags", message: `invalid flags "${flags}": use i, m, s or u` };
    if (flags.indexOf(flag) !== flags.lastIndexOf(flag))
      return {
        ok: false,
        field: "flags",
        message: `invalid flags "${flags}": each flag may appear only once`,
      };
    bits |= bit;
  }
  try {
    const regex = RE2JS.compile(pattern, bits);
    return { ok: true, regex, instructions: regex.matcher("").programSize() };
  } catch (error) {
    if (!(error instanceof RE2JSSyntaxException)) throw error;
    const description = error.getDescription();
    const snippet = error.getPattern() ?? "";
    return {
      ok: false,
      field: "value",
      message: `invalid regular expression: ${description}${snippet === "" ? "" : `: "${snippet}"`}`,
      syntax: { description, snippet },
    };
  }
}
