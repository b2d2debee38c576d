import type { z } from "zod";
import { formatCognitiveContent } from "./cognitive-result.ts";
import type { CognitiveResult } from "./cognitive-result.ts";
import { defineTool } from "./tool-module.ts";
import { requiredText, toolInputObject } from "./tool-input-schema.ts";
import { sharedAcrossSessions } from "../orchestration/shared-across-sessions.ts";

// Built once per worker, not per cached session (see shared-across-sessions.ts).
export const reflectInputSchema = sharedAcrossSessions("src/tools/reflect", () =>
  toolInputObject({
    topic: requiredText("What you are reflecting on, in a few words."),
    reflection: requiredText(
      "Your reflection in Markdown with the sections What happened, What it teaches, and What changes.",
    ),
  }),
);

export type ReflectInput = z.infer<typeof reflectInputSchema>;
export type ReflectResult = CognitiveResult<"reflect">;

export function runReflect(input: ReflectInput): ReflectResult {
  return {
    type: "reflect_result",
    content: formatCognitiveContent("🪞 Reflection", input.topic, input.reflection),
  };
}

export const reflectTool = defineTool({
  name: "reflect",
  category: "cognitive",
  description: [
    "Look back on something that has happened (a tool result, a failed attempt, a correction from the user, a finished piece of work) and draw the lesson from it.",
    "Use it after a mistake or a surprise, and before changing your approach.",
    "Write the reflection yourself in `reflection` with three sections: **What happened** (the facts, briefly), **What it teaches** (why it went that way and the lesson), and **What changes** (what you will do differently from now on).",
    "The tool does not reflect for you; it records your reflection as a visible step of the session and returns it as Markdown under a heading naming the topic.",
  ].join(" "),
  inputSchema: reflectInputSchema,
  execute: runReflect,
});
