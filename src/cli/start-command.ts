import { randomUUID } from "node:crypto";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { Client } from "@temporalio/client";
import { DefaultLogger, Runtime } from "@temporalio/worker";
import { z } from "zod";
import { loadAgent } from "../agents/index.ts";
import { SessionClient } from "../client/index.ts";
import { createSearchProvider, searchConfigFromEnv } from "../search/index.ts";
import { DEFAULT_TASK_QUEUE, workflowIdFor } from "../session/index.ts";
import { createSessionWorker } from "../worker/session-worker.ts";
import { shownPath } from "./agent-dirs.ts";
import { runChat } from "./chat-repl.ts";
import { cliToolRegistry } from "./cli-tool-registry.ts";
import { consolePortOption } from "./console-api.ts";
import { startDevStack } from "./dev-stack.ts";
import { fileWorkerLogger } from "./worker-log-file.ts";
import { workerModelSetup } from "./worker-model-setup.ts";
import { connectClient } from "../temporal-connection.ts";

export const startHelp = `Usage: npm start [-- options]

Starts everything on this machine and opens a chat: a Temporal dev server (SQLite, Web UI),
a worker, the web console (printed as "Console: http://127.0.0.1:8080/"; open it in a browser
to chat there, see every session and each turn's timeline), and an interactive terminal chat
with a shipped agent. Step changes and tool calls print as they happen. Ctrl-C (or Ctrl-D, or
/exit) stops it all; the session is kept in the database and resumes with --session.

Options:
  --agent ID       agent to chat with (default cognitive-reasoner; see agents/)
  --session ID     resume this session (printed when a chat starts)
  --db FILE        the dev server's SQLite file (default .temporal/dev.db)
  --port N         Temporal gRPC port on 127.0.0.1 (default 7233; 0 = any free port)
  --ui-port N      Web UI port (default 8233; 0 = any free port)
  --console-port N, --api-port N
                   the web console and HTTP API on 127.0.0.1 (default 8080; 0 = any free
                   port). With AGENTDOCK_API_TOKEN (or AGENTDOCK_API_TOKENS) set, the console
                   asks for the token
  --verbose        print the worker's log lines (stack traces included) in the terminal; by
                   default they go to worker.log next to the database, with one short line
                   in the chat for a warning or an error
  -h, --help       this help

The model is the template's (scripted, offline, for the shipped agents). Provider keys and the
search provider come from the environment: see npm run worker -- --help.

Examples:
  npm start
  npm start -- --agent research-planner
  npm start -- --session 3f2a9c1e
  npm start -- --console-port 3000
  echo "Please evaluate remote work" | npm start -- --port 0 --ui-port 0 --console-port 0
`;

const optionsSchema = z.object({
  agent: z.string().min(1).default("cognitive-reasoner"),
  session: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/, "a session id uses letters, digits, '.', '_' and '-'")
    .optional(),
  db: z.string().min(1).default(".temporal/dev.db"),
  port: z.coerce.number().int().min(0).max(65535).default(7233),
  "ui-port": z.coerce.number().int().min(0).max(65535).default(8233),
  "console-port": z.coerce.number().int().min(0).max(65535).optional(),
  "api-port": z.coerce.number().int().min(0).max(65535).optional(),
  verbose: z.boolean().default(false),
});

