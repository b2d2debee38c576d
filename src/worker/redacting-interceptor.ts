import type {
  ActivityExecuteInput,
  ActivityInboundCallsInterceptor,
  Next,
} from "@temporalio/worker";
import type { Redactor } from "./redact-secrets.ts";

/**
 * Redacts every error an activity throws (model and tool activities alike) before the worker logs
 * it and the server stores it in history, where the workflow reads it into a turn's error and the
 * stream. The one boundary every activity failure crosses.
 */
export function redactingInterceptor(redactor: Redactor): () => {
  inbound: ActivityInboundCallsInterceptor;
} {
  return () => ({
    inbound: {
      async execute(
        input: ActivityExecuteInput,
        next: Next<ActivityInboundCallsInterceptor, "execute">,
      ): Promise<unknown> {
        try {
          return await next(input);
        } catch (error) {
          throw redactor.error(error);
        }
      },
    },
  });
}
