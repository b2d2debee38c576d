import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const readmePath = fileURLToPath(new URL("../../README.md", import.meta.url));

/**
 * Every visibility query the README shows (`--query '…'`), in order: the README's filter examples
 * are tested as written, so an example that matches nothing cannot stay in it.
 */
export function readmeFilterExamples(): string[] {
  const readme = readFileSync(readmePath, "utf8");
  return [...readme.matchAll(/--query '([^']+)'/g)].map((match) => match[1] ?? "");
}

/** The message the README's `send` example sends (the README's commands create that session). */
export function readmeSendExample(): { sessionId: string; text: string; agent: string } {
  const readme = readFileSync(readmePath, "utf8");
  const match = /agentdock-temporal send (\S+) "([^"]+)" --agent (\S+)/.exec(readme);
  if (match === null) throw new Error(`no "agentdock-temporal send" example in ${readmePath}`);
  const [, sessionId = "", text = "", agent = ""] = match;
  return { sessionId, text, agent };
}

const run = promisify(execFile);

/**
 * Workflow ids `temporal workflow list --query <query>` prints, run as the README shows it (the
 * real CLI against the test server), limited to one task queue so only the test's sessions count.
 */
export async function listWithCli(
  server: { cliPath: string; address: string; namespace: string },
  query: string,
  taskQueue: string,
): Promise<string[]> {
  const { stdout } = await run(
    server.cliPath,
    [
      "workflow",
      "list",
      "--address",
      server.address,
      "--namespace",
      server.namespace,
      "--query",
      `(${query}) AND TaskQueue="${taskQueue}"`,
      "--output",
      "json",
    ],
    { timeout: 15_000 },
  );
  const listed = stdout.trim() === "" ? [] : (JSON.parse(stdout) as unknown);
  if (!Array.isArray(listed)) throw new Error(`unexpected CLI output: ${stdout.slice(0, 200)}`);
  return listed.map((entry) => {
    const execution = (entry as { execution?: { workflowId?: unknown } }).execution;
    return String(execution?.workflowId);
  });
}
