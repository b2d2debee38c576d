import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { loadTemplateFile } from "../../../src/agents/index.ts";
import { createOrchestrator } from "../../../src/orchestration/index.ts";
import {
  parseAgentTemplate,
  TemplateError,
  type TemplateIssue,
} from "../../../src/agents/index.ts";
import { toolCatalogueEntries } from "../../../src/tools/index.ts";

// Spec §1: AgentDock's own template shape loads unchanged and normalises to the same template as
// our shape; errors point into the AgentDock file as written.

const fixtures = new URL("../../fixtures/agentdock-shape/", import.meta.url);
const agentDockFile = fileURLToPath(new URL("cognitive-reasoner.agentdock.json", fixtures));
const nativeFile = fileURLToPath(new URL("cognitive-reasoner.native.json", fixtures));

function agentDockJson(): Record<string, unknown> {
  return JSON.parse(readFileSync(agentDockFile, "utf8")) as Record<string, unknown>;
}

/** The AgentDock fixture with some top-level fields replaced. */
function agentDockWith(fields: Record<string, unknown>): Record<string, unknown> {
  return { ...agentDockJson(), ...fields };
}

function llmConfig(config: Record<string, unknown>): Record<string, unknown> {
  return agentDockWith({ nodeConfigurations: { "llm.anthropic": config } });
}

function issuesOf(template: unknown): readonly TemplateIssue[] {
  try {
    parseAgentTemplate(template, { tools: toolCatalogueEntries });
  } catch (error) {
    assert.ok(error instanceof TemplateError, `expected a TemplateError, got ${String(error)}`);
    return error.issues;
  }
  return assert.fail("the template loaded, but it should have been rejected");
}

