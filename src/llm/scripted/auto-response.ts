import type {
  LanguageModelV4CallOptions,
  LanguageModelV4FunctionTool,
  JSONValue,
} from "@ai-sdk/provider";
import { nextToolCallIds, readConversation, type Conversation } from "./conversation.ts";
import type { ScriptedResponse } from "./scripted-response.ts";
import { researchAnswer } from "./research-answer.ts";
import { answerText, greetingText, subjectOf, toolBodyText } from "./scripted-texts.ts";
import { buildToolInput, buildValue } from "./tool-input.ts";
import { exactMentionIndex, toolsNamedIn } from "./tool-mentions.ts";

/**
 * The `auto` mode's decision, from the prompt, the offered tools and the tool choice only (rules
 * in order; the "turn" is everything after the last user message):
 * 0. Without any user message it greets, unless the tool choice forces a tool.
 * 1. `toolChoice: {type: "tool"}` calls that tool; `required` calls the tool a refusal names, else
 *    the first offered tool not called this turn, else the first offered one. A tool whose result
 *    was an error or a refusal this turn is never called again in the turn (with nothing left,
 *    it answers).
 * 2. After a refusal (the turn's last result says "refused" or "not allowed"; a successful
 *    `{ content }` result never counts), it calls the first offered, usable tool the refusal
 *    names exactly, other than the refused one.
 * 3. With at most two tools offered, it calls the first one not called this turn.
 * 4. It calls the first offered tool the latest user message names (see tool-mentions.ts) that
 *    was not called this turn.
 * 5. Asked by `deep_research` for a report (no tools offered, its sources prompt), it quotes each
 *    source's opening with its citation (research-answer.ts).
 * 6. Otherwise it answers with the request, the instructions' notes for the user (a step skipped
 *    because a tool cannot run, and why) and one line per tool result of the turn (a JSON
 *    response format gets JSON built from its schema instead).
 */
export function autoResponse(options: LanguageModelV4CallOptions): ScriptedResponse {
  const conversation = readConversation(options.prompt);
  const offered = functionTools(options);
  const toolName = chooseTool(conversation, offered, options.toolChoice);
  if (toolName === undefined) {
    return { text: answer(conversation, offered, options), toolCalls: [] };
  }
  const tool = offered.find((candidate) => candidate.name === toolName);
  const [toolCallId = "call"] = nextToolCallIds(conversation, 1);
  const subject = subjectOf(conversation.latestUserText);
  const earlier = conversation.turnCalls.flatMap((call) =>
    call.result === undefined ? [] : [call.result.heading],
  );
  const input =
    tool === undefined
      ? {}
      : buildToolInput(tool.inputSchema, {
          subject,
          body: toolBodyText(toolName, subject, earlier),
        });
  return { toolCalls: [{ toolCallId, toolName, input: input as JSONValue }] };
}

function functionTools(options: LanguageModelV4CallOptions): LanguageModelV4FunctionTool[] {
  return (options.tools ?? []).filter(
    (tool): tool is LanguageModelV4FunctionTool => tool.type === "function",
  );
}

function chooseTool(
  conversation: Conversation,
  offered: readonly LanguageModelV4FunctionTool[],
  toolChoice: LanguageModelV4CallOptions["toolChoice"],
): string | undefined {
  const called = new Set(conversation.turnCalls.map((call) => call.toolName));
  // Failed or refused once, a tool is not called again in the turn: no retry loops.
  const failed = new Set(
    conversation.turnCalls
      .filter((call) => call.result?.isError === true || call.result?.isRefusal === true)
      .map((call) => call.toolName),
  );
  const usable = offered.map((tool) => tool.name).filter((name) => !failed.has(name));
  const expected = expectedAfterRefusal(conversation, usable);

  switch (toolChoice?.type) {
    case "none":
      return undefined;
    case "tool":
      return usable.includes(toolChoice.toolName) ? toolChoice.toolName : undefined;
    case "required":
      return expected ?? usable.find((name) => !called.has(name)) ?? usable[0];
    case "auto":
    case undefined:
      break;
  }
  if (conversation.latestUserText === undefined) return undefined;
  if (expected !== undefined) return expected;
  if (offered.length <= 2) return usable.find((name) => !called.has(name));
  return toolsNamedIn(conversation.latestUserText, usable).find((name) => !called.has(name));
}

/** The tool a refusal in the last result of the turn asks for, if it is offered and usable. */
function expectedAfterRefusal(
  conversation: Conversation,
  usable: readonly string[],
): string | undefined {
  const last = conversation.turnCalls.findLast((call) => call.result !== undefined);
  if (last?.result?.isRefusal !== true) return undefined;
  const named = toolsNamedIn(last.result.text, usable, exactMentionIndex);
  return named.find((name) => name !== last.toolName);
}

function answer(
  conversation: Conversation,
  offered: readonly LanguageModelV4FunctionTool[],
  options: LanguageModelV4CallOptions,
): string {
  const format = options.responseFormat;
  if (format?.type === "json") {
    const subject = subjectOf(conversation.latestUserText);
    const texts = { subject, body: toolBodyText("answer", subject, []) };
    const value =
      format.schema === undefined
        ? { answer: texts.body }
        : buildValue(format.schema, "", texts, 0);
    return JSON.stringify(value);
  }
  if (conversation.latestUserText === undefined) return greetingText;
  const report = offered.length === 0 ? researchAnswer(conversation.latestUserText) : undefined;
  if (report !== undefined) return report;
  return answerText(
    conversation.latestUserText,
    conversation.turnCalls,
    offered.map((tool) => tool.name),
    conversation.notes,
  );
}
