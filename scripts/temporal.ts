import { mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { startDevServer } from "../src/dev-server/dev-server.ts";
import { ensureTemporalCli } from "../src/dev-server/find-temporal-cli.ts";
import { sessionSearchAttributes } from "../src/session/search-attributes.ts";

const help = `Usage: npm exec -- node scripts/temporal.ts <command> [options]

Gets the official Temporal CLI (v1.5.1) without internet downloads and runs a
local Temporal dev server with this project's search attributes.

Commands:
  ensure      Find or build the Temporal CLI and print its path. CI runs this
              once so later steps do not pay for the build.
  start       Run a dev server in the foreground until Ctrl-C.

Options for start:
  --db FILE        SQLite file that keeps workflows across restarts
                   (default .temporal/dev.db; --db :memory: keeps nothing)
  --port N         gRPC frontend port on 127.0.0.1 (default 7233, 0 = any free)
  --ui-port N      Web UI port (default 8233, 0 = any free)
  --headless       no Web UI

Where the CLI comes from, first match wins:
  1. TEMPORAL_CLI=/path/to/temporal
  2. \`temporal\` on PATH
  3. the cached build in <XDG_CACHE_HOME or ~/.cache>/agentdock-temporal/cli-1.5.1/
  4. \`go install github.com/temporalio/cli/cmd/temporal@v1.5.1\` into that folder
     (needs Go and its module proxy; a few minutes, once per machine)

Search attributes registered on start: ${Object.entries(sessionSearchAttributes)
  .map(([name, type]) => `${name}=${type}`)
  .join(", ")}

Examples:
  npm exec -- node scripts/temporal.ts ensure
  npm exec -- node scripts/temporal.ts start --port 0 --ui-port 0
  TEMPORAL_CLI=/usr/local/bin/temporal npm exec -- node scripts/temporal.ts start
`;

const portSchema = z.coerce.number().int().min(0).max(65535);

const argsSchema = z.object({
  db: z.string().min(1).default(".temporal/dev.db"),
  port: portSchema.default(7233),
  "ui-port": portSchema.default(8233),
  headless: z.boolean().default(false),
  help: z.boolean().default(false),
});

async function main(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      db: { type: "string" },
      port: { type: "string" },
      "ui-port": { type: "string" },
      headless: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    console.error(`--${issue?.path.join(".") ?? "?"}: ${issue?.message ?? "invalid"}\n\n${help}`);
    return 2;
  }
  const options = parsed.data;
  const command = positionals[0];
  if (options.help || command === undefined || command === "help") {
    console.log(help);
    return options.help || command === "help" ? 0 : 2;
  }
  const onProgress = (line: string): void => {
    console.error(line);
  };

  switch (command) {
    case "ensure": {
      const cli = await ensureTemporalCli({ env, onProgress });
      console.log(cli.path);
      return 0;
    }
    case "start": {
      const cli = await ensureTemporalCli({ env, onProgress });
      const dbFile = options.db === ":memory:" ? undefined : resolve(options.db);
      if (dbFile !== undefined) await mkdir(dirname(dbFile), { recursive: true });
      const server = await startDevServer({
        cliPath: cli.path,
        ...(dbFile === undefined ? {} : { dbFile }),
        port: options.port,
        uiPort: options.headless ? false : options["ui-port"],
        searchAttributes: sessionSearchAttributes,
      });
      console.log(`Temporal dev server (CLI from ${cli.source}: ${cli.path})`);
      console.log(`  address:   ${server.address}`);
      console.log(`  namespace: ${server.namespace}`);
      if (server.uiUrl !== undefined) console.log(`  Web UI:    ${server.uiUrl}`);
      console.log(`  database:  ${dbFile ?? "in memory"}`);
      console.log("Ctrl-C stops it.");
      const signalled = new Promise<NodeJS.Signals>((done) => {
        process.once("SIGINT", done);
        process.once("SIGTERM", done);
      });
      const outcome = await Promise.race([signalled, server.exited]);
      if (typeof outcome === "string") {
        console.error("stopping…");
        await server.stop();
        return 0;
      }
      console.error(
        `the dev server exited on its own (${outcome.signal ?? `exit ${outcome.code}`})`,
      );
      return 1;
    }
    default:
      console.error(`Unknown command ${JSON.stringify(command)}.\n\n${help}`);
      return 2;
  }
}

try {
  process.exitCode = await main(process.argv.slice(2), process.env);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  if (
    error instanceof TypeError &&
    "code" in error &&
    String(error.code).startsWith("ERR_PARSE_ARGS")
  ) {
    console.error("Run with --help for usage.");
  }
  process.exitCode = 1;
}
