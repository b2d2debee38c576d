import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseBenchArgs } from "../../bench/support/bench-args.ts";

const names = ["core", "turn", "scale"];
const parse = (...args: string[]) => parseBenchArgs(args, names);

describe("npm run bench's arguments", () => {
  it("run every benchmark, or the ones named", () => {
    assert.deepEqual(parse(), { kind: "run", names: [], all: false });
    assert.deepEqual(parse("turn", "core"), { kind: "run", names: ["turn", "core"], all: false });
  });

  it("compare a fresh run with an old results file given after --compare, before or after the names", () => {
    const expected = { kind: "run", names: ["turn"], all: false, compareWith: "old.json" };
    assert.deepEqual(parse("turn", "--compare", "old.json"), expected);
    assert.deepEqual(parse("--compare", "old.json", "turn"), expected);
  });

  it("compare two saved files without running anything when a second file follows", () => {
    assert.deepEqual(parse("--compare", "old.json", "new.json", "--all"), {
      kind: "compare-files",
      old: "old.json",
      new: "new.json",
      all: true,
    });
  });

  it("refuse what they cannot mean, saying why", () => {
    assert.deepEqual(parse("tunr"), { kind: "error", message: "unknown benchmark: tunr" });
    const missing = parse("turn", "--compare");
    assert.equal(missing.kind, "error");
    assert.match(missing.message, /--compare needs the old results file/);
    assert.match(
      (parse("--compare", "a.json", "b.json", "c.json") as { message: string }).message,
      /unknown benchmark: c\.json \(--compare takes at most two files/,
    );
    assert.match(
      (parse("--compare", "a.json", "b.json", "turn") as { message: string }).message,
      /compares two saved files and runs nothing: leave out turn/,
    );
    assert.deepEqual(parse("--all"), { kind: "error", message: "--all only goes with --compare" });
    assert.deepEqual(parse("--fast"), { kind: "error", message: "unknown option: --fast" });
  });

  it("ask for the usage with --help or -h, whatever else is given", () => {
    assert.deepEqual(parse("turn", "-h"), { kind: "help" });
    assert.deepEqual(parse("--help"), { kind: "help" });
  });
});
