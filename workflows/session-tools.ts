import { jsonSchema, tool, type FlexibleSchema, type JSONSchema7, type ToolSet } from "ai";
import {
  ActivityFailure,
  ApplicationFailure,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
} from "@temporalio/workflow";
import type { Orchestrator } from "../src/orchestration/index.ts";
import {
  PURE_TOOL_TIMEOUT,
  TOOL_ACTIVITY_MAX_ATTEMPTS,
  TOOL_ACTIVITY_TIMEOUT,
} from "../src/session/constants.ts";
import { createToolRegistry, type ToolRegistry } from "../src/tools/index.ts";
import type { PluginToolDefinition } from "../activities/tool-availability.ts";
import type { ToolActivities } from "../activities/tool-types.ts";
import { FAILURE_COUNT_PATCH, runsAsLocalActivity } from "./local-tool-patches.ts";
import { approvalRefusal, awaitApproval } from "./tool-approval.ts";
import type { TurnContext } from "./turn-context.ts";

/**
 * The tools the workflow offers the model. Only their definitions are read here (name,
 * description, input schema); `execute` runs in the tool activity, on the worker.
 */
const builtinToolRegistry = createToolRegistry();

function toolActivity(toolName: string): ToolActivities["runTool"] {
  return proxyActivities<ToolActivities>({
    startToCloseTimeout: TOOL_ACTIVITY_TIMEOUT,
    // Tools heartbeat every 2 s while they work: a worker that dies is noticed within 10 s.
    heartbeatTimeout: "10 seconds",
    retry: { maximumAttempts: TOOL_ACTIVITY_MAX_ATTEMPTS, initialInterval: "1 second" },
    summary: `tool ${toolName}`,
  }).runTool;
}

function pureToolActivity(toolName: string): ToolActivities["runPureTool"] {
  return proxyLocalActivities<ToolActivities>({
    startToCloseTimeout: PURE_TOOL_TIMEOUT,
    retry: { maximumAttempts: TOOL_ACTIVITY_MAX_ATTEMPTS, initialInterval: "1 second" },
    summary: `tool ${toolName}`,
  }).runPureTool;
}

/** Runs the call on the worker: a pure tool as a local activity, any other as an activity. */
async function runOnWorker(
  context: TurnContext,
  name: string,
  input: unknown,
  toolCallId: string,
): Promise<unknown> {
  if (runsAsLocalActivity(name)) {
    return (await pureToolActivity(name)({ tool: name, input, toolCallId })).output;
  }
  return toolActivity(name)({
    tool: name,
    input,
    modelId: context.modelId,
    sessionId: context.sessionId,
    toolCallId,
  });
}

/** The message a failed activity gives the model: the tool's own error, not Temporal's wrapping. */
function failureMessage(error: unknown): string {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure) return cause.message;
  return cause instanceof Error ? cause.message : String(cause);
}

/**
 * Every agent tool as an AI SDK tool whose `execute` runs in the workflow: it asks the
 * orchestrator first (a refused call never reaches an activity), runs the tool as an activity,
 * then records it so the orchestrator re-evaluates before the next model call. Calls are
 * serialised: a parallel batch is checked one call at a time against the state the previous
 * call left, so a sequence cannot be skipped by calling two tools at once.
 */
export function buildToolSet(
  orchestrator: Orchestrator,
  context: TurnContext,
  registry: ToolRegistry = builtinToolRegistry,
  pluginTools: readonly PluginToolDefinition[] = [],
): ToolSet {
  const tools: ToolSet = {};
  let queue: Promise<unknown> = Promise.resolve();
  for (const definition of offeredDefinitions(orchestrator.template.tools, registry, pluginTools)) {
    const { name } = definition;
    tools[name] = tool({
      description: definition.description,
      inputSchema: definition.inputSchema,
      execute: (input: unknown, { toolCallId }) => {
        const run = queue.then(() =>
          executeGuarded(orchestrator, context, name, input, toolCallId),
        );
        queue = run.catch(() => undefined);
        return run;
      },
    });
  }
  return tools;
}

interface OfferedDefinition {
  name: string;
  description: string;
  inputSchema: FlexibleSchema<unknown>;
}

/**
 * The agent's tools in its order: a built-in tool from its module, a plug-in from the definition
 * the worker reported. A plug-in's input is checked by its own zod schema in the activity (the
 * workflow cannot load it), so here the JSON schema only describes it to the model.
 */
function offeredDefinitions(
  names: readonly string[],
  registry: ToolRegistry,
  pluginTools: readonly PluginToolDefinition[],
): OfferedDefinition[] {
  return names.flatMap((name): OfferedDefinition[] => {
    const [builtin] = registry.definitionsFor([name]);
    if (builtin !== undefined) return [builtin];
    const plugin = pluginTools.find((definition) => definition.name === name);
    if (plugin === undefined) return [];
    return [
      {
        name,
        description: plugin.description,
        inputSchema: jsonSchema(plugin.inputJsonSchema as JSONSchema7),
      },
    ];
  });
}

async function executeGuarded(
  orchestrator: Orchestrator,
  context: TurnContext,
  name: string,
  input: unknown,
  toolCallId: string,
): Promise<unknown> {
  const check = orchestrator.checkToolCall(context.state(), name);
  if (!check.ok) {
    const detail = `refused: ${check.reason}. Call ${check.expected.join(" or ") || "no tool"} instead.`;
    context.recordToolCall({ toolCallId, toolName: name, status: "refused", detail });
    context.emit({
      type: "orchestration",
      event: { type: "tool_refused", tool: name, reason: check.reason, expected: check.expected },
    });
    context.emit({ type: "tool_finished", toolCallId, toolName: name, status: "refused", detail });
    throw new Error(detail);
  }
  const approval = await awaitApproval(context, name, input, toolCallId);
  if (approval !== undefined && approval.outcome !== "approved") {
    const detail = approvalRefusal(name, approval);
    context.recordToolCall({ toolCallId, toolName: name, status: "refused", detail });
    context.emit({ type: "tool_finished", toolCallId, toolName: name, status: "refused", detail });
    throw new Error(detail);
  }
  context.emit({ type: "tool_started", toolCallId, toolName: name });
  let output: unknown;
  try {
    output = await runOnWorker(context, name, input, toolCallId);
  } catch (error) {
    if (isCancellation(error)) {
      // The turn was stopped: not the tool's failure, so no sequence is released for it.
      const detail = "cancelled: the user stopped the turn";
      context.recordToolCall({ toolCallId, toolName: name, status: "error", detail });
      context.emit({ type: "tool_finished", toolCallId, toolName: name, status: "error", detail });
      throw new Error(`${name} was ${detail}`);
    }
    const detail = failureMessage(error);
    context.recordToolCall({ toolCallId, toolName: name, status: "error", detail });
    context.emit({ type: "tool_finished", toolCallId, toolName: name, status: "error", detail });
    if (patched(FAILURE_COUNT_PATCH)) context.applyToolFailed(name, detail);
    throw new Error(`${name} failed: ${detail}`);
  }
  context.recordToolCall({ toolCallId, toolName: name, status: "ok" });
  context.emit({ type: "tool_finished", toolCallId, toolName: name, status: "ok" });
  context.publish({ type: "tool_output", toolCallId, toolName: name, output });
  context.applyToolUsed(name);
  return output;
}
