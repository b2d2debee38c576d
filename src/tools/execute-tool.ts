import { parseToolInput } from "./parse-tool-input.ts";
import type { ToolContext, ToolModule } from "./tool-module.ts";

/**
 * Runs one call of a module: refuses when the tool cannot run here (before the input, since no
 * corrected call could succeed), validates the raw arguments, then executes. Synchronous tools
 * stay synchronous: `O` is a promise only for tools that return one.
 *
 * @throws {ToolInputError} when the arguments do not match the tool's schema.
 * @throws the module's unavailability failure when its services are missing.
 */
export function executeTool<O>(
  module: ToolModule<unknown, O>,
  rawInput: unknown,
  context: ToolContext,
): O {
  const missing = module.unavailable?.(context.services);
  if (missing !== undefined) {
    throw missing.failure();
  }
  return module.execute(parseToolInput(module, rawInput), context);
}
