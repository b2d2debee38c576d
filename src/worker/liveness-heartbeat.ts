import type { Context } from "@temporalio/activity";
import type {
  ActivityExecuteInput,
  ActivityInboundCallsInterceptor,
  Next,
} from "@temporalio/worker";
import { LIVENESS_HEARTBEAT_INTERVAL_MS } from "../session/constants.ts";

/** The AI SDK plugin's model activities; tools heartbeat themselves, with details. */
const modelActivityTypes = new Set(["invokeModel", "invokeModelStreaming"]);

/**
 * Heartbeats a running model activity while this worker process lives, so the activity's
 * heartbeat timeout retries it elsewhere soon after its worker dies, even while the model has
 * not produced its first token. Liveness only: startToClose still bounds the whole call.
 */
export function livenessHeartbeat(context: Context): { inbound: ActivityInboundCallsInterceptor } {
  return {
    inbound: {
      async execute(
        input: ActivityExecuteInput,
        next: Next<ActivityInboundCallsInterceptor, "execute">,
      ): Promise<unknown> {
        if (!modelActivityTypes.has(context.info.activityType)) return next(input);
        const timer = setInterval(() => {
          context.heartbeat();
        }, LIVENESS_HEARTBEAT_INTERVAL_MS);
        try {
          return await next(input);
        } finally {
          clearInterval(timer);
        }
      },
    },
  };
}
