import type { SessionMessage, SessionView, TurnResult } from "../session/index.ts";
import { formatTable } from "./output.ts";
import { inTurn, queuedMessages } from "./queued-messages.ts";

/** Messages waiting for a turn, apart from the one the running turn answers. */
function pendingLine(view: SessionView): string {
  const queued = `${queuedMessages(view)} message(s)`;
  return inTurn(view) ? `${queued} after the running turn` : queued;
}

/** The `state` query as labelled lines a person reads. */
export function formatState(view: SessionView): string {
  const usage = view.cumulativeTokenUsage;
  const rows: [string, string][] = [
    ["session", `${view.sessionId} · agent ${view.agentId} · run ${view.run}`],
    ["status", view.endReason === undefined ? view.status : `${view.status} (${view.endReason})`],
    ["turns", String(view.turn)],
    ["step", view.activeStep ?? "none"],
  ];
  if (view.sequenceLength > 0) {
    rows.push(["sequence", `${view.sequenceIndex}/${view.sequenceLength}`]);
  }
  rows.push(
    ["allowed", view.allowedTools.join(", ") || "none"],
    ...Object.entries(view.unavailableTools ?? {}).map(([tool, reason]): [string, string] => [
      "unavailable",
      `${tool}: ${reason}`,
    ]),
    ["recent", view.recentlyUsedTools.join(", ") || "none"],
    ["tokens", `${usage.totalTokens} (${usage.inputTokens} in · ${usage.outputTokens} out)`],
    ["pending", pendingLine(view)],
  );
  if (view.lastStep !== undefined) rows.push(["last step", view.lastStep]);
  if (view.templateVersion !== undefined) rows.push(["template", view.templateVersion]);
  const waiting = view.awaitingApproval;
  if (waiting !== undefined) {
    rows.push([
      "awaiting",
      `approval ${waiting.approvalId}: ${waiting.tool} with input ${JSON.stringify(waiting.input)} (agentdock-temporal approve|deny ${view.sessionId})`,
    ]);
  }
  const failure = view.lastFailure;
  if (failure !== undefined) {
    rows.push([
      "last failed",
      `turn ${failure.turn} at ${failure.at}: ${oneLine(failure.error, 200)}`,
    ]);
  }
  return formatTable(rows);
}

/** The one-line footer of a turn: turn, step, tools and tokens. */
export function formatTurnFooter(result: TurnResult): string {
  const tools = result.toolCalls.map((call) =>
    call.status === "ok" ? call.toolName : `${call.toolName} (${call.status})`,
  );
  return `[turn ${result.turn} · step ${result.state.activeStep ?? "none"} · tools ${tools.join(", ") || "none"} · ${result.state.cumulativeTokenUsage.totalTokens} tokens so far]`;
}

const roleLabels: Record<SessionMessage["role"], string> = {
  user: "you",
  assistant: "agent",
  tool: "tool",
  system: "system",
};

function oneLine(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Continuation lines indented under the label; blank lines stay blank. */
function indentBody(text: string): string {
  return text
    .split("\n")
    .map((line, index) => (index === 0 || line === "" ? line : `  ${line}`))
    .join("\n");
}

/** What a tool returned, in one line: the `content` of a cognitive tool, else the JSON. */
function toolOutputText(output: unknown): string {
  if (typeof output !== "object" || output === null) return String(output);
  const { type, value } = output as { type?: unknown; value?: unknown };
  const isError = typeof type === "string" && type.startsWith("error");
  let text: string;
  if (typeof value === "string") text = value;
  else if (typeof value === "object" && value !== null && "content" in value) {
    text = String(value.content);
  } else text = JSON.stringify(value ?? output);
  return `${isError ? "error: " : ""}${oneLine(text)}`;
}

function partLines(role: SessionMessage["role"], part: unknown): string[] {
  if (typeof part !== "object" || part === null) return [];
  const fields = part as Record<string, unknown>;
  switch (fields["type"]) {
    case "text":
      return [`${roleLabels[role]} › ${indentBody(String(fields["text"]))}`];
    case "tool-call":
      return [`  ⚙ ${String(fields["toolName"])} ${oneLine(JSON.stringify(fields["input"]), 100)}`];
    case "tool-result":
      return [`  ↳ ${String(fields["toolName"])}: ${toolOutputText(fields["output"])}`];
    default:
      return [];
  }
}

/** The conversation as the session keeps it, one line per text, tool call and tool result. */
export function formatHistory(messages: readonly SessionMessage[]): string {
  const lines: string[] = [];
  for (const message of messages) {
    const content = message["content"];
    if (typeof content === "string") {
      lines.push(`${roleLabels[message.role]} › ${indentBody(content)}`);
    } else if (Array.isArray(content)) {
      for (const part of content) lines.push(...partLines(message.role, part));
    }
  }
  return lines.join("\n");
}
