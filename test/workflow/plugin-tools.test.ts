import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { parseAgentTemplate } from "../../src/agents/index.ts";
import type { OrchestrationEvent } from "../../src/orchestration/index.ts";
import { workflowIdFor } from "../../src/session/index.ts";
import type { SessionEvent } from "../../src/session/session-types.ts";
import type { ToolRegistry } from "../../src/tools/index.ts";
import { createPluginToolRegistry } from "../../src/tool-plugins/index.ts";
import { scheduledTools } from "../support/history.ts";
import { wordCountPlugin, writePluginFolder } from "../support/plugin-files.ts";
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
    const folder = await writePluginFolder({ "word-count.ts": wordCountPlugin });
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
});
