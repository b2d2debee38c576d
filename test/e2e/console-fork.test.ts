import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { createApiServer, type ApiServer } from "../../src/server/index.ts";
import { chromiumSkipReason, launchChromium } from "../support/browser.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";

const token = "console-fork-token-1234";
const reasoner = shippedAgent("cognitive-reasoner");

/** The console built from the current sources into `outDir` (what `npm run build:console` does). */
function buildConsole(outDir: string): void {
  const vite = spawnSync(
    process.execPath,
    [
      "node_modules/vite/bin/vite.js",
      "build",
      "--config",
      "src/web/vite.config.ts",
      "--outDir",
      outDir,
    ],
    { encoding: "utf8", timeout: 120_000 },
  );
  assert.equal(vite.status, 0, `vite build failed:\n${vite.stdout}\n${vite.stderr}`);
}

describe("forking from the web console in Chromium", { skip: chromiumSkipReason }, () => {
  const scratch = mkdtempSync(join(tmpdir(), "agentdock-console-fork-"));
  let env: TestEnv;
  let api: ApiServer;
  let url: string;
  let browser: Browser;
  let page: Page;

  before(async () => {
    buildConsole(join(scratch, "console"));
    env = await createTestEnv();
    await env.startWorker();
    api = createApiServer({
      client: env.client,
      taskQueue: env.taskQueue,
      agentsDirs: ["agents"],
      token,
      consoleDir: join(scratch, "console"),
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
    rmSync(scratch, { recursive: true, force: true });
  });

  it("'fork from here' on the first message opens a new session holding that turn, which answers; the parent keeps both", async () => {
    const parent = uniqueId("console-parent");
    const first = "Please evaluate the claim that remote work improves productivity";
    await env.sessions.sendWithStart({ template: reasoner, sessionId: parent }, first, "m1");
    await env.sessions.send(parent, "Now brainstorm some ideas about hybrid work", "m2");

    await page.goto(`${url}/sessions/${parent}?agent=cognitive-reasoner`);
    await page.getByLabel("token", { exact: true }).fill(token);
    await page.getByRole("button", { name: "Use token" }).click();
    await page.locator(".message.user").nth(1).waitFor();
    assert.equal(await page.locator(".message.user").count(), 2);

    await page
      .locator(".message.user")
      .first()
      .getByRole("button", { name: "fork from here" })
      .click();
    await page.waitForURL(
      new RegExp(`/sessions/${parent}-fork1-[0-9a-f]{6}\\?agent=cognitive-reasoner$`),
    );
    const fork = decodeURIComponent(new URL(page.url()).pathname.split("/").at(-1) ?? "");
    await page.locator(".message.assistant").first().waitFor();
    assert.equal(await page.locator(".message.user").count(), 1);
    assert.equal(await page.locator(".message.user .text").first().textContent(), first);
    await page.locator("[data-testid=session-state] span", { hasText: /^turn 1$/ }).waitFor();
    await page.locator(".session-header", { hasText: /template sha256:[0-9a-f]{12}/ }).waitFor();

    await page.getByLabel("message").fill("Now compare tea versus coffee");
    await page.getByRole("button", { name: "Send" }).click();
    await page.locator(".message.assistant").nth(1).waitFor();
    await page.locator(".typing").waitFor({ state: "detached" });
    await page.locator("[data-testid=session-state] span", { hasText: /^turn 2$/ }).waitFor();

    assert.equal((await env.sessions.state(fork)).turn, 2);
    const parentState = await env.sessions.state(parent);
    assert.equal(parentState.turn, 2);
    assert.equal(
      (await env.sessions.history(parent)).filter((message) => message.role === "user").length,
      2,
    );
  });
});
