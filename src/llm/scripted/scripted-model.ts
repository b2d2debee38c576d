import { isAbsolute, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamResult,
} from "@ai-sdk/provider";
import { ModelIdError } from "../model-id-error.ts";
import { autoResponse } from "./auto-response.ts";
import { nextToolCallIds, readConversation, type Conversation } from "./conversation.ts";
import { streamOf, toGenerateResult, toStreamParts } from "./model-output.ts";
import { ScriptExhaustedError } from "./script-exhausted-error.ts";
import { readScript } from "./script-file.ts";
import type { ScriptedResponse } from "./scripted-response.ts";
import { scriptedUsage } from "./token-count.ts";

export interface ScriptedModelOptions {
  /** Where relative `script:<path>` models resolve; the process's working directory when unset. */
  scriptDir?: string | undefined;
}

export type ScriptedMode = { kind: "auto" } | { kind: "script"; file: string };

const scriptPrefix = "script:";

/** `auto`, or `script:<path>` with the path made absolute. */
export function scriptedModeOf(model: string, options: ScriptedModelOptions = {}): ScriptedMode {
  if (model === "auto") return { kind: "auto" };
  const path = model.startsWith(scriptPrefix) ? model.slice(scriptPrefix.length).trim() : "";
  if (path === "") {
    throw new ModelIdError(
      `scripted:${model}`,
      'has an unknown scripted model; use "auto" or "script:<path to a script JSON file>"',
    );
  }
  const file = isAbsolute(path) ? path : resolve(options.scriptDir ?? process.cwd(), path);
  return { kind: "script", file };
}

/**
 * The offline model: a real `LanguageModelV4` whose reply depends only on the call options (the
 * prompt, the offered tools, the tool choice), never on earlier calls, so a retried or replayed
 * activity gets the same answer. `auto` decides from what it is offered (auto-response.ts);
 * `script:<path>` plays a JSON script, response n for a prompt holding n assistant messages.
 */
export class ScriptedLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = "v4";
  readonly provider = "scripted";
  readonly modelId: string;
  readonly supportedUrls: Record<string, RegExp[]> = {};
  readonly mode: ScriptedMode;

  constructor(model: string, options: ScriptedModelOptions = {}) {
    this.modelId = model;
    this.mode = scriptedModeOf(model, options);
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const { response, metadata } = await this.respond(options);
    return toGenerateResult(response, scriptedUsage(options, response), metadata);
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    const { response, metadata } = await this.respond(options);
    const parts = toStreamParts(response, scriptedUsage(options, response), metadata);
    return { stream: streamOf(parts) };
  }

  private async respond(options: LanguageModelV4CallOptions) {
    const conversation = readConversation(options.prompt);
    const response =
      this.mode.kind === "auto"
        ? autoResponse(options)
        : await scriptResponse(this.mode.file, conversation, options.abortSignal);
    const id = `scripted-${conversation.userMessageCount}-${conversation.assistantMessageCount + 1}`;
    return { response, metadata: { id, modelId: this.modelId } };
  }
}

async function scriptResponse(
  file: string,
  conversation: Conversation,
  abortSignal: AbortSignal | undefined,
): Promise<ScriptedResponse> {
  const script = readScript(file);
  const index = conversation.assistantMessageCount;
  const entry = script.responses[index];
  if (entry === undefined) {
    throw new ScriptExhaustedError(file, script.responses.length, index + 1);
  }
  const delay = entry.delayMs ?? script.delayMs ?? 0;
  if (delay > 0) await sleep(delay, undefined, { signal: abortSignal });
  const calls = entry.toolCalls ?? [];
  const ids = nextToolCallIds(conversation, calls.length);
  return {
    ...(entry.text === undefined ? {} : { text: entry.text }),
    toolCalls: calls.map((call, n) => ({
      toolCallId: ids[n] ?? `call-${n + 1}`,
      toolName: call.toolName,
      input: call.input,
    })),
  };
}

export function createScriptedModel(
  model: string,
  options: ScriptedModelOptions = {},
): LanguageModelV4 {
  return new ScriptedLanguageModel(model, options);
}
