import { htmlTitle, htmlToText, tidyText } from "./html-to-text.ts";

/** A page read, as text. */
export interface PageRead {
  ok: true;
  url: string;
  /** The page's `<title>`; undefined for text files and pages without one. */
  title: string | undefined;
  text: string;
  /** The body was longer than the reader's size cap: `text` holds its beginning only. */
  truncated: boolean;
}

/** A page that could not be read, and why, in words a user can act on. */
export interface PageUnreachable {
  ok: false;
  url: string;
  reason: string;
}

export type PageReadResult = PageRead | PageUnreachable;

/** Reads web pages as text. Never throws for a page it cannot read: it says why instead. */
export interface PageReader {
  /**
   * @throws the caller's `signal.reason` when the caller aborts; nothing else.
   */
  read(url: string, signal?: AbortSignal): Promise<PageReadResult>;
}

export interface HttpPageReaderOptions {
  /** How long one page may take, headers and body together. */
  timeoutMs?: number;
  /** Bytes of body read at most; the rest of a longer page is not downloaded. */
  maxBytes?: number;
}

export const pageTimeoutMsDefault = 10_000;
export const pageMaxBytesDefault = 2_000_000;

const htmlTypes = new Set(["text/html", "application/xhtml+xml"]);
const textTypes = new Set(["text/plain", "text/markdown", "text/x-markdown"]);

/** Reads pages over HTTP(S) with `fetch`: one GET each, bounded in time and size. */
export function createHttpPageReader(options: HttpPageReaderOptions = {}): PageReader {
  const timeoutMs = options.timeoutMs ?? pageTimeoutMsDefault;
  const maxBytes = options.maxBytes ?? pageMaxBytesDefault;
  return {
    async read(url, signal) {
      const unreachable = (reason: string): PageUnreachable => ({ ok: false, url, reason });
      const problem = urlProblem(url);
      if (problem !== undefined) return unreachable(problem);

      const timeout = AbortSignal.timeout(timeoutMs);
      const combined = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
      const failed = (error: unknown): PageUnreachable => {
        if (signal?.aborted === true) throw signal.reason;
        if (timeout.aborted) return unreachable(`no answer within ${timeoutMs} ms`);
        return unreachable(networkReason(error));
      };

      let response: Response;
      try {
        const fetched = await fetchFollowing(url, combined);
        if (typeof fetched === "string") return unreachable(fetched);
        response = fetched;
      } catch (error) {
        return failed(error);
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        const status = `${response.status} ${response.statusText}`.trim();
        return unreachable(`the server answered HTTP ${status}`);
      }
      const contentType = response.headers.get("content-type") ?? "";
      const mediaType = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
      const isHtml = htmlTypes.has(mediaType);
      if (!isHtml && !textTypes.has(mediaType)) {
        await response.body?.cancel().catch(() => undefined);
        const what = mediaType === "" ? "no content type" : `content type ${mediaType}`;
        return unreachable(`${what}: not a web page or text this tool can read`);
      }
      let body: { text: string; truncated: boolean };
      try {
        body = await readCapped(response, maxBytes, charsetOf(contentType));
      } catch (error) {
        return failed(error);
      }
      const text = isHtml ? htmlToText(body.text) : tidyText(body.text);
      if (text === "") return unreachable("the page has no readable text");
      return {
        ok: true,
        url,
        title: isHtml ? htmlTitle(body.text) : undefined,
        text,
        truncated: body.truncated,
      };
    },
  };
}

const maxRedirects = 5;

/**
 * GET `url`, following redirects here rather than in `fetch`, so every hop passes `urlProblem`
 * (a result must not redirect the worker to an address it would refuse to read directly).
 * A string is the reason the page is not read.
 */
async function fetchFollowing(url: string, signal: AbortSignal): Promise<Response | string> {
  let current = url;
  for (let hop = 0; ; hop += 1) {
    const response = await fetch(current, {
      signal,
      redirect: "manual",
      headers: { accept: "text/html, application/xhtml+xml, text/plain;q=0.9, */*;q=0.1" },
    });
    const location = response.headers.get("location");
    if (response.status < 300 || response.status > 399 || location === null) return response;
    await response.body?.cancel().catch(() => undefined);
    if (hop === maxRedirects) return `more than ${maxRedirects} redirects`;
    current = URL.canParse(location, current) ? new URL(location, current).href : location;
    const problem = urlProblem(current);
    if (problem !== undefined) return `redirected to ${current}: ${problem}`;
  }
}

// Link-local addresses hold cloud metadata services (instance credentials): a search result
// must never make the worker read them. Other private addresses stay readable (intranets).
function isLinkLocal(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return /^169\.254\.\d{1,3}\.\d{1,3}$/.test(host) || /^fe[89ab][0-9a-f]:/.test(host);
}

function urlProblem(url: string): string | undefined {
  if (!URL.canParse(url)) return "not a valid URL";
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return `not an http(s) URL (${parsed.protocol.replace(/:$/, "")})`;
  }
  if (parsed.username !== "" || parsed.password !== "") {
    return "the URL carries a user name or password; it is not followed";
  }
  if (isLinkLocal(parsed.hostname)) {
    return "a link-local address (where cloud metadata services answer); never read";
  }
  return undefined;
}

function charsetOf(contentType: string): string {
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1] ?? "utf-8";
  try {
    new TextDecoder(charset);
    return charset;
  } catch {
    return "utf-8";
  }
}

/** The body's first `maxBytes` bytes, decoded; the download stops there. */
async function readCapped(
  response: Response,
  maxBytes: number,
  charset: string,
): Promise<{ text: string; truncated: boolean }> {
  const decoder = new TextDecoder(charset);
  if (response.body === null) return { text: "", truncated: false };
  // Typed here: the DOM typings give the reader's chunks as `any`.
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  let received = 0;
  let text = "";
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = maxBytes - received;
    const chunk = value.byteLength > room ? value.subarray(0, room) : value;
    received += chunk.byteLength;
    text += decoder.decode(chunk, { stream: true });
    if (received >= maxBytes) {
      truncated = value.byteLength > room || !(await isAtEnd(reader));
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  return { text: text + decoder.decode(), truncated };
}

async function isAtEnd(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<boolean> {
  const next = await reader.read();
  return next.done || next.value.byteLength === 0;
}

// undici reports the socket's error (ECONNREFUSED, ENOTFOUND…) as the cause of "fetch failed".
const networkCodes: Readonly<Record<string, string>> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  ENOTFOUND: "host not found (DNS lookup failed)",
  EAI_AGAIN: "host name could not be resolved (DNS temporarily unavailable)",
  ENETUNREACH: "network unreachable",
  EHOSTUNREACH: "host unreachable",
  ETIMEDOUT: "connection timed out",
  UND_ERR_SOCKET: "the connection closed before the page was sent",
  CERT_HAS_EXPIRED: "the site's TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the site's TLS certificate is self-signed",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the site's TLS certificate could not be verified",
};

function networkReason(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  const code = codeOf(cause) ?? codeOf(error);
  if (code !== undefined) {
    const words = networkCodes[code];
    return words === undefined ? `network error ${code}` : `${words} (${code})`;
  }
  if (cause instanceof Error) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

function codeOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || !("code" in value)) return undefined;
  return typeof value.code === "string" ? value.code : undefined;
}
