import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, Frame, Page } from "playwright-core";
import { workflowIdFor, type TurnResult } from "../../src/session/index.ts";
import { onScript, scratchDir, waitFor, within, writeScript } from "../faults/fault-support.ts";
import { chromiumSkipReason, launchChromium, saveScreenshot } from "../support/browser.ts";
import { evaluationScript } from "../support/evaluation-script.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { spawnWorker, workerEnv, type WorkerProcess } from "../support/worker-process.ts";
import { createTestEnv, testServer, uniqueId, type TestEnv } from "../support/temporal-env.ts";

// The real Temporal Web UI of the test dev server (global-setup starts it), in headless
// Chromium: what a person sees on a session's page in the middle of a turn and after a failed
// one. Assertions read the rendered DOM, never pixels; the screenshots are for people.

const uiUrl = process.env["AGENTDOCK_TEST_TEMPORAL_UI_URL"];
const skip =
  chromiumSkipReason ||
  (uiUrl === undefined ? "the test dev server runs without its Web UI" : false);
const reasoner = shippedAgent("cognitive-reasoner");
/** Longer than the tests that need the held turn; it ends when the test kills its worker. */
const holdMs = 300_000;

/** The rendered "Current Details" panel: the UI renders markdown on its server, in an iframe. */
async function detailsFrame(page: Page): Promise<Frame> {
  return waitFor(
    "the Current Details panel",
    async () => {
      for (const frame of page.frames()) {
        if (!frame.url().includes("/render?")) continue;
        const text = await frame.locator("main").innerText({ timeout: 1_000 });
        if (text.includes("Active step")) return frame;
      }
      return undefined;
    },
    30_000,
  );
}

interface Layout {
  text: string;
  /** Fractions the UI's typography made of "n/m" (`<sup>n</sup>⁄<sub>m</sub>`). */
  fractions: number;
  /** Lines of the details below the panel's visible height or beyond its width. */
  cutOff: string[];
}

async function layoutOf(frame: Frame): Promise<Layout> {
  // The page sizes the panel once the frame has loaded.
  await frame.page().waitForTimeout(500);
  const panel = await (await frame.frameElement()).boundingBox();
  assert.ok(panel !== null, "the details panel is laid out");
  const cutOff: string[] = [];
  for (const item of await frame.locator("main p, main li").all()) {
    const text = (await item.innerText()).trim();
    const box = await item.boundingBox();
    // The empty last paragraph is there to be cut (current-details.ts says why).
    if (text === "" || box === null) continue;
    const below = box.y + box.height > panel.y + panel.height + 0.5;
    const beside = box.x + box.width > panel.x + panel.width + 0.5;
    if (below || beside) cutOff.push(text.split("\n")[0] ?? text);
  }
  return {
    text: await frame.locator("main").innerText(),
    fractions: await frame.locator("main sup, main sub").count(),
    cutOff,
  };
}

async function openMetadataTab(page: Page, workflowId: string): Promise<Frame> {
  const { namespace } = testServer();
  await page.goto(`${uiUrl}/namespaces/${namespace}/workflows/${workflowId}`);
  await page
    .getByRole("link", { name: "User Metadata" })
    .or(page.getByText("User Metadata", { exact: true }))
    .first()
    .click();
  return detailsFrame(page);
}

