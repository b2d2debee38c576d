import type { Context } from "hono";
import { buildTimeline, readRunActivities, type TimelineSources } from "../../client/index.ts";
import { createOrchestrator, type AgentTemplate } from "../../orchestration/index.ts";
import type { ToolCatalogueEntry } from "../../tools/index.ts";
import type { ApiContext, ApiEnv } from "../api-context.ts";
import { toApiError } from "../api-error.ts";
import { sessionIdParam } from "./sessions.ts";

/**
 * Why each tool was withheld at a model call: the session's own template snapshot asked the
 * same question the workflow asked then (availability, the step's policy, its sequence position).
 */
function decisionsBy(
  template: AgentTemplate | undefined,
  tools: readonly ToolCatalogueEntry[],
): TimelineSources["toolDecisions"] {
  if (template === undefined) return () => [];
  let orchestrator: ReturnType<typeof createOrchestrator>;
  try {
    // The server's tools, plug-ins included, so a category wildcard matches them as it did in
    // the workflow.
    orchestrator = createOrchestrator(template, tools);
  } catch {
    // A snapshot this code cannot compile: the timeline still shows what was offered.
    return () => [];
  }
  const initial = orchestrator.initialState();
  return (activeStep, context) =>
    orchestrator.toolDecisions({
      ...initial,
      ...(activeStep === null ? {} : { activeStep }),
      sequenceIndex: context.index,
      ...(context.completed ? { completedAt: 0 } : {}),
      ...(Object.keys(context.unavailable).length === 0
        ? {}
        : { unavailableTools: { ...context.unavailable } }),
    });
}

/**
 * `GET /api/sessions/:id/timeline`: per turn, the steps entered and why, every model call (tools
 * offered and withheld, tokens) and every tool call (input, output, duration). Built from the
 * session's event log and conversation (queries) and its current run's history (timings).
 */
export async function getTimelineRoute(api: ApiContext, c: Context<ApiEnv>): Promise<Response> {
  const sessionId = await sessionIdParam(api, c);
  try {
    const [log, messages, run] = await Promise.all([
      api.sessions.events(sessionId, 0),
      api.sessions.history(sessionId),
      readRunActivities(api.client, sessionId),
    ]);
    return c.json(
      buildTimeline({
        sessionId,
        events: log.events,
        messages,
        toolDecisions: decisionsBy(run.template, api.tools),
        toolRuns: run.tools,
      }),
    );
  } catch (error) {
    throw toApiError(error, sessionId);
  }
}
