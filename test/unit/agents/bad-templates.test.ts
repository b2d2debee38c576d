import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  parseAgentTemplate,
  TemplateError,
  type TemplateIssue,
} from "../../../src/agents/index.ts";
import { toolCatalogueEntries } from "../../../src/tools/index.ts";

// Every load-time check of spec §1 (and of src/orchestration/template-checks.ts) with the exact
// issues it reports: the path into the file and a message that says how to fix it.

const catalogue = toolCatalogueEntries;
const knownTools =
  "think, reflect, critique, debate, brainstorm, compare, summarize, search, deep_research";
const agentTools = "think, reflect, critique, search";

/** A minimal template whose agent has the tools think, reflect, critique and search. */
function agent(orchestration: unknown, fields: Record<string, unknown> = {}): unknown {
  return {
    id: "checks",
    name: "Checks",
    tools: ["think", "reflect", "critique", "search"],
    orchestration,
    ...fields,
  };
}

const thinkUsed = { type: "tool_used", value: "think" };

function issuesOf(
  template: unknown,
  options: Parameters<typeof parseAgentTemplate>[1] = { tools: catalogue },
): readonly TemplateIssue[] {
  try {
    parseAgentTemplate(template, options);
  } catch (error) {
    assert.ok(error instanceof TemplateError, `expected a TemplateError, got ${String(error)}`);
    return error.issues;
  }
  return assert.fail("the template loaded, but it should have been rejected");
}

interface Row {
  title: string;
  template: unknown;
  issues: TemplateIssue[];
  withoutCatalogue?: true;
  /** A known defect in src: the row states the correct behaviour. */
  todo?: string;
}

