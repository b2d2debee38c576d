import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createToolActivities } from "../../../activities/tool-activities.ts";
import { createScriptedModel } from "../../../src/llm/scripted/scripted-model.ts";
import { parseMcpConfig } from "../../../src/mcp/mcp-config.ts";
import { McpTools } from "../../../src/mcp/mcp-tools.ts";
import { createPluginToolRegistry } from "../../../src/tool-plugins/index.ts";
import type { ToolActivities } from "../../../activities/tool-types.ts";
import { startFakeMcpHttpServer, type FakeMcpHttpServer } from "../../support/fake-mcp-server.ts";
import { wordCountPlugin, writePluginFolder } from "../../support/plugin-files.ts";

// The tool activities with MCP servers attached to the registry: the availability answer the
// workflow records, and runTool's dispatch to the server.

const summarizeModel = () => createScriptedModel("auto");
const agentTools = ["mcp.docs.search", "think", "word_count", "mcp.docs.lookup", "mcp.docs.nope"];

describe("the tool activities with an MCP server", () => {
  let http: FakeMcpHttpServer;
  let mcp: McpTools;
  let activities: ToolActivities;
  let removePlugins: () => Promise<void>;
  before(async () => {
    http = await startFakeMcpHttpServer();
    const plugins = await writePluginFolder({ "word-count.ts": wordCountPlugin });
    removePlugins = plugins.remove;
    const { registry } = await createPluginToolRegistry(
      { dirs: [plugins.dir], modules: [] },
      { cwd: plugins.dir },
    );
    mcp = new McpTools(
      parseMcpConfig(JSON.stringify({ mcpServers: { docs: { url: http.url } } }), "/x.json", {}),
    );
    registry.attachSource(mcp);
    activities = createToolActivities({ summarizeModel, registry });
  });
  after(async () => {
    await mcp.close();
    await http.close();
    await removePlugins();
  });

  it("describes plug-in and MCP tools together in the agent's order, and reports a tool the server lacks", async () => {
    const answer = await activities.checkToolAvailability({
      tools: agentTools,
      describePlugins: true,
    });
    assert.deepEqual(
      answer.pluginTools?.map(({ name, category }) => `${name}:${category}`),
      ["mcp.docs.search:mcp", "word_count:analysis", "mcp.docs.lookup:mcp"],
    );
    assert.deepEqual(Object.keys(answer.unavailable), ["mcp.docs.nope"]);
    assert.match(answer.unavailable["mcp.docs.nope"] ?? "", /^not offered by MCP server docs/);
  });

  it("reports MCP tools unavailable to a session from before plug-in tools, which could not offer them", async () => {
    const answer = await activities.checkToolAvailability({ tools: agentTools });
    assert.equal(answer.pluginTools, undefined);
    assert.deepEqual(Object.keys(answer.unavailable).sort(), [
      "mcp.docs.lookup",
      "mcp.docs.nope",
      "mcp.docs.search",
    ]);
    assert.match(answer.unavailable["mcp.docs.lookup"] ?? "", /start a new session/);
  });

  it("runs an MCP tool in runTool by its policy name", async () => {
    const output = await activities.runTool({
      tool: "mcp.docs.lookup",
      input: { query: "timeouts" },
      modelId: "scripted:auto",
      sessionId: "s",
      toolCallId: "c1",
    });
    assert.equal(
      (output as unknown as { content: string }).content.split("\n")[0],
      "## Lookup: timeouts",
    );
  });

  it("tells a worker without MCP servers' sessions where servers are configured", async () => {
    const plain = createToolActivities({ summarizeModel });
    const answer = await plain.checkToolAvailability({
      tools: ["mcp.docs.lookup"],
      describePlugins: true,
    });
    assert.match(
      answer.unavailable["mcp.docs.lookup"] ?? "",
      /^not installed: this worker has no MCP servers .*AGENTDOCK_MCP_SERVERS/,
    );
  });
});
