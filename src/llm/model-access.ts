import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import { ModelAccessError } from "./model-access-error.ts";
import type { ModelProvider, ModelRef } from "./model-id.ts";

/**
 * What the worker lets a model id reach. A session's template arrives in its workflow input, which
 * anyone who can start a workflow writes; the worker trusts only this, built from its own
 * configuration (see model-access-env.ts).
 */
export interface ModelAccess {
  providers: readonly ModelProvider[];
  /**
   * Base URLs a template's `llm.baseURL` may name: `http(s)://host[:port][/path]` allows that URL
   * and the paths below it; `:*` as the port allows every port of the host.
   */
  baseURLs: readonly string[];
  /** Absolute folders `script:<path>` files must lie in (after following symlinks). */
  scriptDirs: readonly string[];
}

export const modelAccessEnvVars = {
  providers: "AGENTDOCK_ALLOWED_PROVIDERS",
  baseURLs: "AGENTDOCK_ALLOWED_BASE_URLS",
  scriptDirs: "AGENTDOCK_SCRIPT_DIRS",
} as const;

interface UrlParts {
  protocol: string;
  host: string;
  /** `*` for any port. */
  port: string;
  path: string;
}

const defaultPorts: Record<string, string> = { "http:": "80", "https:": "443" };
const anyPortPattern = /^(https?:\/\/[^/?#]+):\*(?=$|[/?#])/i;

/** Scheme, host, port (explicit) and path without a trailing slash; undefined if not http(s). */
function urlParts(text: string): UrlParts | undefined {
  const anyPort = anyPortPattern.exec(text);
  const parsable = anyPort === null ? text : text.replace(anyPortPattern, "$1");
  let url: URL;
  try {
    url = new URL(parsable);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  if (url.username !== "" || url.password !== "") return undefined;
  return {
    protocol: url.protocol,
    host: url.hostname.toLowerCase(),
    port: anyPort === null ? url.port || (defaultPorts[url.protocol] ?? "") : "*",
    path: url.pathname.replace(/\/+$/, ""),
  };
}

/** Whether `baseURL` is one of `allowed` or lies below one (a path prefix at a `/` boundary). */
export function isBaseUrlAllowed(baseURL: string, allowed: readonly string[]): boolean {
  const target = urlParts(baseURL);
  if (target === undefined) return false;
  return allowed.some((entry) => {
    const rule = urlParts(entry);
    return (
      rule !== undefined &&
      rule.protocol === target.protocol &&
      rule.host === target.host &&
      (rule.port === "*" || rule.port === target.port) &&
      (target.path === rule.path || target.path.startsWith(`${rule.path}/`))
    );
  });
}

/** The real path of a file or folder; the resolved path when it does not exist (yet). */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function isInside(file: string, dir: string): boolean {
  const rel = relative(dir, file);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}

/** The script file a `script:<path>` model reads, if it lies in an allowed folder. */
export function allowedScriptFile(
  path: string,
  access: ModelAccess,
  relativeTo: string,
): string | undefined {
  const file = resolve(relativeTo, path);
  const real = realPath(file);
  const dirs = access.scriptDirs.map(realPath);
  return dirs.some((dir) => isInside(file, resolve(dir)) && isInside(real, dir)) ? file : undefined;
}

/**
 * Throws `ModelAccessError` unless the operator allowed everything `ref` reaches. Runs before any
 * network request or file read: the worker's provider calls it while it builds the model.
 */
export function checkModelAccess(ref: ModelRef, access: ModelAccess, scriptDir: string): void {
  if (!access.providers.includes(ref.provider)) {
    throw new ModelAccessError(
      `this worker does not serve the model provider "${ref.provider}": the operator allows ${access.providers.join(", ") || "none"}; to allow it, add it to ${modelAccessEnvVars.providers} in the worker's environment`,
      modelAccessEnvVars.providers,
    );
  }
  if (ref.baseURL !== undefined && !isBaseUrlAllowed(ref.baseURL, access.baseURLs)) {
    throw new ModelAccessError(
      `this worker does not send requests to the base URL "${ref.baseURL}" from the agent's llm.baseURL: the operator did not allow it; to allow it, add it to ${modelAccessEnvVars.baseURLs} in the worker's environment (or configure it as the provider's base URL, or use it in an agent template in the worker's agents folders)`,
      modelAccessEnvVars.baseURLs,
    );
  }
  if (ref.provider === "scripted" && ref.model.startsWith("script:")) {
    const path = ref.model.slice("script:".length);
    if (allowedScriptFile(path, access, scriptDir) === undefined) {
      throw new ModelAccessError(
        `this worker does not read the script "${path}": it is not inside a script folder the operator allowed; to allow it, add its folder to ${modelAccessEnvVars.scriptDirs} in the worker's environment (the worker's agents folders are allowed too)`,
        modelAccessEnvVars.scriptDirs,
      );
    }
  }
}
