import { ownerMismatch, userMessageSchema, type SessionInput } from "../session/index.ts";

/**
 * The session's message queue as the workflow keeps it, rebuilt from history: a message enters
 * exactly when the workflow accepts it (valid, addressed to this session's agent and tenant,
 * not seen before, not after the session ended), and turns take them in arrival order.
 */
export class MessageIntake {
  private readonly known = new Set<string>();
  private readonly queue: { messageId: string; text: string }[] = [];
  ending = false;
  private readonly owner: { sessionId: string; agentId: string; tenant?: string | undefined };

  constructor(input: SessionInput) {
    this.owner = { sessionId: input.sessionId, agentId: input.template.id, tenant: input.tenant };
    for (const id of input.carried?.processedIds ?? []) this.known.add(id);
    for (const message of input.carried?.pending ?? []) this.accept(message);
  }

  accept(message: unknown): void {
    const parsed = userMessageSchema.safeParse(message);
    if (!parsed.success || ownerMismatch(parsed.data, this.owner) !== undefined) return;
    if (this.ending || this.known.has(parsed.data.messageId)) return;
    this.known.add(parsed.data.messageId);
    this.queue.push({ messageId: parsed.data.messageId, text: parsed.data.text });
  }

  next(): { messageId: string; text: string } | undefined {
    return this.queue.shift();
  }
}
