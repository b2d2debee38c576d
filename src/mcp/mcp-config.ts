import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, resolve } from "node:path";
import { z } from "zod";
import { didYouMean } from "../agents/validation/template-paths.ts";
import { McpConfigError } from "./mcp-config-error.ts";
import { mcpServerNamePattern } from "./mcp-tool-names.ts";

export type McpEnv = Readonly<Record<string, string | undefined>>;

/** The variable naming the operator's MCP servers file. */
export const MCP_SERVERS_ENV = "AGENTDOCK_MCP_SERVERS";

/** Defaults, in seconds: a connect must not hold a turn's availability check (10 s) for long. */
export const mcpDefaults = { connectTimeoutSeconds: 5, callTimeoutSeconds: 120 } as const;

interface ServerTimeouts {
  /** Connecting and listing tools, at start and at each reconnect. */
  connectTimeoutMs: number;
  /** One tool call; the tool activity's own timeout (5 minutes) is the outer bound. */
  callTimeoutMs: number;
}

export interface McpStdioServer extends ServerTimeouts {
  transport: "stdio";
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Absolute; the file's folder by default, so `"args": ["./server.js"]` is read beside it. */
  cwd: string;
}

export interface McpHttpServer extends ServerTimeouts {
  transport: "streamable-http";
  url: URL;
  headers: Record<string, string>;
}

export type McpServerConfig = McpStdioServer | McpHttpServer;

export interface McpConfig {
  /** The file the servers came from, absolute (errors and logs name it). */
  file: string;
  /** Enabled servers by name, in file order. */
  servers: ReadonlyMap<string, McpServerConfig>;
  /** Servers the file marks `"disabled": true`: known, never connected. */
  disabled: readonly string[];
  /** Values that came from the environment or headers: the worker redacts them from errors. */
  secrets: readonly string[];
}

const stdioKeys = ["type", "command", "args", "env", "cwd", "disabled"] as const;
const httpKeys = ["type", "url", "headers", "disabled"] as const;
const timeoutKeys = ["connectTimeoutSeconds", "callTimeoutSeconds"] as const;
const allKeys = [...new Set([...stdioKeys, ...httpKeys, ...timeoutKeys])];

const stringMap = z.record(z.string(), z.string({ error: "must be a string" }), {
  error: 'must be an object of string values, like { "NAME": "value" }',
});

const seconds = (max: number) =>
  z
    .number({ error: "must be a number of seconds" })
    .positive("must be more than 0 seconds")
    .max(max, `must be at most ${max} seconds`);

const common = {
  disabled: z.boolean({ error: "must be true or false" }).optional(),
  // With one ping (2 s) it stays inside the 10 s availability check of a turn.
  connectTimeoutSeconds: seconds(7).optional(),
  // Below the tool activity's 5-minute timeout, so the model is told about a hung server.
  callTimeoutSeconds: seconds(280).optional(),
};

const stdioSchema = z.object({
  type: z.literal("stdio", { error: 'must be "stdio" for a server with "command"' }).optional(),
  command: z
    .string({ error: "must be the program to run, as a string" })
    .min(1, "cannot be empty; name the program to run"),
  args: z
    .array(z.string({ error: "must be a string" }), { error: "must be an array of strings" })
    .optional(),
  env: stringMap.optional(),
  cwd: z.string({ error: "must be a folder path" }).min(1, "cannot be empty").optional(),
  ...common,
});

const httpSchema = z.object({
  type: z
    .enum(["http", "streamable-http", "streamableHttp"], {
      error: 'must be "http" (streamable HTTP) for a server with "url"',
    })
    .optional(),
  url: z
    .url({
      protocol: /^https?$/,
      error: "must be an http:// or https:// URL of the server's MCP endpoint",
    })
    .transform((value) => new URL(value)),
  headers: stringMap.optional(),
  ...common,
});

const variable = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** `${NAME}` from the worker's environment, so tokens stay out of the file. */
function expand(
  value: string,
  env: McpEnv,
  field: string,
  problems: string[],
  secrets: string[],
): string {
  return value.replace(variable, (_, name: string) => {
    const found = env[name];
    if (found === undefined) {
      problems.push(
        `field "${field}" uses \${${name}}, which is not set in this environment; set ${name} or write the value`,
      );
      return "";
    }
    secrets.push(found);
    return found;
  });
}

function expandMap(
  map: Record<string, string> | undefined,
  env: McpEnv,
  field: string,
  problems: string[],
  secrets: string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(map ?? {})) {
    out[key] = expand(value, env, `${field}.${key}`, problems, secrets);
  }
  return out;
}

function zodProblems(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const field = issue.path.map(String).join(".");
    return `field "${field}" ${issue.message}`;
  });
}

function timeouts(parsed: {
  connectTimeoutSeconds?: number | undefined;
  callTimeoutSeconds?: number | undefined;
}): ServerTimeouts {
  return {
    connectTimeoutMs: (parsed.connectTimeoutSeconds ?? mcpDefaults.connectTimeoutSeconds) * 1000,
    callTimeoutMs: (parsed.callTimeoutSeconds ?? mcpDefaults.callTimeoutSeconds) * 1000,
  };
}

type ServerParse =
  { disabled: true } | { disabled: false; server: McpServerConfig } | { problems: string[] };

