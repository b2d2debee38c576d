import { z } from "zod";
import { SearchConfigError } from "./search-config-error.ts";

export const searchTimeoutMsDefault = 15_000;

export type SearchConfig =
  | { provider: "none" }
  | {
      provider: "searxng";
      /** Base URL of the SearXNG instance, without a trailing slash. */
      searxngUrl: string;
      timeoutMs: number;
    };

export type SearchEnv = Readonly<Record<string, string | undefined>>;

const exampleUrl = "http://localhost:8888";

// Surrounding spaces are dropped, and an empty variable (`SEARXNG_URL=` in a
// .env file) means "not set".
function blankAsUnset(value: unknown): unknown {
  if (typeof value !== "string") {
    return value;
  }
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}

const providerSchema = z.preprocess(
  blankAsUnset,
  z
    .enum(["searxng"], {
      error: (issue) =>
        `must be "searxng" or unset, got ${JSON.stringify(issue.input)}; set SEARCH_PROVIDER=searxng to enable web search`,
    })
    .optional(),
);

const searxngUrlSchema = z.preprocess(
  blankAsUnset,
  z
    .string()
    .transform((value, ctx) => {
      const problem = describeUrlProblem(value);
      if (problem !== undefined) {
        ctx.addIssue({
          code: "custom",
          message: `${problem}, got ${JSON.stringify(value)}; set it to the SearXNG base URL, for example SEARXNG_URL=${exampleUrl}`,
        });
        return z.NEVER;
      }
      return new URL(value).href.replace(/\/+$/, "");
    })
    .optional(),
);

const searchEnvSchema = z
  .object({ SEARCH_PROVIDER: providerSchema, SEARXNG_URL: searxngUrlSchema })
  .superRefine((env, ctx) => {
    if (env.SEARCH_PROVIDER === "searxng" && env.SEARXNG_URL === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["SEARXNG_URL"],
        message: `is required when SEARCH_PROVIDER=searxng; set it to the SearXNG base URL, for example SEARXNG_URL=${exampleUrl}`,
      });
    }
    if (env.SEARCH_PROVIDER === undefined && env.SEARXNG_URL !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["SEARCH_PROVIDER"],
        message:
          "is not set although SEARXNG_URL is; set SEARCH_PROVIDER=searxng to use that instance, or unset SEARXNG_URL",
      });
    }
  });

function describeUrlProblem(value: string): string | undefined {
  if (!URL.canParse(value)) {
    return "must be an absolute http(s) URL";
  }
  const url = new URL(value);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return "must use http or https";
  }
  if (url.username !== "" || url.password !== "") {
    return "must not contain a user name or password";
  }
  if (url.search !== "" || url.hash !== "") {
    return "must not contain a query string or fragment";
  }
  return undefined;
}

/**
 * Reads the search settings from environment variables: `SEARCH_PROVIDER`
 * (`searxng`, or unset for no search) and `SEARXNG_URL`.
 *
 * @throws {SearchConfigError} naming each variable at fault and how to fix it.
 */
export function searchConfigFromEnv(env: SearchEnv): SearchConfig {
  const result = searchEnvSchema.safeParse({
    SEARCH_PROVIDER: env["SEARCH_PROVIDER"],
    SEARXNG_URL: env["SEARXNG_URL"],
  });
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `${issue.path.map(String).join(".")} ${issue.message}`,
    );
    throw new SearchConfigError(`Invalid search settings: ${problems.join("; ")}`);
  }
  const { SEARCH_PROVIDER: provider, SEARXNG_URL: searxngUrl } = result.data;
  if (provider === "searxng" && searxngUrl !== undefined) {
    return { provider, searxngUrl, timeoutMs: searchTimeoutMsDefault };
  }
  return { provider: "none" };
}
