import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { tenantTokensFromEnv } from "../../../src/server/index.ts";

const noFile = (path: string): string => {
  throw new Error(`unexpected read of ${path}`);
};

describe("tenantTokensFromEnv", () => {
  it("merges the list, the JSON file and the lone token (default tenant)", () => {
    const tokens = tenantTokensFromEnv(
      {
        AGENTDOCK_API_TOKENS: "acme:tok-a1, globex:tok-g1",
        AGENTDOCK_API_TOKENS_FILE: "/tokens.json",
        AGENTDOCK_API_TOKEN: "tok-d",
      },
      () => JSON.stringify({ acme: ["tok-a2"], initech: "tok-i" }),
    );
    assert.deepEqual(tokens, [
      { tenant: "acme", token: "tok-a1" },
      { tenant: "globex", token: "tok-g1" },
      { tenant: "acme", token: "tok-a2" },
      { tenant: "initech", token: "tok-i" },
      { tenant: "default", token: "tok-d" },
    ]);
  });

  it("is empty (an open API) when nothing is set, blank values included", () => {
    assert.deepEqual(
      tenantTokensFromEnv({ AGENTDOCK_API_TOKEN: " ", AGENTDOCK_API_TOKENS: "" }, noFile),
      [],
    );
  });

  const refusals: [string, Record<string, string>, RegExp][] = [
    ["an entry without a colon", { AGENTDOCK_API_TOKENS: "acme" }, /AGENTDOCK_API_TOKENS/],
    ["an upper-case tenant", { AGENTDOCK_API_TOKENS: "Acme:tok" }, /tenant id/],
    ["a token with a space", { AGENTDOCK_API_TOKENS: "acme:to k" }, /token uses/],
    [
      "one token for two tenants",
      { AGENTDOCK_API_TOKENS: "acme:same", AGENTDOCK_API_TOKEN: "same" },
      /"acme" and "default"/,
    ],
  ];
  for (const [name, env, message] of refusals) {
    it(`refuses ${name}, naming what is wrong`, () => {
      assert.throws(() => tenantTokensFromEnv(env, noFile), message);
    });
  }

  it("refuses a tokens file that is not the expected JSON, naming the file", () => {
    assert.throws(
      () => tenantTokensFromEnv({ AGENTDOCK_API_TOKENS_FILE: "/t.json" }, () => "{nope"),
      /AGENTDOCK_API_TOKENS_FILE: cannot read \/t\.json/,
    );
    assert.throws(
      () => tenantTokensFromEnv({ AGENTDOCK_API_TOKENS_FILE: "/t.json" }, () => '{"acme": 3}'),
      /\/t\.json: acme/,
    );
  });
});
