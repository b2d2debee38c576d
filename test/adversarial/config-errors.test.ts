import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { loadAgent } from "../../src/agents/index.ts";
import { TemplateError } from "../../src/agents/index.ts";
import { SESSION_WORKFLOW_TYPE, workflowIdFor } from "../../src/session/index.ts";
import type { SessionInput } from "../../src/session/index.ts";
import { toolCatalogueEntries } from "../../src/tools/index.ts";
import { countEvents, within } from "../faults/fault-support.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";

const general = shippedAgent("general");
const turnMs = 20_000;

const badLlmBlocks = [
  {
    name: "a scripted provider with a real model name",
    llm: { provider: "scripted", model: "gpt-4o" },
    path: "llm.model",
    hint: /"auto" or "script:/,
  },
  {
    name: "a file:// base URL",
    llm: { provider: "openai-compatible", model: "llama", baseURL: "file:///etc/passwd" },
    path: "llm.baseURL",
    hint: /http\(s\) URL/,
  },
] as const;

describe("an llm block the worker cannot use", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "config-errors-"));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  for (const bad of badLlmBlocks) {
    it(`is refused at load, naming ${bad.path}: ${bad.name}`, () => {
      const id = `bad-${bad.path.replace(".", "-").toLowerCase()}`;
      const json = JSON.parse(readFileSync("agents/general/template.json", "utf8")) as Record<
        string,
        unknown
      >;
      mkdirSync(join(dir, id), { recursive: true });
      writeFileSync(join(dir, id, "template.json"), JSON.stringify({ ...json, id, llm: bad.llm }));
      assert.throws(
        () => loadAgent(id, { agentsDirs: [dir], tools: toolCatalogueEntries }),
        (error: unknown) => {
          assert.ok(error instanceof TemplateError, String(error));
          assert.ok(
            error.issues.some((issue) => issue.path === bad.path && bad.hint.test(issue.message)),
            error.message,
          );
          return true;
        },
      );
    });
  }
});

describe("a hand-started session whose llm block cannot be used", () => {
  let env: TestEnv;
  before(async () => {
    env = await createTestEnv();
    await env.startWorker();
  });
  after(async () => {
    await env.close();
  });

  for (const bad of badLlmBlocks) {
    it(`fails each turn with an error naming ${bad.path}, answers the next message and ends: ${bad.name}`, async () => {
      const sessionId = uniqueId("config-error");
      const workflowId = workflowIdFor(sessionId);
      const input = { sessionId, template: { ...general, llm: bad.llm } } as SessionInput;
      await env.client.workflow.start(SESSION_WORKFLOW_TYPE, {
        taskQueue: env.taskQueue,
        workflowId,
        args: [input],
      });

      const first = await within(env.sessions.send(sessionId, "Hello", "m1"), turnMs, "turn 1");
      assert.equal(first.text, "");
      assert.match(first.error ?? "", new RegExp(bad.path.replace(".", "\\.")));
      assert.match(first.error ?? "", bad.hint);

      const second = await within(env.sessions.send(sessionId, "Again", "m2"), turnMs, "turn 2");
      assert.equal(second.turn, 2);
      assert.match(second.error ?? "", new RegExp(bad.path.replace(".", "\\.")));

      await within(env.sessions.end(sessionId), turnMs, "end");
      const result: unknown = await within(
        env.client.workflow.getHandle(workflowId).result() as Promise<unknown>,
        turnMs,
        "the workflow's result",
      );
      assert.ok(result !== undefined, "the workflow completed");
      const counts = await countEvents(env.client, workflowId);
      assert.deepEqual(counts.taskFailures, [], "no workflow task failed");
    });
  }
});

describe("a hand-started session whose orchestration cannot run", () => {
  let env: TestEnv;
  before(async () => {
    env = await createTestEnv();
    await env.startWorker();
  });
  after(async () => {
    await env.close();
  });

  it("fails each turn with the reason instead of failing every workflow task, and ends", async () => {
    const sessionId = uniqueId("bad-orchestration");
    const workflowId = workflowIdFor(sessionId);
    // A lookahead the loader refuses (RE2 has none), carried past it in a hand-made input.
    const template = {
      ...general,
      orchestration: {
        ...general.orchestration,
        steps: [{ name: "Peek", conditions: [{ type: "message_regex", value: "(?=x)y" }] }],
      },
    };
    const input = { sessionId, template } as unknown as SessionInput;
    await env.client.workflow.start(SESSION_WORKFLOW_TYPE, {
      taskQueue: env.taskQueue,
      workflowId,
      args: [input],
    });
    const first = await within(env.sessions.send(sessionId, "Hello", "m1"), turnMs, "turn 1");
    assert.match(first.error ?? "", /template cannot decide on this message/);
    const second = await within(env.sessions.send(sessionId, "Again", "m2"), turnMs, "turn 2");
    assert.equal(second.turn, 2);
    const ended = await within(env.sessions.end(sessionId), turnMs, "end");
    assert.equal(ended.ended, true);
    const counts = await countEvents(env.client, workflowId);
    assert.deepEqual(counts.taskFailures, [], "no workflow task failed");
  });
});
