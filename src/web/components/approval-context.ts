import { createContext, useContext } from "react";

/** A person's answer to a tool call waiting for approval, as `useChat` takes it. */
export interface ApprovalAnswer {
  id: string;
  approved: boolean;
  reason?: string;
}

/**
 * `useChat`'s `addToolApprovalResponse`, handed to the tool parts of the chat: the chat sends
 * the answer back by itself (the API continues the turn that waited).
 */
export const ApprovalContext = createContext<((answer: ApprovalAnswer) => void) | undefined>(
  undefined,
);

export function useApprovalAnswer(): ((answer: ApprovalAnswer) => void) | undefined {
  return useContext(ApprovalContext);
}
