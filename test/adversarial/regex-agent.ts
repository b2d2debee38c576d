import { Worker } from "node:worker_threads";
import type { AgentTemplateInput } from "../../src/orchestration/index.ts";

/** An agent that chats in `Chat` and moves to `Matched` when the user message matches `pattern`. */
export function regexAgent(pattern: string, flags?: string): AgentTemplateInput {
  return {
    id: "regex-agent",
    name: "Regex Agent",
    tools: ["think", "reflect"],
    orchestration: {
      defaultStep: "Chat",
      steps: [
        { name: "Chat", availableTools: { allowed: ["think"] } },
        {
          name: "Matched",
          conditions: [
            { type: "message_regex", value: pattern, ...(flags === undefined ? {} : { flags }) },
          ],
          availableTools: { allowed: ["reflect"] },
        },
      ],
    },
  };
}

export interface RegexDecisionRequest {
  pattern: string;
  flags?: string;
  messages: string[];
}

/**
 * The active step after each message (each on a fresh session state), decided in a worker thread:
 * rejects after `deadlineMs` if the decisions do not come back, and stops the thread.
 */
export async function decideInThread(
  request: RegexDecisionRequest,
  deadlineMs: number,
): Promise<(string | undefined)[]> {
  const worker = new Worker(new URL("./regex-decision-worker.ts", import.meta.url), {
    workerData: request,
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<(string | undefined)[]>((resolve, reject) => {
      timer = setTimeout(() => {
        reject(new Error(`/${request.pattern}/: no decision within ${deadlineMs} ms`));
      }, deadlineMs);
      worker.once("message", resolve);
      worker.once("error", reject);
    });
  } finally {
    clearTimeout(timer);
    await worker.terminate();
  }
}
