import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { Client, type Connection } from "@temporalio/client";
import type { Browser, Page } from "playwright-core";
import { createApiServer, type ApiServer } from "../../src/server/index.ts";
import { connectClient } from "../../src/temporal-connection.ts";
import { chromiumSkipReason, launchChromium, saveScreenshot } from "../support/browser.ts";
import { buildConsole } from "../support/build-console.ts";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server.ts";
import { testServer, uniqueId } from "../support/temporal-env.ts";
import { slowWriterAgentsDir } from "../support/use-chat-client.ts";
import { spawnWorker, workerEnv, type WorkerProcess } from "../support/worker-process.ts";

const token = "console-token-1234";
const refusalScript = resolve("test/fixtures/scripts/forbidden-tool.json");
/** Long enough that the held model call is still running when its worker is killed. */
const heldMs = 120_000;
/** From the new worker polling to the reply on the page: heartbeat timeout, then the retry. */
const recoveryMs = 120_000;

/** A local agent: a shipped template under another id, answered by a scripted model script. */
function writeAgent(dir: string, id: string, base: string, script: string): void {
  const template = JSON.parse(readFileSync(`agents/${base}/template.json`, "utf8")) as Record<
    string,
    unknown
  >;
  mkdirSync(join(dir, id), { recursive: true });
  writeFileSync(
    join(dir, id, "template.json"),
    JSON.stringify({
      ...template,
      $schema: undefined,
      id,
      name: `${String(template["name"])} (${id})`,
      llm: { provider: "scripted", model: `script:${script}` },
    }),
  );
}

function writeSlowScript(file: string, delayMs: number | undefined): void {
  const responses = [
    {
      toolCalls: [
        {
          toolName: "think",
          input: { topic: "durability", reasoning: "1. Activities retry. 2. Workflows replay." },
        },
      ],
    },
    { text: "Answered after the crash.", ...(delayMs === undefined ? {} : { delayMs }) },
  ];
  writeFileSync(file, JSON.stringify({ responses }));
}

