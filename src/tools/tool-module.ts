import type { LanguageModel } from "ai";
import type { PageReader } from "../search/page-reader.ts";
import type { SearchProvider } from "../search/search-provider.ts";
import type { ToolCategory, ToolDefinition } from "./tool-definition.ts";

/** What the worker hands its tools, fixed at worker start. */
export interface ToolServices {
  /** Absent when no search provider is configured. */
  searchProvider?: SearchProvider;
  /** Reads web pages as text (`deep_research`); the tool activity always gives one. */
  pageReader?: PageReader;
}

/** One call's surroundings, built by the activity that runs the tool. */
export interface ToolContext {
  services: ToolServices;
  /**
   * The session's model, resolved on demand (`summarize` calls it; most tools never do).
   * @throws when the worker cannot resolve the session's model id.
   */
  sessionModel: () => LanguageModel;
  /** The activity's cancellation signal; undefined outside an activity. */
  signal: AbortSignal | undefined;
  sessionId: string;
  toolCallId: string;
}

/** Why a tool cannot run on this worker, in the two forms the two audiences need. */
export interface ToolUnavailable {
  /** Shown to the agent's orchestration and the user: what is missing and which setting fixes it. */
  reason: string;
  /** What a call gets instead of a result: an error the model can act on. */
  failure: () => Error;
}

/**
 * A tool, whole: what the model sees (name, description, input schema), the policy category
 * the orchestration uses, and the code that runs it. The registry derives the catalogue, the
 * workflow's tool set and the activity's dispatch from this one object.
 *
 * A module must stay loadable in the workflow sandbox (the workflow reads its definition part):
 * Node-only work goes through `ToolContext` (the search provider, the session's model).
 */
export interface ToolModule<
  I = unknown,
  O = unknown,
  N extends string = string,
  C extends ToolCategory = ToolCategory,
> extends ToolDefinition<I> {
  name: N;
  category: C;
  /**
   * Tools that wait on I/O: the activity heartbeats while they run and passes them its
   * cancellation signal. Instant tools leave it out.
   */
  runsLong?: boolean;
  /** Undefined when the tool can run with these services; checked before the input is. */
  unavailable?(services: ToolServices): ToolUnavailable | undefined;
  /**
   * Runs the tool on input already validated against `inputSchema`. `O` is the result, or a
   * promise of it for tools that wait; the result must be plain JSON (it is recorded in the
   * session's history).
   */
  execute(input: I, context: ToolContext): O;
}

/** Infers a module's literal name and category, so unions over tools derive from the modules. */
export function defineTool<I, O, const N extends string, const C extends ToolCategory>(
  module: ToolModule<I, O, N, C>,
): ToolModule<I, O, N, C> {
  return module;
}