describe("the Temporal Web UI shows a session as it is", { skip }, () => {
  let env: TestEnv;
  let worker: WorkerProcess;
  let browser: Browser;
  let page: Page;
  const scratch = scratchDir("temporal-ui");
  const held = {
    sessionId: uniqueId("ui-held"),
    reply: undefined as Promise<TurnResult> | undefined,
  };

  before(async () => {
    env = await createTestEnv();
    // A worker process: killing it ends the held model call, which nothing can interrupt (the
    // AI SDK plugin gives model calls no abort signal), instead of waiting for its hold.
    worker = spawnWorker(workerEnv(testServer(), env.taskQueue, "http://127.0.0.1:9"));
    await worker.ready;
    const script = writeScript(join(scratch.dir, "held.json"), evaluationScript(holdMs));
    held.reply = env.sessions.sendWithStart(
      { template: onScript(reasoner, script), sessionId: held.sessionId },
      "Please evaluate the claim that remote work improves productivity",
      "m1",
    );
    held.reply.catch(() => undefined);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  });

  after(async () => {
    await browser.close();
    await worker.kill();
    await env.client.workflow
      .getHandle(workflowIdFor(held.sessionId))
      .terminate("the test is over")
      .catch(() => undefined);
    await within(
      held.reply?.then(
        () => undefined,
        () => undefined,
      ) ?? Promise.resolve(),
      15_000,
      "the held turn's end",
    );
    await env.close();
    scratch.remove();
  });

  it("shows the running turn, its step, the model call and the sequence position mid-turn", async () => {
    const workflowId = workflowIdFor(held.sessionId);
    await waitFor(
      "the held turn at model call 3",
      async () => {
        const metadata = await env.client.workflow
          .getHandle(workflowId)
          .query<{ currentDetails?: string }>("__temporal_workflow_metadata");
        return metadata.currentDetails?.includes("model call 3") === true ? true : undefined;
      },
      30_000,
    );
    const frame = await openMetadataTab(page, workflowId);
    const layout = await layoutOf(frame);
    assert.match(layout.text, /Status: running \(a turn is in progress\) · turn 1/);
    assert.match(layout.text, /Now: model call 3 in EvaluationMode/);
    assert.match(layout.text, /Active step: EvaluationMode/);
    assert.match(layout.text, /Sequence: step 3 of 3/);
    assert.match(layout.text, /reflect \(next\)/);
    assert.match(layout.text, /Last step entered: EvaluationMode/);
    assert.equal(layout.fractions, 0, "no number/number rendered as a fraction");
    assert.deepEqual(layout.cutOff, [], "every line of the details is inside the panel");
    await saveScreenshot(page, "temporal-ui-mid-turn.png", { fullPage: true });
  });

  it("shows the running status and active step among the search attributes mid-turn", async () => {
    await page.getByText("Search Attributes", { exact: true }).first().click();
    const body = page.locator("body");
    await waitFor(
      "SessionStatus and ActiveStep on the Search Attributes tab",
      async () => {
        const text = await body.innerText();
        return /SessionStatus[\s\S]{0,40}running/.test(text) &&
          /ActiveStep[\s\S]{0,40}EvaluationMode/.test(text)
          ? true
          : undefined;
      },
      20_000,
    );
  });

  it("lists the session mid-turn in the workflow list filtered by status and step", async () => {
    const { namespace } = testServer();
    const query = `SessionStatus="running" AND ActiveStep="EvaluationMode" AND TaskQueue="${env.taskQueue}"`;
    await page.goto(
      `${uiUrl}/namespaces/${namespace}/workflows?query=${encodeURIComponent(query)}`,
    );
    await page
      .getByText(workflowIdFor(held.sessionId), { exact: true })
      .first()
      .waitFor({ timeout: 20_000 });
    const lastStep = `LastStep="EvaluationMode" AND TaskQueue="${env.taskQueue}"`;
    await page.goto(
      `${uiUrl}/namespaces/${namespace}/workflows?query=${encodeURIComponent(lastStep)}`,
    );
    await page
      .getByText(workflowIdFor(held.sessionId), { exact: true })
      .first()
      .waitFor({ timeout: 20_000 });
  });

  it("shows a failed turn: the failed status, the turn, its time and its error", async () => {
    const sessionId = uniqueId("ui-failed");
    // One response: the second model call finds the script exhausted, a non-retryable error.
    const file = writeScript(join(scratch.dir, "fails.json"), evaluationScript(0).slice(0, 1));
    const result = await env.sessions.sendWithStart(
      { template: onScript(reasoner, file), sessionId },
      "Please evaluate my plan",
      "m1",
    );
    assert.ok(result.error !== undefined, "the turn fails");
    const frame = await openMetadataTab(page, workflowIdFor(sessionId));
    const layout = await layoutOf(frame);
    assert.match(layout.text, /Status: failed \(the last turn ended with an error/);
    assert.match(layout.text, /Last failed turn: turn 1, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    assert.ok(layout.text.includes(result.error.slice(0, 40)), "the error as the turn reported it");
    assert.equal(layout.fractions, 0);
    assert.deepEqual(layout.cutOff, [], "every line of the details is inside the panel");
    await saveScreenshot(page, "temporal-ui-failed-turn.png", { fullPage: true });
  });
});