describe("the web console in Chromium", { skip: chromiumSkipReason }, () => {
  const scratch = mkdtempSync(join(tmpdir(), "agentdock-console-"));
  const agentsDir = join(scratch, "agents");
  const slowScript = join(scratch, "slow.json");
  const taskQueue = uniqueId("console-queue");
  const workers: WorkerProcess[] = [];
  let connection: Connection;
  let api: ApiServer;
  let url: string;
  let browser: Browser;
  let page: Page;
  let fake: FakeOpenAIServer;
  const writerAgents = slowWriterAgentsDir();
  const uiUrl = process.env["AGENTDOCK_TEST_TEMPORAL_UI_URL"];

  const startWorker = async (): Promise<WorkerProcess> => {
    // Search is not used here; the address only satisfies the worker's configuration.
    const worker = spawnWorker({
      ...workerEnv(testServer(), taskQueue, "http://127.0.0.1:9"),
      // The slow-writer agent's model: a fake OpenAI-compatible server that paces its words.
      OPENAI_COMPATIBLE_BASE_URL: `${fake.url}/v1`,
      OPENAI_COMPATIBLE_API_KEY: "test-key",
    });
    workers.push(worker);
    await worker.ready;
    return worker;
  };

  before(async () => {
    fake = await startFakeOpenAIServer();
    const consoleDir = join(scratch, "console");
    buildConsole(consoleDir);
    writeAgent(agentsDir, "console-refusal", "cognitive-reasoner", refusalScript);
    writeSlowScript(slowScript, heldMs);
    writeAgent(agentsDir, "console-slow", "general", slowScript);
    const worker = startWorker();
    connection = await connectClient({ address: testServer().address });
    api = createApiServer({
      client: new Client({ connection, namespace: testServer().namespace }),
      taskQueue,
      agentsDirs: ["agents", agentsDir, writerAgents],
      token,
      consoleDir,
      ...(uiUrl === undefined ? {} : { temporalUiUrl: uiUrl }),
    });
    ({ url } = await api.listen(0, "127.0.0.1"));
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(30_000);
    await worker;
  });

  after(async () => {
    await browser.close();
    for (const worker of workers) await worker.kill();
    await api.close();
    await connection.close();
    await fake.close();
    rmSync(scratch, { recursive: true, force: true });
    rmSync(writerAgents, { recursive: true, force: true });
  });

  /** Waits until an element matching `selector` has `text` in it. */
  async function shows(selector: string, text: string | RegExp, timeout = 30_000): Promise<void> {
    await page.locator(selector, { hasText: text }).first().waitFor({ timeout });
  }

  async function send(text: string): Promise<void> {
    await page.getByLabel("message").fill(text);
    await page.getByRole("button", { name: "Send" }).click();
  }

  /** The turn's reply is on the page and the chat takes messages again. */
  async function answered(assistantCount: number, reply: string | RegExp): Promise<void> {
    await shows(`.message.assistant >> nth=${assistantCount - 1}`, reply);
    await page.locator(".typing").waitFor({ state: "detached" });
  }

  it("asks for the token, says why a wrong one is refused, and works with the right one", async () => {
    await page.goto(`${url}/`);
    await shows(".token-prompt", "send the API token as 'Authorization: Bearer <token>'");
    await page.getByLabel("token", { exact: true }).fill("wrong-token");
    await page.getByRole("button", { name: "Use token" }).click();
    await shows(".token-prompt", "the bearer token is not valid");
    await page.getByLabel("token", { exact: true }).fill(token);
    await page.getByRole("button", { name: "Use token" }).click();
    await page.locator(".token-prompt").waitFor({ state: "detached" });
    await shows(".new-session select", "Cognitive Reasoner (cognitive-reasoner)");
    await shows(".sessions", /No sessions yet|Session/);
  });

  let sessionId = "";

  it("chats two turns with the cognitive reasoner: tool parts, orchestration and the timeline's steps and tool calls", async () => {
    await page.getByRole("button", { name: "Start chatting" }).click();
    await page.waitForURL(/\/sessions\/[^/?]+\?agent=cognitive-reasoner$/);
    sessionId = decodeURIComponent(new URL(page.url()).pathname.split("/").at(-1) ?? "");

    await send("Please evaluate the claim that remote work improves productivity");
    await answered(1, "I worked through it in 3 steps");
    // The model's Markdown is rendered: the numbered steps are a list, tool names bold.
    await shows(".chat .message.assistant .markdown ol li strong", "critique");
    for (const tool of ["critique", "debate", "reflect"]) {
      await shows(`.chat .tool-part[data-tool=${tool}][data-state=output-available]`, tool);
    }
    await shows(".chat .orchestration", "→ step EvaluationMode because message_regex");
    await shows(".timeline .turn[data-turn='1']", "→ step EvaluationMode because message_regex");
    await shows(
      ".timeline .turn[data-turn='1'] [data-kind=model_call]",
      /model call 1 · EvaluationMode\d+ in · \d+ out · \d+ tokens/,
    );
    await shows(
      ".timeline .turn[data-turn='1'] [data-kind=model_call]",
      /withheld think: step "EvaluationMode" does not list it in availableTools\.allowed/,
    );
    await shows(".timeline [data-kind=tool_call][data-tool=critique]", /ok\s*\d+(\.\d+)? m?s/);
    await shows(".timeline [data-kind=tool_call][data-tool=critique]", /input.*"subject"/s);
    await shows(".timeline [data-kind=tool_call][data-tool=critique]", /output.*critique_result/s);

    await send("Now brainstorm some ideas about hybrid work");
    await answered(2, "I worked through it in 3 steps");
    await shows(".timeline .turn[data-turn='2']", "→ step IdeationMode because message_regex");
    await shows(".timeline .turn[data-turn='2'] [data-kind=tool_call][data-tool=brainstorm]", "ok");
    await shows(".session-header", /step DefaultMode\s*turn 2/);
    await saveScreenshot(page, "console-chat.png");
  });

  it("streams a reply's text into the page as the model writes it", async () => {
    const words = "alpha beta gamma delta epsilon zeta eta theta iota kappa";
    fake.enqueue({ text: words, wordDelayMs: 150 });
    await page.goto(`${url}/sessions/${uniqueId("stream")}?agent=slow-writer`);
    await send("Write slowly");
    // Part of the reply is on the page while the rest is still being written.
    const seen: string[] = [];
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const text =
        (await page
          .locator(".message.assistant .text")
          .first()
          .textContent({ timeout: 100 })
          .catch(() => "")) ?? "";
      if (text !== "" && text !== seen.at(-1)) seen.push(text);
      if (text === words) break;
    }
    assert.ok(
      seen.some((text) => text.length < words.length && words.startsWith(text)),
      `a part of the reply before all of it: ${JSON.stringify(seen)}`,
    );
    await answered(1, words);
    assert.equal(await page.locator(".message.assistant .text").textContent(), words);
    // Back to the two-turn session for the next tests.
    await page.goto(`${url}/sessions/${sessionId}?agent=cognitive-reasoner`);
  });

  it("restores the conversation and its timeline after a reload", async () => {
    await page.reload();
    await shows(".message.user >> nth=0", "Please evaluate the claim");
    await shows(".message.user >> nth=1", "Now brainstorm some ideas");
    assert.equal(await page.locator(".message.assistant").count(), 2);
    await shows(".chat .tool-part[data-tool=reflect][data-state=output-available]", "reflect");
    await shows(
      ".chat .tool-part[data-tool=brainstorm][data-state=output-available]",
      "brainstorm",
    );
    await shows(".timeline .turn[data-turn='2']", "IdeationMode");
    await shows(".timeline .turn[data-turn='1']", "EvaluationMode");
  });

  it("lists the session with its agent, step, status, turns and last activity", async () => {
    await page.getByRole("link", { name: "agentdock console" }).click();
    const row = `.sessions tr[data-session='${sessionId}']`;
    await shows(row, "cognitive-reasoner");
    await shows(row, "DefaultMode");
    await shows(row, /idle/);
    const cells = await page.locator(`${row} td`).allTextContents();
    assert.equal(cells[4], "2", `turns in ${cells.join(" | ")}`);
    assert.match(cells[5] ?? "", /just now|s ago/);
  });

  it("shows a tool the step does not allow as refused, with the reason the model was told", async () => {
    await page.goto(`${url}/sessions/${uniqueId("refusal")}?agent=console-refusal`);
    await send("Please evaluate this plan");
    await answered(1, "Critiqued as the orchestration required.");
    // The model calls debate while the sequence expects critique: the tool was not offered, so
    // it never runs; the model is told, and calls critique.
    const refused = ".chat .tool-part[data-tool=debate][data-state=output-error]";
    await shows(`${refused} .badge`, "refused");
    const reason =
      'not offered at model call 1: sequence of "EvaluationMode" expects critique at position 1/3';
    await shows(`${refused} .tool-error`, `refused: ${reason}`);
    await shows(`${refused} .tool-error`, "unavailable tool 'debate'");
    await shows(".timeline [data-kind=tool_call][data-tool=debate] .badge", "refused");
    await shows(".timeline [data-kind=tool_call][data-tool=debate] .tool-error", reason);
    await shows(".timeline [data-kind=tool_call][data-tool=critique] .badge", "ok");
    await saveScreenshot(page, "console-refusal.png");
  });

  it("shows the reply of a turn whose worker was killed mid-turn once a new worker runs, without any action", async () => {
    const slowSession = uniqueId("killed");
    await page.goto(`${url}/sessions/${slowSession}?agent=console-slow`);
    await send("Think first, then answer");
    // Held mid-turn: the tool ran (streamed to the page live), the second model call is running.
    await shows(".chat .tool-part[data-tool=think][data-state=output-available]", "think");
    await shows(".timeline [data-kind=tool_call][data-tool=think]", "ok");
    await shows(".timeline .turn[data-turn='1'] [data-kind=model_call] >> nth=1", "running…");
    await shows(".session-header", /running/);
    await saveScreenshot(page, "console-timeline.png");

    if (uiUrl !== undefined) {
      const ui = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      try {
        await ui.goto(
          `${uiUrl}/namespaces/${testServer().namespace}/workflows/session-${slowSession}`,
        );
        await ui.getByText(`session-${slowSession}`).first().waitFor({ timeout: 30_000 });
        await ui.getByText("Running").first().waitFor({ timeout: 30_000 });
        // The session's current details (step, sequence, tools), what the console's timeline shows.
        await ui
          .getByRole("link", { name: "User Metadata" })
          .or(ui.getByText("User Metadata", { exact: true }))
          .first()
          .click();
        await ui.getByText("Current Details").first().waitFor({ timeout: 30_000 });
        await ui.waitForTimeout(1_000);
        await saveScreenshot(ui, "temporal-ui-session.png");
      } finally {
        await ui.close();
      }
    }

    // The new worker's retry answers at once; the killed worker's call never answers.
    writeSlowScript(slowScript, undefined);
    const first = workers[0];
    assert.ok(first !== undefined);
    await first.kill("SIGKILL");
    await startWorker();
    await answered(1, "Answered after the crash.").catch(async () => {
      await shows(".message.assistant", "Answered after the crash.", recoveryMs);
    });
    await shows(".timeline .turn[data-turn='1']", "finished", recoveryMs);
    assert.equal(await page.locator(".message.assistant").count(), 1);
  });
});
