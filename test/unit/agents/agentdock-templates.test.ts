import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import {
  loadTemplateFile,
  parseAgentTemplate,
  TemplateError,
  type TemplateIssue,
} from "../../../src/agents/index.ts";
import { encodeModelId } from "../../../src/llm/model-id.ts";
import { toolCatalogueEntries } from "../../../src/tools/index.ts";

// Issue 12 item 1: every shape AgentDock's own agents folder uses loads unchanged. The fixtures in
// test/fixtures/agentdock/ are ours, written in those shapes: each provider node, provider
// settings, notes, isEnabled, placeholderText, an apiKey entry describing the key, AgentDock tools
// this project lacks, orchestration in AgentDock's documented style.

const dir = new URL("../../fixtures/agentdock/", import.meta.url);
const fileOf = (id: string): string => fileURLToPath(new URL(`${id}/template.json`, dir));
const jsonOf = (id: string): Record<string, unknown> =>
  JSON.parse(readFileSync(fileOf(id), "utf8")) as Record<string, unknown>;

const history = "chatSettings.historyPolicy";

interface Row {
  id: string;
  provider: string;
  providerOptions?: Record<string, unknown>;
  missingTools: string[];
  warnings: string[];
}

const safety = [
  { category: "HARM_CATEGORY_HATE_SPEECH", threshold: "BLOCK_MEDIUM_AND_ABOVE" },
  { category: "HARM_CATEGORY_DANGEROUS_CONTENT", threshold: "BLOCK_ONLY_HIGH" },
];

const rows: Row[] = [
  {
    id: "gemini-grounded-advisor",
    provider: "gemini",
    providerOptions: { useSearchGrounding: true, safetySettings: safety },
    missingTools: [],
    warnings: [history, 'nodeConfigurations["llm.gemini"].useSearchGrounding'],
  },
  {
    id: "gemini-researcher",
    provider: "gemini",
    providerOptions: { useSearchGrounding: false },
    missingTools: [],
    warnings: [history],
  },
  {
    id: "gemini-sketcher",
    provider: "gemini",
    providerOptions: { useSearchGrounding: true, safetySettings: safety.slice(0, 1) },
    missingTools: [],
    warnings: [history, 'nodeConfigurations["llm.gemini"].useCustomApiKey'],
  },
  { id: "groq-distill", provider: "groq", missingTools: [], warnings: [history] },
  {
    id: "deepseek-coder-helper",
    provider: "deepseek",
    missingTools: [],
    warnings: ["notes", history],
  },
  {
    id: "cerebras-fast",
    provider: "cerebras",
    missingTools: [],
    warnings: [
      "notes",
      history,
      'nodeConfigurations["llm.cerebras"].useCustomApiKey',
      'nodeConfigurations["llm.cerebras"].apiKey',
    ],
  },
  {
    id: "clinical-reasoner",
    provider: "anthropic",
    missingTools: ["pubmed_search", "pubmed_fetch"],
    warnings: [history, "orchestration.steps[1].sequence[0]"],
  },
  {
    id: "structured-thinker",
    provider: "anthropic",
    missingTools: [],
    warnings: ["maxConcurrency", "options.tokenOptimization", history, "orchestration.steps[1]"],
  },
  {
    id: "prompt-library",
    provider: "gemini",
    providerOptions: { useSearchGrounding: true, safetySettings: safety },
    missingTools: [],
    warnings: ["isEnabled", history],
  },
  {
    id: "market-watcher",
    provider: "anthropic",
    missingTools: ["stock_price", "crypto_price", "trending_cryptos"],
    warnings: ["options.cacheTtlSeconds", history],
  },
];

