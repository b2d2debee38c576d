import { generateText, isStepCount, tool, type ModelMessage, type ToolSet } from "ai";
import { encodeModelId } from "../../../src/llm/index.ts";
import { createModelProvider } from "../../../src/llm/model-provider.ts";
import { testModelAccess } from "../../support/test-model-access.ts";
import { withLatency } from "./latency-model.ts";
import {
  createOrchestrator,
  type AgentTemplate,
  type OrchestrationState,
  type Orchestrator,
} from "../../../src/orchestration/index.ts";
import {
  findTool,
  isCognitiveToolName,
  runCognitiveTool,
  toolCatalogueEntries,
} from "../../../src/tools/index.ts";

export interface InProcessTurn {
  text: string;
  toolCalls: string[];
  /** JSON size of the messages the turn added to the conversation (the user's and the model's). */
  messageBytes: number;
}

/** One conversation: the orchestration state and messages a session workflow would keep. */
export interface InProcessSession {
  runTurn(text: string): Promise<InProcessTurn>;
}

/**
 * The baseline the durable session is compared with: the same agent turn with the AI SDK alone,
 * in this process, no Temporal. `generateText` with the worker's scripted model, the same tool
 * implementations from src/tools called directly, and the same pure orchestrator deciding before
 * every model call which tools are offered (without it the model would not run the sequence).
 * With `modelLatencyMs` every model call first waits that long (see latency-model.ts).
 */
export function inProcessAgent(
  template: AgentTemplate,
  options: { modelLatencyMs?: number } = {},
): { newSession(): InProcessSession } {
  const orchestrator = createOrchestrator(template, toolCatalogueEntries);
  const scripted = createModelProvider({ scripted: {} }, testModelAccess).languageModel(
    encodeModelId(template.llm),
  );
  const latencyMs = options.modelLatencyMs ?? 0;
  const model = latencyMs > 0 ? withLatency(scripted, latencyMs) : scripted;
  return {
    newSession: () => {
      const session = { state: orchestrator.initialState(), messages: [] as ModelMessage[] };
      const tools = toolSet(
        orchestrator,
        () => session.state,
        (state) => {
          session.state = state;
        },
      );
      return {
        runTurn: async (text) => {
          session.state = orchestrator.onUserMessage(session.state, text).state;
          session.messages.push({ role: "user", content: text });
          const result = await generateText({
            model,
            messages: session.messages,
            tools,
            stopWhen: isStepCount(template.options.maxSteps),
            maxRetries: 0,
            prepareStep: () => {
              const allowed = orchestrator.allowedTools(session.state);
              const choice = orchestrator.toolChoice(session.state);
              return {
                activeTools: allowed,
                instructions: template.personality,
                toolChoice:
                  choice.type === "tool"
                    ? { type: "tool" as const, toolName: choice.toolName }
                    : choice.type,
              };
            },
          });
          session.messages.push(...result.responseMessages);
          const added = [{ role: "user", content: text }, ...result.responseMessages];
          return {
            text: result.text,
            messageBytes: Buffer.byteLength(JSON.stringify(added)),
            toolCalls: result.steps.flatMap((step) => step.toolCalls.map((call) => call.toolName)),
          };
        },
      };
    },
  };
}

function toolSet(
  orchestrator: Orchestrator,
  state: () => OrchestrationState,
  setState: (next: OrchestrationState) => void,
): ToolSet {
  const tools: ToolSet = {};
  for (const name of orchestrator.template.tools) {
    const definition = findTool(name);
    if (definition === undefined || !isCognitiveToolName(name)) continue;
    tools[name] = tool({
      description: definition.description,
      inputSchema: definition.inputSchema,
      execute: (input: unknown) => {
        const check = orchestrator.checkToolCall(state(), name);
        if (!check.ok) throw new Error(`refused: ${check.reason}`);
        const output = runCognitiveTool(name, input);
        setState(orchestrator.onToolUsed(state(), name).state);
        return Promise.resolve(output);
      },
    });
  }
  return tools;
}
