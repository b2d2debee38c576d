import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { CancelledFailure } from "@temporalio/common";
import { MockActivityEnvironment } from "@temporalio/testing";
import { createToolActivities } from "../../../activities/index.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  createPluginToolRegistry,
  loadToolPlugins,
  toolPluginConfigFromEnv,
  ToolPluginError,
} from "../../../src/tool-plugins/index.ts";
import { wordCountPlugin, writePluginFolder, zodImport } from "../../support/plugin-files.ts";

const folders: (() => Promise<void>)[] = [];
after(async () => {
  for (const remove of folders) await remove();
});

async function folderWith(files: Record<string, string>): Promise<string> {
  const { dir, remove } = await writePluginFolder(files);
  folders.push(remove);
  return dir;
}

/** The problems loading `files` as one plug-in folder reports (it must refuse). */
async function problemsOf(
  files: Record<string, string>,
): Promise<{ dir: string; problems: readonly string[] }> {
  const dir = await folderWith(files);
  const error = await loadToolPlugins({ dirs: [dir], modules: [] }, { cwd: dir }).then(
    () => assert.fail("the plug-ins loaded"),
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof ToolPluginError, String(error));
  assert.match(error.message, /no plug-in was loaded/);
  return { dir, problems: error.problems };
}

const goodFields = `category: "analysis", description: "Counts.", inputSchema: z.object({ text: z.string() }), execute: () => ({ ok: true })`;

describe("tool plug-ins: configuration", () => {
  it("reads folders separated like PATH and modules separated by commas, ignoring empty entries", () => {
    assert.deepEqual(
      toolPluginConfigFromEnv({
        AGENTDOCK_TOOL_DIRS: "/a::/b:",
        AGENTDOCK_TOOL_MODULES: " pkg-one, ./x.ts ,,",
      }),
      { dirs: ["/a", "/b"], modules: ["pkg-one", "./x.ts"] },
    );
    assert.deepEqual(toolPluginConfigFromEnv({}), { dirs: [], modules: [] });
  });
});

describe("tool plug-ins: loading a good plug-in", () => {
  it("registers a TypeScript plug-in after the built-in tools, and it runs with validated input", async () => {
    const dir = await folderWith({ "word-count.ts": wordCountPlugin, "notes.txt": "not a module" });
    const { registry, warnings } = await createPluginToolRegistry(
      { dirs: [dir], modules: [] },
      { cwd: dir },
    );
    assert.deepEqual(warnings, []);
    assert.deepEqual(registry.catalogueEntries().at(-1), {
      name: "word_count",
      category: "analysis",
    });
    assert.ok(registry.names.includes("think"));
    const tool = registry.find("word_count");
    assert.ok(tool !== undefined);
    assert.deepEqual(tool.inputSchema.parse({ text: "one two three" }), { text: "one two three" });
  });

  it("loads .mjs files and named `tool`/`tools` exports, and a module file named in AGENTDOCK_TOOL_MODULES", async () => {
    const dir = await folderWith({
      "pair.mjs": `${zodImport}\nexport const tools = [{ name: "alpha", ${goodFields} }, { name: "beta", ${goodFields} }];`,
      "single.js": `${zodImport}\nexport const tool = { name: "gamma", ${goodFields} };`,
    });
    const extra = await folderWith({
      "delta.ts": `${zodImport}\nexport default { name: "delta", ${goodFields} };`,
    });
    const { modules } = await loadToolPlugins(
      { dirs: [dir], modules: [join(extra, "delta.ts")] },
      { cwd: dir },
    );
    assert.deepEqual(
      modules.map((module) => module.name),
      ["alpha", "beta", "gamma", "delta"],
    );
  });

  it("warns about a configured folder without modules instead of refusing to start", async () => {
    const dir = await folderWith({ "README.md": "# nothing here" });
    const { modules, warnings } = await loadToolPlugins({ dirs: [dir], modules: [] }, { cwd: dir });
    assert.deepEqual(modules, []);
    assert.match(warnings.join("\n"), /has no \.ts, \.mts, \.js or \.mjs files/);
  });
});