const rows: Row[] = [
  {
    title: "rejects a template that is not a JSON object",
    template: ["think"],
    issues: [{ path: "", message: "a template is a JSON object" }],
  },
  {
    title: "rejects two steps with the same name, pointing at the second",
    template: agent({
      steps: [
        { name: "Plan", conditions: [thinkUsed] },
        { name: "Plan", conditions: [{ type: "tool_used", value: "search" }] },
      ],
    }),
    issues: [
      {
        path: "orchestration.steps[1].name",
        message:
          'duplicate step name "Plan" (also orchestration.steps[0]); step names must be unique',
      },
    ],
  },
  {
    title: "rejects two steps marked isDefault",
    template: agent({
      steps: [
        { name: "Idle", isDefault: true },
        { name: "Busy", isDefault: true },
      ],
    }),
    issues: [
      {
        path: "orchestration.steps[1].isDefault",
        message:
          'more than one default step ("Idle" and "Busy"); keep one (defaultStep and isDefault name the same thing)',
      },
    ],
  },
  {
    title: "rejects defaultStep naming one step and isDefault on another",
    template: agent({
      defaultStep: "Idle",
      steps: [{ name: "Idle" }, { name: "Busy", isDefault: true }],
    }),
    issues: [
      {
        path: "orchestration.steps[1].isDefault",
        message:
          'more than one default step ("Idle" and "Busy"); keep one (defaultStep and isDefault name the same thing)',
      },
    ],
  },
  {
    title: "rejects a defaultStep naming no step, suggesting the closest name",
    template: agent({
      defaultStep: "Anlyse",
      steps: [
        { name: "Analyse", conditions: [thinkUsed] },
        { name: "Report", conditions: [{ type: "tool_used", value: "search" }] },
      ],
    }),
    issues: [
      {
        path: "orchestration.defaultStep",
        message: 'no step is named "Anlyse" — did you mean "Analyse"? (steps: Analyse, Report)',
      },
    ],
  },
  {
    title: "rejects an onComplete naming no step",
    template: agent({
      steps: [
        { name: "Analyse", conditions: [thinkUsed], sequence: ["think"], onComplete: "Nowhere" },
      ],
    }),
    issues: [
      {
        path: "orchestration.steps[0].onComplete",
        message: 'no step is named "Nowhere" (write "stay", "default" or a step name)',
      },
    ],
  },
  {
    title: "rejects an onComplete with a typo, suggesting the step it resembles",
    template: agent({
      steps: [
        { name: "Analyse", conditions: [thinkUsed], sequence: ["think"], onComplete: "Analyze" },
      ],
    }),
    issues: [
      {
        path: "orchestration.steps[0].onComplete",
        message:
          'no step is named "Analyze" — did you mean "Analyse"? (write "stay", "default" or a step name)',
      },
    ],
  },
  {
    title: 'rejects onComplete "default" when the agent has no default step',
    template: agent({
      steps: [{ name: "Run", conditions: [thinkUsed], sequence: ["think"], onComplete: "default" }],
    }),
    issues: [
      {
        path: "orchestration.steps[0].onComplete",
        message:
          'onComplete is "default" but the agent has no default step; set defaultStep or isDefault',
      },
    ],
  },
  {
    title: "rejects an unknown tool in tools, suggesting the closest catalogue tool",
    template: agent({ steps: [] }, { tools: ["think", "reflekt"] }),
    issues: [
      {
        path: "tools[1]",
        message: `unknown tool "reflekt" — did you mean "reflect"? (known: ${knownTools})`,
      },
    ],
  },
  {
    title: "rejects a tool listed twice in tools",
    template: agent({ steps: [] }, { tools: ["think", "search", "think"] }),
    issues: [{ path: "tools[2]", message: '"think" is listed twice; list each tool once' }],
  },
  {
    title: "rejects a tools pattern that matches no catalogue tool",
    template: agent({ steps: [] }, { tools: ["*vision*"] }),
    issues: [
      {
        path: "tools[0]",
        message: `the pattern "*vision*" matches no known tool (known: ${knownTools})`,
      },
    ],
  },
  {
    title: "rejects a tools pattern when no catalogue is given to expand it",
    template: agent({ steps: [] }, { tools: ["*cognitive*"] }),
    withoutCatalogue: true,
    issues: [
      {
        path: "tools[0]",
        message:
          'the pattern "*cognitive*" needs a tool catalogue to expand; list tool names instead',
      },
    ],
  },
  {
    title: "rejects unknown tools in allowed and denied, suggesting the agent's closest tool",
    template: agent({
      steps: [
        {
          name: "Plan",
          conditions: [thinkUsed],
          availableTools: { allowed: ["thnk"], denied: ["serch"] },
        },
      ],
    }),
    issues: [
      {
        path: "orchestration.steps[0].availableTools.allowed[0]",
        message: `unknown tool "thnk" — did you mean "think"? (this agent's tools: ${agentTools})`,
      },
      {
        path: "orchestration.steps[0].availableTools.denied[0]",
        message: `unknown tool "serch" — did you mean "search"? (this agent's tools: ${agentTools})`,
      },
    ],
  },
  {
    title: "rejects a catalogue tool in allowed that the agent does not have",
    template: agent({
      steps: [{ name: "Plan", conditions: [thinkUsed], availableTools: { allowed: ["debate"] } }],
    }),
    issues: [
      {
        path: "orchestration.steps[0].availableTools.allowed[0]",
        message: '"debate" is not one of this agent\'s tools; add it to "tools"',
      },
    ],
  },
  {
    title: "rejects an unknown tool among a sequence position's alternatives",
    template: agent({
      steps: [
        { name: "Plan", conditions: [thinkUsed], sequence: ["think", ["reflect", "critiq"]] },
      ],
    }),
    issues: [
      {
        path: "orchestration.steps[0].sequence[1][1]",
        message: `unknown tool "critiq" — did you mean "critique"? (this agent's tools: ${agentTools})`,
      },
    ],
  },
  {
    title: "rejects a catalogue tool in a sequence that the agent does not have, saying to add it",
    template: agent({
      steps: [{ name: "Plan", conditions: [thinkUsed], sequence: ["think", "debate"] }],
    }),
    issues: [
      {
        path: "orchestration.steps[0].sequence[1]",
        message: '"debate" is not one of this agent\'s tools; add it to "tools"',
      },
    ],
  },
  {
    title: "rejects a catalogue tool in a tool_used condition that the agent does not have",
    template: agent({
      steps: [{ name: "Plan", conditions: [{ type: "tool_used", value: "debate" }] }],
    }),
    issues: [
      {
        path: "orchestration.steps[0].conditions[0].value",
        message: '"debate" is not one of this agent\'s tools; add it to "tools"',
      },
    ],
  },
  {
    title: "rejects unknown tools in tool_used and not_recently_used conditions",
    template: agent({
      steps: [
        {
          name: "Plan",
          conditions: [
            { type: "tool_used", value: "thnk" },
            { type: "not_recently_used", value: "websearch", window: 2 },
          ],
        },
      ],
    }),
    issues: [
      {
        path: "orchestration.steps[0].conditions[0].value",
        message: `unknown tool "thnk" — did you mean "think"? (this agent's tools: ${agentTools})`,
      },
      {
        path: "orchestration.steps[0].conditions[1].value",
        message: `unknown tool "websearch" — did you mean "search"? (this agent's tools: ${agentTools})`,
      },
    ],
  },
  {
    title: "rejects a sequence tool that the step's allowed list leaves out",
    template: agent({
      steps: [
        {
          name: "Plan",
          conditions: [thinkUsed],
          availableTools: { allowed: ["think"] },
          sequence: ["think", "reflect"],
        },
      ],
    }),
    issues: [
      {
        path: "orchestration.steps[0].sequence[1]",
        message:
          '"reflect" is in the sequence but this step\'s availableTools does not allow it; allow it or remove it from the sequence',
      },
    ],
  },
  {
    title: "rejects a sequence alternative that a denied pattern excludes",
    template: agent({
      steps: [
        {
          name: "Plan",
          conditions: [thinkUsed],
          availableTools: { denied: ["*cognitive*"] },
          sequence: ["search", ["search", "think"]],
        },
      ],
    }),
    issues: [
      {
        path: "orchestration.steps[0].sequence[1][1]",
        message:
          '"think" is in the sequence but this step\'s availableTools does not allow it; allow it or remove it from the sequence',
      },
    ],
  },
  {
    title: "rejects a pattern in a sequence",
    template: agent({
      steps: [{ name: "Plan", conditions: [thinkUsed], sequence: ["*cognitive*"] }],
    }),
    issues: [
      {
        path: "orchestration.steps[0].sequence[0]",
        message: "a tool name uses letters, digits, '_', '.' or '-' only",
      },
    ],
  },
  {
    title: "rejects an empty sequence",
    template: agent({ steps: [{ name: "Plan", conditions: [thinkUsed], sequence: [] }] }),
    issues: [
      {
        path: "orchestration.steps[0].sequence",
        message: "a sequence needs at least one position; omit `sequence` for none",
      },
    ],
  },
  {
    title: "rejects an empty alternatives list in a sequence",
    template: agent({
      steps: [{ name: "Plan", conditions: [thinkUsed], sequence: ["think", []] }],
    }),
    issues: [
      {
        path: "orchestration.steps[0].sequence[1]",
        message: "an alternatives list needs at least one tool",
      },
    ],
  },
  {
    title: "rejects sequence_match on a step without a sequence",
    template: agent({ steps: [{ name: "Plan", conditions: [{ type: "sequence_match" }] }] }),
    issues: [
      {
        path: "orchestration.steps[0].conditions[0]",
        message: "sequence_match needs a sequence on this step; add one or use tool_used",
      },
    ],
  },
  {
    title: "rejects an invalid regular expression with the engine's reason",
    template: agent({
      steps: [{ name: "Plan", conditions: [{ type: "message_regex", value: "(unclosed" }] }],
    }),
    issues: [
      {
        path: "orchestration.steps[0].conditions[0].value",
        message: 'invalid regular expression: missing closing ): "(unclosed"',
      },
    ],
  },
  {
    title: "rejects invalid regular expression flags at the flags field",
    template: agent({
      steps: [
        { name: "Plan", conditions: [{ type: "message_regex", value: "plan", flags: "ii" }] },
      ],
    }),
    issues: [
      {
        path: "orchestration.steps[0].conditions[0].flags",
        message: 'invalid flags "ii": each flag may appear only once',
      },
    ],
  },
  {
    title: "rejects stateful regular expression flags",
    template: agent({
      steps: [
        { name: "Plan", conditions: [{ type: "message_regex", value: "plan", flags: "gi" }] },
      ],
    }),
    issues: [
      {
        path: "orchestration.steps[0].conditions[0].flags",
        message: "flags may only combine i, m, s and u (g and y make matching stateful)",
      },
    ],
  },
  {
    title: "rejects a regular expression feature RE2 lacks, naming it and how to do without",
    template: agent({
      steps: [{ name: "Plan", conditions: [{ type: "message_regex", value: "plan(?=ning)" }] }],
    }),
    issues: [
      {
        path: "orchestration.steps[0].conditions[0].value",
        message:
          'uses a lookahead ("(?="), which the linear-time regular expression engine (RE2) does not support; match the text itself, or split the test into two conditions',
      },
    ],
  },
  {
    title: "rejects a backreference, naming it",
    template: agent({
      steps: [{ name: "Plan", conditions: [{ type: "message_regex", value: "(a)\\1" }] }],
    }),
    issues: [
      {
        path: "orchestration.steps[0].conditions[0].value",
        message:
          'uses a backreference ("\\1"), which the linear-time regular expression engine (RE2) does not support; match the text again explicitly, or use two conditions',
      },
    ],
  },
  {
    title: "rejects an unknown top-level key, suggesting the intended one",
    template: agent({ steps: [] }, { personalty: "Curious." }),
    issues: [
      {
        path: "personalty",
        message:
          'unknown key "personalty" — did you mean "personality"? (allowed here: id, name, description, personality, llm, tools, options, session, orchestration, version, tags, priority, chatSettings)',
      },
    ],
  },
  {
    title: "rejects an unknown step key, suggesting the intended one",
    template: agent({ steps: [{ name: "Plan", conditions: [thinkUsed], sequense: ["think"] }] }),
    issues: [
      {
        path: "orchestration.steps[0].sequense",
        message:
          'unknown key "sequense" — did you mean "sequence"? (allowed here: name, description, conditions, availableTools, sequence, resetSequenceOn, onComplete, isDefault, forceSequence, approve)',
      },
    ],
  },
  {
    title: "rejects an unknown condition key, listing the keys that condition type allows",
    template: agent({
      steps: [{ name: "Plan", conditions: [{ type: "tool_used", value: "think", windw: 2 }] }],
    }),
    issues: [
      {
        path: "orchestration.steps[0].conditions[0].windw",
        message:
          'unknown key "windw" — did you mean "window"? (allowed here: type, value, window, description)',
      },
    ],
  },
  {
    title: "rejects an unknown condition type, suggesting the closest one",
    template: agent({
      steps: [{ name: "Plan", conditions: [{ type: "tool_use", value: "think" }] }],
    }),
    issues: [
      {
        path: "orchestration.steps[0].conditions[0].type",
        message:
          'unknown type "tool_use" — did you mean "tool_used"? (known: tool_used, sequence_match, not_recently_used, message_contains, message_starts_with, message_regex)',
      },
    ],
  },
  {
    title: "rejects a condition without a type",
    template: agent({ steps: [{ name: "Plan", conditions: [{ value: "think" }] }] }),
    issues: [
      {
        path: "orchestration.steps[0].conditions[0].type",
        message:
          'add a "type" (one of: tool_used, sequence_match, not_recently_used, message_contains, message_starts_with, message_regex)',
      },
    ],
  },
  {
    title: "rejects a misspelt resetSequenceOn keyword, suggesting the intended one",
    template: agent({
      steps: [
        {
          name: "Plan",
          conditions: [thinkUsed],
          sequence: ["think"],
          resetSequenceOn: ["user_mesage"],
        },
      ],
    }),
    issues: [
      {
        path: "orchestration.steps[0].resetSequenceOn[0]",
        message:
          'unknown value "user_mesage" — did you mean "user_message"? (expected one of: user_message, tool_used, sequence_match, not_recently_used, message_contains, message_starts_with, message_regex, or an object)',
      },
    ],
  },
  {
    title: "rejects a bare resetSequenceOn type the step has no condition of",
    template: agent({
      steps: [
        {
          name: "Plan",
          conditions: [thinkUsed],
          sequence: ["think", "reflect"],
          resetSequenceOn: ["message_contains"],
        },
      ],
    }),
    issues: [
      {
        path: "orchestration.steps[0].resetSequenceOn[0]",
        message:
          '"message_contains" resets when this step\'s own message_contains condition holds, but the step has none; add one to conditions or write a condition object here',
      },
    ],
  },
  {
    title: "rejects resetSequenceOn on a step without a sequence",
    template: agent({
      steps: [{ name: "Plan", conditions: [thinkUsed], resetSequenceOn: ["user_message"] }],
    }),
    issues: [
      {
        path: "orchestration.steps[0].resetSequenceOn[0]",
        message: "resetSequenceOn needs a sequence on this step; add one or remove the trigger",
      },
    ],
  },
  {
    title: "rejects an unknown tool in a resetSequenceOn condition",
    template: agent({
      steps: [
        {
          name: "Plan",
          conditions: [thinkUsed],
          sequence: ["think"],
          resetSequenceOn: [{ type: "tool_used", value: "serch" }],
        },
      ],
    }),
    issues: [
      {
        path: "orchestration.steps[0].resetSequenceOn[0].value",
        message: `unknown tool "serch" — did you mean "search"? (this agent's tools: ${agentTools})`,
      },
    ],
  },
  {
    title: "rejects values of the wrong type, naming what was expected and what was found",
    template: {
      id: 5,
      name: "Checks",
      tools: "think",
      orchestration: {
        enforcement: "strct",
        historyLimit: "50",
        steps: [
          {
            name: "Plan",
            isDefault: "yes",
            conditions: [{ type: "tool_used", value: 3, window: 0 }],
          },
        ],
      },
    },
    issues: [
      { path: "id", message: "expected string, got number" },
      { path: "tools", message: 'expected array, got the string "think"' },
      {
        path: "orchestration.enforcement",
        message:
          'expected one of "strict"|"guide", got the string "strct" — did you mean "strict"?',
      },
      { path: "orchestration.historyLimit", message: 'expected number, got the string "50"' },
      {
        path: "orchestration.steps[0].conditions[0].value",
        message: "expected string, got number",
      },
      {
        path: "orchestration.steps[0].conditions[0].window",
        message: "window counts tool events and must be at least 1",
      },
      {
        path: "orchestration.steps[0].isDefault",
        message: 'expected boolean, got the string "yes"',
      },
    ],
  },
  {
    title: "rejects missing required fields, saying what to add",
    template: {
      id: "checks",
      llm: { provider: "openai" },
      orchestration: { steps: [{ name: "Plan", conditions: [{ type: "not_recently_used" }] }] },
    },
    issues: [
      { path: "name", message: "required: add a string here" },
      { path: "llm.model", message: "required: add a string here" },
      {
        path: "orchestration.steps[0].conditions[0].value",
        message: "required: add a string here",
      },
      {
        path: "orchestration.steps[0].conditions[0].window",
        message: "required: add a number here",
      },
    ],
  },
  {
    title: "rejects an idle timeout that is not a duration",
    template: agent({ steps: [] }, { session: { idleTimeout: "24 hours" } }),
    issues: [
      {
        path: "session.idleTimeout",
        message: 'write a duration like "90s", "30m", "24h" or "7d"',
      },
    ],
  },
];

