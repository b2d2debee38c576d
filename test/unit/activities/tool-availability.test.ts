import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createToolActivities } from "../../../activities/tool-activities.ts";
import { createSearxngProvider } from "../../../src/search/index.ts";
import { createScriptedModel } from "../../../src/llm/scripted/scripted-model.ts";

const tools = ["think", "reflect", "search", "weather"];
const summarizeModel = () => createScriptedModel("auto");

describe("checkToolAvailability (the worker's report at each turn's start)", () => {
  it("reports search as not configured without a provider, naming the settings that enable it", async () => {
    const { unavailable } = await createToolActivities({ summarizeModel }).checkToolAvailability({
      tools,
    });
    assert.deepEqual(Object.keys(unavailable), ["search", "weather"]);
    assert.match(unavailable["search"] ?? "", /^not configured: no search provider/);
    assert.match(unavailable["search"] ?? "", /SEARCH_PROVIDER=searxng and SEARXNG_URL=/);
  });

  it("reports a tool this worker does not have as not installed", async () => {
    const { unavailable } = await createToolActivities({ summarizeModel }).checkToolAvailability({
      tools,
    });
    assert.equal(unavailable["weather"], 'not installed: this worker has no tool named "weather"');
  });

  it("reports nothing missing for a worker with a search provider and known tools", async () => {
    const activities = createToolActivities({
      summarizeModel,
      searchProvider: createSearxngProvider({ baseUrl: "http://127.0.0.1:9" }),
    });
    const { unavailable } = await activities.checkToolAvailability({ tools: ["think", "search"] });
    assert.deepEqual(unavailable, {});
  });

  it("answers unchanged to a check that sends the same answer, and in full when the worker's answer differs", async () => {
    const activities = createToolActivities({ summarizeModel });
    const known = await activities.checkToolAvailability({ tools, describePlugins: true });
    assert.deepEqual(
      await activities.checkToolAvailability({ tools, describePlugins: true, known }),
      { unchanged: true },
    );
    const withSearch = createToolActivities({
      summarizeModel,
      searchProvider: createSearxngProvider({ baseUrl: "http://127.0.0.1:9" }),
    });
    const changed = await withSearch.checkToolAvailability({ tools, describePlugins: true, known });
    assert.ok(!("unchanged" in changed));
    assert.deepEqual(Object.keys(changed.unavailable), ["weather"]);
  });
});
