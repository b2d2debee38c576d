import {
  getErrorMessage,
  type LanguageModelV4,
  type LanguageModelV4CallOptions,
  type LanguageModelV4GenerateResult,
} from "@ai-sdk/provider";
import {
  createIdGenerator,
  ToolChoiceViolationError,
  type LanguageModelUsage,
  type ModelMessage,
  type ToolSet,
} from "ai";
import {
  functionTools,
  languageModelPrompt,
  languageModelToolChoice,
  type StepToolChoice,
} from "./model-prompt.ts";
import {
  parseToolCall,
  responseMessages,
  type AnswerPart,
  type ParsedToolCall,
  type ToolOutcome,
} from "./model-tool-calls.ts";

/**
 * The AI SDK release whose `generateText` this loop matches: its calls carry the same
 * `user-agent` header (the differential test pins it against the installed package).
 */
export const AI_SDK_USER_AGENT = "ai/7.0.173";

/**
 * Ids drawn as `generateText` draws them. In a workflow they come from its seeded random, which
 * also names each model call's stream topic: drawing fewer would rename the topic of a call in
 * flight when a cached session is replayed, and its activity would find no options to ask for.
 */
const drawCallId = createIdGenerator({ prefix: "call", size: 24 });
const drawResponseId = createIdGenerator({ prefix: "aitxt", size: 24 });

/** What one step offers the model, decided before the call. */
export interface StepPlan {
  model: LanguageModelV4;
  activeTools: readonly string[];
  instructions: string;
  toolChoice: StepToolChoice;
}

/** A tool call answered with an error before it could run (unknown tool, bad input). */
export interface RejectedToolCall {
  toolCallId: string;
  toolName: string;
  error: string;
}

export interface FinishedStep {
  usage: LanguageModelUsage;
  responseMessages: ModelMessage[];
  rejected: RejectedToolCall[];
}

export interface ModelStepsInput {
  messages: readonly ModelMessage[];
  /** Every tool the agent has; each step offers those its plan names. */
  tools: ToolSet;
  maxSteps: number;
  temperature?: number;
  maxOutputTokens?: number;
  /** Decides the step before its call; throwing ends the loop (a stopped turn). */
  prepareStep(stepNumber: number): StepPlan;
  onStepEnd(step: FinishedStep): void;
}

export interface ModelStepsResult {
  /** The last step's text. */
  text: string;
  responseMessages: ModelMessage[];
}

/**
 * The model-step loop `generateText` runs for a turn, with only what a turn uses: per step the
 * plan, one model call, the tool calls parsed and run one after another, the step's messages.
 * It makes the same calls with the same options and builds the same messages, without the AI
 * SDK's telemetry, retry and stream machinery: each promise made in workflow code costs a stack
 * trace in the SDK's hook, and `generateText` makes about a hundred per step.
 */
