import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { SessionClient, SessionRequestError } from "../../src/client/index.ts";
import { loadAgent } from "../../src/agents/index.ts";
import { createApiServer, type ApiServer } from "../../src/server/index.ts";
import {
  SESSION_WORKFLOW_TYPE,
  workflowIdFor,
  type SessionInput,
} from "../../src/session/index.ts";
import { toolCatalogueEntries } from "../../src/tools/index.ts";
import { createTestEnv, testServer, uniqueId, type TestEnv } from "../support/temporal-env.ts";

const tokens = { acme: "acme-token-0001", globex: "globex-token-0002" };
const as = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

describe("tenants: a token reaches only its tenant's sessions", () => {
  let env: TestEnv;
  let api: ApiServer;
  let url: string;
  const acmeSession = uniqueId("acme-chat");
  before(async () => {
    env = await createTestEnv();
    await env.startWorker();
    api = createApiServer({
      client: env.client,
      taskQueue: env.taskQueue,
      agentsDirs: ["agents"],
      tokens: [
        { tenant: "acme", token: tokens.acme },
        { tenant: "globex", token: tokens.globex },
      ],
    });
    ({ url } = await api.listen(0, "127.0.0.1"));
    const first = await chat(tokens.acme, acmeSession, "hello from acme");
    assert.equal(first.status, 200, first.body);
  });
  after(async () => {
    await api.close();
    await env.close();
  });

  const request = (token: string, method: string, path: string) =>
    fetch(`${url}${path}`, { method, headers: as(token), signal: AbortSignal.timeout(30_000) });

  async function chat(
    token: string,
    chatId: string,
    text: string,
  ): Promise<{ status: number; body: string }> {
    const response = await fetch(`${url}/api/chat/general`, {
      method: "POST",
      headers: { ...as(token), "content-type": "application/json" },
      body: JSON.stringify({
        id: chatId,
        messages: [{ id: uniqueId("m"), role: "user", parts: [{ type: "text", text }] }],
      }),
      signal: AbortSignal.timeout(60_000),
    });
    return { status: response.status, body: await response.text() };
  }

  /** What a session that does not exist answers, with the id swapped in for comparison. */
  async function missingAnswer(method: string, suffix: string, id: string) {
    const missing = uniqueId("missing");
    const response = await request(tokens.globex, method, `/api/sessions/${missing}${suffix}`);
    return { status: response.status, body: (await response.text()).replaceAll(missing, id) };
  }

  for (const [method, suffix] of [
    ["GET", ""],
    ["GET", "/history"],
    ["GET", "/events"],
    ["DELETE", ""],
  ] as const) {
    it(
      `answers another tenant's ${method} /api/sessions/:id${suffix} exactly like a missing session`,
      {
        timeout: 60_000,
      },
      async () => {
        const response = await request(
          tokens.globex,
          method,
          `/api/sessions/${acmeSession}${suffix}`,
        );
        const answer = { status: response.status, body: await response.text() };
        assert.deepEqual(answer, await missingAnswer(method, suffix, acmeSession));
        assert.equal(answer.status, 404);
      },
    );
  }

  it(
    "keeps the owner's session running and reachable after another tenant's DELETE",
    {
      timeout: 60_000,
    },
    async () => {
      await request(tokens.globex, "DELETE", `/api/sessions/${acmeSession}`);
      const response = await request(tokens.acme, "GET", `/api/sessions/${acmeSession}`);
      assert.equal(response.status, 200);
      assert.equal(((await response.json()) as { status: string }).status, "idle");
    },
  );

  it("lists only the caller's tenant's sessions", { timeout: 60_000 }, async () => {
    const ids = async (token: string) =>
      (
        (await (await request(token, "GET", "/api/sessions?limit=1000")).json()) as {
          sessions: { sessionId: string }[];
        }
      ).sessions.map((session) => session.sessionId);
    assert.ok((await ids(tokens.acme)).includes(acmeSession));
    assert.ok(!(await ids(tokens.globex)).includes(acmeSession));
  });

  it(
    "refuses another tenant's chat to a running session id with 404, and nothing lands in it",
    {
      timeout: 60_000,
    },
    async () => {
      const intruder = await chat(tokens.globex, acmeSession, "globex was here");
      assert.equal(intruder.status, 404, intruder.body);
      assert.deepEqual(JSON.parse(intruder.body), {
        error: { code: "unknown_session", message: `no session "${acmeSession}"` },
      });
      const history = await (
        await request(tokens.acme, "GET", `/api/sessions/${acmeSession}/history`)
      ).text();
      assert.ok(!history.includes("globex was here"), history);
    },
  );

  it(
    "refuses in the workflow a message that names another tenant (update-with-start, no pre-check)",
    {
      timeout: 60_000,
    },
    async () => {
      const template = loadAgent("general", {
        agentsDirs: ["agents"],
        tools: toolCatalogueEntries,
      }).template;
      const sessions = new SessionClient(env.client, env.taskQueue);
      await assert.rejects(
        sessions.submit(
          { template, sessionId: acmeSession, tenant: "globex" },
          "sneaking in",
          uniqueId("m"),
        ),
        (error) => error instanceof SessionRequestError && error.type === "TenantMismatch",
      );
      const history = await (
        await request(tokens.acme, "GET", `/api/sessions/${acmeSession}/history`)
      ).text();
      assert.ok(!history.includes("sneaking in"), history);
    },
  );

  it(
    "gives a session started without a tenant (older code) to the default tenant only",
    {
      timeout: 60_000,
    },
    async () => {
      const template = loadAgent("general", {
        agentsDirs: ["agents"],
        tools: toolCatalogueEntries,
      }).template;
      const legacyId = uniqueId("legacy");
      const input: SessionInput = { sessionId: legacyId, template };
      const handle = await env.client.workflow.start(SESSION_WORKFLOW_TYPE, {
        workflowId: workflowIdFor(legacyId),
        taskQueue: env.taskQueue,
        args: [input],
      });
      const single = createApiServer({
        client: env.client,
        taskQueue: env.taskQueue,
        agentsDirs: ["agents"],
        token: "only-token-0003",
      });
      const { url: singleUrl } = await single.listen(0, "127.0.0.1");
      try {
        const byDefault = await fetch(`${singleUrl}/api/sessions/${legacyId}`, {
          headers: as("only-token-0003"),
        });
        assert.equal(byDefault.status, 200);
        assert.equal((await request(tokens.acme, "GET", `/api/sessions/${legacyId}`)).status, 404);
      } finally {
        await single.close();
        await handle.terminate();
      }
    },
  );
});

describe("serve on a public interface", () => {
  it(
    "refuses to listen on a non-loopback address without a token (exit 2)",
    {
      timeout: 30_000,
    },
    async () => {
      const server = testServer();
      const child = spawn(
        process.execPath,
        ["src/cli.ts", "serve", "--host", "0.0.0.0", "--port", "0"],
        {
          env: {
            ...process.env,
            TEMPORAL_ADDRESS: server.address,
            TEMPORAL_NAMESPACE: server.namespace,
            AGENTDOCK_API_TOKEN: "",
            AGENTDOCK_API_TOKENS: "",
            AGENTDOCK_API_TOKENS_FILE: "",
          },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
      clearTimeout(killer);
      assert.equal(code, 2, stderr);
      assert.match(stderr, /token/i);
    },
  );
});
