import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError } from "./api-error.ts";

export interface RouteContext {
  request: IncomingMessage;
  response: ServerResponse;
  params: Record<string, string>;
  url: URL;
}

export type RouteHandler = (context: RouteContext) => Promise<void>;

interface Route {
  method: string;
  pattern: string;
  parts: string[];
  handler: RouteHandler;
}

/** Path patterns like `/api/sessions/:id/history`; `:name` matches one segment, decoded. */
export class Router {
  private readonly routes: Route[] = [];

  add(method: string, pattern: string, handler: RouteHandler): this {
    this.routes.push({ method, pattern, parts: pattern.split("/").filter(Boolean), handler });
    return this;
  }

  /** The handler and params for a request; 404 for no path match, 405 (with Allow) for a wrong method. */
  match(
    method: string,
    pathname: string,
  ): { handler: RouteHandler; params: Record<string, string> } {
    const segments = pathname.split("/").filter(Boolean);
    const allowed: string[] = [];
    for (const route of this.routes) {
      const params = matchParts(route.parts, segments);
      if (params === undefined) continue;
      if (route.method === method) return { handler: route.handler, params };
      allowed.push(route.method);
    }
    if (allowed.length > 0) {
      throw new ApiError(405, "method_not_allowed", `${method} is not allowed on ${pathname}`, {
        headers: { allow: allowed.join(", ") },
      });
    }
    throw new ApiError(404, "not_found", `no route ${method} ${pathname}`);
  }
}

function matchParts(parts: string[], segments: string[]): Record<string, string> | undefined {
  if (parts.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of parts.entries()) {
    const segment = segments[index] ?? "";
    if (part.startsWith(":")) {
      try {
        params[part.slice(1)] = decodeURIComponent(segment);
      } catch {
        return undefined;
      }
    } else if (part !== segment) {
      return undefined;
    }
  }
  return params;
}