describe("AgentDock templates in every shape AgentDock ships load unchanged", () => {
  for (const row of rows) {
    it(`${row.id}: valid, ${row.provider}, warnings for what has no effect here`, () => {
      const loaded = loadTemplateFile(fileOf(row.id), toolCatalogueEntries);
      assert.equal(loaded.template.id, row.id);
      assert.equal(loaded.idKey, "agentId");
      assert.equal(loaded.template.llm.provider, row.provider);
      assert.deepEqual(loaded.template.llm.providerOptions, row.providerOptions);
      assert.deepEqual(loaded.missingTools, row.missingTools);
      assert.deepEqual(
        loaded.warnings.map((warning) => warning.path),
        row.warnings,
      );
      for (const warning of loaded.warnings) assert.ok(warning.message.length > 20);
      // The session workflow can encode its model id.
      assert.doesNotThrow(() => encodeModelId(loaded.template.llm));
    });
  }

  it("keeps a missing tool in the agent's tools, so its steps still check, and says so", () => {
    const loaded = loadTemplateFile(fileOf("clinical-reasoner"), toolCatalogueEntries);
    assert.deepEqual(loaded.template.tools, [
      "search",
      "think",
      "deep_research",
      "pubmed_search",
      "pubmed_fetch",
    ]);
    assert.deepEqual(loaded.template.orchestration.steps[1]?.sequence, [
      ["pubmed_search"],
      ["pubmed_fetch"],
    ]);
  });

  it("warns that a step whose sequence needs a missing tool cannot complete", () => {
    const { warnings } = loadTemplateFile(fileOf("clinical-reasoner"), toolCatalogueEntries);
    assert.deepEqual(warnings.at(-1), {
      path: "orchestration.steps[1].sequence[0]",
      message:
        'step "Literature" cannot complete its sequence here: it needs pubmed_search, pubmed_fetch, which this project does not have',
    });
  });

  it("accepts chatSettings.placeholderText and keeps it for clients", () => {
    const loaded = loadTemplateFile(fileOf("prompt-library"), toolCatalogueEntries);
    assert.equal(loaded.template.chatSettings?.placeholderText, "Which team needs prompts?");
  });

  it("explains each warning in words a migrating user can act on", () => {
    const { warnings } = loadTemplateFile(fileOf("cerebras-fast"), toolCatalogueEntries);
    assert.deepEqual(
      warnings.filter((warning) => warning.path.startsWith("nodeConfigurations")),
      [
        {
          path: 'nodeConfigurations["llm.cerebras"].useCustomApiKey',
          message:
            "has no effect: every session uses the key in the worker's environment (CEREBRAS_API_KEY)",
        },
        {
          path: 'nodeConfigurations["llm.cerebras"].apiKey',
          message:
            "describes the key the agent needs; keys come from the worker's environment: set CEREBRAS_API_KEY",
        },
      ],
    );
  });
});

function issuesOf(template: unknown): readonly TemplateIssue[] {
  try {
    parseAgentTemplate(template, { tools: toolCatalogueEntries, onMissingTools: () => undefined });
  } catch (error) {
    assert.ok(error instanceof TemplateError, `expected a TemplateError, got ${String(error)}`);
    return error.issues;
  }
  return assert.fail("the template loaded, but it should have been rejected");
}

function withGemini(settings: Record<string, unknown>): Record<string, unknown> {
  const json = jsonOf("gemini-grounded-advisor");
  return {
    ...json,
    nodeConfigurations: { "llm.gemini": { model: "gemini-2.5-flash", ...settings } },
  };
}

