import { z } from "zod";
import type { SearchResultItem } from "../tools/index.ts";
import { searchTimeoutMsDefault } from "./search-config.ts";
import type { SearchProvider } from "./search-provider.ts";
import { SearchProviderError } from "./search-provider-error.ts";

export interface SearxngProviderOptions {
  /** Base URL of the instance, for example `http://localhost:8888`. */
  baseUrl: string;
  /** Per-request timeout, covering the response body too. */
  timeoutMs?: number;
}

const providerName = "searxng";

// SearXNG result entries carry many engine-specific fields; only these matter.
const searxngResultSchema = z.object({
  url: z.string().min(1),
  title: z.string().optional().catch(undefined),
  content: z.string().optional().catch(undefined),
});

const searxngResponseSchema = z.object({ results: z.array(z.unknown()) });

/**
 * A provider for a self-hosted SearXNG metasearch instance, through its JSON
 * API (`GET /search?q=…&format=json`). The instance must list `json` under
 * `search.formats` in its settings.yml, or it answers 403.
 */
export function createSearxngProvider(options: SearxngProviderOptions): SearchProvider {
  const endpoint = new URL("search", `${options.baseUrl.replace(/\/+$/, "")}/`);
  const timeoutMs = options.timeoutMs ?? searchTimeoutMsDefault;
  // Messages reach the model and the logs: never include credentials or the query string.
  const where = `${endpoint.origin}${endpoint.pathname}`;

  return {
    name: providerName,
    async search(query, limit, signal) {
      const url = new URL(endpoint);
      url.searchParams.set("q", query);
      url.searchParams.set("format", "json");
      const timeout = AbortSignal.timeout(timeoutMs);
      const combined = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);

      const failed = (error: unknown): unknown => {
        if (signal?.aborted === true) {
          return signal.reason;
        }
        if (timeout.aborted) {
          return new SearchProviderError(
            `SearXNG at ${where} did not answer within ${timeoutMs} ms`,
            { provider: providerName, retryable: true, cause: error },
          );
        }
        return new SearchProviderError(`Could not reach SearXNG at ${where}: ${describe(error)}`, {
          provider: providerName,
          retryable: true,
          cause: error,
        });
      };

      let response: Response;
      try {
        response = await fetch(url, { signal: combined, headers: { accept: "application/json" } });
      } catch (error) {
        throw failed(error);
      }
      if (!response.ok) {
        const body = await response.text().catch(() => "");
        if (signal?.aborted === true) {
          throw signal.reason;
        }
        throw statusError(response, body, where);
      }
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        throw failed(error);
      }
      return parseResults(text, where).slice(0, Math.max(0, limit));
    },
  };
}

function statusError(response: Response, body: string, where: string): SearchProviderError {
  const { status } = response;
  // 408 and 429 are client errors that go away on their own (SearXNG's
  // limiter answers 429), so they are retried like server errors.
  const retryable = status >= 500 || status === 408 || status === 429;
  const hint =
    status === 403
      ? "; enable the JSON API by adding `json` to `search.formats` in the instance's settings.yml"
      : "";
  const excerpt = body.replace(/\s+/g, " ").trim().slice(0, 200);
  const detail = excerpt === "" ? "" : `: ${excerpt}`;
  return new SearchProviderError(
    `SearXNG at ${where} answered HTTP ${status} ${response.statusText}${detail}${hint}`,
    { provider: providerName, retryable, status },
  );
}

function parseResults(text: string, where: string): SearchResultItem[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SearchProviderError(
      `SearXNG at ${where} did not answer with JSON; check that SEARXNG_URL points at a SearXNG instance`,
      { provider: providerName, retryable: false, cause: error },
    );
  }
  const parsed = searxngResponseSchema.safeParse(json);
  if (!parsed.success) {
    throw new SearchProviderError(
      `SearXNG at ${where} answered JSON without a "results" array; check that SEARXNG_URL points at a SearXNG instance`,
      { provider: providerName, retryable: false },
    );
  }
  const items: SearchResultItem[] = [];
  for (const entry of parsed.data.results) {
    const result = searxngResultSchema.safeParse(entry);
    if (result.success) {
      const { url, title, content } = result.data;
      items.push({ title: clean(title) || url, url, snippet: clean(content) });
    }
  }
  return items;
}

function clean(text: string | undefined): string {
  return (text ?? "").replace(/\s+/g, " ").trim();
}

function describe(error: unknown): string {
  // undici reports the socket error (ECONNREFUSED, ENOTFOUND…) as the cause of "fetch failed".
  if (error instanceof Error && error.cause instanceof Error) {
    return `${error.message} (${error.cause.message})`;
  }
  return error instanceof Error ? error.message : String(error);
}