/** The README's example plug-in, as written (its zod import pointed at this project's zod). */
function readmeExample(): string {
  const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
  const section = readme.slice(readme.indexOf("#### Plug-in tools"));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block !== undefined, "the README's Plug-in tools section has a ts example");
  assert.ok(block.includes('import { z } from "zod";'));
  return block.replace('import { z } from "zod";', zodImport);
}

describe("tool plug-ins: the README's example", () => {
  it("loads and counts words, as the README shows", async () => {
    const dir = await folderWith({ "word-count.ts": readmeExample() });
    const { modules } = await loadToolPlugins({ dirs: [dir], modules: [] }, { cwd: dir });
    const [tool] = modules;
    assert.equal(tool?.name, "word_count");
    assert.equal(tool.category, "analysis");
    const input = tool.inputSchema.parse({ text: "three little words" });
    assert.deepEqual(tool.execute(input, undefined as never), {
      type: "word_count_result",
      words: 3,
      content: "## 3 words counted",
    });
  });
});

describe("tool plug-ins: a broken plug-in stops the worker with a message naming file, field and fix", () => {
  const cases: { title: string; source: string; expected: RegExp }[] = [
    {
      title: "a bad name",
      source: `${zodImport}\nexport default { name: "word count!", ${goodFields} };`,
      expected:
        /bad\.ts: export "default" \(tool "word count!"\): field "name" must be 1 to 64 letters, digits, "_" or "-".*name it like "word_count"/,
    },
    {
      title: "the name of a built-in tool",
      source: `${zodImport}\nexport default { name: "think", ${goodFields} };`,
      expected:
        /bad\.ts: export "default": field "name" is "think", a built-in tool's name; rename the plug-in tool/,
    },
    {
      title: "a missing execute",
      source: `${zodImport}\nexport default { name: "no_run", category: "analysis", description: "d", inputSchema: z.object({}) };`,
      expected:
        /bad\.ts: export "default" \(tool "no_run"\): field "execute" must be a function \(it is missing\); add execute\(input, context\)/,
    },
    {
      title: "an input schema that is not a zod schema",
      source: `export default { name: "plain", category: "analysis", description: "d", inputSchema: { type: "object" }, execute: () => 1 };`,
      expected:
        /field "inputSchema" must be a zod 4 schema \(got \{"type":"object"\}\); for example z\.object/,
    },
    {
      title: "an input schema that is not an object",
      source: `${zodImport}\nexport default { name: "texty", category: "analysis", description: "d", inputSchema: z.string(), execute: () => 1 };`,
      expected:
        /field "inputSchema" must describe a JSON object, got type "string"; wrap the fields in z\.object/,
    },
    {
      title: "a category that is not one lowercase word",
      source: `${zodImport}\nexport default { name: "cat", category: "Data Analysis", description: "d", inputSchema: z.object({}), execute: () => 1 };`,
      expected: /field "category" must be one lowercase word/,
    },
    {
      title: "a misspelt optional field",
      source: `${zodImport}\nexport default { name: "slow", runLong: true, ${goodFields} };`,
      expected:
        /unknown field "runLong"; allowed fields are name, category, description, inputSchema, execute, runsLong, unavailable/,
    },
    {
      title: "no tool exported",
      source: `export const helper = 1;`,
      expected: /bad\.ts: exports no tool; default-export one/,
    },
    {
      title: "a module that throws while loading",
      source: `throw new Error("needs API_TOKEN");`,
      expected: /bad\.ts: cannot be imported \(needs API_TOKEN\); fix the module so that it loads/,
    },
  ];
  for (const { title, source, expected } of cases) {
    it(`refuses ${title}`, async () => {
      const { problems } = await problemsOf({ "bad.ts": source });
      assert.match(problems.join("\n"), expected);
    });
  }

  it("refuses two plug-ins with one name, naming the first one's file, and registers neither", async () => {
    const { dir, problems } = await problemsOf({
      "a.ts": `${zodImport}\nexport default { name: "twin", ${goodFields} };`,
      "b.ts": `${zodImport}\nexport default { name: "twin", ${goodFields} };`,
    });
    assert.equal(problems.length, 1);
    assert.ok(problems[0]?.includes(`already a tool of ${join(dir, "a.ts")}`), problems[0]);
  });

  it("reports every problem of every file at once, so one restart fixes them all", async () => {
    const { problems } = await problemsOf({
      "one.ts": `${zodImport}\nexport default { name: "one", category: "analysis", inputSchema: z.object({}) };`,
      "two.ts": `export const helper = 1;`,
    });
    assert.equal(problems.length, 3, problems.join("\n"));
  });

  it("refuses a configured folder that does not exist, naming the variable", async () => {
    const dir = await folderWith({});
    const missing = join(dir, "nope");
    await assert.rejects(
      loadToolPlugins({ dirs: [missing], modules: [] }, { cwd: dir }),
      (error: unknown) =>
        error instanceof ToolPluginError &&
        error.message.includes(`AGENTDOCK_TOOL_DIRS: ${missing} does not exist`),
    );
  });

  it("refuses a package that is not installed, naming it", async () => {
    await assert.rejects(
      loadToolPlugins({ dirs: [], modules: ["agentdock-no-such-plugin"] }, { cwd: process.cwd() }),
      /package "agentdock-no-such-plugin": cannot be imported/,
    );
  });
});