describe("what stays an error in an AgentDock template", () => {
  const errorRows: { title: string; template: unknown; issues: TemplateIssue[] }[] = [
    {
      title: "an API key stored in the file",
      template: withGemini({ apiKey: "AIza-not-a-real-key" }),
      issues: [
        {
          path: 'nodeConfigurations["llm.gemini"].apiKey',
          message:
            "API keys are never stored in templates; set the provider's key in the environment instead",
        },
      ],
    },
    {
      title: "an apiKey entry that holds a value besides describing the key",
      template: withGemini({ apiKey: { required: true, value: "AIza-not-a-real-key" } }),
      issues: [
        {
          path: 'nodeConfigurations["llm.gemini"].apiKey',
          message:
            "API keys are never stored in templates; set the provider's key in the environment instead",
        },
      ],
    },
    {
      title: "a misspelt top-level key, with AgentDock's keys as the suggestion",
      template: { ...jsonOf("deepseek-coder-helper"), nots: "x" },
      issues: [
        {
          path: "nots",
          message:
            'unknown key "nots" — did you mean "notes"? (allowed here: agentId, nodes, nodeConfigurations, name, description, personality, options, session, orchestration, version, tags, priority, chatSettings, notes, isEnabled, maxConcurrency)',
        },
      ],
    },
    {
      title: "a Gemini setting with a typo, listing what Gemini takes",
      template: withGemini({ useSearchGroundng: true }),
      issues: [
        {
          path: 'nodeConfigurations["llm.gemini"].useSearchGroundng',
          message:
            'unknown model setting "useSearchGroundng" — did you mean "useSearchGrounding"? (allowed: model, temperature, maxTokens, baseURL, useCustomApiKey; gemini also takes useSearchGrounding, dynamicRetrievalConfig, safetySettings, structuredOutputs, thinkingConfig, cachedContent)',
        },
      ],
    },
    {
      title: "a safety threshold Gemini does not know, at its path in the file",
      template: withGemini({
        safetySettings: [{ category: "HARM_CATEGORY_HATE_SPEECH", threshold: "BLOCK_MEDIUM" }],
      }),
      issues: [
        {
          path: 'nodeConfigurations["llm.gemini"].safetySettings[0].threshold',
          message:
            'expected one of "HARM_BLOCK_THRESHOLD_UNSPECIFIED"|"BLOCK_LOW_AND_ABOVE"|"BLOCK_MEDIUM_AND_ABOVE"|"BLOCK_ONLY_HIGH"|"BLOCK_NONE"|"OFF", got the string "BLOCK_MEDIUM" — did you mean "BLOCK_MEDIUM_AND_ABOVE"?',
        },
      ],
    },
    {
      title: "a grounding switch that is not true or false",
      template: withGemini({ useSearchGrounding: "yes" }),
      issues: [
        {
          path: 'nodeConfigurations["llm.gemini"].useSearchGrounding',
          message: 'expected boolean, got the string "yes"',
        },
      ],
    },
    {
      title: "a provider inside the configuration that disagrees with the node",
      template: withGemini({ provider: "groq" }),
      issues: [
        {
          path: 'nodeConfigurations["llm.gemini"].provider',
          message: 'says "groq" but the node is "llm.gemini"; remove it or make them agree',
        },
      ],
    },
    {
      title: "a tool neither this project nor AgentDock has, suggesting AgentDock's",
      template: { ...jsonOf("gemini-researcher"), nodes: ["llm.gemini", "pubmed_serch"] },
      issues: [
        {
          path: "nodes[1]",
          message:
            'unknown tool "pubmed_serch" — did you mean "pubmed_search"? (known: think, reflect, critique, debate, brainstorm, compare, summarize, search, deep_research)',
        },
      ],
    },
    {
      title: "isEnabled that is not true or false",
      template: { ...jsonOf("prompt-library"), isEnabled: "no" },
      issues: [{ path: "isEnabled", message: "expected true or false" }],
    },
  ];
  for (const row of errorRows) {
    it(`refuses ${row.title}`, () => {
      assert.deepEqual(issuesOf(row.template), row.issues);
    });
  }

  it("refuses an AgentDock tool we lack when the caller cannot report missing tools", () => {
    assert.throws(
      () =>
        parseAgentTemplate(
          { ...jsonOf("gemini-researcher"), nodes: ["llm.gemini", "pubmed_search"] },
          { tools: toolCatalogueEntries },
        ),
      (error: unknown) =>
        error instanceof TemplateError &&
        error.issues.some(
          (issue) =>
            issue.path === "nodes[1]" &&
            issue.message === '"pubmed_search" is an AgentDock tool this project does not have',
        ),
    );
  });
});

describe("provider options in our own template shape", () => {
  function issuesFor(llm: Record<string, unknown>): readonly TemplateIssue[] {
    return issuesOf({ id: "demo", name: "Demo", llm });
  }

  it("refuses options for the scripted model, saying to remove them", () => {
    assert.deepEqual(
      issuesFor({ provider: "scripted", model: "auto", providerOptions: { x: 1 } }),
      [
        {
          path: "llm.providerOptions",
          message: "the scripted model takes no provider options; remove llm.providerOptions",
        },
      ],
    );
  });

  it("names a nested setting the provider does not take, with the ones it does", () => {
    assert.deepEqual(
      issuesFor({
        provider: "gemini",
        model: "gemini-2.5-flash",
        providerOptions: { thinkingConfig: { thinkingBuget: 100 } },
      }),
      [
        {
          path: "llm.providerOptions.thinkingConfig.thinkingBuget",
          message:
            'unknown key "thinkingBuget" — did you mean "thinkingBudget"? (allowed here: thinkingBudget, includeThoughts, thinkingLevel)',
        },
      ],
    );
  });

  it("asks for an object where the options are something else", () => {
    assert.deepEqual(issuesFor({ provider: "groq", model: "m", providerOptions: "fast" }), [
      { path: "llm.providerOptions", message: 'expected object, got the string "fast"' },
    ]);
  });

  it("warns that a tool's node configuration has no effect", () => {
    const json = jsonOf("groq-distill");
    const warnings: TemplateIssue[] = [];
    parseAgentTemplate(
      {
        ...json,
        nodeConfigurations: {
          ...(json.nodeConfigurations as Record<string, unknown>),
          search: { maxResults: 3 },
        },
      },
      { tools: toolCatalogueEntries, onWarning: (warning) => warnings.push(warning) },
    );
    assert.deepEqual(warnings.at(-1), {
      path: "nodeConfigurations.search",
      message: "has no effect here: tools take their settings from the worker's environment",
    });
  });
});