function parseServer(raw: unknown, folder: string, env: McpEnv, secrets: string[]): ServerParse {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return {
      problems: [
        'must be an object: { "command": "…", "args": […] } for a stdio server or { "url": "http://…/mcp" } for a streamable HTTP server',
      ],
    };
  }
  const record = raw as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of Object.keys(record)) {
    if (!(allKeys as readonly string[]).includes(key)) {
      problems.push(
        `unknown field "${key}"${didYouMean(key, allKeys)}; allowed: ${allKeys.join(", ")}`,
      );
    }
  }
  if (record["type"] === "sse") {
    problems.push(
      'field "type": the old HTTP+SSE transport is not supported; serve the streamable HTTP transport and write "type": "http" (or leave "type" out)',
    );
    return { problems };
  }
  const hasCommand = "command" in record;
  const hasUrl = "url" in record;
  if (hasCommand === hasUrl) {
    problems.push(
      hasCommand
        ? 'has both "command" and "url"; keep "command" for a stdio server or "url" for a streamable HTTP server'
        : 'needs "command" (a server the worker starts and talks to over stdio) or "url" (a streamable HTTP server)',
    );
    return { problems };
  }
  if (hasCommand) {
    for (const key of httpKeys) {
      if (key in record && !(stdioKeys as readonly string[]).includes(key))
        problems.push(`field "${key}" is for servers with "url"; remove it`);
    }
    const parsed = stdioSchema.safeParse(record);
    if (!parsed.success) return { problems: [...problems, ...zodProblems(parsed.error)] };
    if (parsed.data.disabled === true)
      return problems.length > 0 ? { problems } : { disabled: true };
    const cwd = parsed.data.cwd === undefined ? folder : resolve(folder, parsed.data.cwd);
    const server: McpStdioServer = {
      transport: "stdio",
      command: expand(parsed.data.command, env, "command", problems, secrets),
      args: (parsed.data.args ?? []).map((arg, index) =>
        expand(arg, env, `args.${index}`, problems, secrets),
      ),
      env: expandMap(parsed.data.env, env, "env", problems, secrets),
      cwd: isAbsolute(cwd) ? cwd : resolve(cwd),
      ...timeouts(parsed.data),
    };
    return problems.length > 0 ? { problems } : { disabled: false, server };
  }
  for (const key of stdioKeys) {
    if (key in record && !(httpKeys as readonly string[]).includes(key))
      problems.push(`field "${key}" is for servers with "command"; remove it`);
  }
  const withUrl =
    typeof record["url"] === "string"
      ? { ...record, url: expand(record["url"], env, "url", problems, secrets) }
      : record;
  const parsed = httpSchema.safeParse(withUrl);
  if (!parsed.success) return { problems: [...problems, ...zodProblems(parsed.error)] };
  if (parsed.data.disabled === true) return problems.length > 0 ? { problems } : { disabled: true };
  const headers = expandMap(parsed.data.headers, env, "headers", problems, secrets);
  secrets.push(...Object.values(headers));
  const server: McpHttpServer = {
    transport: "streamable-http",
    url: parsed.data.url,
    headers,
    ...timeouts(parsed.data),
  };
  return problems.length > 0 ? { problems } : { disabled: false, server };
}

/**
 * Parses an MCP servers file in the common `mcpServers` shape. Every problem is collected, each
 * naming the file, the server and field, and the fix.
 *
 * @throws {McpConfigError} listing every problem.
 */
export function parseMcpConfig(text: string, file: string, env: McpEnv): McpConfig {
  const fail = (problems: string[]): never => {
    throw new McpConfigError(
      file,
      problems.map((line) => `${file}: ${line}`),
    );
  };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return fail([`is not valid JSON (${reason}); fix the syntax`]);
  }
  const root =
    typeof json === "object" && json !== null && !Array.isArray(json)
      ? (json as Record<string, unknown>)
      : undefined;
  const servers = root?.["mcpServers"];
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) {
    return fail([
      'needs an "mcpServers" object: { "mcpServers": { "<name>": { "command": "…" } | { "url": "…" } } }',
    ]);
  }
  const extra = Object.keys(root ?? {}).filter((key) => key !== "mcpServers");
  const problems = extra.map(
    (key) => `unknown top-level field "${key}"; the file holds only "mcpServers"`,
  );
  const folder = dirname(file);
  const parsed = new Map<string, McpServerConfig>();
  const disabled: string[] = [];
  const secrets: string[] = [];
  for (const [name, raw] of Object.entries(servers as Record<string, unknown>)) {
    if (!mcpServerNamePattern.test(name)) {
      problems.push(
        `server "${name}": a server name is 1 to 40 letters, digits, "_" or "-" (its tools are named mcp.<server>.<tool>, so no dots); rename it`,
      );
      continue;
    }
    const result = parseServer(raw, folder, env, secrets);
    if ("problems" in result) {
      problems.push(...result.problems.map((line) => `server "${name}": ${line}`));
    } else if (result.disabled) {
      disabled.push(name);
    } else {
      parsed.set(name, result.server);
    }
  }
  if (problems.length > 0) return fail(problems);
  return { file, servers: parsed, disabled, secrets: secrets.filter((value) => value !== "") };
}

/**
 * The servers `AGENTDOCK_MCP_SERVERS` names, or undefined when it is unset or empty.
 *
 * @throws {McpConfigError} when the file cannot be read or has problems.
 */
export async function loadMcpConfig(env: McpEnv, cwd: string): Promise<McpConfig | undefined> {
  const setting = env[MCP_SERVERS_ENV]?.trim();
  if (setting === undefined || setting === "") return undefined;
  const file = resolve(cwd, setting);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT" ? "no such file" : error instanceof Error ? error.message : String(error);
    throw new McpConfigError(file, [
      `${file}: cannot be read (${reason}); point ${MCP_SERVERS_ENV} at a JSON file of { "mcpServers": { … } }`,
    ]);
  }
  return parseMcpConfig(text, file, env);
}
