import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ApplicationFailure, CancelledFailure } from "@temporalio/common";
import { MockActivityEnvironment } from "@temporalio/testing";
import type { LanguageModel } from "ai";
import { z } from "zod";
import { createToolActivities } from "../../../activities/index.ts";
import type { RunToolInput } from "../../../activities/index.ts";
import { parseAgentTemplate } from "../../../src/agents/index.ts";
import { createOrchestrator } from "../../../src/orchestration/index.ts";
import {
  createToolRegistry,
  defineTool,
  toolCatalogueEntries,
  toolFailure,
  ToolRegistry,
} from "../../../src/tools/index.ts";
import type { ToolModule } from "../../../src/tools/index.ts";
import { requiredText, toolInputObject } from "../../../src/tools/tool-input-schema.ts";
import type { TurnContext } from "../../../workflows/turn-context.ts";
import { buildToolSet } from "../../../workflows/session-tools.ts";

// A tool written the way a new one is added: this one object is all that names it.
const wordCountTool = defineTool({
  name: "word_count",
  category: "writing",
  description: "Count the words of a text. Pass the text in `text`.",
  inputSchema: toolInputObject({ text: requiredText("The text whose words to count.") }),
  execute: ({ text }): { type: "word_count_result"; words: number } => ({
    type: "word_count_result",
    words: text.split(/\s+/).length,
  }),
});

function noModel(): LanguageModel {
  throw new Error("no model expected in this test");
}

function call(tool: string, input: unknown): RunToolInput {
  return { tool, input, modelId: "test-model", sessionId: "session-1", toolCallId: "call-1" };
}

// buildToolSet only keeps the context for when the model calls a tool, which these tests never do.
const unusedTurnContext = new Proxy<object>(
  {},
  {
    get(_target, property) {
      throw new Error(`the tool set used the turn context (${String(property)}) while being built`);
    },
  },
) as TurnContext;

function registryWithWordCount(): ToolRegistry {
  const registry = createToolRegistry();
  registry.register(wordCountTool);
  return registry;
}

describe("tool registry: adding a tool is one module", () => {
  it("lists a registered module in the catalogue after the built-in tools, with its category", () => {
    const registry = registryWithWordCount();
    assert.deepEqual(registry.catalogueEntries(), [
      ...toolCatalogueEntries,
      { name: "word_count", category: "writing" },
    ]);
  });

  it("lets an agent template list the registered tool, and offers it to the model in the workflow's tool set", () => {
    const registry = registryWithWordCount();
    const catalogue = registry.catalogueEntries();
    const template = parseAgentTemplate(
      { id: "counter", name: "Counter", tools: ["word_count", "think"] },
      { tools: catalogue },
    );
    const orchestrator = createOrchestrator(template, catalogue);

    const tools = buildToolSet(orchestrator, unusedTurnContext, registry);

    assert.deepEqual(Object.keys(tools), ["word_count", "think"]);
    const offered = tools["word_count"];
    assert.ok(offered !== undefined);
    assert.equal(offered.description, wordCountTool.description);
    const schema = z.toJSONSchema(wordCountTool.inputSchema, { io: "input" });
    assert.deepEqual(schema.required, ["text"]);
    assert.equal(schema.additionalProperties, false);
  });

  it("leaves a tool out of the workflow's tool set when the registry does not have it", () => {
    const registry = registryWithWordCount();
    const template = parseAgentTemplate(
      { id: "counter", name: "Counter", tools: ["word_count", "think"] },
      { tools: registry.catalogueEntries() },
    );
    const orchestrator = createOrchestrator(template, registry.catalogueEntries());

    const tools = buildToolSet(orchestrator, unusedTurnContext, createToolRegistry());

    assert.deepEqual(Object.keys(tools), ["think"]);
  });

  it("runs the registered tool in the tool activity, validating its input like a built-in tool's", async () => {
    const { runTool, checkToolAvailability } = createToolActivities({
      summarizeModel: noModel,
      registry: registryWithWordCount(),
    });

    assert.deepEqual(await runTool(call("word_count", { text: "  one two  three " })), {
      type: "word_count_result",
      words: 3,
    });
    await assert.rejects(runTool(call("word_count", { txt: "one" })), (error: unknown) => {
      assert.ok(error instanceof ApplicationFailure);
      assert.equal(error.type, "ToolInputError");
      assert.match(error.message, /^word_count: .*"txt"/);
      return true;
    });
    assert.deepEqual(await checkToolAvailability({ tools: ["word_count", "think"] }), {
      unavailable: {},
    });
  });

  it("names the registered tool among the available ones when the model calls an unknown tool", async () => {
    const { runTool } = createToolActivities({
      summarizeModel: noModel,
      registry: registryWithWordCount(),
    });
    await assert.rejects(runTool(call("wordcount", { text: "x" })), (error: unknown) => {
      assert.ok(error instanceof ApplicationFailure);
      assert.equal(error.type, "UnknownTool");
      assert.match(
        error.message,
        /the available tools are think, .*, search, deep_research, word_count$/,
      );
      return true;
    });
  });

  it("keeps the built-in catalogue unchanged when a worker registers more tools", () => {
    registryWithWordCount();
    assert.equal(
      toolCatalogueEntries.some((entry) => entry.name === "word_count"),
      false,
    );
    assert.equal(createToolRegistry().find("word_count"), undefined);
  });
});

