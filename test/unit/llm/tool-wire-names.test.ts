import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, isStepCount, jsonSchema, streamText, tool } from "ai";
import { wireNameMap, wireToolName, withWireToolNames } from "../../../src/llm/tool-wire-names.ts";
import { offeredTools, startFakeOpenAIServer } from "../../support/fake-openai-server.ts";

// Providers accept function names of 1–64 letters, digits, "_" and "-": a policy name such as
// mcp.docs.lookup is offered under a wire name, one-to-one and the same for the same call.

const provider = /^[A-Za-z0-9_-]{1,64}$/;

describe("wire tool names", () => {
  it("keeps names providers accept and turns dots into double underscores", () => {
    assert.equal(wireToolName("think"), "think");
    assert.equal(wireToolName("word_count"), "word_count");
    assert.equal(wireToolName("mcp.docs.lookup"), "mcp__docs__lookup");
    assert.equal(wireToolName("mcp.docs.get.page"), "mcp__docs__get__page");
    assert.equal(wireToolName("mcp.docs.a/b c"), "mcp__docs__a_b_c");
  });

  it("shortens a long name with a stable hash, within 64 characters", () => {
    const long = `mcp.server.${"x".repeat(80)}`;
    const wire = wireToolName(long);
    assert.match(wire, provider);
    assert.equal(wire, wireToolName(long));
    assert.notEqual(wire, wireToolName(`${long}y`));
  });

  it("maps one-to-one: a sanitised name that collides with a real tool's takes the hashed form", () => {
    const map = wireNameMap(["mcp__docs__lookup", "mcp.docs.lookup", "mcp.docs_lookup", "think"]);
    const wires = [...map.values()];
    assert.equal(new Set(wires).size, wires.length);
    for (const wire of wires) assert.match(wire, provider);
    assert.equal(map.get("mcp__docs__lookup"), "mcp__docs__lookup");
    assert.equal(map.get("think"), "think");
    assert.match(map.get("mcp.docs.lookup") ?? "", /^mcp__docs__lookup_[0-9a-f]{8}$/);
    // Two policy names with the same sanitised form both take a hashed one.
    const pair = wireNameMap(["mcp.a.b.c", "mcp.a.b__c"]);
    assert.notEqual(pair.get("mcp.a.b.c"), pair.get("mcp.a.b__c"));
    assert.match(pair.get("mcp.a.b.c") ?? "", /^mcp__a__b__c_[0-9a-f]{8}$/);
    // Order-independent: the same names give the same map in another order.
    const again = wireNameMap(["think", "mcp.docs_lookup", "mcp.docs.lookup", "mcp__docs__lookup"]);
    for (const [policy, wire] of map) assert.equal(again.get(policy), wire);
  });
});

describe("a real provider offered an MCP tool", () => {
  for (const mode of ["generate", "stream"] as const) {
    it(`sees the wire name, and its call runs the tool under the policy name (${mode})`, async (t) => {
      const server = await startFakeOpenAIServer([
        { toolCall: { name: "mcp__docs__lookup", arguments: { query: "retries" } } },
        { text: "Done." },
      ]);
      t.after(() => server.close());
      const provider = createOpenAICompatible({ name: "fake", baseURL: `${server.url}/v1` });
      const model = withWireToolNames(provider.chatModel("fake-model"));
      const calls: unknown[] = [];
      const tools = {
        "mcp.docs.lookup": tool({
          description: "Look a term up.",
          inputSchema: jsonSchema<{ query: string }>({
            type: "object",
            properties: { query: { type: "string" } },
            required: ["query"],
          }),
          execute: (input) => {
            calls.push(input);
            return { content: "## Lookup: retries" };
          },
        }),
      };
      const options = {
        model,
        prompt: "What do the docs say about retries?",
        tools,
        stopWhen: isStepCount(2),
        maxRetries: 0,
      };
      let steps: { toolCalls: { toolName: string }[] }[];
      if (mode === "generate") {
        ({ steps } = await generateText(options));
      } else {
        const result = streamText(options);
        await result.consumeStream();
        steps = await result.steps;
      }
      assert.deepEqual(calls, [{ query: "retries" }]);
      assert.deepEqual(
        steps.flatMap((step) => step.toolCalls.map((call) => call.toolName)),
        ["mcp.docs.lookup"],
      );
      const [first, second] = server.requests;
      assert.ok(first !== undefined && second !== undefined);
      assert.deepEqual(offeredTools(first), ["mcp__docs__lookup"]);
      const replayed = JSON.stringify(second.body.messages);
      assert.match(replayed, /"name":"mcp__docs__lookup"/);
      assert.doesNotMatch(replayed, /"name":"mcp\.docs\.lookup"/);
      assert.match(replayed, /mcp\.docs\.lookup is called as mcp__docs__lookup/);
    });
  }
});
