import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { catastrophicBacktrackingReason } from "../../../src/orchestration/index.ts";

const unsafe = [
  "(a+)+$",
  "(a*)*b",
  "(x+x+)+y",
  "^(\\w+\\s?)*$",
  "(.*,)*x",
  "(\\w|\\d)+x",
  "(a|ab)*c",
  "((ab)+c?)*",
];
const safe = [
  "\\b(evaluat\\w*|critique|assess\\w*)\\b",
  ".*foo.*",
  "(foo|bar)+",
  "(\\d|x)+",
  "[a-z]+@[a-z]+\\.com",
  "a{2,}",
  "(a{1,3}){2}",
  "^/plan\\s+(.+)$",
  "(?:pro|con)s?",
];

const polynomial = [
  "a.*b.*c",
  "\\bcompare\\b.*\\band\\b.*\\bbecause\\b",
  "x\\w+y\\w+z",
  "^.*.*.*=$",
];
const polynomialButBounded = ["a.*b", ".*foo.*", "\\d+-\\d+x", "a.{0,200}b.{0,200}c", "a[^,]*,.*c"];

describe("polynomial regular expressions that are slow on long messages are detected at load", () => {
  for (const pattern of polynomial) {
    it(`rejects ${pattern}`, () => {
      assert.match(catastrophicBacktrackingReason(pattern, "i") ?? "", /polynomial time/);
    });
  }
  for (const pattern of polynomialButBounded) {
    it(`accepts ${pattern}`, () => {
      assert.equal(catastrophicBacktrackingReason(pattern, "i"), undefined);
    });
  }
});

describe("catastrophic regular expressions are detected at load", () => {
  for (const pattern of unsafe) {
    it(`rejects ${pattern}`, () => {
      assert.match(catastrophicBacktrackingReason(pattern) ?? "", /exponential time/);
    });
  }
  for (const pattern of safe) {
    it(`accepts ${pattern}`, () => {
      assert.equal(catastrophicBacktrackingReason(pattern), undefined);
    });
  }
  it("takes the i flag into account: alternatives differing only in case overlap under it", () => {
    assert.equal(catastrophicBacktrackingReason("(a|A)+"), undefined);
    assert.match(
      catastrophicBacktrackingReason("(a|A)+", "i") ?? "",
      /repeats alternatives that can match the same text/,
    );
  });
});
