import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/**
 * An MCP tool's result as the session records it: plain JSON, with `content` in Markdown (what
 * chats and the scripted model quote) and the server's structured content when it sent one.
 */
export interface McpToolResult {
  type: "mcp_result";
  tool: string;
  content: string;
  structuredContent?: Record<string, unknown>;
}

// A result is stored in the session's history (and re-sent to the model): a server that answers
// with megabytes must not push the history past Temporal's payload limits.
export const mcpContentLimit = 100_000;

type ContentPart = CallToolResult["content"][number];

function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${Math.round(bytes / 1024)} KB`;
}

/** Binary parts are described, not stored: base64 data would bloat every later model call. */
function partText(part: ContentPart): string {
  switch (part.type) {
    case "text":
      return part.text;
    case "image":
    case "audio":
      return `[${part.type} ${part.mimeType}, ${size(Math.floor((part.data.length * 3) / 4))}, not shown]`;
    case "resource":
      return "text" in part.resource
        ? `Resource ${part.resource.uri}:\n\n${part.resource.text}`
        : `[resource ${part.resource.uri}${part.resource.mimeType === undefined ? "" : ` (${part.resource.mimeType})`}, binary, not shown]`;
    case "resource_link":
      return `[${part.title ?? part.name}](${part.uri})${part.description === undefined ? "" : ` — ${part.description}`}`;
    default: {
      const unknown: { type?: unknown } = part;
      return `[${String(unknown.type)} content, not shown]`;
    }
  }
}

function bounded(text: string): string {
  if (text.length <= mcpContentLimit) return text;
  return `${text.slice(0, mcpContentLimit)}\n\n(truncated: the server sent ${text.length} characters; the first ${mcpContentLimit} are kept)`;
}

/** The result's text parts joined, for the model (and the error message when `isError`). */
export function mcpResultText(result: CallToolResult): string {
  const parts = result.content.map(partText).filter((text) => text !== "");
  if (parts.length === 0 && result.structuredContent !== undefined) {
    return JSON.stringify(result.structuredContent, null, 2);
  }
  return bounded(parts.join("\n\n"));
}

export function mcpToolResult(policyName: string, result: CallToolResult): McpToolResult {
  const structured = result.structuredContent;
  const keepStructured =
    structured !== undefined && JSON.stringify(structured).length <= mcpContentLimit;
  return {
    type: "mcp_result",
    tool: policyName,
    content: mcpResultText(result),
    ...(keepStructured ? { structuredContent: structured } : {}),
  };
}