describe("AgentDock template shape", () => {
  it("loads through the template loader, warning about the settings that have no effect here", () => {
    const loaded = loadTemplateFile(agentDockFile, toolCatalogueEntries);
    assert.deepEqual(loaded.warnings, [
      {
        path: "options.tokenOptimization",
        message:
          "has no effect here: what a model call re-sends is bounded by session.history instead",
      },
      {
        path: "chatSettings.historyPolicy",
        message:
          "has no effect here: a model call re-sends the last session.history.recentTurns turns (default 10) and a summary of older ones",
      },
    ]);
    assert.equal(loaded.file, agentDockFile);
  });

  it("normalises to the same template as the equivalent file in our shape", () => {
    const fromAgentDock = loadTemplateFile(agentDockFile, toolCatalogueEntries).template;
    const native = loadTemplateFile(nativeFile, toolCatalogueEntries).template;
    assert.deepEqual(fromAgentDock, native);
  });

  it("takes the id from agentId, the provider from the llm node and tools from the other nodes", () => {
    const template = loadTemplateFile(agentDockFile, toolCatalogueEntries).template;
    assert.equal(template.id, "cognitive-reasoner");
    assert.deepEqual(template.llm, {
      provider: "anthropic",
      model: "claude-3-7-sonnet-20250219",
      temperature: 0.7,
      maxTokens: 4096,
    });
    assert.deepEqual(template.tools, ["search", "think", "reflect", "critique", "debate"]);
    assert.equal(template.orchestration.defaultStep, "DefaultMode");
    assert.equal(
      template.orchestration.description,
      "Critique starts an evaluation: critique, debate, reflect.\nA search followed by thinking counts as research done.",
    );
    assert.deepEqual(template.chatSettings, {
      historyPolicy: "lastN",
      historyLength: 20,
      initialMessages: ["Hello! Give me something to reason about."],
      chatPrompts: ["Evaluate this plan", "Research the latest evidence"],
    });
    assert.deepEqual(template.options, {
      maxSteps: 8,
      tokenOptimization: { enabled: true, maxHistoryTokens: 4000 },
    });
    assert.deepEqual(
      [template.version, template.tags, template.priority],
      ["1.0", ["reasoning", "cognitive-tools"], 12],
    );
  });

  it("runs its steps: default first, a tool_used step, and a sequence_match step that starts complete", () => {
    const orchestrator = createOrchestrator(
      loadTemplateFile(agentDockFile, toolCatalogueEntries).template,
      toolCatalogueEntries,
    );
    const initial = orchestrator.initialState();
    assert.equal(initial.activeStep, "DefaultMode");
    assert.deepEqual(orchestrator.allowedTools(initial), [
      "search",
      "think",
      "reflect",
      "critique",
      "debate",
    ]);

    const critiqued = orchestrator.onToolUsed(initial, "critique").state;
    assert.equal(critiqued.activeStep, "EvaluationMode");
    assert.equal(critiqued.sequenceIndex, 1);
    assert.deepEqual(orchestrator.allowedTools(critiqued), ["debate"]);

    const searched = orchestrator.onToolUsed(initial, "search").state;
    const researched = orchestrator.onToolUsed(searched, "think").state;
    assert.equal(researched.activeStep, "ResearchDone");
    assert.equal(researched.sequenceIndex, 2);
    assert.equal(researched.completedAt, 2);
  });

  const errorRows: { title: string; template: unknown; issues: TemplateIssue[] }[] = [
    {
      title: "points an unknown tool at its entry in nodes",
      template: agentDockWith({
        nodes: ["llm.anthropic", "search", "thnk", "think", "reflect", "critique", "debate"],
      }),
      issues: [
        {
          path: "nodes[2]",
          message:
            'unknown tool "thnk" — did you mean "think"? (known: think, reflect, critique, debate, brainstorm, compare, summarize, search, deep_research)',
        },
      ],
    },
    {
      title: "counts the llm node when pointing at a tool listed after it",
      template: agentDockWith({
        nodes: ["search", "llm.anthropic", "think", "reflect", "critique", "think", "debate"],
      }),
      issues: [{ path: "nodes[5]", message: '"think" is listed twice; list each tool once' }],
    },
    {
      title: "points an unknown provider at the llm node",
      template: agentDockWith({
        nodes: ["llm.antropic", "think"],
        nodeConfigurations: { "llm.antropic": { model: "claude-3-7-sonnet-20250219" } },
        orchestration: { steps: [] },
      }),
      issues: [
        {
          path: "nodes[0]",
          message:
            'expected one of "scripted"|"openai"|"anthropic"|"openai-compatible"|"gemini"|"groq"|"deepseek"|"cerebras", got the string "antropic" — did you mean "anthropic"?',
        },
      ],
    },
    {
      title: "rejects a second llm node",
      template: agentDockWith({
        nodes: ["llm.anthropic", "llm.openai", "search", "think", "reflect", "critique", "debate"],
      }),
      issues: [
        {
          path: "nodes[1]",
          message: 'only one llm.<provider> node is allowed (already "llm.anthropic")',
        },
      ],
    },
    {
      title: "points an empty model at nodeConfigurations",
      template: llmConfig({ model: "", temperature: 0.7 }),
      issues: [
        {
          path: 'nodeConfigurations["llm.anthropic"].model',
          message: 'name the model, e.g. "gpt-4o-mini" ("auto" for scripted)',
        },
      ],
    },
    {
      title: "points a missing model at nodeConfigurations",
      template: llmConfig({ temperature: 0.7 }),
      issues: [
        {
          path: 'nodeConfigurations["llm.anthropic"].model',
          message: "required: add a string here",
        },
      ],
    },
    {
      title: "points an out-of-range temperature at nodeConfigurations",
      template: llmConfig({ model: "claude-3-7-sonnet-20250219", temperature: 3 }),
      issues: [
        {
          path: 'nodeConfigurations["llm.anthropic"].temperature',
          message: "Too big: expected number to be <=2",
        },
      ],
    },
    {
      title: "rejects an API key in nodeConfigurations",
      template: llmConfig({ model: "claude-3-7-sonnet-20250219", apiKey: "sk-ant-not-a-real-key" }),
      issues: [
        {
          path: 'nodeConfigurations["llm.anthropic"].apiKey',
          message:
            "API keys are never stored in templates; set the provider's key in the environment instead",
        },
      ],
    },
    {
      title: "rejects an unknown model setting, listing the accepted ones",
      template: llmConfig({ model: "claude-3-7-sonnet-20250219", topP: 0.9 }),
      issues: [
        {
          path: 'nodeConfigurations["llm.anthropic"].topP',
          message:
            'unknown model setting "topP" (allowed: model, temperature, maxTokens, baseURL, useCustomApiKey; anthropic also takes thinking, sendReasoning)',
        },
      ],
    },
    {
      title: "rejects configuration for a node that is not in nodes",
      template: agentDockWith({
        nodeConfigurations: {
          "llm.anthropic": { model: "claude-3-7-sonnet-20250219" },
          "llm.openai": { model: "gpt-4o-mini" },
        },
      }),
      issues: [
        {
          path: 'nodeConfigurations["llm.openai"]',
          message:
            'configures "llm.openai", which is not in "nodes"; add it to nodes or remove this entry',
        },
      ],
    },
    {
      title: "points an invalid id at agentId",
      template: agentDockWith({ agentId: "Cognitive_Reasoner" }),
      issues: [
        {
          path: "agentId",
          message: "an agent id uses lower-case letters, digits and '-' (it names the folder)",
        },
      ],
    },
    {
      title: "points a missing id at agentId",
      template: agentDockWith({ agentId: undefined }),
      issues: [{ path: "agentId", message: "required: add a string here" }],
    },
    {
      title: "rejects both agentId and id",
      template: agentDockWith({ id: "cognitive-reasoner" }),
      issues: [{ path: "id", message: 'use either "agentId" (AgentDock) or "id", not both' }],
    },
    {
      title: "rejects nodes that are not a list",
      template: agentDockWith({
        nodes: "llm.anthropic",
        nodeConfigurations: {},
        orchestration: { steps: [] },
      }),
      issues: [{ path: "nodes", message: 'list the nodes, e.g. ["llm.openai", "think"]' }],
    },
    {
      title: "keeps orchestration paths as written",
      template: agentDockWith({
        orchestration: {
          steps: [{ name: "Plan", conditions: [{ type: "tool_used", value: "serch" }] }],
        },
      }),
      issues: [
        {
          path: "orchestration.steps[0].conditions[0].value",
          message:
            'unknown tool "serch" — did you mean "search"? (this agent\'s tools: search, think, reflect, critique, debate)',
        },
      ],
    },
  ];

  for (const row of errorRows) {
    it(row.title, () => {
      assert.deepEqual(issuesOf(row.template), row.issues);
    });
  }
});
