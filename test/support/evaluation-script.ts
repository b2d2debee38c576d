import type { ScriptResponse } from "../faults/fault-support.ts";

/**
 * The cognitive reasoner's EvaluationMode turn as a scripted model plays it: critique, debate,
 * reflect, then the answer. The third call (reflect) waits `holdMs` first, so a test sees the
 * turn at model call 3, sequence step 3 of 3, for that long.
 */
export function evaluationScript(holdMs: number): ScriptResponse[] {
  return [
    { toolCalls: [{ toolName: "critique", input: { subject: "remote work", analysis: "Fine." } }] },
    { toolCalls: [{ toolName: "debate", input: { topic: "remote work", perspectives: "Both." } }] },
    {
      toolCalls: [{ toolName: "reflect", input: { topic: "remote work", reflection: "Noted." } }],
      delayMs: holdMs,
    },
    { text: "Remote work helps focus." },
  ];
}
