import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import type { TurnResult } from "../../src/session/index.ts";
import { startFakeGeminiServer, type FakeGeminiServer } from "../support/fake-gemini-server.ts";
import { testServer, uniqueId } from "../support/temporal-env.ts";
import { spawnWorker, workerEnv, type WorkerProcess } from "../support/worker-process.ts";

// The README's "Coming from AgentDock" steps, as a user runs them: AgentDock's folder as
// AGENTDOCK_AGENTS_DIR, the key under AgentDock's name, a worker, and a message from the command
// line to an AgentDock agent, unchanged. Gemini is the local fake (GEMINI_BASE_URL).

const agentsDir = fileURLToPath(new URL("../fixtures/agentdock/", import.meta.url));
const apiKey = "gemini-test-key";

describe("an AgentDock agent folder used as it is", () => {
  let gemini: FakeGeminiServer;
  let worker: WorkerProcess;
  const taskQueue = uniqueId("agentdock-migration");
  let env: Record<string, string>;

  before(async () => {
    gemini = await startFakeGeminiServer();
    const server = testServer();
    env = {
      ...workerEnv(server, taskQueue, "http://127.0.0.1:9"),
      AGENTDOCK_AGENTS_DIR: agentsDir,
      GEMINI_API_KEY: apiKey,
      GEMINI_BASE_URL: `${gemini.url}/v1beta`,
    };
    worker = spawnWorker(env);
    await worker.ready;
  });
  after(async () => {
    await worker.kill();
    await gemini.close();
  });

  it("answers `send --agent` through the worker's Gemini key, with the template's settings", async () => {
    gemini.enqueue({ text: "A lighthouse on a cliff, seen from the sea at dusk." });
    const sessionId = uniqueId("sketch");
    const child = spawn(
      process.execPath,
      [
        "src/cli.ts",
        "send",
        sessionId,
        "Describe a lighthouse to draw",
        "--agent",
        "gemini-sketcher",
        "--json",
      ],
      { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    clearTimeout(timer);

    assert.equal(code, 0, `${stdout}\n${stderr}\n${worker.output()}`);
    const result = JSON.parse(stdout) as TurnResult;
    assert.equal(result.error, undefined);
    assert.equal(result.text, "A lighthouse on a cliff, seen from the sea at dusk.");
    const request = gemini.requests.at(-1);
    assert.ok(request !== undefined);
    assert.equal(request.path, "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    assert.equal(request.headers["x-goog-api-key"], apiKey);
    assert.deepEqual(request.body.safetySettings, [
      { category: "HARM_CATEGORY_HATE_SPEECH", threshold: "BLOCK_MEDIUM_AND_ABOVE" },
    ]);
    // The agent has no tools, so its useSearchGrounding grounds every call.
    assert.deepEqual(request.body.tools, [{ googleSearch: {} }]);
    assert.equal(request.body.generationConfig?.temperature, 0.9);
    assert.doesNotMatch(stdout, new RegExp(apiKey));
  });
});
