import type { LanguageModelV4 } from "@ai-sdk/provider";
import { generateText, isStepCount, type ModelMessage } from "ai";
import { TemporalProvider } from "@temporalio/ai-sdk/workflow";
import {
  ActivityFailure,
  ApplicationFailure,
  CancelledFailure,
  isCancellation,
  patched,
  type ActivityOptions,
} from "@temporalio/workflow";
import {
  MODEL_ACTIVITY_HEARTBEAT_TIMEOUT,
  MODEL_ACTIVITY_MAX_ATTEMPTS,
  MODEL_ACTIVITY_TIMEOUT,
} from "../src/session/constants.ts";
import { steeringForTurn } from "./arrival-policy.ts";
import { instructionsFor } from "./instructions.ts";
import { buildToolSet } from "./session-tools.ts";
import {
  runModelSteps,
  type FinishedStep,
  type RejectedToolCall,
  type StepPlan,
} from "./model-step-loop.ts";
import { StreamingActivityModel } from "./streaming-model.ts";
import type { LivePart } from "../src/session/live-parts.ts";
import { withPreparedSchemas } from "./tool-schemas.ts";
import type { TurnContext } from "./turn-context.ts";

export interface ModelLoopOutcome {
  text: string;
  responseMessages: ModelMessage[];
  error?: string;
  /** The turn was stopped (`cancelTurn`): `text` is what the model call in flight had written. */
  cancelled?: true;
}

/** Sessions started before model calls streamed replay with the generate-only activity. */
export const STREAMING_PATCH = "stream-model-calls";

/**
 * A model for one step: its activity streams parts to live subscribers and carries a summary
 * the Web UI shows ("model step 2 · EvaluationMode").
 */
function modelForStep(
  context: TurnContext,
  stepNumber: number,
  activeStep: string | undefined,
  streaming: boolean,
): LanguageModelV4 {
  const { modelId } = context;
  const options: ActivityOptions = {
    startToCloseTimeout: MODEL_ACTIVITY_TIMEOUT,
    retry: {
      maximumAttempts: MODEL_ACTIVITY_MAX_ATTEMPTS,
      initialInterval: "1 second",
      backoffCoefficient: 2,
    },
    summary: `model step ${stepNumber + 1} · ${activeStep ?? "no step"}`,
  };
  if (!streaming) {
    return new TemporalProvider({ languageModel: options }).languageModel(modelId);
  }
  const { stream } = context.session;
  const callStream = {
    openTopic: () => stream.openModelTopic(),
    publish: (topic: string, parts: readonly LivePart[]) => {
      stream.publishModelParts(topic, parts);
    },
  };
  return new StreamingActivityModel(modelId, callStream, {
    ...options,
    // The worker heartbeats running model activities (liveness): a dead worker is noticed
    // quickly even while a slow model has not produced its first token.
    heartbeatTimeout: MODEL_ACTIVITY_HEARTBEAT_TIMEOUT,
  });
}

/**
 * Tool calls answered with an error before any `execute` ran (input that fails the tool's
 * schema, a tool not offered): recorded like any failed call, so the turn's result and events
 * show what the model was told.
 */
function recordRejectedCalls(context: TurnContext, rejected: readonly RejectedToolCall[]): void {
  for (const { toolCallId, toolName, error } of rejected) {
    if (context.hasToolCall(toolCallId)) continue;
    context.recordToolCall({ toolCallId, toolName, status: "error", detail: error });
    context.emit({ type: "tool_finished", toolCallId, toolName, status: "error", detail: error });
  }
}

/** The AI SDK's tool errors of a step, as the lean loop reports them. */
function rejectedOf(content: readonly { type: string }[]): RejectedToolCall[] {
  return content.flatMap((part) => {
    if (part.type !== "tool-error") return [];
    const { toolCallId, toolName, error } = part as ToolErrorPart;
    return [
      { toolCallId, toolName, error: error instanceof Error ? error.message : String(error) },
    ];
  });
}

interface ToolErrorPart {
  type: "tool-error";
  toolCallId: string;
  toolName: string;
  error: unknown;
}

/** The failure as the user should read it: the provider's or tool's own message. */
export function describeFailure(error: unknown): string {
  let current: unknown = error;
  while (current instanceof ActivityFailure && current.cause !== undefined) current = current.cause;
  if (current instanceof ApplicationFailure) return current.message;
  return current instanceof Error ? `${current.name}: ${current.message}` : String(current);
}

