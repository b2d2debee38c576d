import {
  ApplicationFailure,
  condition,
  patched,
  setHandler,
  upsertMemo,
  upsertSearchAttributes,
} from "@temporalio/workflow";
import {
  carryStateToTemplate,
  createOrchestrator,
  parseDuration,
  type AgentTemplate,
} from "../src/orchestration/index.ts";
import { agentIdKey, templateVersionKey } from "../src/session/search-attributes.ts";
import { formatIssues } from "../src/session/session-types.ts";
import {
  upgradeRequestSchema,
  upgradeTemplateUpdate,
  type UpgradeOutcome,
  type UpgradeRequest,
} from "../src/session/template-upgrade.ts";
import { toolCatalogueEntries } from "../src/tools/index.ts";
import type { Session } from "./session.ts";

/** Sessions recorded before upgrades existed never issue these commands (no upgrade reached them). */
export const UPGRADE_PATCH = "template-upgrade";

/** What the main loop needs: apply waiting upgrades between turns, and wake for them. */
export interface TemplateUpgrades {
  /** Whether an upgrade waits for the next turn boundary. */
  waiting(): boolean;
  /** Applies every waiting upgrade, in arrival order; true if any. Call only between turns. */
  applyWaiting(): boolean;
}

/** The template the request carries, if the workflow can run it (the validator's check). */
function runnable(request: UpgradeRequest): AgentTemplate {
  const template = request.template as unknown as AgentTemplate;
  try {
    createOrchestrator(template, toolCatalogueEntries);
    parseDuration(template.session.idleTimeout);
  } catch (error) {
    throw new Error(
      `the new template cannot run: ${error instanceof Error ? error.message : String(error)}; load it with \`agentdock-temporal agents\` to see what to fix`,
    );
  }
  return template;
}

/**
 * The `upgradeTemplate` update: a running session moves to a new template version only when told
 * to, and only between turns (a turn never sees two templates). The validator refuses a template
 * the workflow cannot run, another agent's template unless forced, and a session that is ending,
 * before anything reaches history; the accepted request waits in history for the next turn
 * boundary, where the state is carried over (src/orchestration/template-change.ts), the event
 * `template_upgraded {from, to, notes}` is logged, and the memo and `TemplateVersion` change.
 */
export function installTemplateUpgrades(session: Session): TemplateUpgrades {
  const queue: { request: UpgradeRequest; outcome?: UpgradeOutcome }[] = [];

  const apply = (request: UpgradeRequest): UpgradeOutcome => {
    const from = session.input.templateVersion ?? null;
    const to = request.templateVersion;
    if (from === to) return { from, to, changed: false, notes: [], state: session.view() };
    const template = request.template as unknown as AgentTemplate;
    const carried = carryStateToTemplate(session.state.orchestration, template);
    session.input = { ...session.input, template, templateVersion: to };
    // The next turn's availability check rebuilds it with the worker's plug-in tools.
    session.orchestrator = createOrchestrator(template, toolCatalogueEntries);
    session.state.orchestration = carried.state;
    session.emit({ type: "template_upgraded", from, to, notes: carried.notes });
    if (patched(UPGRADE_PATCH)) {
      upsertSearchAttributes([
        { key: templateVersionKey, value: to },
        { key: agentIdKey, value: template.id },
      ]);
      upsertMemo({ templateVersion: to });
    }
    return { from, to, changed: true, notes: carried.notes, state: session.view() };
  };

  setHandler(
    upgradeTemplateUpdate,
    async (request) => {
      const entry: { request: UpgradeRequest; outcome?: UpgradeOutcome } = { request };
      queue.push(entry);
      await condition(() => entry.outcome !== undefined);
      if (entry.outcome === undefined) {
        throw ApplicationFailure.nonRetryable("the upgrade was not applied", "UpgradeMissing");
      }
      return entry.outcome;
    },
    {
      validator: (request) => {
        const parsed = upgradeRequestSchema.safeParse(request);
        if (!parsed.success) throw new Error(formatIssues(parsed.error));
        if (session.state.ending) {
          throw new Error(
            `the session has ended (${session.state.endReason ?? "ended"}); start a new one`,
          );
        }
        const agentId = session.input.template.id;
        if (parsed.data.template.id !== agentId && parsed.data.force !== true) {
          throw ApplicationFailure.nonRetryable(
            `the new template is agent "${parsed.data.template.id}", but session "${session.input.sessionId}" runs agent "${agentId}"; pass force to switch agents`,
            "AgentMismatch",
          );
        }
        runnable(parsed.data);
      },
    },
  );

  return {
    waiting: () => queue.some((entry) => entry.outcome === undefined),
    applyWaiting: () => {
      const applied = queue.length > 0;
      for (const entry of queue) {
        if (entry.outcome === undefined) entry.outcome = apply(entry.request);
      }
      queue.splice(0, queue.length);
      return applied;
    },
  };
}
