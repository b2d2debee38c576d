import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { spawnCli, startServe, type CliProcess } from "../support/cli-process.ts";
import { testServer, uniqueId } from "../support/temporal-env.ts";

// A hostile or careless agents folder: links to nowhere, a link loop, a 20 MB template and one
// whose personality is past the limit. None may break the listing or make a request slow.
const dir = mkdtempSync(join(tmpdir(), "agentdock-bounds-"));

function writeTemplate(id: string, fields: Record<string, unknown>): void {
  mkdirSync(join(dir, id));
  writeFileSync(join(dir, id, "template.json"), JSON.stringify({ id, name: id, ...fields }));
}

symlinkSync(join(dir, "no-such-folder"), join(dir, "ghost"));
symlinkSync(join(dir, "loop"), join(dir, "loop"));
mkdirSync(join(dir, "broken-link"));
symlinkSync(join(dir, "nowhere.json"), join(dir, "broken-link", "template.json"));
writeTemplate("huge", { personality: "x".repeat(20 * 1024 * 1024) });
writeTemplate("wordy", { personality: "y".repeat(300_000) });
writeTemplate("crowded", {
  tools: ["think"],
  orchestration: {
    steps: Array.from({ length: 500 }, (_, index) => ({ name: `Step${index}` })),
  },
});
writeTemplate("fine", { description: "a valid one beside the broken ones" });

const requestTimeoutMs = 5_000;

async function post(url: string, agentId: string): Promise<Response> {
  return fetch(`${url}/api/chat/${agentId}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      id: uniqueId("bounds"),
      messages: [{ id: "m1", role: "user", parts: [{ type: "text", text: "hello" }] }],
    }),
    signal: AbortSignal.timeout(requestTimeoutMs),
  });
}

interface ErrorBody {
  error: { code: string; message: string };
}

describe(
  "an agents folder with dangling links and oversized templates",
  { timeout: 120_000 },
  () => {
    let serve: CliProcess | undefined;
    let url = "";
    const server = testServer();
    const env = {
      ...process.env,
      TEMPORAL_ADDRESS: server.address,
      TEMPORAL_NAMESPACE: server.namespace,
      AGENTDOCK_TASK_QUEUE: uniqueId("bounds-queue"),
    };

    before(async () => {
      const started = await startServe(env, ["--dir", dir]);
      serve = started.process;
      url = started.url;
    });
    after(async () => {
      await serve?.kill();
      rmSync(dir, { recursive: true, force: true });
    });

    it("GET /api/agents skips dangling links and loops and lists oversized templates as invalid, at once", async () => {
      const started = performance.now();
      const response = await fetch(`${url}/api/agents`, {
        signal: AbortSignal.timeout(requestTimeoutMs),
      });
      const ms = performance.now() - started;
      assert.equal(response.status, 200, await response.clone().text());
      const { agents } = (await response.json()) as {
        agents: { id: string; valid: boolean; error?: string }[];
      };
      const byId = new Map(agents.map((agent) => [agent.id, agent]));
      for (const skipped of ["ghost", "loop", "broken-link"])
        assert.ok(!byId.has(skipped), skipped);
      assert.equal(byId.get("fine")?.valid, true);
      assert.equal(byId.get("huge")?.valid, false);
      assert.match(byId.get("huge")?.error ?? "", /larger than 1 MiB/);
      assert.match(byId.get("wordy")?.error ?? "", /personality.*100000 characters/);
      assert.match(byId.get("crowded")?.error ?? "", /orchestration\.steps.*at most 100/);
      assert.ok(ms < 3_000, `answered in ${Math.round(ms)} ms`);
    });

    it("POST /api/chat answers 404 for an unknown agent even beside a dangling link", async () => {
      const response = await post(url, "nobody");
      assert.equal(response.status, 404, await response.clone().text());
      assert.equal(((await response.json()) as ErrorBody).error.code, "unknown_agent");
    });

    it("POST /api/chat with a 20 MB template answers 413 at once, naming the file and the limit", async () => {
      const started = performance.now();
      const response = await post(url, "huge");
      const ms = performance.now() - started;
      assert.equal(response.status, 413, await response.clone().text());
      const body = (await response.json()) as ErrorBody;
      assert.equal(body.error.code, "template_too_large");
      assert.match(body.error.message, /huge[/\\]template\.json.*larger than 1 MiB/s);
      assert.ok(ms < 3_000, `answered in ${Math.round(ms)} ms`);
    });

    it("POST /api/chat with a personality over the limit answers 422 naming the field and the limit", async () => {
      const response = await post(url, "wordy");
      assert.equal(response.status, 422, await response.clone().text());
      const body = (await response.json()) as ErrorBody;
      assert.equal(body.error.code, "invalid_agent");
      assert.match(body.error.message, /personality: .*100000 characters/);
    });

    it("the agents command lists the folder without crashing on the links", async () => {
      const run = spawnCli(process.execPath, ["src/cli.ts", "agents", "--dir", dir], { env });
      const code = await run.exited(30_000);
      assert.equal(code, 1, run.output());
      assert.match(run.output(), /fine/);
      assert.match(run.output(), /huge.*larger than 1 MiB/s);
      assert.match(
        run.output(),
        /skipping \S*ghost in the agents folder: a link to something that does not exist/,
      );
      assert.match(run.output(), /skipping \S*loop in the agents folder: a loop of links/);
      assert.doesNotMatch(run.output(), /at .*\.ts:\d+/);
    });
  },
);
