import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseAgentTemplate, TemplateError } from "../../../src/agents/index.ts";
import { createOrchestrator, parseApprovalTimeout } from "../../../src/orchestration/index.ts";
import { toolCatalogueEntries } from "../../../src/tools/index.ts";

function template(orchestration: Record<string, unknown>) {
  return parseAgentTemplate(
    { id: "approvals", name: "Approvals", tools: ["think", "search", "summarize"], orchestration },
    { tools: toolCatalogueEntries },
  );
}

function issuesOf(orchestration: Record<string, unknown>): string[] {
  try {
    template(orchestration);
  } catch (error) {
    assert.ok(error instanceof TemplateError, String(error));
    return error.issues.map((issue) => `${issue.path}: ${issue.message}`);
  }
  return assert.fail("the template loaded, but it should have been rejected");
}

describe("tool approval rules", () => {
  it("asks approval for a tool named globally, and not for the others", () => {
    const orchestrator = createOrchestrator(
      template({ approve: ["search"] }),
      toolCatalogueEntries,
    );
    const state = orchestrator.initialState();
    assert.deepEqual(orchestrator.approvalFor(state, "search", { query: "x" }), {
      rule: "agent: search",
      path: "orchestration.approve[0]",
    });
    assert.equal(orchestrator.approvalFor(state, "think", { thought: "x" }), undefined);
  });

  it("matches wildcards by name and by category", () => {
    const orchestrator = createOrchestrator(
      template({ approve: ["sum*", "*cognitive*"] }),
      toolCatalogueEntries,
    );
    const state = orchestrator.initialState();
    assert.equal(
      orchestrator.approvalFor(state, "summarize", {})?.path,
      "orchestration.approve[0]",
    );
    assert.equal(orchestrator.approvalFor(state, "think", {})?.path, "orchestration.approve[1]");
    assert.equal(orchestrator.approvalFor(state, "search", {}), undefined);
  });

  it("asks the active step's rules first, with their timeout, and only in that step", () => {
    const orchestrator = createOrchestrator(
      template({
        defaultStep: "Chat",
        approve: [{ tool: "search", timeout: "7d" }],
        steps: [
          { name: "Chat" },
          {
            name: "Research",
            conditions: [{ type: "message_contains", value: "research" }],
            approve: [{ tool: "search", timeout: "3 days" }, "think"],
          },
        ],
      }),
      toolCatalogueEntries,
    );
    const chat = orchestrator.initialState();
    assert.equal(orchestrator.approvalFor(chat, "search", {})?.timeout, "7d");
    assert.equal(orchestrator.approvalFor(chat, "think", {}), undefined);
    const research = orchestrator.onUserMessage(chat, "please research this").state;
    assert.equal(research.activeStep, "Research");
    assert.deepEqual(orchestrator.approvalFor(research, "search", {}), {
      rule: 'step "Research": search',
      path: "orchestration.steps[1].approve[0]",
      timeout: "3 days",
      timeoutMs: 3 * 86_400_000,
    });
    assert.equal(orchestrator.approvalFor(research, "think", {})?.rule, 'step "Research": think');
  });

  it("applies a rule only when its condition on the input holds", () => {
    const orchestrator = createOrchestrator(
      template({
        approve: [
          { tool: "search", when: { field: "query", contains: "Payroll" } },
          { tool: "search", when: { field: "options.depth", equals: 3 } },
          { tool: "summarize", when: { field: "text", regex: "^secret\\b", flags: "i" } },
          { tool: "think", when: { field: "tags", contains: "prod" } },
        ],
      }),
      toolCatalogueEntries,
    );
    const state = orchestrator.initialState();
    const need = (tool: string, input: unknown): string | undefined =>
      orchestrator.approvalFor(state, tool, input)?.rule;
    assert.equal(
      need("search", { query: "the payroll of May" }),
      'agent: search when query contains "Payroll"',
    );
    assert.equal(need("search", { query: "weather" }), undefined);
    assert.equal(
      need("search", { query: "weather", options: { depth: 3 } }),
      "agent: search when options.depth equals 3",
    );
    assert.equal(need("search", { options: { depth: "3" } }), undefined);
    assert.equal(
      need("summarize", { text: "SECRET plans" }),
      "agent: summarize when text matches /^secret\\b/i",
    );
    assert.equal(need("summarize", { text: "not secret" }), undefined);
    assert.equal(
      need("think", { tags: ["dev", "prod"] }),
      'agent: think when tags contains "prod"',
    );
    assert.equal(need("think", { tags: ["dev"] }), undefined);
    assert.equal(need("think", "not an object"), undefined);
  });

  it("reads timeouts in short and long units", () => {
    assert.equal(parseApprovalTimeout("90s"), 90_000);
    assert.equal(parseApprovalTimeout("3 days"), 259_200_000);
    assert.equal(parseApprovalTimeout("1 hour"), 3_600_000);
    assert.throws(() => parseApprovalTimeout("soon"), /write e.g. "30m"/);
  });
});

describe("approval rules at load time", () => {
  it("names an unknown tool with the agent's tools", () => {
    assert.deepEqual(issuesOf({ approve: ["serach"] }), [
      'orchestration.approve[0]: unknown tool "serach" — did you mean "search"? (this agent\'s tools: think, search, summarize)',
    ]);
  });

  it("refuses a condition with two tests, or none, and flags without a regex", () => {
    assert.deepEqual(
      issuesOf({
        approve: [{ tool: "search", when: { field: "query", equals: "a", contains: "b" } }],
      }),
      [
        "orchestration.approve[0].when: give one test, not equals and contains; write two rules for two conditions",
      ],
    );
    assert.deepEqual(issuesOf({ approve: [{ tool: "search", when: { field: "query" } }] }), [
      'orchestration.approve[0].when: give one test: "equals", "contains" or "regex"',
    ]);
  });

  it("refuses a bad timeout and a bad field path, naming the field", () => {
    const issues = issuesOf({
      steps: [
        {
          name: "Only",
          approve: [
            { tool: "think", timeout: "soon" },
            { tool: "think", when: { field: "a..b", equals: 1 } },
          ],
        },
      ],
    });
    assert.deepEqual(issues, [
      'orchestration.steps[0].approve[0].timeout: write a timeout like "30m", "12h", "3d" or "3 days"',
      'orchestration.steps[0].approve[1].when.field: write the field as dot-separated keys, e.g. "query", "options.depth" or "urls.0"',
    ]);
  });

  it("refuses a regex RE2 cannot run and a timeout over a year, naming the field", () => {
    const issues = issuesOf({
      steps: [
        {
          name: "Only",
          approve: [
            { tool: "search", when: { field: "query", regex: "(?=x)" } },
            { tool: "summarize", timeout: "400d" },
          ],
        },
      ],
    });
    assert.equal(issues.length, 2, issues.join("\n"));
    assert.match(issues[0] ?? "", /^orchestration\.steps\[0\]\.approve\[0\]\.when\.regex: .*look/i);
    assert.equal(
      issues[1],
      'orchestration.steps[0].approve[1].timeout: "400d" is longer than 365 days; leave timeout out to wait without limit',
    );
  });
});