describe("tool registry: availability declared by the module", () => {
  const weatherTool: ToolModule = defineTool({
    name: "weather",
    category: "research",
    description: "Current weather for a place, from the worker's search provider.",
    inputSchema: toolInputObject({ place: requiredText("The place.") }),
    unavailable: ({ searchProvider }) =>
      searchProvider === undefined
        ? {
            reason: "not configured: needs a search provider (SEARCH_PROVIDER)",
            failure: () =>
              toolFailure("SearchNotConfigured", "weather needs a search provider", {
                nonRetryable: true,
              }),
          }
        : undefined,
    execute: ({ place }) => ({ type: "weather_result", place }),
  });

  it("reports the module's own reason in the worker's availability check", async () => {
    const registry = createToolRegistry();
    registry.register(weatherTool);
    const { checkToolAvailability } = createToolActivities({ summarizeModel: noModel, registry });
    const { unavailable } = await checkToolAvailability({ tools: ["weather", "think", "nope"] });
    assert.deepEqual(unavailable, {
      weather: "not configured: needs a search provider (SEARCH_PROVIDER)",
      nope: 'not installed: this worker has no tool named "nope"',
    });
  });

  it("answers a call of an unavailable tool with the module's failure, before checking the input", async () => {
    const registry = createToolRegistry();
    registry.register(weatherTool);
    const { runTool } = createToolActivities({ summarizeModel: noModel, registry });
    await assert.rejects(runTool(call("weather", { wrong: 1 })), (error: unknown) => {
      assert.ok(error instanceof ApplicationFailure);
      assert.equal(error.type, "SearchNotConfigured");
      assert.equal(error.message, "weather needs a search provider");
      assert.equal(error.nonRetryable, true);
      return true;
    });
  });
});

describe("tool registry: long-running tools", () => {
  it("heartbeats while a long-running module works and hands it the activity's cancellation signal", async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const slowTool = defineTool({
      name: "slow",
      category: "research",
      description: "Waits until cancelled.",
      inputSchema: toolInputObject({ what: requiredText("Anything.") }),
      runsLong: true,
      execute: (_input, { signal }) =>
        new Promise<never>((_resolve, reject) => {
          assert.ok(signal !== undefined, "a long-running tool gets the activity's signal");
          signal.addEventListener("abort", () => {
            reject(signal.reason as Error);
          });
          started();
        }),
    });
    const registry = createToolRegistry();
    registry.register(slowTool);
    const { runTool } = createToolActivities({ summarizeModel: noModel, registry });
    const env = new MockActivityEnvironment();
    const heartbeats: unknown[] = [];
    env.on("heartbeat", (details: unknown) => heartbeats.push(details));

    const run = env.run(runTool, call("slow", { what: "x" }));
    await running;
    env.cancel();

    await assert.rejects(run, CancelledFailure);
    assert.deepEqual(heartbeats[0], { tool: "slow", toolCallId: "call-1" });
  });
});

describe("tool registry: registration errors", () => {
  it("refuses a second tool with a name already registered, naming it", () => {
    const registry = createToolRegistry();
    assert.throws(
      () => {
        registry.register({ ...wordCountTool, name: "search" });
      },
      {
        message:
          'cannot register tool "search": a tool with that name is already registered; rename one of them',
      },
    );
  });

  for (const name of ["", "word count", "a".repeat(65), "wörter"]) {
    it(`refuses the tool name ${JSON.stringify(name)}, which model providers reject`, () => {
      const registry = new ToolRegistry();
      assert.throws(
        () => {
          registry.register({ ...wordCountTool, name });
        },
        {
          message: `cannot register tool ${JSON.stringify(name)}: a tool name is 1 to 64 letters, digits, "_" or "-"`,
        },
      );
      assert.deepEqual(registry.names, []);
    });
  }

  it("keeps the registration order, which is the order the model is offered the tools", () => {
    const registry = new ToolRegistry([wordCountTool]);
    registry.register({ ...wordCountTool, name: "another" });
    assert.deepEqual(registry.names, ["word_count", "another"]);
  });
});