/**
 * One turn's model loop, inside the workflow: before EVERY model call the orchestrator decides
 * which tools are offered (and whether one is required); tools re-evaluate it as they run.
 * AI SDK and activity errors become the turn's error instead of failing the workflow task.
 * A turn runs the lean step loop (`model-step-loop.ts`); under the `steer` arrival policy it
 * runs `generateText`, whose steering hands messages that arrive mid-turn to the next step.
 */
export async function runModelLoop(
  context: TurnContext,
  messages: ModelMessage[],
): Promise<ModelLoopOutcome> {
  const { session } = context;
  const { orchestrator } = session;
  const { template } = orchestrator;
  // Messages of the steps that completed: kept even if a later step fails, so the conversation
  // keeps the tool calls and results the orchestration state already counts.
  const completed: ModelMessage[] = [];
  // A model step started and not ended when the turn is stopped: its streamed text is kept.
  let stepsStarted = 0;
  let stepsEnded = 0;
  const stopRequested = (): boolean => session.state.activeTurn?.cancelReason !== undefined;
  const steering = steeringForTurn(session);
  const streaming = patched(STREAMING_PATCH);
  const tools = withPreparedSchemas(
    buildToolSet(orchestrator, context, undefined, session.state.pluginTools),
  );
  const settings = {
    ...(template.llm.temperature === undefined ? {} : { temperature: template.llm.temperature }),
    ...(template.llm.maxTokens === undefined ? {} : { maxOutputTokens: template.llm.maxTokens }),
  };
  const prepareStep = (stepNumber: number): StepPlan => {
    // A tool stopped by the cancel ends its step; no further model call starts.
    if (stopRequested()) throw new CancelledFailure("the turn was cancelled");
    stepsStarted += 1;
    const state = context.state();
    const allowed = orchestrator.allowedTools(state);
    context.emit({
      type: "model_step",
      step: stepNumber + 1,
      activeStep: state.activeStep ?? null,
      offeredTools: allowed,
    });
    const choice = orchestrator.toolChoice(state);
    return {
      model: modelForStep(context, stepNumber, state.activeStep, streaming),
      activeTools: allowed,
      instructions: instructionsFor(
        template,
        state,
        allowed,
        session.state.summary,
        session.state.turnNotes,
      ),
      toolChoice:
        choice.type === "tool" ? { type: "tool" as const, toolName: choice.toolName } : choice.type,
    };
  };
  const onStepEnd = (step: FinishedStep): void => {
    stepsEnded += 1;
    session.addUsage(step.usage);
    completed.push(...step.responseMessages);
    recordRejectedCalls(context, step.rejected);
  };
  try {
    if (steering === undefined) {
      const result = await runModelSteps({
        messages,
        tools,
        maxSteps: template.options.maxSteps,
        ...settings,
        prepareStep,
        onStepEnd,
      });
      return { text: result.text, responseMessages: result.responseMessages };
    }
    // An object, not a `let`: the step callback sets it, and TypeScript cannot see that.
    const steered = { any: false };
    const result = await generateText({
      experimental_steering: steering,
      model: modelForStep(context, 0, context.state().activeStep, streaming),
      messages,
      tools,
      stopWhen: isStepCount(template.options.maxSteps),
      maxRetries: 0,
      ...settings,
      prepareStep: ({ stepNumber }) => {
        const plan = prepareStep(stepNumber);
        return { ...plan, activeTools: [...plan.activeTools] };
      },
      onStepEnd: (step) => {
        // Messages that joined the turn sit before this step's answer, as the model saw them.
        const joined = step.experimental_steeringMessages ?? [];
        if (joined.length > 0) steered.any = true;
        completed.push(...joined);
        onStepEnd({
          usage: step.usage,
          responseMessages: step.response.messages,
          rejected: rejectedOf(step.content),
        });
      },
    });
    // With steering, the AI SDK's response messages leave out the messages that joined.
    return {
      text: result.text,
      responseMessages: steered.any ? completed : result.responseMessages,
    };
  } catch (error) {
    // Whatever the model loop made of the cancelled activity, a stop that was asked for is a stop.
    if (stopRequested()) {
      const streamed = session.stream.closeModelCall();
      const text = stepsStarted > stepsEnded ? streamed : "";
      return { text, responseMessages: completed, cancelled: true };
    }
    if (isCancellation(error)) throw error;
    return { text: "", responseMessages: completed, error: describeFailure(error) };
  }
}
