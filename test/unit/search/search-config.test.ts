import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  createSearchProvider,
  SearchConfigError,
  searchConfigFromEnv,
  searchTimeoutMsDefault,
} from "../../../src/search/index.ts";
import type { SearchConfig, SearchEnv } from "../../../src/search/index.ts";

const validCases: { title: string; env: SearchEnv; expected: SearchConfig }[] = [
  { title: "no variables mean no provider", env: {}, expected: { provider: "none" } },
  {
    title: "empty variables count as unset",
    env: { SEARCH_PROVIDER: "", SEARXNG_URL: " " },
    expected: { provider: "none" },
  },
  {
    title: "searxng with a URL, trailing slash dropped",
    env: { SEARCH_PROVIDER: "searxng", SEARXNG_URL: "http://localhost:8888/" },
    expected: {
      provider: "searxng",
      searxngUrl: "http://localhost:8888",
      timeoutMs: searchTimeoutMsDefault,
    },
  },
  {
    title: "searxng under a path prefix",
    env: { SEARCH_PROVIDER: " searxng ", SEARXNG_URL: "https://search.example.org/searxng/" },
    expected: {
      provider: "searxng",
      searxngUrl: "https://search.example.org/searxng",
      timeoutMs: searchTimeoutMsDefault,
    },
  },
];

const invalidCases: { title: string; env: SearchEnv; message: RegExp }[] = [
  {
    title: "an unknown provider names SEARCH_PROVIDER and the allowed value",
    env: { SEARCH_PROVIDER: "google" },
    message: /SEARCH_PROVIDER must be "searxng" or unset, got "google"/,
  },
  {
    title: "searxng without a URL names SEARXNG_URL",
    env: { SEARCH_PROVIDER: "searxng" },
    message: /SEARXNG_URL is required when SEARCH_PROVIDER=searxng; .*SEARXNG_URL=http:\/\//,
  },
  {
    title: "a URL that does not parse names SEARXNG_URL",
    env: { SEARCH_PROVIDER: "searxng", SEARXNG_URL: "localhost:8888" },
    message:
      /SEARXNG_URL must (be an absolute http\(s\) URL|use http or https), got "localhost:8888"/,
  },
  {
    title: "a non-http URL names SEARXNG_URL",
    env: { SEARCH_PROVIDER: "searxng", SEARXNG_URL: "ftp://search.example.org" },
    message: /SEARXNG_URL must use http or https/,
  },
  {
    title: "credentials in the URL are refused",
    env: { SEARCH_PROVIDER: "searxng", SEARXNG_URL: "http://user:secret@localhost:8888" },
    message: /SEARXNG_URL must not contain a user name or password/,
  },
  {
    title: "a query string in the URL is refused",
    env: { SEARCH_PROVIDER: "searxng", SEARXNG_URL: "http://localhost:8888/search?q=x" },
    message: /SEARXNG_URL must not contain a query string or fragment/,
  },
  {
    title: "a URL without a provider names SEARCH_PROVIDER",
    env: { SEARXNG_URL: "http://localhost:8888" },
    message: /SEARCH_PROVIDER is not set although SEARXNG_URL is; set SEARCH_PROVIDER=searxng/,
  },
];

describe("searchConfigFromEnv", () => {
  for (const { title, env, expected } of validCases) {
    it(`accepts ${title}`, () => {
      assert.deepEqual(searchConfigFromEnv(env), expected);
    });
  }

  for (const { title, env, message } of invalidCases) {
    it(`rejects: ${title}`, () => {
      assert.throws(
        () => searchConfigFromEnv(env),
        (error) => {
          assert.ok(error instanceof SearchConfigError);
          assert.match(error.message, message);
          return true;
        },
      );
    });
  }

  it("ignores unrelated variables", () => {
    assert.deepEqual(searchConfigFromEnv({ PATH: "/usr/bin", SEARCH: "x" }), { provider: "none" });
  });
});

describe("createSearchProvider", () => {
  it("returns no provider when search is not configured", () => {
    assert.equal(createSearchProvider({ provider: "none" }), undefined);
  });

  it("returns the SearXNG provider when configured", () => {
    const provider = createSearchProvider({
      provider: "searxng",
      searxngUrl: "http://localhost:8888",
      timeoutMs: 1000,
    });
    assert.equal(provider?.name, "searxng");
  });
});