export async function runModelSteps(input: ModelStepsInput): Promise<ModelStepsResult> {
  drawCallId();
  const all: ModelMessage[] = [];
  let conversation: ModelMessage[] = [...input.messages];
  for (let stepNumber = 0; ; stepNumber += 1) {
    const plan = input.prepareStep(stepNumber);
    const offered = offeredTools(input.tools, plan.activeTools);
    const toolChoice = languageModelToolChoice(plan.toolChoice);
    const definitions = functionTools(offered);
    const options: LanguageModelV4CallOptions = {
      maxOutputTokens: input.maxOutputTokens,
      temperature: input.temperature,
      topP: undefined,
      topK: undefined,
      presencePenalty: undefined,
      frequencyPenalty: undefined,
      stopSequences: undefined,
      seed: undefined,
      reasoning: undefined,
      tools: definitions instanceof Promise ? await definitions : definitions,
      toolChoice,
      responseFormat: undefined,
      prompt: languageModelPrompt(plan.instructions, conversation),
      providerOptions: undefined,
      abortSignal: undefined,
      headers: { "user-agent": AI_SDK_USER_AGENT },
    };
    const result = await plan.model.doGenerate(options);
    if (result.response?.id == null) drawResponseId();
    const finishReason = result.finishReason.unified;
    const answer: AnswerPart[] = [];
    const calls: ParsedToolCall[] = [];
    for (const part of result.content) {
      if (part.type === "tool-call") {
        const call = await parseToolCall(part, offered);
        calls.push(call);
        answer.push({ type: "tool-call", call });
      } else if (part.type === "text" || part.type === "reasoning" || part.type === "custom") {
        // A custom part is a provider's own (Anthropic's, with extended thinking): kept, as
        // `generateText` keeps it, for the provider to read back on the next call.
        answer.push(part);
      } else if (part.type !== "source") {
        throw new Error(
          `the model answered with a "${part.type}" part, which a session's turn does not carry: use a model that answers with text and tool calls`,
        );
      }
    }
    checkToolChoice(toolChoice, finishReason, calls, plan.model, result);
    const outcomes: ToolOutcome[] = calls.flatMap((call): ToolOutcome[] =>
      call.error === undefined ? [] : [{ type: "tool-error", call, error: call.error }],
    );
    const rejected = outcomes.map(({ call }) => ({
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      error: getErrorMessage(call.error),
    }));
    const runs = toolChoice.type !== "none" && ["stop", "tool-calls"].includes(finishReason);
    if (runs) {
      for (const call of calls) {
        if (call.error !== undefined) continue;
        const execute = offered[call.toolName]?.execute;
        if (execute === undefined) continue;
        try {
          const output: unknown = await execute(call.input, {
            toolCallId: call.toolCallId,
            messages: conversation,
            context: undefined,
          });
          outcomes.push({ type: "tool-result", call, output });
        } catch (error) {
          outcomes.push({ type: "tool-error", call, error });
        }
      }
    }
    const messages = responseMessages(answer, outcomes);
    all.push(...messages);
    conversation = [...conversation, ...messages];
    input.onStepEnd({ usage: languageModelUsage(result), responseMessages: messages, rejected });
    const text = answer.map((part) => (part.type === "text" ? part.text : "")).join("");
    const done =
      finishReason === "interrupted" ||
      outcomes.length !== calls.length ||
      calls.length === 0 ||
      stepNumber + 1 === input.maxSteps;
    if (done) return { text, responseMessages: all };
  }
}

function offeredTools(tools: ToolSet, active: readonly string[]): ToolSet {
  return Object.fromEntries(Object.entries(tools).filter(([name]) => active.includes(name)));
}

/** A required tool the model did not call fails the step, as `generateText` does. */
function checkToolChoice(
  toolChoice: LanguageModelV4CallOptions["toolChoice"],
  finishReason: string,
  calls: readonly ParsedToolCall[],
  model: LanguageModelV4,
  result: LanguageModelV4GenerateResult,
): void {
  if (toolChoice === undefined || toolChoice.type === "auto") return;
  const violated =
    toolChoice.type === "none"
      ? calls.length > 0
      : finishReason !== "interrupted" &&
        !calls.some(
          (call) => toolChoice.type === "required" || call.toolName === toolChoice.toolName,
        );
  if (!violated) return;
  throw new ToolChoiceViolationError({
    toolChoice,
    finishReason: result.finishReason.unified,
    provider: model.provider,
    modelId: model.modelId,
    content: result.content,
  });
}

/** The step's usage in the AI SDK's terms (`LanguageModelUsage`), as `onStepEnd` received it. */
function languageModelUsage({ usage }: LanguageModelV4GenerateResult): LanguageModelUsage {
  const { inputTokens, outputTokens } = usage;
  return {
    inputTokens: inputTokens.total,
    inputTokenDetails: {
      noCacheTokens: inputTokens.noCache,
      cacheReadTokens: inputTokens.cacheRead,
      cacheWriteTokens: inputTokens.cacheWrite,
    },
    outputTokens: outputTokens.total,
    outputTokenDetails: { textTokens: outputTokens.text, reasoningTokens: outputTokens.reasoning },
    totalTokens:
      inputTokens.total == null && outputTokens.total == null
        ? undefined
        : (inputTokens.total ?? 0) + (outputTokens.total ?? 0),
    raw: usage.raw,
  };
}
