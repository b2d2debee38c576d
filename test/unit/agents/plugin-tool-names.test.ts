import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseAgentTemplate, TemplateError } from "../../../src/agents/index.ts";
import { toolCatalogueEntries } from "../../../src/tools/index.ts";

// A template may name a plug-in tool that the process loading it lacks (the worker running the
// session may have it): such a name loads as missing, while a name close to a known tool is a
// typo and stays an error with its suggestion.

const counter = (tools: string[]) => ({
  id: "counter",
  name: "Counter",
  tools,
  orchestration: {
    steps: [{ name: "Counting", sequence: ["think", "word_count"] }],
  },
});

describe("agent loader: tools no built-in or plug-in here has", () => {
  it("loads a template naming an unknown, non-typo tool, reporting it missing with a warning for the sequence", () => {
    let missing: readonly string[] = [];
    const warnings: string[] = [];
    const template = parseAgentTemplate(counter(["think", "word_count"]), {
      tools: toolCatalogueEntries,
      onMissingTools: (tools) => (missing = tools),
      onWarning: (warning) => warnings.push(`${warning.path}: ${warning.message}`),
    });
    assert.deepEqual(template.tools, ["think", "word_count"]);
    assert.deepEqual(missing, ["word_count"]);
    assert.match(warnings.join("\n"), /cannot complete its sequence here: it needs word_count/);
  });

  it("refuses such a name where missing tools are not accepted, naming the settings that install plug-ins", () => {
    assert.throws(
      () => parseAgentTemplate(counter(["think", "word_count"]), { tools: toolCatalogueEntries }),
      (error: unknown) =>
        error instanceof TemplateError &&
        error.message.includes(
          '"word_count" is neither a built-in tool nor a plug-in installed here (AGENTDOCK_TOOL_DIRS, AGENTDOCK_TOOL_MODULES)',
        ),
    );
  });

  it("still refuses a typo of a known tool, with the suggestion", () => {
    assert.throws(
      () =>
        parseAgentTemplate(counter(["think", "word_count", "reflekt"]), {
          tools: toolCatalogueEntries,
          onMissingTools: () => undefined,
        }),
      /unknown tool "reflekt" — did you mean "reflect"\?/,
    );
  });
});
