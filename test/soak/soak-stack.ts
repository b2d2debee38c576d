import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable } from "node:stream";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@temporalio/client";
import { SessionClient } from "../../src/client/index.ts";
import { freePort } from "../../src/dev-server/free-port.ts";
import { globalSetup, globalTeardown } from "../support/global-setup.ts";
import { testServer } from "../support/temporal-env.ts";
import { connectClient } from "../../src/temporal-connection.ts";

/** Secrets the worker holds: none of them may ever show up in a history, a stream or a listener. */
export const soakSecrets = {
  openaiCompatible: "sk-soak-compat-7f3a9c1e5b2d4a6f8e0c",
  openai: "sk-soak-openai-2b4d6f8a0c1e3a5c7e9b",
} as const;

/** Two tenants, each with its own token. */
export const soakTenants = {
  alpha: "soak-token-alpha-0123456789",
  beta: "soak-token-beta-9876543210",
} as const;

/** Everything a soak run talks to: a dev server, a worker process, `serve`, and two listeners. */
export interface SoakStack {
  client: Client;
  sessions: SessionClient;
  taskQueue: string;
  apiUrl: string;
  agentsDir: string;
  /** Requests that reached the trap, a listener no agent should ever be pointed at. */
  trapRequests: IncomingMessage["headers"][];
  trapUrl: string;
  /** Whatever the worker and serve processes printed. */
  output(): string;
  close(): Promise<void>;
}

/** A listener that records every request it gets and answers 404. */
async function listen(
  onRequest: Parameters<typeof createServer>[1],
): Promise<{ server: Server; url: string }> {
  const server = createServer(onRequest);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * A provider that echoes the caller's credentials in its error, as some real ones do
 * ("Incorrect API key provided: sk-…"): the worker must redact it before anything records it.
 */
function echoProvider(
  request: IncomingMessage,
  response: import("node:http").ServerResponse,
): void {
  request.resume();
  response.writeHead(401, { "content-type": "application/json" });
  response.end(
    JSON.stringify({
      error: {
        message: `Incorrect API key provided: ${request.headers.authorization ?? "(none)"}`,
        type: "invalid_request_error",
      },
    }),
  );
}

/** The soak's own agent folder: one agent per hostile template shape, plus a dangling link. */
function writeAgents(dir: string): void {
  const general = JSON.parse(readFileSync("agents/general/template.json", "utf8")) as Record<
    string,
    unknown
  >;
  const agent = (id: string, changes: Record<string, unknown>): void => {
    mkdirSync(join(dir, id));
    writeFileSync(
      join(dir, id, "template.json"),
      JSON.stringify({ ...general, $schema: undefined, id, name: id, ...changes }),
    );
  };
  agent("echo-agent", { llm: { provider: "openai-compatible", model: "echo" } });
  agent("regex-agent", {
    orchestration: {
      defaultStep: "Plain",
      steps: [
        {
          name: "Trap",
          conditions: [{ type: "message_regex", value: "(.*)(.*)(.*)x" }],
          availableTools: { allowed: ["think"] },
        },
        { name: "Slow", conditions: [{ type: "message_regex", value: "a.*(b.*)c" }] },
        { name: "Plain" },
      ],
    },
  });
  agent("huge-agent", { personality: "x".repeat(20 * 1024 * 1024) });
  symlinkSync(join(dir, "no-such-folder"), join(dir, "dangling"));
}

function spawnProcess(
  args: string[],
  env: Record<string, string>,
  log: string[],
): ChildProcessByStdio<null, Readable, Readable> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const keep = (chunk: Buffer): void => {
    log.push(chunk.toString());
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  return child;
}

function exited(child: { exitCode: number | null; signalCode: NodeJS.Signals | null }): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

async function waitForLine(log: string[], marker: string, what: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!log.join("").includes(marker)) {
    if (Date.now() > deadline)
      throw new Error(`${what} did not start within ${ms} ms:\n${log.join("")}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function startSoakStack(): Promise<SoakStack> {
  await globalSetup();
  const { address, namespace } = testServer();
  const taskQueue = `soak-${Date.now().toString(36)}`;
  const agentsDir = mkdtempSync(join(tmpdir(), "agentdock-soak-agents-"));
  writeAgents(agentsDir);
  const trapRequests: IncomingMessage["headers"][] = [];
  const trap = await listen((request, response) => {
    trapRequests.push(request.headers);
    request.resume();
    response.writeHead(404).end();
  });
  const echo = await listen(echoProvider);
  const log: string[] = [];
  const common = {
    TEMPORAL_ADDRESS: address,
    TEMPORAL_NAMESPACE: namespace,
    AGENTDOCK_TASK_QUEUE: taskQueue,
    AGENTDOCK_AGENTS_DIR: agentsDir,
  };
  const worker = spawnProcess(
    ["src/worker.ts"],
    {
      ...common,
      OPENAI_COMPATIBLE_BASE_URL: `${echo.url}/v1`,
      OPENAI_COMPATIBLE_API_KEY: soakSecrets.openaiCompatible,
      OPENAI_API_KEY: soakSecrets.openai,
    },
    log,
  );
  await waitForLine(log, "worker: polling task queue", "the worker", 120_000);
  const port = await freePort();
  const serve = spawnProcess(
    ["src/cli.ts", "serve", "--port", String(port)],
    {
      ...common,
      AGENTDOCK_API_TOKENS: `alpha:${soakTenants.alpha},beta:${soakTenants.beta}`,
    },
    log,
  );
  const apiUrl = `http://127.0.0.1:${port}`;
  await waitForLine(log, String(port), "serve", 60_000);
  const connection = await connectClient({ address });
  const client = new Client({ connection, namespace });
  return {
    client,
    sessions: new SessionClient(client, taskQueue),
    taskQueue,
    apiUrl,
    agentsDir,
    trapRequests,
    trapUrl: trap.url,
    output: () => log.join(""),
    close: async () => {
      for (const child of [serve, worker]) {
        if (!exited(child)) {
          child.kill("SIGTERM");
          await Promise.race([
            once(child, "exit"),
            new Promise((resolve) => setTimeout(resolve, 15_000)),
          ]);
          // The race above may have let the exit through: check again before the hard stop.
          if (!exited(child)) child.kill("SIGKILL");
        }
      }
      trap.server.close();
      echo.server.close();
      await connection.close();
      await globalTeardown();
      rmSync(agentsDir, { recursive: true, force: true });
    },
  };
}
