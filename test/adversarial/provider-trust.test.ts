import assert from "node:assert/strict";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { SESSION_WORKFLOW_TYPE, workflowIdFor } from "../../src/session/index.ts";
import type { SessionInput, TurnResult } from "../../src/session/index.ts";
import { within } from "../faults/fault-support.ts";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server.ts";
import { fetchHistory } from "../support/history.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";

const fixtureScripts = fileURLToPath(new URL("../fixtures/scripts", import.meta.url));
const general = shippedAgent("general");
/** Not key-shaped on purpose: only the worker's list of configured secrets can catch it. */
const apiKey = `trust-test-${Math.random().toString(36).slice(2)}-credential`;
const turnMs = 20_000;

/** Every string in the history, payload bytes decoded (the JSON would show base64). */
function historyText(value: unknown): string {
  if (value instanceof Uint8Array) return Buffer.from(value).toString("utf8");
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(historyText).join("\n");
  if (value !== null && typeof value === "object") {
    return Object.values(value).map(historyText).join("\n");
  }
  return "";
}

describe("what a workflow input may make the worker reach", () => {
  let env: TestEnv;
  let provider: FakeOpenAIServer;
  let listener: FakeOpenAIServer;
  let scratch: string;
  before(async () => {
    provider = await startFakeOpenAIServer();
    listener = await startFakeOpenAIServer([{ text: "the listener answered" }]);
    scratch = mkdtempSync(join(tmpdir(), "provider-trust-"));
    env = await createTestEnv();
    // The operator's choice: one provider URL, and scripts only from the fixtures folder.
    await env.startWorker({
      providerConfig: {
        scripted: {},
        openaiCompatible: { baseURL: `${provider.url}/v1`, apiKey },
        openai: { apiKey },
      },
      modelAccess: { baseURLs: [], scriptDirs: [fixtureScripts] },
    });
  });
  after(async () => {
    await env.close();
    await provider.close();
    await listener.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  /** Starts the workflow by hand, as anyone holding a Temporal client can, and sends one message. */
  async function handStarted(
    llm: SessionInput["template"]["llm"],
  ): Promise<{ sessionId: string; first: TurnResult }> {
    const sessionId = uniqueId("trust");
    const input: SessionInput = { sessionId, template: { ...general, llm } };
    await env.client.workflow.start(SESSION_WORKFLOW_TYPE, {
      taskQueue: env.taskQueue,
      workflowId: workflowIdFor(sessionId),
      args: [input],
    });
    const first = await within(env.sessions.send(sessionId, "Hello", "m1"), turnMs, "first turn");
    return { sessionId, first };
  }

  it("sends no request and no key to a base URL the operator did not allow, and fails the turn saying so", async () => {
    for (const provider of ["openai-compatible", "openai"] as const) {
      const baseURL = `${listener.url}/v1`;
      const { sessionId, first } = await handStarted({ provider, model: "fake-model", baseURL });

      assert.equal(listener.requests.length, 0, `${provider}: the listener got a request`);
      assert.equal(first.text, "");
      assert.match(first.error ?? "", new RegExp(`base URL "${baseURL}"`));
      assert.match(first.error ?? "", /AGENTDOCK_ALLOWED_BASE_URLS/);

      const second = await within(env.sessions.send(sessionId, "Again", "m2"), turnMs, "turn 2");
      assert.match(second.error ?? "", /AGENTDOCK_ALLOWED_BASE_URLS/);
      assert.equal(second.turn, 2);
      await within(env.sessions.end(sessionId), turnMs, "end");
      const closed: unknown = await within(
        env.client.workflow.getHandle(workflowIdFor(sessionId)).result() as Promise<unknown>,
        turnMs,
        "the workflow's result",
      );
      assert.ok(closed !== undefined, "the session ended");
    }
    assert.equal(listener.requests.length, 0);
  });

  it("refuses script:/etc/passwd and scripts outside the allowed folders without reading them", async () => {
    const outside = join(scratch, "outside.json");
    writeFileSync(outside, JSON.stringify({ responses: [{ text: "SCRIPT OUTSIDE WAS READ" }] }));
    const linked = join(scratch, "linked");
    symlinkSync(outside, linked);
    const cases = [
      "/etc/passwd",
      outside,
      `${fixtureScripts}/../../../../../../../etc/passwd`,
      // A relative path resolves against the worker's folder, which is not a script folder.
      "package.json",
    ];
    for (const path of cases) {
      const { first } = await handStarted({ provider: "scripted", model: `script:${path}` });
      assert.equal(first.text, "", `${path}: the turn produced text`);
      assert.match(first.error ?? "", /AGENTDOCK_SCRIPT_DIRS/, `${path}: ${first.error ?? ""}`);
      assert.doesNotMatch(first.error ?? "", /root:|SCRIPT OUTSIDE|"name"/);
    }
    const { first } = await handStarted({ provider: "scripted", model: "script:/etc/passwd" });
    assert.match(first.error ?? "", /"\/etc\/passwd"/);
  });

  it("follows no symlink out of an allowed script folder", async () => {
    const allowed = mkdtempSync(join(tmpdir(), "provider-trust-allowed-"));
    const secretFile = join(scratch, "secret-script.json");
    writeFileSync(secretFile, JSON.stringify({ responses: [{ text: "SYMLINK WAS FOLLOWED" }] }));
    symlinkSync(secretFile, join(allowed, "link.json"));
    const local = await createTestEnv();
    try {
      await local.startWorker({ modelAccess: { baseURLs: [], scriptDirs: [allowed] } });
      const sessionId = uniqueId("trust-link");
      const result = await within(
        local.sessions.sendWithStart(
          {
            sessionId,
            template: {
              ...general,
              llm: { provider: "scripted", model: `script:${join(allowed, "link.json")}` },
            },
          },
          "Hello",
          "m1",
        ),
        turnMs,
        "symlink turn",
      );
      assert.equal(result.text, "");
      assert.match(result.error ?? "", /AGENTDOCK_SCRIPT_DIRS/);
    } finally {
      await local.close();
      rmSync(allowed, { recursive: true, force: true });
    }
  });

  it("keeps a key the provider echoes in its error out of history, events and the turn's error", async () => {
    const keyShaped = "sk-proj-Q2hhbmdlTWVJbW1lZGlhdGVseTEyMzQ1";
    provider.enqueue({
      status: 400,
      body: {
        error: {
          message: `Incorrect API key provided: ${apiKey}. Also tried ${keyShaped} and Bearer ${apiKey}`,
          type: "invalid_request_error",
        },
      },
    });
    const sessionId = uniqueId("trust-echo");
    const result = await within(
      env.sessions.sendWithStart(
        { sessionId, template: { ...general, llm: { provider: "openai-compatible", model: "m" } } },
        "Hello",
        "m1",
      ),
      turnMs,
      "echo turn",
    );
    assert.equal(provider.requests.length, 1, "the configured provider is reached");
    assert.match(result.error ?? "", /Incorrect API key provided: \[redacted\]/);

    const { events } = await env.sessions.events(sessionId, 0);
    const history = historyText(await fetchHistory(env.client, workflowIdFor(sessionId)));
    for (const [where, text] of [
      ["turn error", result.error ?? ""],
      ["events", JSON.stringify(events)],
      ["history", history],
    ] as const) {
      assert.ok(!text.includes(apiKey), `the key is in the ${where}`);
      assert.ok(!text.includes(keyShaped), `the key-shaped string is in the ${where}`);
    }
  });
});
