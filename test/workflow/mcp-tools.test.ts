import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { parseAgentTemplate } from "../../src/agents/index.ts";
import { parseMcpConfig } from "../../src/mcp/mcp-config.ts";
import { McpTools } from "../../src/mcp/mcp-tools.ts";
import type { OrchestrationEvent } from "../../src/orchestration/index.ts";
import { workflowIdFor } from "../../src/session/index.ts";
import type { SessionEvent } from "../../src/session/session-types.ts";
import { createPluginToolRegistry } from "../../src/tool-plugins/index.ts";
import type { ToolRegistry } from "../../src/tools/index.ts";
import {
  fakeMcpServerScript,
  startFakeMcpHttpServer,
  type FakeMcpHttpServer,
} from "../support/fake-mcp-server.ts";
import { recordHistory, scheduledTools } from "../support/history.ts";
import { wordCountPlugin, writePluginFolder } from "../support/plugin-files.ts";
import { createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";

// MCP tools (a real MCP server over streamable HTTP on 127.0.0.1 and the same server as a stdio
// child process) and a plug-in tool in one agent: step policies, wildcards, sequences and
// refusals apply to both exactly as to built-in tools; a server that is down or dies costs a
// skipped step or a failed call, never a stuck turn.

type ModelStep = Extract<SessionEvent, { type: "model_step" }>;

function agent(registry: ToolRegistry, model = "auto") {
  return parseAgentTemplate(
    {
      id: "docs-agent",
      name: "Docs agent",
      llm: { provider: "scripted", model },
      tools: [
        "think",
        "reflect",
        "word_count",
        "mcp.docs.lookup",
        "mcp.docs.search",
        "mcp.files.crash",
        "mcp.offline.lookup",
        "mcp.wiki.lookup",
      ],
      orchestration: {
        defaultStep: "Chat",
        releaseAfterFailures: 1,
        steps: [
          {
            name: "Docs",
            conditions: [{ type: "message_regex", value: "\\bdocs\\b", flags: "i" }],
            availableTools: { allowed: ["mcp.docs.*", "think"] },
            sequence: ["mcp.docs.lookup", "think"],
            resetSequenceOn: ["user_message"],
            onComplete: "default",
          },
          {
            name: "Counting",
            conditions: [{ type: "message_regex", value: "\\bcount\\b", flags: "i" }],
            availableTools: { allowed: ["*analysis*", "think"] },
            sequence: ["word_count", "think"],
            resetSequenceOn: ["user_message"],
            onComplete: "default",
          },
          {
            name: "Offline",
            conditions: [{ type: "message_regex", value: "\\boffline\\b", flags: "i" }],
            availableTools: { allowed: ["mcp.offline.*", "think"] },
            sequence: ["mcp.offline.lookup", "think"],
            onComplete: "default",
          },
          {
            name: "Wiki",
            conditions: [{ type: "message_regex", value: "\\bwiki\\b", flags: "i" }],
            availableTools: { allowed: ["*mcp*"] },
            sequence: ["mcp.wiki.lookup"],
            resetSequenceOn: ["user_message"],
            onComplete: "default",
          },
          {
            name: "Crash",
            conditions: [{ type: "message_regex", value: "\\bcrash\\b", flags: "i" }],
            availableTools: { allowed: ["mcp.files.*"] },
            sequence: ["mcp.files.crash"],
            onComplete: "default",
          },
          { name: "Chat", availableTools: { denied: ["mcp.*", "*analysis*"] } },
        ],
      },
    },
    { tools: registry.catalogueEntries() },
  );
}

async function sessionEvents(env: TestEnv, sessionId: string): Promise<SessionEvent[]> {
  return (await env.sessions.events(sessionId, 0)).events.map(({ event }) => event);
}

function offeredTools(events: SessionEvent[]): string[][] {
  return events
    .filter((event): event is ModelStep => event.type === "model_step")
    .map((event) => event.offeredTools);
}

/** The model's refused calls, as the conversation recorded them: tool name and error text. */
async function refusals(
  env: TestEnv,
  sessionId: string,
): Promise<{ tool: string; error: string }[]> {
  const messages = await env.sessions.history(sessionId);
  return messages.flatMap((message) => {
    if (message.role !== "tool" || !Array.isArray(message.content)) return [];
    return (message.content as unknown[]).flatMap((part) => {
      const result = part as { toolName?: string; output?: { type?: string; value?: unknown } };
      return result.output?.type === "error-text"
        ? [{ tool: String(result.toolName), error: String(result.output.value) }]
        : [];
    });
  });
}

function orchestrationEvents(events: SessionEvent[]): OrchestrationEvent[] {
  return events.flatMap((event) => (event.type === "orchestration" ? [event.event] : []));
}

describe("MCP tools and a plug-in tool in an agent's steps", () => {
  let docs: FakeMcpHttpServer;
  let wiki: FakeMcpHttpServer;
  let offlineUrl: string;
  let folder: string;
  let removePlugins: () => Promise<void>;
  let registry: ToolRegistry;
  let mcp: McpTools;
  let env: TestEnv;
  before(async () => {
    docs = await startFakeMcpHttpServer();
    wiki = await startFakeMcpHttpServer();
    const gone = await startFakeMcpHttpServer();
    offlineUrl = gone.url;
    await gone.close();
    folder = await mkdtemp(join(tmpdir(), "agentdock-mcp-"));
    const plugins = await writePluginFolder({ "word-count.ts": wordCountPlugin });
    removePlugins = plugins.remove;
    ({ registry } = await createPluginToolRegistry(
      { dirs: [plugins.dir], modules: [] },
      { cwd: plugins.dir },
    ));
    const config = {
      mcpServers: {
        docs: { url: docs.url },
        wiki: { url: wiki.url },
        offline: { url: offlineUrl, connectTimeoutSeconds: 2 },
        files: { command: process.execPath, args: [fakeMcpServerScript, "--stdio"] },
      },
    };
    mcp = new McpTools(parseMcpConfig(JSON.stringify(config), join(folder, "mcp.json"), {}));
    registry.attachSource(mcp);
    env = await createTestEnv();
    await env.startWorker({ toolRegistry: registry });
  });
  after(async () => {
    await env.close();
    await mcp.close();
    await docs.close();
    await wiki.close();
    await removePlugins();
    await rm(folder, { recursive: true, force: true });
  });

  async function script(name: string, responses: unknown[]): Promise<string> {
    const file = join(folder, `${name}.json`);
    await writeFile(file, JSON.stringify({ responses }));
    return `script:${file}`;
  }

  it("offers the MCP tool only at its sequence position, runs it as an activity and gives its output to the model", async () => {
    const sessionId = uniqueId("mcp-tools");
    const result = await env.sessions.sendWithStart(
      { template: agent(registry), sessionId },
      "What do the docs say about retries?",
      "m1",
    );
    assert.equal(result.error, undefined);
    // The sequence, then the default step (Chat: no MCP tools) for the rest of the turn.
    assert.deepEqual(
      result.toolCalls.map(({ toolName, status }) => `${toolName}:${status}`),
      ["mcp.docs.lookup:ok", "think:ok", "reflect:ok"],
    );
    assert.deepEqual(await scheduledTools(env.client, workflowIdFor(sessionId)), [
      "mcp.docs.lookup",
      "think",
      "reflect",
    ]);
    const events = await sessionEvents(env, sessionId);
    assert.deepEqual(offeredTools(events).slice(0, 3), [
      ["mcp.docs.lookup"],
      ["think"],
      ["think", "reflect"],
    ]);
    // The scripted model quotes each result's heading: the MCP server's answer reached it.
    assert.match(result.text, /Lookup: /);
    await recordHistory(env.client, workflowIdFor(sessionId), "mcp-tools");
  });

  it("refuses an MCP tool the sequence does not expect yet and a tool the step's policy excludes, never running them", async () => {
    const sessionId = uniqueId("mcp-refused");
    const model = await script("mcp-refused", [
      { toolCalls: [{ toolName: "mcp__docs__search", input: { query: "retries" } }] },
      { toolCalls: [{ toolName: "word_count", input: { text: "two words" } }] },
      { toolCalls: [{ toolName: "mcp__docs__lookup", input: { query: "retries" } }] },
      { toolCalls: [{ toolName: "think", input: { topic: "retries", reasoning: "Noted." } }] },
      { text: "Looked up as the orchestration required." },
    ]);
    const result = await env.sessions.sendWithStart(
      { template: agent(registry, model), sessionId },
      "Check the docs for retries",
      "m1",
    );
    assert.equal(result.error, undefined);
    assert.equal(result.text, "Looked up as the orchestration required.");
    assert.deepEqual(await scheduledTools(env.client, workflowIdFor(sessionId)), [
      "mcp.docs.lookup",
      "think",
    ]);
    // Both refusals reached the model under the policy names, with the tool it may call.
    const refused = await refusals(env, sessionId);
    assert.deepEqual(
      refused.map(({ tool }) => tool),
      ["mcp.docs.search", "word_count"],
    );
    for (const { error } of refused) assert.match(error, /mcp\.docs\.lookup/);
  });

  it("holds a plug-in tool to its step's policy and sequence the same way", async () => {
    const sessionId = uniqueId("mcp-plugin");
    const model = await script("plugin-sequence", [
      { toolCalls: [{ toolName: "think", input: { topic: "words", reasoning: "First." } }] },
      { toolCalls: [{ toolName: "mcp__docs__lookup", input: { query: "words" } }] },
      { toolCalls: [{ toolName: "word_count", input: { text: "count these three" } }] },
      { toolCalls: [{ toolName: "think", input: { topic: "words", reasoning: "Three." } }] },
      { text: "Counted as the orchestration required." },
    ]);
    const result = await env.sessions.sendWithStart(
      { template: agent(registry, model), sessionId },
      "Please count the words: count these three",
      "m1",
    );
    assert.equal(result.error, undefined);
    assert.equal(result.text, "Counted as the orchestration required.");
    assert.deepEqual(await scheduledTools(env.client, workflowIdFor(sessionId)), [
      "word_count",
      "think",
    ]);
    const events = await sessionEvents(env, sessionId);
    assert.deepEqual(offeredTools(events).slice(0, 1), [["word_count"]]);
    const refused = await refusals(env, sessionId);
    assert.deepEqual(
      refused.map(({ tool }) => tool),
      ["think", "mcp.docs.lookup"],
    );
    for (const { error } of refused) assert.match(error, /word_count/);
  });

  it("skips a step whose MCP server is down, saying why, and the turn completes promptly", async () => {
    const sessionId = uniqueId("mcp-down");
    const started = Date.now();
    const result = await env.sessions.sendWithStart(
      { template: agent(registry), sessionId },
      "Look it up offline please",
      "m1",
    );
    assert.ok(Date.now() - started < 30_000, `the turn took ${Date.now() - started} ms`);
    assert.equal(result.error, undefined);
    assert.notEqual(result.state.activeStep, "Offline");
    assert.ok(
      !(await scheduledTools(env.client, workflowIdFor(sessionId))).includes("mcp.offline.lookup"),
    );
    const skipped = orchestrationEvents(await sessionEvents(env, sessionId)).find(
      (event) => event.type === "step_skipped" && event.step === "Offline",
    );
    assert.ok(skipped?.type === "step_skipped");
    assert.match(skipped.reason, /MCP server offline unreachable: /);
    const state = await env.sessions.state(sessionId);
    assert.match(
      state.unavailableTools?.["mcp.offline.lookup"] ?? "",
      /^MCP server offline unreachable/,
    );
  });

  it("fails a call whose stdio server dies mid-call with a clear error, releases the sequence and finishes the turn", async () => {
    const sessionId = uniqueId("mcp-crash");
    const result = await env.sessions.sendWithStart(
      { template: agent(registry), sessionId },
      "Make it crash",
      "m1",
    );
    assert.equal(result.error, undefined);
    const crash = result.toolCalls.find((call) => call.toolName === "mcp.files.crash");
    assert.equal(crash?.status, "error");
    assert.match(crash.detail ?? "", /MCP server files unreachable: crash did not finish: /);
    assert.match(crash.detail ?? "", /the docs index is corrupted/);
    const released = orchestrationEvents(await sessionEvents(env, sessionId)).find(
      (event) => event.type === "sequence_released",
    );
    assert.ok(released?.type === "sequence_released");
    assert.equal(released.tool, "mcp.files.crash");
  });

  it("makes the tools of an HTTP server that stopped mid-session unavailable at the next turn", async () => {
    const sessionId = uniqueId("mcp-stopped");
    const first = await env.sessions.sendWithStart(
      { template: agent(registry), sessionId },
      "Search the wiki",
      "m1",
    );
    assert.deepEqual(
      first.toolCalls.slice(0, 1).map(({ toolName, status }) => `${toolName}:${status}`),
      ["mcp.wiki.lookup:ok"],
    );
    await wiki.close();
    const second = await env.sessions.send(sessionId, "Search the wiki again", "m2");
    assert.equal(second.error, undefined);
    assert.ok(!second.toolCalls.some(({ toolName }) => toolName.startsWith("mcp.")));
    const skipped = orchestrationEvents(await sessionEvents(env, sessionId)).find(
      (event) => event.type === "step_skipped" && event.step === "Wiki",
    );
    assert.ok(skipped?.type === "step_skipped");
    assert.match(skipped.reason, /MCP server wiki unreachable: /);
  });
});
