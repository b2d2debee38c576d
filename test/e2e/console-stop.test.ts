import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { createApiServer, type ApiServer } from "../../src/server/index.ts";
import { chromiumSkipReason, launchChromium, saveScreenshot } from "../support/browser.ts";
import { buildConsole } from "../support/build-console.ts";
import {
  fakeProviderConfig,
  startFakeOpenAIServer,
  type FakeOpenAIServer,
} from "../support/fake-openai-server.ts";
import { createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";
import { slowWriterAgentsDir } from "../support/use-chat-client.ts";

const SLOW = Array.from({ length: 60 }, (_, index) => `word${index + 1}`).join(" ");

describe("the console's stop button in Chromium", { skip: chromiumSkipReason }, () => {
  const scratch = mkdtempSync(join(tmpdir(), "agentdock-console-stop-"));
  const writerAgents = slowWriterAgentsDir();
  let env: TestEnv;
  let fake: FakeOpenAIServer;
  let api: ApiServer;
  let url: string;
  let browser: Browser;
  let page: Page;

  before(async () => {
    fake = await startFakeOpenAIServer();
    const consoleDir = join(scratch, "console");
    buildConsole(consoleDir);
    env = await createTestEnv();
    await env.startWorker({ providerConfig: fakeProviderConfig(fake) });
    api = createApiServer({
      client: env.client,
      taskQueue: env.taskQueue,
      agentsDirs: ["agents", writerAgents],
      consoleDir,
    });
    ({ url } = await api.listen(0, "127.0.0.1"));
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(30_000);
  });

  after(async () => {
    await browser.close();
    await api.close();
    await env.close();
    await fake.close();
    rmSync(scratch, { recursive: true, force: true });
    rmSync(writerAgents, { recursive: true, force: true });
  });

  it("stops a turn while its reply streams: the partial reply stays, marked stopped, and the next message is answered", async () => {
    fake.enqueue({ text: SLOW, wordDelayMs: 150 }, { text: "The short version." });
    const sessionId = uniqueId("stop");
    await page.goto(`${url}/sessions/${sessionId}?agent=slow-writer`);
    await page.getByLabel("message").fill("Write at length");
    await page.getByRole("button", { name: "Send" }).click();
    await page.locator(".message.assistant", { hasText: "word3" }).waitFor();

    const stop = page.getByRole("button", { name: "Stop" });
    await stop.click();
    await page.locator(".message.assistant .stopped").waitFor();
    await page.locator(".typing").waitFor({ state: "detached" });
    const shown = (await page.locator(".message.assistant .text").first().textContent()) ?? "";
    assert.match(shown, /^word1 word2 word3/);
    assert.ok(shown.length < SLOW.length, "the reply stopped part-way");
    // The timeline follows: the turn is shown as cancelled.
    await page.locator(".turn .badge", { hasText: "cancelled" }).waitFor();
    await page.locator(".entry.model-call", { hasText: "stopped (no answer)" }).waitFor();
    await saveScreenshot(page, "console-stopped-turn.png");

    const state = await env.sessions.state(sessionId);
    assert.equal(state.status, "idle");
    const { events } = await env.sessions.events(sessionId, 0);
    const finished = events.find(({ event }) => event.type === "turn_finished")?.event;
    assert.ok(finished?.type === "turn_finished");
    assert.equal(finished.cancelled, true);
    assert.equal(finished.text.trim(), shown.trim());

    await page.getByLabel("message").fill("Shorter, please");
    await page.getByRole("button", { name: "Send" }).click();
    await page.locator(".message.assistant >> nth=1", { hasText: "The short version." }).waitFor();
    await page.locator(".typing").waitFor({ state: "detached" });
    // Nothing streams on after the stop: the stopped reply is unchanged.
    assert.equal(await page.locator(".message.assistant .text").first().textContent(), shown);
  });
});
