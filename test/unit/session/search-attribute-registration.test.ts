import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { sessionSearchAttributes } from "../../../src/session/index.ts";

const read = (path: string): string =>
  readFileSync(fileURLToPath(new URL(`../../../${path}`, import.meta.url)), "utf8");

const wanted = Object.entries(sessionSearchAttributes)
  .map(([name, type]) => `${name}=${type}`)
  .sort();

/** A shell command continued over lines ending in a backslash, from its first words. */
const command = (text: string, start: string): string | undefined => {
  const index = text.indexOf(start);
  if (index < 0) return undefined;
  const lines: string[] = [];
  for (const line of text.slice(index).split("\n")) {
    lines.push(line);
    if (!line.endsWith("\\")) break;
  }
  return lines.join("\n");
};

const pairs = (text: string, pattern: RegExp): string[] =>
  [...text.matchAll(pattern)].map((match) => `${match[1] ?? ""}=${match[2] ?? ""}`).sort();

describe("every place that registers the sessions' search attributes", () => {
  it("docker-compose.yml's one-shot job registers exactly the attributes sessions set", () => {
    const line = /for attribute in ([^;]+); do/.exec(read("docker-compose.yml"));
    assert.ok(line !== null, "the registration loop of temporal-admin-tools");
    assert.deepEqual((line[1] ?? "").trim().split(/\s+/).sort(), wanted);
  });

  it("the README's cluster commands register exactly those attributes", () => {
    const readme = read("README.md");
    const create = command(readme, "temporal operator search-attribute create --namespace");
    assert.ok(create !== undefined, "the README's `temporal operator search-attribute create`");
    assert.deepEqual(pairs(create, /--name (\w+) --type (\w+)/g), wanted);
    const cloud = command(readme, "tcld namespace search-attributes add --namespace");
    assert.ok(cloud !== undefined, "the README's `tcld namespace search-attributes add`");
    assert.deepEqual(pairs(cloud, /--search-attribute (\w+)=(\w+)/g), wanted);
  });
});
