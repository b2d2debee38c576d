import {
  AbstractChat,
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type ChatState,
  type ChatStatus,
  type UIMessage,
} from "ai";

/** Chat state in plain memory: what `useChat` keeps in React state, for a test in Node. */
class MemoryChatState implements ChatState<UIMessage> {
  status: ChatStatus = "ready";
  error: Error | undefined = undefined;
  messages: UIMessage[] = [];
  pushMessage = (message: UIMessage): void => {
    this.messages = [...this.messages, message];
  };
  popMessage = (): void => {
    this.messages = this.messages.slice(0, -1);
  };
  replaceMessage = (index: number, message: UIMessage): void => {
    this.messages = this.messages.map((current, at) => (at === index ? message : current));
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/**
 * The AI SDK's own chat logic (the `AbstractChat` that `useChat` wraps), configured as the
 * console configures `useChat`: answering an approval with `addToolApprovalResponse` sends the
 * answer back automatically.
 */
export class ApprovalChat extends AbstractChat<UIMessage> {
  constructor(options: {
    url: string;
    agentId: string;
    chatId: string;
    headers?: Record<string, string>;
  }) {
    super({
      id: options.chatId,
      state: new MemoryChatState(),
      transport: new DefaultChatTransport<UIMessage>({
        api: `${options.url}/api/chat/${options.agentId}`,
        ...(options.headers === undefined ? {} : { headers: options.headers }),
      }),
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });
  }

  /** The chat's status and error, for assertions. */
  get current(): { status: ChatStatus; error: Error | undefined } {
    return { status: this.status, error: this.error };
  }
}
