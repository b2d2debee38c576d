import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { asSchema, tool, type ToolSet } from "ai";
import { thinkTool } from "../../../src/tools/think.ts";
import { withPreparedSchemas } from "../../../workflows/tool-schemas.ts";

/** A tool set like the one `buildToolSet` makes for every model call: fresh objects, shared schemas. */
function freshToolSet(): ToolSet {
  return {
    think: tool({
      description: thinkTool.description,
      inputSchema: thinkTool.inputSchema,
      execute: () => "done",
    }),
  };
}

describe("tool input schemas prepared once per workflow context", () => {
  it("gives every model call the same prepared schema, so zod is converted to JSON Schema once", () => {
    const first = withPreparedSchemas(freshToolSet());
    const second = withPreparedSchemas(freshToolSet());
    assert.ok(first["think"] !== undefined && second["think"] !== undefined);
    assert.equal(first["think"].inputSchema, second["think"].inputSchema);
  });

  it("offers the model the JSON Schema the AI SDK makes from the zod schema itself", async () => {
    const prepared = withPreparedSchemas(freshToolSet())["think"];
    assert.ok(prepared !== undefined);
    assert.deepEqual(
      await asSchema(prepared.inputSchema).jsonSchema,
      await asSchema(thinkTool.inputSchema).jsonSchema,
    );
  });

  it("still checks the model's input against the tool's zod schema", async () => {
    const prepared = withPreparedSchemas(freshToolSet())["think"];
    assert.ok(prepared !== undefined);
    const schema = asSchema(prepared.inputSchema);
    assert.ok(schema.validate !== undefined);
    const good = await schema.validate({ topic: "t", reasoning: "1. r" });
    assert.equal(good.success, true);
    const bad = await schema.validate({ topic: "t" });
    assert.equal(bad.success, false);
  });

  it("keeps each tool's description and execute", () => {
    const tools = freshToolSet();
    const prepared = withPreparedSchemas(tools);
    assert.equal(prepared["think"]?.description, tools["think"]?.description);
    assert.equal(prepared["think"]?.execute, tools["think"]?.execute);
  });
});
