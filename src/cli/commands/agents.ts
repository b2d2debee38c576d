import { existsSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { listAgents } from "../../agents/index.ts";
import { cliToolRegistry } from "../cli-tool-registry.ts";
import { dirsSchema } from "../arg-schemas.ts";
import { agentsDirs, shownPath, templateFileFor } from "../agent-dirs.ts";
import {
  agentNeeds,
  describeNeeds,
  providerReadiness,
  workerToolServices,
  type ToolReadiness,
} from "../agent-needs.ts";
import type { Command } from "../cli-context.ts";
import { parseCommandArgs } from "../command-args.ts";
import { ExitCode, exitCodesHelp } from "../exit-codes.ts";
import { formatTable, writeJson, writeLine } from "../output.ts";

const help = `Usage: agentdock-temporal agents [--dir DIR…] [--json]

Lists the agent templates and validates each: the shipped ones (agents/), then every --dir and
the folders in AGENTDOCK_AGENTS_DIR (separated like PATH). Each folder holds <id>/template.json;
when two folders have the same id the first wins. An invalid template is listed as INVALID and
its error printed exactly as loading it reports it (file, path of each problem, how to fix it);
the command then exits 1. Warnings (e.g. unreachable steps, settings with no effect here) are
printed too. AgentDock templates (agentId, nodes, nodeConfigurations) load as they are.

A valid agent may still lack what its sessions need to run as written: the worker's setting for
its provider (GEMINI_API_KEY, GROQ_API_KEY, ... read from this environment, as a worker started
here would), tools this project does not have (AgentDock tools, plug-ins not installed here), or
tools a worker started here cannot run (search and deep_research need a search provider:
SEARCH_PROVIDER=searxng and SEARXNG_URL in the worker's environment).
Those are listed under "needs". Templates are checked against the built-in tools and the plug-ins
AGENTDOCK_TOOL_DIRS and AGENTDOCK_TOOL_MODULES install, as the worker loads them, and against the
MCP servers the file AGENTDOCK_MCP_SERVERS names (any tool of a configured server loads: which
tools a server has is known when the worker connects).

Options:
  --dir DIR    another folder of templates (repeatable)
  --json       an array of {id, valid, version, name, description, file, provider, steps,
               tools, warnings, needs: {settings, tools, unavailable}, error}

VERSION is the template's content hash (sha256 of the validated template, 12 hex digits): a
session pins the version it started with; \`upgrade\` moves it to the one listed here.
  -h, --help   this help

${exitCodesHelp}`;

/** Template files of `id` in later folders, hidden by the first one (the one that is used). */
function shadowedFiles(id: string, dirs: readonly string[]): string[] {
  return dirs
    .map((dir) => join(dir, id, "template.json"))
    .filter((file) => existsSync(file))
    .slice(1);
}

const schema = z.object({ dir: dirsSchema, json: z.boolean().default(false) });

export const agentsCommand: Command = {
  name: "agents",
  summary: "list shipped and local agent templates and validate them",
  help,
  async run(argv, context) {
    const args = parseCommandArgs(
      agentsCommand,
      argv,
      { options: { dir: { type: "string", multiple: true }, json: { type: "boolean" } }, schema },
      context,
    );
    if (args === undefined) return ExitCode.ok;
    const dirs = agentsDirs(context, args.dir);
    const registry = await cliToolRegistry(context, (line) => {
      writeLine(context.stderr, `warning: ${line}`);
    });
    const listings = listAgents({ agentsDirs: dirs, tools: registry.catalogueEntries() });
    const invalid = listings.filter((listing) => !listing.ok);
    const readiness = providerReadiness(context.env);
    const tools: ToolReadiness = { registry, services: workerToolServices(context.env) };
    if (args.json) {
      writeJson(
        context.stdout,
        listings.map((listing) => {
          const file = templateFileFor(listing.id, dirs);
          return listing.ok
            ? {
                id: listing.id,
                valid: true,
                version: listing.agent.version,
                name: listing.agent.template.name,
                description: listing.agent.template.description,
                file: shownPath(listing.agent.file),
                provider: listing.agent.template.llm.provider,
                steps: listing.agent.template.orchestration.steps.map((step) => step.name),
                tools: listing.agent.template.tools,
                warnings: listing.agent.warnings,
                needs: agentNeeds(listing.agent, readiness, tools),
              }
            : {
                id: listing.id,
                valid: false,
                file: file === undefined ? null : shownPath(file),
                error: listing.error.message,
              };
        }),
      );
      return invalid.length > 0 ? ExitCode.failed : ExitCode.ok;
    }
    const rows = listings.map((listing) => {
      const file = templateFileFor(listing.id, dirs);
      if (!listing.ok)
        return [listing.id, "INVALID", "-", "-", "-", file === undefined ? "" : shownPath(file)];
      const { template } = listing.agent;
      return [
        listing.id,
        template.name,
        String(template.orchestration.steps.length),
        String(template.tools.length),
        listing.agent.version,
        shownPath(listing.agent.file),
      ];
    });
    writeLine(
      context.stdout,
      listings.length === 0
        ? `No agent templates in ${dirs.map(shownPath).join(", ")}.`
        : formatTable([["AGENT", "NAME", "STEPS", "TOOLS", "VERSION", "FILE"], ...rows]),
    );
    const needing = listings.flatMap((listing) => {
      if (!listing.ok) return [];
      const needs = describeNeeds(agentNeeds(listing.agent, readiness, tools));
      return needs === undefined ? [] : [`  ${listing.id}: ${needs}`];
    });
    if (needing.length > 0) {
      writeLine(context.stdout, `\nTo run as written, ${needing.length} of them need:`);
      for (const line of needing) writeLine(context.stdout, line);
    }
    for (const listing of listings) {
      for (const hidden of shadowedFiles(listing.id, dirs)) {
        writeLine(
          context.stderr,
          `note: ${listing.id}: ${shownPath(hidden)} is not used: an earlier folder has an agent with the same id`,
        );
      }
      if (!listing.ok) continue;
      for (const warning of listing.agent.warnings) {
        writeLine(context.stderr, `warning: ${listing.id}: ${warning.path}: ${warning.message}`);
      }
    }
    for (const listing of invalid) {
      writeLine(context.stderr, `\n${listing.error.message}`);
    }
    if (invalid.length > 0) {
      writeLine(
        context.stderr,
        `\n${invalid.length} of ${listings.length} templates are invalid: ${invalid.map((listing) => listing.id).join(", ")}`,
      );
      return ExitCode.failed;
    }
    return ExitCode.ok;
  },
};
