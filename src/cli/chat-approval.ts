import { SessionRequestError, type SessionClient } from "../client/index.ts";
import { defaultApprover } from "./approval-command.ts";

/** A request as the chat sees it (the `approval_requested` event). */
interface Request {
  approvalId: string;
  tool: string;
}

/** "y", "yes", "n", "no", each optionally followed by a reason. */
export function parseApprovalAnswer(
  line: string,
): { decision: "approve" | "deny"; reason?: string } | undefined {
  const match = /^(y|yes|n|no)\b\s*(.*)$/i.exec(line.trim());
  if (match === null) return undefined;
  const decision = (match[1] ?? "").toLowerCase().startsWith("y") ? "approve" : "deny";
  const reason = (match[2] ?? "").trim();
  return reason === "" ? { decision } : { decision, reason };
}

/**
 * Asks the person at the terminal to answer a tool call waiting for approval: the next line they
 * type (or the next line piped in) is the answer. Returns false when the input ended without
 * one: the call stays waiting for an answer from elsewhere (the CLI's approve/deny, the console).
 */
export async function askApproval(
  request: Request,
  options: {
    sessions: SessionClient;
    sessionId: string;
    nextLine: () => Promise<string | undefined>;
    write: (text: string) => void;
  },
): Promise<boolean> {
  const { sessions, sessionId, write } = options;
  for (;;) {
    write(`  approve ${request.tool}? [y/n, then an optional reason] `);
    const line = await options.nextLine();
    if (line === undefined) {
      write(
        `\n  (no answer: ${request.approvalId} keeps waiting; agentdock-temporal approve|deny ${sessionId} ${request.approvalId})\n`,
      );
      return false;
    }
    const answer = parseApprovalAnswer(line);
    if (answer === undefined) continue;
    try {
      await sessions.decideApproval(sessionId, {
        approvalId: request.approvalId,
        decision: answer.decision,
        by: defaultApprover(),
        ...(answer.reason === undefined ? {} : { reason: answer.reason }),
      });
    } catch (error) {
      // Someone answered first (the console, another terminal): their decision stands.
      if (!(error instanceof SessionRequestError)) throw error;
      write(`  ${error.message}\n`);
    }
    return true;
  }
}
