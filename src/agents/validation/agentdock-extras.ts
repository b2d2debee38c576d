import type { Collected } from "./agentdock-shape.ts";
import { isRecord } from "./is-record.ts";
import { didYouMean, formatPath } from "./template-paths.ts";

/**
 * Top-level keys and options AgentDock's schema lets through (its objects strip unknown keys)
 * that mean nothing here: removed before our schema sees them, each with a warning.
 */
export function takeAcceptedExtras(
  rest: Record<string, unknown>,
  { issues, warnings }: Collected,
): Record<string, unknown> {
  const { notes, isEnabled, maxConcurrency, ...template } = rest;
  if (notes !== undefined) {
    warnings.push({ path: "notes", message: "kept for people reading the file; not used" });
  }
  if (isEnabled !== undefined) {
    if (typeof isEnabled !== "boolean") {
      issues.push({ path: "isEnabled", message: "expected true or false" });
    } else if (!isEnabled) {
      warnings.push({
        path: "isEnabled",
        message:
          "is false, but every template in an agents folder can start sessions here; move the folder out of the agents folder to disable the agent",
      });
    }
  }
  if (maxConcurrency !== undefined) {
    if (typeof maxConcurrency !== "number") {
      issues.push({ path: "maxConcurrency", message: "expected a number" });
    } else {
      warnings.push({
        path: "maxConcurrency",
        message:
          "has no effect: the tool calls of one model step run one at a time here, so a call cannot skip a sequence position",
      });
    }
  }
  if (isRecord(template.options)) {
    const known = ["maxSteps", "tokenOptimization"];
    const options: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(template.options)) {
      // A near miss of a known option is a typo: our schema reports it with a suggestion.
      if (known.includes(key) || didYouMean(key, known) !== "") options[key] = value;
      else {
        warnings.push({
          path: formatPath(["options", key]),
          message: "has no effect here (AgentDock hands options to its own code)",
        });
      }
    }
    if ("tokenOptimization" in options) {
      warnings.push({
        path: "options.tokenOptimization",
        message:
          "has no effect here: what a model call re-sends is bounded by session.history instead",
      });
    }
    template.options = options;
  }
  if (isRecord(template.chatSettings) && "historyPolicy" in template.chatSettings) {
    warnings.push({
      path: "chatSettings.historyPolicy",
      message:
        "has no effect here: a model call re-sends the last session.history.recentTurns turns (default 10) and a summary of older ones",
    });
  }
  return template;
}