describe("tool plug-ins: in the tool activities", () => {
  function noModel(): never {
    throw new Error("no model expected in this test");
  }

  it("describes the agent's plug-in tools (not the built-in ones) with a closed JSON schema when asked", async () => {
    const dir = await folderWith({ "word-count.ts": wordCountPlugin });
    const { registry } = await createPluginToolRegistry({ dirs: [dir], modules: [] }, { cwd: dir });
    const { checkToolAvailability } = createToolActivities({ summarizeModel: noModel, registry });

    const plain = await checkToolAvailability({ tools: ["think", "word_count", "absent"] });
    assert.equal(plain.pluginTools, undefined);
    const described = await checkToolAvailability({
      tools: ["think", "word_count", "absent"],
      describePlugins: true,
    });
    assert.deepEqual(Object.keys(described.unavailable), ["absent"]);
    assert.deepEqual(
      described.pluginTools?.map(({ name, category }) => ({ name, category })),
      [{ name: "word_count", category: "analysis" }],
    );
    const schema = described.pluginTools[0]?.inputJsonSchema ?? {};
    assert.equal(schema["type"], "object");
    assert.equal(schema["additionalProperties"], false);
    assert.deepEqual(schema["required"], ["text"]);
  });

  it("heartbeats while a long-running plug-in works and hands it the activity's cancellation signal", async () => {
    const dir = await folderWith({
      "slow.ts": `${zodImport}
export default {
  name: "slow_fetch", category: "research", description: "Waits until cancelled.", runsLong: true,
  inputSchema: z.object({ url: z.string() }),
  execute: (_input: unknown, { signal }: { signal: AbortSignal }) =>
    new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
};`,
    });
    const { registry } = await createPluginToolRegistry({ dirs: [dir], modules: [] }, { cwd: dir });
    const { runTool } = createToolActivities({ summarizeModel: noModel, registry });
    const env = new MockActivityEnvironment();
    const heartbeats: unknown[] = [];
    const firstBeat = new Promise<void>((resolve) => {
      env.on("heartbeat", (details: unknown) => {
        heartbeats.push(details);
        resolve();
      });
    });
    const run = env.run(runTool, {
      tool: "slow_fetch",
      input: { url: "x" },
      modelId: "test-model",
      sessionId: "session-1",
      toolCallId: "call-1",
    });
    await firstBeat;
    env.cancel();
    await assert.rejects(run, CancelledFailure);
    assert.deepEqual(heartbeats[0], { tool: "slow_fetch", toolCallId: "call-1" });
  });
});
