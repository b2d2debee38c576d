import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, it } from "node:test";
import {
  sharedAcrossSessions,
  SharedValueKeyError,
} from "../../../src/orchestration/shared-across-sessions.ts";

describe("sharedAcrossSessions", () => {
  it("builds a value once and hands the same object to every later caller with the key", () => {
    const key = `test:${randomUUID()}`;
    let builds = 0;
    const build = () => {
      builds += 1;
      return { built: builds };
    };
    const first = sharedAcrossSessions(key, build);
    const second = sharedAcrossSessions(key, build);
    assert.equal(second, first);
    assert.equal(builds, 1);
  });

  it("refuses a second, different builder under a key already used, naming the key", () => {
    const key = `test:${randomUUID()}`;
    sharedAcrossSessions(key, () => ["one"]);
    assert.throws(
      () => sharedAcrossSessions(key, () => ["another"]),
      (error: unknown) =>
        error instanceof SharedValueKeyError &&
        error.message.includes(`"${key}"`) &&
        /give each call site its own key/.test(error.message),
    );
  });
});
