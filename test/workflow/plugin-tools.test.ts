import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { parseAgentTemplate } from "../../src/agents/index.ts";
import type { OrchestrationEvent } from "../../src/orchestration/index.ts";
import { workflowIdFor } from "../../src/session/index.ts";
import type { SessionEvent } from "../../src/session/session-types.ts";
import type { ToolRegistry } from "../../src/tools/index.ts";
import { createPluginToolRegistry } from "../../src/tool-plugins/index.ts";
import { recordHistory, scheduledTools } from "../support/history.ts";
import { wordCountPlugin, writePluginFolder, zodImport } from "../support/plugin-files.ts";
import { createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";

// A plug-in tool (`word_count`, category "analysis", loaded from a folder as the worker loads
// AGENTDOCK_TOOL_DIRS) is a tool like the built-in ones: offered at its sequence position only,
// run as an activity, matched by category wildcards, and "not installed" where it is absent.

function counterTemplate(registry: ToolRegistry) {
  return parseAgentTemplate(
    {
      id: "counter",
      name: "Counter",
      llm: { provider: "scripted", model: "auto" },
      tools: ["think", "word_count", "reflect"],
      orchestration: {
        defaultStep: "Chat",
        steps: [
          {
            name: "Counting",
            conditions: [{ type: "message_regex", value: "\\bcount\\b", flags: "i" }],
            availableTools: { allowed: ["*analysis*", "think", "reflect"] },
            sequence: ["think", "word_count", "reflect"],
            resetSequenceOn: ["user_message"],
            onComplete: "default",
          },
          { name: "Chat", availableTools: { denied: ["*analysis*"] } },
        ],
      },
    },
    { tools: registry.catalogueEntries() },
  );
}

// A plug-in whose service is down: it throws a plain Error, as plug-in code does.
const tallyPlugin = `${zodImport}
export default {
  name: "tally",
  category: "analysis",
  description: "Tally the items of a list.",
  inputSchema: z.object({ text: z.string() }),
  execute: () => {
    throw new Error("the tally service is down");
  },
};
`;

function tallyTemplate(registry: ToolRegistry) {
  return parseAgentTemplate(
    {
      id: "tallier",
      name: "Tallier",
      llm: { provider: "scripted", model: "auto" },
      tools: ["think", "tally", "reflect"],
      orchestration: {
        defaultStep: "Chat",
        releaseAfterFailures: 1,
        steps: [
          {
            name: "Tallying",
            conditions: [{ type: "message_regex", value: "\\btally\\b", flags: "i" }],
            sequence: ["think", "tally", "reflect"],
            onComplete: "default",
          },
          { name: "Chat", availableTools: { allowed: ["think"] } },
        ],
      },
    },
    { tools: registry.catalogueEntries() },
  );
}

type ModelStep = Extract<SessionEvent, { type: "model_step" }>;

async function sessionEvents(env: TestEnv, sessionId: string): Promise<SessionEvent[]> {
  return (await env.sessions.events(sessionId, 0)).events.map(({ event }) => event);
}

describe("a plug-in tool in an agent's step sequence", () => {
  let registry: ToolRegistry;
  let removeFolder: () => Promise<void>;
  let withPlugin: TestEnv;
  let withoutPlugin: TestEnv;
  before(async () => {
    const folder = await writePluginFolder({
      "word-count.ts": wordCountPlugin,
      "tally.ts": tallyPlugin,
    });
    removeFolder = folder.remove;
    ({ registry } = await createPluginToolRegistry(
      { dirs: [folder.dir], modules: [] },
      { cwd: folder.dir },
    ));
    withPlugin = await createTestEnv();
    await withPlugin.startWorker({ toolRegistry: registry });
    withoutPlugin = await createTestEnv();
    await withoutPlugin.startWorker();
  });
  after(async () => {
    await withPlugin.close();
    await withoutPlugin.close();
    await removeFolder();
  });

  it("offers the plug-in only at its sequence position, runs it as an activity and gives its output to the model", async () => {
    const sessionId = uniqueId("plugin-tools");
    const result = await withPlugin.sessions.sendWithStart(
      { template: counterTemplate(registry), sessionId },
      "Please count the words of this short sentence",
      "m1",
    );
    assert.equal(result.error, undefined);
    assert.deepEqual(
      result.toolCalls.map(({ toolName, status }) => `${toolName}:${status}`),
      ["think:ok", "word_count:ok", "reflect:ok"],
    );
    assert.deepEqual(await scheduledTools(withPlugin.client, workflowIdFor(sessionId)), [
      "think",
      "word_count",
      "reflect",
    ]);
    const events = await sessionEvents(withPlugin, sessionId);
    const offered = events
      .filter((event): event is ModelStep => event.type === "model_step")
      .map((event) => event.offeredTools);
    assert.deepEqual(offered.slice(0, 3), [["think"], ["word_count"], ["reflect"]]);
    // The scripted model's answer quotes each tool result's heading: the plug-in's reached it.
    assert.match(result.text, /\d+ words counted/);
    await recordHistory(withPlugin.client, workflowIdFor(sessionId), "plugin-tools");
  });

  it("matches the plug-in by its category in a wildcard policy: a step denying *analysis* never offers it", async () => {
    const sessionId = uniqueId("plugin-wildcard");
    const result = await withPlugin.sessions.sendWithStart(
      { template: counterTemplate(registry), sessionId },
      "Hello there",
      "m1",
    );
    assert.equal(result.error, undefined);
    assert.deepEqual((await withPlugin.sessions.state(sessionId)).allowedTools, [
      "think",
      "reflect",
    ]);
    const events = await sessionEvents(withPlugin, sessionId);
    const offered = events
      .filter((event): event is ModelStep => event.type === "model_step")
      .map((event) => event.offeredTools);
    assert.ok(offered.length > 0);
    for (const tools of offered) assert.deepEqual(tools, ["think", "reflect"]);
  });

  it("skips the step as 'not installed' on a worker without the plug-in, and never schedules it", async () => {
    const sessionId = uniqueId("plugin-absent");
    const result = await withoutPlugin.sessions.sendWithStart(
      { template: counterTemplate(registry), sessionId },
      "Please count the words of this short sentence",
      "m1",
    );
    assert.equal(result.error, undefined);
    assert.notEqual(result.state.activeStep, "Counting");
    assert.ok(
      !(await scheduledTools(withoutPlugin.client, workflowIdFor(sessionId))).includes(
        "word_count",
      ),
    );
    const orchestration = (await sessionEvents(withoutPlugin, sessionId)).flatMap(
      (event): OrchestrationEvent[] => (event.type === "orchestration" ? [event.event] : []),
    );
    const skipped = orchestration.find(
      (event) => event.type === "step_skipped" && event.step === "Counting",
    );
    assert.ok(skipped?.type === "step_skipped", JSON.stringify(orchestration));
    assert.match(skipped.reason, /not installed/);
    assert.match(skipped.reason, /word_count/);
  });

  it("counts a plug-in that throws as a failed tool with its message, and releases the sequence", async () => {
    const sessionId = uniqueId("plugin-failing");
    const result = await withPlugin.sessions.sendWithStart(
      { template: tallyTemplate(registry), sessionId },
      "Please tally these: apples, pears",
      "m1",
    );
    assert.equal(result.error, undefined);
    const tally = result.toolCalls.find((call) => call.toolName === "tally");
    assert.equal(tally?.status, "error");
    assert.match(tally.detail ?? "", /the tally service is down/);
    const orchestration = (await sessionEvents(withPlugin, sessionId)).flatMap(
      (event): OrchestrationEvent[] => (event.type === "orchestration" ? [event.event] : []),
    );
    const released = orchestration.find((event) => event.type === "sequence_released");
    assert.ok(released?.type === "sequence_released", JSON.stringify(orchestration));
    assert.deepEqual(
      { step: released.step, tool: released.tool, cause: released.cause, to: released.to },
      { step: "Tallying", tool: "tally", cause: "failed", to: "Chat" },
    );
    assert.match(released.error, /the tally service is down/);
  });
});
