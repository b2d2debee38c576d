import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseAgentTemplate, TemplateError } from "../../../src/agents/index.ts";
import { createOrchestrator } from "../../../src/orchestration/index.ts";
import { matchesPattern } from "../../../src/orchestration/tool-patterns.ts";
import { toolCatalogueEntries } from "../../../src/tools/index.ts";

// Templates name MCP tools `mcp.<server>.<tool>`. A configured server is one catalogue entry
// (`mcp.docs.*`, category mcp): its tools are listed only when a worker connects, so any tool
// of it loads; policies, wildcards, sequences and conditions use the names like any other.

const chatOnly = [{ name: "Chat", availableTools: { denied: ["mcp.*"] } }];

const catalogue = [...toolCatalogueEntries, { name: "mcp.docs.*", category: "mcp" }];

function docsAgent(tools: string[], steps?: unknown[]) {
  return {
    id: "docs",
    name: "Docs",
    tools,
    orchestration: {
      defaultStep: "Chat",
      steps: steps ?? [
        {
          name: "Docs",
          conditions: [{ type: "message_contains", value: "docs" }],
          availableTools: { allowed: ["mcp.docs.*", "think"] },
          sequence: ["mcp.docs.lookup", "think"],
        },
        {
          name: "After",
          conditions: [{ type: "tool_used", value: "mcp.docs.lookup" }],
          availableTools: { allowed: ["*mcp*"], denied: ["mcp.docs.search"] },
        },
        { name: "Chat", availableTools: { denied: ["mcp.*"] } },
      ],
    },
  };
}

function issues(error: unknown): string[] {
  assert.ok(error instanceof TemplateError, String(error));
  return error.issues.map((issue) => `${issue.path}: ${issue.message}`);
}

describe("agent templates naming MCP tools", () => {
  it("load with a configured server's tools in tools, policies, wildcards, sequences and conditions", () => {
    const missing: string[] = [];
    const warnings: string[] = [];
    const template = parseAgentTemplate(
      docsAgent(["think", "mcp.docs.lookup", "mcp.docs.search"]),
      {
        tools: catalogue,
        onMissingTools: (tools) => missing.push(...tools),
        onWarning: (warning) => warnings.push(warning.message),
      },
    );
    assert.deepEqual(template.tools, ["think", "mcp.docs.lookup", "mcp.docs.search"]);
    assert.deepEqual(missing, []);
    assert.deepEqual(warnings, []);
  });

  it("loads a tool of a server nobody configured as missing, saying which file configures servers", () => {
    const missing: string[] = [];
    parseAgentTemplate(docsAgent(["think", "mcp.docs.lookup", "mcp.github.issues"], chatOnly), {
      tools: catalogue,
      onMissingTools: (tools) => missing.push(...tools),
    });
    assert.deepEqual(missing, ["mcp.github.issues"]);
    assert.throws(
      () =>
        parseAgentTemplate(docsAgent(["think", "mcp.docs.lookup", "mcp.github.issues"], chatOnly), {
          tools: catalogue,
        }),
      (error: unknown) => {
        assert.deepEqual(issues(error), [
          'tools[2]: "mcp.github.issues" is a tool of an MCP server not configured here; name the server in the file AGENTDOCK_MCP_SERVERS points to',
        ]);
        return true;
      },
    );
  });

  it("refuses a server name close to a configured one as a typo, and a pattern in tools", () => {
    assert.throws(
      () =>
        parseAgentTemplate(
          docsAgent(["think", "mcp.doc.lookup", "mcp.docs.lookup", "mcp.docs.*"], chatOnly),
          {
            tools: catalogue,
            onMissingTools: () => undefined,
          },
        ),
      (error: unknown) => {
        assert.deepEqual(issues(error), [
          'tools[1]: unknown MCP server "doc" in "mcp.doc.lookup" — did you mean "docs"? (configured: docs)',
          'tools[3]: the pattern "mcp.docs.*" cannot list MCP tools: a server\'s tools are known only when the worker connects; list them by name ("mcp.docs.lookup") and use patterns in availableTools',
        ]);
        return true;
      },
    );
  });

  it("match dotted globs segment by segment: mcp.docs.* selects the docs server only", () => {
    assert.equal(matchesPattern("mcp.docs.*", { name: "mcp.docs.lookup" }), true);
    assert.equal(matchesPattern("mcp.docs.*", { name: "mcp.docsearch.lookup" }), false);
    assert.equal(matchesPattern("mcp.docs.*", { name: "mcpXdocsXlookup" }), false);
    assert.equal(matchesPattern("mcp.*", { name: "mcp.github.issues" }), true);
    assert.equal(matchesPattern("*mcp*", { name: "lookup", category: "mcp" }), true);
  });

  it("are allowed, denied and sequenced by the orchestrator like any tool", () => {
    const template = parseAgentTemplate(
      docsAgent(["think", "reflect", "mcp.docs.lookup", "mcp.docs.search"]),
      { tools: catalogue },
    );
    const orchestrator = createOrchestrator(template, [
      ...toolCatalogueEntries,
      { name: "mcp.docs.lookup", category: "mcp" },
      { name: "mcp.docs.search", category: "mcp" },
    ]);
    let state = orchestrator.initialState();
    assert.deepEqual(orchestrator.allowedTools(state), ["think", "reflect"]);
    state = orchestrator.onUserMessage(state, "check the docs").state;
    assert.deepEqual(orchestrator.allowedTools(state), ["mcp.docs.lookup"]);
    const refused = orchestrator.checkToolCall(state, "mcp.docs.search");
    assert.deepEqual(refused.ok ? [] : refused.expected, ["mcp.docs.lookup"]);
    state = orchestrator.onToolUsed(state, "mcp.docs.lookup").state;
    assert.deepEqual(orchestrator.allowedTools(state), ["think"]);
  });
});
