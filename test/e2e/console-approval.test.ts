import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { createApiServer, type ApiServer } from "../../src/server/index.ts";
import type { ApprovalsView } from "../../src/session/index.ts";
import { chromiumSkipReason, launchChromium, saveScreenshot } from "../support/browser.ts";
import { buildConsole } from "../support/build-console.ts";
import { createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";

describe(
  "approving and denying tool calls in the web console (Chromium)",
  { skip: chromiumSkipReason },
  () => {
    const scratch = mkdtempSync(join(tmpdir(), "agentdock-console-approval-"));
    let env: TestEnv;
    let api: ApiServer;
    let url: string;
    let browser: Browser;
    let page: Page;

    before(async () => {
      const consoleDir = join(scratch, "console");
      buildConsole(consoleDir);
      env = await createTestEnv();
      await env.startWorker();
      api = createApiServer({
        client: env.client,
        taskQueue: env.taskQueue,
        agentsDirs: ["agents", "docs/examples"],
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
      rmSync(scratch, { recursive: true, force: true });
    });

    async function shows(selector: string, text: string | RegExp): Promise<void> {
      await page.locator(selector, { hasText: text }).first().waitFor();
    }

    async function send(text: string): Promise<void> {
      await page.getByLabel("message").fill(text);
      await page.getByRole("button", { name: "Send" }).click();
    }

    async function approvals(sessionId: string): Promise<ApprovalsView> {
      return (await (
        await fetch(`${url}/api/sessions/${sessionId}/approvals`)
      ).json()) as ApprovalsView;
    }

    const waiting = ".tool-part[data-tool=summarize][data-state=approval-requested]";

    it("shows the request with the tool's input and Approve/Deny; Approve runs the tool and the reply follows", async () => {
      const sessionId = uniqueId("console-approve");
      await page.goto(`${url}/sessions/${sessionId}?agent=approval-demo`);
      await send("Summarize our launch plan");
      await shows(waiting, "waiting for approval");
      await shows(`${waiting} .json-block`, /"text"/);
      await shows(".session-header", "awaiting_approval");
      // The message whose turn waits is not also counted as queued.
      assert.doesNotMatch((await page.locator(".session-header").textContent()) ?? "", /queued/);
      await saveScreenshot(page, "console-approval-request.png");
      await page.locator(waiting).getByLabel("reason").fill("fine for the launch");
      await page.locator(waiting).getByRole("button", { name: "Approve" }).click();
      await shows(".tool-part[data-tool=summarize][data-state=output-available]", "done");
      await page.locator(".typing").waitFor({ state: "detached" });
      await shows(".message.assistant .text", /Summarize our launch plan/);
      await shows(
        ".timeline [data-kind=approval_decided]",
        "✓ summarize approved by anonymous (HTTP) at",
      );
      await shows(
        ".timeline [data-kind=approval_requested]",
        /⏸ summarize waits for approval \(t1-/,
      );
      const { decided } = await approvals(sessionId);
      assert.deepEqual(
        decided.map((record) => [
          record.decision?.outcome,
          record.decision?.by,
          record.decision?.reason,
        ]),
        [["approved", "anonymous (HTTP)", "fine for the launch"]],
      );
    });

    it("Deny ends the call as denied and the model answers without it", async () => {
      const sessionId = uniqueId("console-deny");
      await page.goto(`${url}/sessions/${sessionId}?agent=approval-demo`);
      await send("Summarize our launch plan");
      await page.locator(waiting).getByRole("button", { name: "Deny" }).click();
      await shows(".tool-part[data-tool=summarize][data-state=output-denied]", "denied");
      await page.locator(".typing").waitFor({ state: "detached" });
      const { decided } = await approvals(sessionId);
      assert.equal(decided[0]?.decision?.outcome, "denied");
    });

    it("after a reload, the request is shown again and can still be approved", async () => {
      const sessionId = uniqueId("console-reload");
      await page.goto(`${url}/sessions/${sessionId}?agent=approval-demo`);
      await send("Summarize our launch plan");
      await shows(waiting, "waiting for approval");
      await page.reload();
      await shows(waiting, "waiting for approval");
      await page.locator(waiting).getByRole("button", { name: "Approve" }).click();
      await shows(".tool-part[data-tool=summarize][data-state=output-available]", "done");
      const { decided } = await approvals(sessionId);
      assert.equal(decided[0]?.decision?.outcome, "approved");
    });
  },
);
