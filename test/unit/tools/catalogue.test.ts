import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { z } from "zod";
import {
  cognitiveToolNames,
  findTool,
  searchTool,
  thinkTool,
  toolCatalogue,
  toolCatalogueEntries,
} from "../../../src/tools/index.ts";

const expectedEntries = [
  { name: "think", category: "cognitive" },
  { name: "reflect", category: "cognitive" },
  { name: "critique", category: "cognitive" },
  { name: "debate", category: "cognitive" },
  { name: "brainstorm", category: "cognitive" },
  { name: "compare", category: "cognitive" },
  { name: "summarize", category: "writing" },
  { name: "search", category: "research" },
  { name: "deep_research", category: "research" },
];

// The body sections the spec asks each description to name.
const expectedSections: Record<string, string[]> = {
  think: ["step", "conclusion"],
  reflect: ["What happened", "What it teaches", "What changes"],
  critique: ["Understanding", "Strengths", "Issues", "Suggestions", "Overall assessment"],
  debate: ["Introduction", "arguments", "counter-arguments", "evidence", "Synthesis", "Conclusion"],
  brainstorm: ["Problem framing", "categories", "applied", "Key insights", "Next steps"],
  compare: ["Definitions", "Criteria", "Analysis", "table", "Trade-offs", "Conclusion"],
  summarize: ["`text`", "`focus`"],
  search: ["`query`", "`limit`", "title, url and snippet", "setting"],
  deep_research: ["`query`", "`maxSources`", "`depth`", "citations [1] [2]", "could not be read"],
};

describe("tool catalogue", () => {
  it("lists the shipped tools in a fixed order with the spec's categories", () => {
    assert.deepEqual(
      toolCatalogue.map(({ name, category }) => ({ name, category })),
      expectedEntries,
    );
  });

  it("has unique names", () => {
    const names = toolCatalogue.map((tool) => tool.name);
    assert.equal(new Set(names).size, names.length);
  });

  it("exposes name and category entries for the orchestration core", () => {
    assert.deepEqual(toolCatalogueEntries, expectedEntries);
  });

  it("lists the cognitive tools as the cognitive category", () => {
    assert.deepEqual(
      toolCatalogue.filter((tool) => tool.category === "cognitive").map((tool) => tool.name),
      [...cognitiveToolNames],
    );
  });

  it("finds a tool by exact name", () => {
    assert.equal(findTool("think"), thinkTool);
    assert.equal(findTool("search"), searchTool);
  });

  for (const name of ["unknown", "Think", " think", ""]) {
    it(`finds nothing for ${JSON.stringify(name)}`, () => {
      assert.equal(findTool(name), undefined);
    });
  }

  for (const tool of toolCatalogue) {
    it(`${tool.name} has a description naming its sections`, () => {
      const sections = expectedSections[tool.name];
      assert.ok(sections, `no expected sections for ${tool.name}`);
      const missing = sections.filter((section) => !tool.description.includes(section));
      assert.deepEqual(missing, []);
    });

    it(`${tool.name} gives the model a strict JSON schema describing every field`, () => {
      const schema = z.toJSONSchema(tool.inputSchema, { io: "input" });
      assert.equal(schema.type, "object");
      assert.equal(schema.additionalProperties, false);
      const properties = Object.entries(schema.properties ?? {});
      assert.ok(properties.length > 0);
      for (const [field, property] of properties) {
        assert.ok(
          typeof property === "object" && typeof property.description === "string",
          `${tool.name}.${field} has no description`,
        );
      }
    });
  }

  it("marks only the spec's optional fields as optional in the JSON schema", () => {
    const required = Object.fromEntries(
      toolCatalogue.map((tool) => [
        tool.name,
        z.toJSONSchema(tool.inputSchema, { io: "input" }).required,
      ]),
    );
    assert.deepEqual(required, {
      think: ["topic", "reasoning"],
      reflect: ["topic", "reflection"],
      critique: ["subject", "analysis"],
      debate: ["topic", "perspectives"],
      brainstorm: ["challenge", "ideas"],
      compare: ["topic", "comparison"],
      summarize: ["text"],
      search: ["query"],
      deep_research: ["query"],
    });
  });
});
