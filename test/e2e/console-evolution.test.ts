import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { createApiServer, type ApiServer } from "../../src/server/index.ts";
import { chromiumSkipReason, launchChromium } from "../support/browser.ts";
import { buildConsole } from "../support/build-console.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";

const token = "console-fork-token-1234";
const reasoner = shippedAgent("cognitive-reasoner");

describe(
  "forking and upgrading from the web console in Chromium",
  { skip: chromiumSkipReason },
  () => {
    const scratch = mkdtempSync(join(tmpdir(), "agentdock-console-evolution-"));
    // A copy of the reasoner the upgrade test edits in place, as an operator would.
    const agentsDir = join(scratch, "agents");
    const templateFile = join(agentsDir, "cognitive-reasoner", "template.json");
    let env: TestEnv;
    let api: ApiServer;
    let url: string;
    let browser: Browser;
    let page: Page;

    before(async () => {
      buildConsole(join(scratch, "console"));
      mkdirSync(join(agentsDir, "cognitive-reasoner"), { recursive: true });
      writeFileSync(templateFile, readFileSync("agents/cognitive-reasoner/template.json", "utf8"));
      env = await createTestEnv();
      await env.startWorker();
      api = createApiServer({
        client: env.client,
        taskQueue: env.taskQueue,
        agentsDirs: [agentsDir, "agents"],
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
      await page.locator("[data-testid=session-state]", { hasText: "template sha256:" }).waitFor();
      assert.equal(
        await page.locator(".upgrade-notice").count(),
        0,
        "the session runs the agent's version",
      );
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

    it("offers the agent's edited template to a session on the old version, and upgrades it", async () => {
      const sessionId = uniqueId("console-upgrade");
      await env.sessions.sendWithStart({ template: reasoner, sessionId }, "Hello there", "m1");
      const before = await env.sessions.state(sessionId);
      const template = JSON.parse(readFileSync(templateFile, "utf8")) as {
        orchestration: { steps: { name: string; sequence?: unknown; availableTools?: unknown }[] };
      };
      for (const step of template.orchestration.steps) {
        if (step.name !== "EvaluationMode") continue;
        step.sequence = ["critique", "reflect"];
        step.availableTools = { allowed: ["critique", "reflect"] };
      }
      writeFileSync(templateFile, JSON.stringify(template));

      await page.goto(`${url}/sessions/${sessionId}?agent=cognitive-reasoner`);
      await page
        .locator(".upgrade-notice", { hasText: /agent's template is now sha256:/ })
        .waitFor();
      await page.locator(".upgrade-notice").getByRole("button", { name: "upgrade" }).click();
      await page
        .locator(".upgrade-notice", { hasText: /upgraded to sha256:[0-9a-f]{12}/ })
        .waitFor();
      const after = await env.sessions.state(sessionId);
      assert.notEqual(after.templateVersion, before.templateVersion);
      await page
        .locator("[data-testid=session-state]", {
          hasText: `template ${String(after.templateVersion)}`,
        })
        .waitFor();

      await page.getByLabel("message").fill("Please evaluate my plan");
      await page.getByRole("button", { name: "Send" }).click();
      await page.locator(".message.assistant").nth(1).waitFor();
      await page.locator(".typing").waitFor({ state: "detached" });
      for (const tool of ["critique", "reflect"]) {
        await page.locator(`.chat .tool-part[data-tool=${tool}]`).first().waitFor();
      }
      assert.equal(await page.locator(".chat .tool-part[data-tool=debate]").count(), 0);
    });
  },
);