describe("template load-time checks", () => {
  for (const row of rows) {
    it(row.title, row.todo === undefined ? {} : { todo: row.todo }, () => {
      const options = row.withoutCatalogue === true ? {} : { tools: catalogue };
      assert.deepEqual(issuesOf(row.template, options), row.issues);
    });
  }

  it("reports every problem of a template at once, in a message naming the file", () => {
    const template = agent(
      { defaultStep: "Idle", steps: [{ name: "Plan" }, { name: "Plan" }] },
      { tools: ["thnk"] },
    );
    assert.throws(
      () =>
        parseAgentTemplate(template, { tools: catalogue, source: "agents/checks/template.json" }),
      (error: unknown) => {
        assert.ok(error instanceof TemplateError);
        assert.equal(error.name, "TemplateError");
        assert.equal(
          error.message,
          [
            "agents/checks/template.json is invalid:",
            `  tools[0]: unknown tool "thnk" — did you mean "think"? (known: ${knownTools})`,
            '  orchestration.steps[1].name: duplicate step name "Plan" (also orchestration.steps[0]); step names must be unique',
            '  orchestration.defaultStep: no step is named "Idle" (steps: Plan, Plan)',
          ].join("\n"),
        );
        return true;
      },
    );
  });
});

describe("template load-time warnings", () => {
  it("warns about a step that can never become active and still loads the template", () => {
    const warnings: TemplateIssue[] = [];
    const template = parseAgentTemplate(
      agent({
        steps: [
          { name: "Plan", conditions: [thinkUsed] },
          { name: "Orphan", availableTools: { allowed: ["think"] } },
        ],
      }),
      { tools: catalogue, onWarning: (warning) => warnings.push(warning) },
    );
    assert.deepEqual(warnings, [
      {
        path: "orchestration.steps[1]",
        message:
          'step "Orphan" can never become active: it has no conditions, is not the default and no onComplete names it',
      },
    ]);
    assert.deepEqual(
      template.orchestration.steps.map((step) => step.name),
      ["Plan", "Orphan"],
    );
  });

  it("does not warn about the default step or a step named by onComplete", () => {
    const warnings: TemplateIssue[] = [];
    parseAgentTemplate(
      agent({
        defaultStep: "Idle",
        steps: [
          { name: "Idle" },
          { name: "Plan", conditions: [thinkUsed], sequence: ["think"], onComplete: "Wrap" },
          { name: "Wrap" },
        ],
      }),
      { tools: catalogue, onWarning: (warning) => warnings.push(warning) },
    );
    assert.deepEqual(warnings, []);
  });

  it("warns about a policy pattern that matches none of the agent's tools and still loads", () => {
    const warnings: TemplateIssue[] = [];
    const template = parseAgentTemplate(
      agent({
        steps: [
          {
            name: "Plan",
            conditions: [thinkUsed],
            availableTools: { allowed: ["*writing*", "think"], denied: ["web*"] },
          },
        ],
      }),
      { tools: catalogue, onWarning: (warning) => warnings.push(warning) },
    );
    assert.deepEqual(warnings, [
      {
        path: "orchestration.steps[0].availableTools.allowed[0]",
        message: `the pattern "*writing*" matches none of this agent's tools`,
      },
      {
        path: "orchestration.steps[0].availableTools.denied[0]",
        message: `the pattern "web*" matches none of this agent's tools`,
      },
    ]);
    assert.deepEqual(template.orchestration.steps[0]?.availableTools, {
      allowed: ["*writing*", "think"],
      denied: ["web*"],
    });
  });
});
