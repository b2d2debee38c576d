import { readFile, stat } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Context, Hono } from "hono";
import type { ApiEnv } from "./api-context.ts";

/** Where `npm run build:console` (run by `npm install`'s prepare step) writes the console. */
export const defaultConsoleDir = fileURLToPath(new URL("../../dist/web", import.meta.url));

const contentTypes: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

/** Vite names built assets by content hash: a name never changes meaning, so cache it for good. */
const immutable = "public, max-age=31536000, immutable";

const notBuiltPage = (dir: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Console not built</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; line-height: 1.5">
<h1>The web console is not built</h1>
<p>The API is running, but there is no console build in <code>${escapeHtml(dir)}</code>.</p>
<p>Build it from the project folder with <code>npm run build:console</code> (npm install and
npm ci do it too), then reload this page.</p>
</body></html>`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

async function readIfFile(path: string): Promise<Buffer | undefined> {
  try {
    if (!(await stat(path)).isFile()) return undefined;
    return await readFile(path);
  } catch {
    return undefined;
  }
}

/**
 * The console's routes on the API app: `/` and the console's own paths (`/sessions/...`) answer
 * its index.html (the browser app routes from there), `/assets/*` the built files. Only these
 * paths: `/api/*` and `/healthz` are never shadowed, and anything else stays a JSON 404. When the
 * console was not built, its pages answer 500 with a page saying how to build it.
 */
export function mountConsole(app: Hono<ApiEnv>, dir: string = defaultConsoleDir): void {
  const root = resolve(dir);
  const index = async (c: Context<ApiEnv>): Promise<Response> => {
    const html = await readIfFile(join(root, "index.html"));
    if (html === undefined) {
      return c.html(notBuiltPage(root), 500, { "cache-control": "no-store" });
    }
    // Always revalidated: a rebuilt console takes effect on the next load.
    return c.body(new Uint8Array(html), 200, {
      "content-type": contentTypes[".html"] ?? "text/html",
      "cache-control": "no-cache",
    });
  };
  const asset = async (c: Context<ApiEnv>): Promise<Response> => {
    const name = c.req.param("name") ?? "";
    const path = resolve(root, "assets", name);
    // One file name, inside assets/: nothing else of the disk is reachable.
    if (name.includes("/") || !path.startsWith(`${root}${sep}assets${sep}`)) return c.notFound();
    const body = await readIfFile(path);
    if (body === undefined) return c.notFound();
    return c.body(new Uint8Array(body), 200, {
      "content-type": contentTypes[extname(name)] ?? "application/octet-stream",
      "cache-control": immutable,
    });
  };
  app.get("/", index);
  app.get("/sessions", index);
  app.get("/sessions/:id", index);
  app.get("/assets/:name", asset);
}
