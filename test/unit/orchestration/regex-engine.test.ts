import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createOrchestrator, type AgentTemplateInput } from "../../../src/orchestration/index.ts";
import { parseAgentTemplate, TemplateError } from "../../../src/agents/index.ts";

const valuePath = "orchestration.steps[1].conditions[0].value";

function agent(pattern: string, flags?: string): AgentTemplateInput {
  return {
    id: "regex",
    name: "Regex",
    tools: ["think"],
    orchestration: {
      defaultStep: "Chat",
      steps: [
        { name: "Chat" },
        {
          name: "Matched",
          conditions: [
            { type: "message_regex", value: pattern, ...(flags === undefined ? {} : { flags }) },
          ],
        },
      ],
    },
  };
}

/** Whether the message makes the regex step active. */
function matches(pattern: string, message: string, flags?: string): boolean {
  const orchestrator = createOrchestrator(parseAgentTemplate(agent(pattern, flags)));
  const { state } = orchestrator.onUserMessage(orchestrator.initialState(), message);
  return state.activeStep === "Matched";
}

/** The one issue loading the pattern raises: its path and message. */
function refusal(pattern: string, flags?: string): { path: string; message: string } {
  try {
    parseAgentTemplate(agent(pattern, flags));
  } catch (error) {
    assert.ok(error instanceof TemplateError, String(error));
    assert.equal(error.issues.length, 1, error.message);
    const [issue] = error.issues;
    assert.ok(issue !== undefined);
    return issue;
  }
  assert.fail(`/${pattern}/${flags ?? ""} loaded`);
}

describe("message_regex patterns a backtracking engine could not survive load and decide", () => {
  // The old heuristic refused these (exponential or polynomial backtracking); RE2 runs them in
  // linear time, so they are ordinary patterns now.
  const table: [pattern: string, hit: string, miss: string][] = [
    ["(a+)+$", "xaaa", "aaab"],
    ["(a*)*b", "aaab", "aaaa"],
    ["(x+x+)+y", "xxy", "xxxxxxxx"],
    ["^(\\w+\\s?)*$", "two words", "two words!"],
    ["(.*,)*x", "a,b,x", "a,b,c"],
    ["(\\w|\\d)+x", "12ax", "12a!"],
    ["(a|ab)*c", "ababc", "abab"],
    ["a.*b.*c", "a then b then c", "a then c then b"],
    ["\\bcompare\\b.*\\band\\b.*\\bbecause\\b", "compare x and y because", "compare x and y"],
    ["(.*)(.*)(.*)x", "abcx", "abc"],
    ["^(\\w{1,10}){1,10}!", "hello!", "hello"],
    ["a.*(b.*)c", "abc", "acb"],
  ];
  for (const [pattern, hit, miss] of table) {
    it(`/${pattern}/ matches "${hit}" and not "${miss}"`, () => {
      assert.equal(matches(pattern, hit), true);
      assert.equal(matches(pattern, miss), false);
    });
  }
});

describe("message_regex flags keep their JavaScript meaning on RE2", () => {
  it("i ignores letter case", () => {
    assert.equal(matches("\\bReview\\b", "please review this"), false);
    assert.equal(matches("\\bReview\\b", "please review this", "i"), true);
  });
  it("m lets ^ and $ match at line breaks", () => {
    assert.equal(matches("^plan$", "first\nplan\nlast"), false);
    assert.equal(matches("^plan$", "first\nplan\nlast", "m"), true);
  });
  it("s lets . match a line break", () => {
    assert.equal(matches("start.end", "start\nend"), false);
    assert.equal(matches("start.end", "start\nend", "s"), true);
  });
  it("u is accepted; code points and \\p{…} classes work with or without it", () => {
    assert.equal(matches("^\\p{Greek}+$", "αβγ", "u"), true);
    assert.equal(matches("^.$", "😀"), true);
  });
  it("named groups, lazy quantifiers and counted repeats work as in JavaScript", () => {
    assert.equal(matches("(?<verb>plan|draft) (?:it|this)", "draft this"), true);
    assert.equal(matches("<.+?>", "<a>"), true);
    assert.equal(matches("^\\d{3}-\\d{4}$", "555-1234"), true);
  });
});

describe("features RE2 lacks are refused at load, named, with how to do without", () => {
  const table: [pattern: string, feature: RegExp][] = [
    ["(a)\\1", /uses a backreference \("\\1"\)/],
    ["(?<w>a)\\k<w>", /uses a named backreference/],
    ["plan(?=ning)", /uses a lookahead \("\(\?="\)/],
    ["plan(?!ning)", /uses a negative lookahead/],
    ["(?<=re)view", /uses a lookbehind \("\(\?<="\)/],
    ["(?<!re)view", /uses a negative lookbehind/],
    ["(?>ab|a)c", /uses an atomic group/],
    ["a*+b", /uses a possessive quantifier \("\*\+"\).*write \*\)/],
    ["caf\\u00e9", /uses a JavaScript \\u escape.*\\x\{00E9\}/],
    ["[^]", /uses JavaScript's \[\^\] \(any character\)/],
  ];
  for (const [pattern, feature] of table) {
    it(`refuses /${pattern}/ at the value's path`, () => {
      const issue = refusal(pattern);
      assert.equal(issue.path, valuePath);
      assert.match(issue.message, feature);
      assert.match(
        issue.message,
        /the linear-time regular expression engine \(RE2\) does not support/,
      );
    });
  }

  it("keeps a clear error for a pattern that is simply invalid", () => {
    assert.deepEqual(refusal("(unclosed"), {
      path: valuePath,
      message: 'invalid regular expression: missing closing ): "(unclosed"',
    });
  });

  it("refuses a repeated flag at the flags path", () => {
    assert.deepEqual(refusal("plan", "ii"), {
      path: "orchestration.steps[1].conditions[0].flags",
      message: 'invalid flags "ii": each flag may appear only once',
    });
  });
});

describe("the template's patterns share one instruction budget", () => {
  it("refuses the pattern that takes the template past it, saying how many instructions", () => {
    const issue = refusal("(?:a|ab|b){200}c");
    assert.equal(issue.path, valuePath);
    assert.match(issue.message, /compiles to 1203 RE2 instructions.*at most 500 in all/);
  });

  it("counts reset triggers too", () => {
    const template = agent("\\w{300}x");
    const step = template.orchestration?.steps?.[1];
    assert.ok(step !== undefined);
    step.sequence = ["think"];
    step.resetSequenceOn = [{ type: "message_regex", value: "\\d{300}y" }];
    assert.throws(
      () => parseAgentTemplate(template),
      (error: unknown) =>
        error instanceof TemplateError &&
        error.issues.length === 1 &&
        error.issues[0]?.path === "orchestration.steps[1].resetSequenceOn[0].value",
    );
  });
});