export async function startCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      agent: { type: "string" },
      session: { type: "string" },
      db: { type: "string" },
      port: { type: "string" },
      "ui-port": { type: "string" },
      "console-port": { type: "string" },
      "api-port": { type: "string" },
      verbose: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help === true) {
    console.log(startHelp);
    return 0;
  }
  const parsed = optionsSchema.safeParse(values);
  if (!parsed.success) {
    console.error(
      `start: ${parsed.error.issues.map((issue) => `--${issue.path.join(".")}: ${issue.message}`).join("; ")}`,
    );
    return 2;
  }
  const options = parsed.data;
  const consolePort = consolePortOption(options);
  const warn = (line: string): void => {
    console.error(`warning: ${line}`);
  };
  const toolRegistry = await cliToolRegistry({ env }, warn);
  const { template } = loadAgent(options.agent, {
    agentsDirs: [resolve("agents")],
    tools: toolRegistry.catalogueEntries(),
  });
  const models = workerModelSetup(env, [resolve("agents")], warn, toolRegistry.catalogueEntries());
  const searchProvider = createSearchProvider(searchConfigFromEnv(env));

  const dbFile = resolve(options.db);
  // The chat owns the terminal: the worker's log goes to a file unless --verbose asks for it.
  const workerLog = resolve(dirname(dbFile), "worker.log");
  Runtime.install({
    logger: options.verbose
      ? new DefaultLogger("WARN")
      : fileWorkerLogger(workerLog, (line) => {
          process.stderr.write(`  ⚠ ${line} (details in worker.log)\n`);
        }),
  });
  if (!options.verbose) console.error(`worker log: ${shownPath(workerLog)}`);
  const stack = await startDevStack({
    env,
    db: options.db,
    port: options.port,
    uiPort: options["ui-port"],
    progress: (line) => {
      console.error(line);
    },
    createWorker: (connection, namespace) =>
      createSessionWorker({
        connection,
        namespace,
        taskQueue: DEFAULT_TASK_QUEUE,
        modelProvider: models.modelProvider,
        secrets: models.secrets,
        toolRegistry,
        report: (line) => {
          console.error(`worker: ${line}`);
        },
        ...(searchProvider === undefined ? {} : { searchProvider }),
      }),
    console: {
      ...consolePort,
      taskQueue: DEFAULT_TASK_QUEUE,
      agentsDirs: [resolve("agents")],
      tools: toolRegistry.catalogueEntries(),
    },
  });
  const { server, worker } = stack;
  const connection = await connectClient({ address: server.address });
  const taskQueue = DEFAULT_TASK_QUEUE;
  const workerRun = worker.run();
  const sessions = new SessionClient(
    new Client({ connection, namespace: server.namespace }),
    taskQueue,
  );

  const sessionId = options.session ?? randomUUID().slice(0, 8);
  const resumed = options.session !== undefined;
  if (resumed && !(await sessions.isRunning(sessionId))) {
    console.error(
      `start: no running session "${sessionId}" in ${dbFile} (it may have ended or be in another database)`,
    );
    await shutdown();
    return 1;
  }

  const stop = { interrupted: false };
  const onSignal = (): void => {
    stop.interrupted = true;
    process.stdin.destroy();
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  const uiLink =
    server.uiUrl === undefined
      ? ""
      : `${server.uiUrl}/namespaces/${server.namespace}/workflows/${workflowIdFor(sessionId)}`;
  console.log(
    `${resumed ? "Resuming" : "New"} session ${sessionId} with ${template.name} (${template.id}).`,
  );
  if (uiLink !== "") console.log(`Web UI: ${uiLink}`);
  console.log(`Console: ${stack.console.url}`);
  console.log("Type a message and press Enter; Ctrl-C or /exit to stop.\n");
  try {
    await runChat({
      sessions,
      template,
      sessionId,
      resumed,
      input: process.stdin,
      output: process.stdout,
      interactive: process.stdin.isTTY,
    });
  } finally {
    await shutdown();
  }
  const dbOption = options.db === ".temporal/dev.db" ? "" : ` --db ${options.db}`;
  console.log(
    `\n${stop.interrupted ? "Interrupted. " : ""}Session ${sessionId} is kept. Resume it with: npm start -- --session ${sessionId}${dbOption}`,
  );
  return 0;

  async function shutdown(): Promise<void> {
    worker.shutdown();
    await workerRun;
    await connection.close();
    await toolRegistry.closeSources();
    await stack.stop();
  }
}
