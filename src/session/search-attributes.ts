import { defineSearchAttributeKey, SearchAttributeType } from "@temporalio/common";
import type { SearchAttributeType as DevServerAttributeType } from "../dev-server/search-attributes.ts";

/** Custom search attributes a session keeps current, so the Web UI can list and filter sessions. */
export const agentIdKey = defineSearchAttributeKey("AgentId", SearchAttributeType.KEYWORD);
/** The step active now, updated as it changes within a turn. */
export const activeStepKey = defineSearchAttributeKey("ActiveStep", SearchAttributeType.KEYWORD);
/**
 * The last step entered other than the default step: turns return to the default step when a
 * sequence completes, so `ActiveStep` alone cannot find "sessions that last did an evaluation".
 */
export const lastStepKey = defineSearchAttributeKey("LastStep", SearchAttributeType.KEYWORD);
/** A `SessionStatus` value (session-types.ts): idle, running, awaiting_approval, failed or ended. */
export const sessionStatusKey = defineSearchAttributeKey(
  "SessionStatus",
  SearchAttributeType.KEYWORD,
);
/**
 * The tool whose call waits for a person's approval (unset otherwise): with
 * `SessionStatus="awaiting_approval"`, a filter finds every session waiting for someone.
 */
export const awaitingApprovalKey = defineSearchAttributeKey(
  "AwaitingApproval",
  SearchAttributeType.KEYWORD,
);
export const turnCountKey = defineSearchAttributeKey("TurnCount", SearchAttributeType.INT);
/** The tenant that created the session; set once at start, the API lists and reaches by it. */
export const tenantIdKey = defineSearchAttributeKey("TenantId", SearchAttributeType.KEYWORD);

/** The content hash of the template the session runs; set at start, upserted by an upgrade. */
export const templateVersionKey = defineSearchAttributeKey(
  "TemplateVersion",
  SearchAttributeType.KEYWORD,
);
/** The session a fork was made from (absent for sessions that are not forks). */
export const parentSessionKey = defineSearchAttributeKey(
  "ParentSession",
  SearchAttributeType.KEYWORD,
);

/** What the dev server must register (`--search-attribute NAME=Type`). */
export const sessionSearchAttributes = {
  AgentId: "Keyword",
  ActiveStep: "Keyword",
  LastStep: "Keyword",
  SessionStatus: "Keyword",
  TurnCount: "Int",
  TenantId: "Keyword",
  TemplateVersion: "Keyword",
  ParentSession: "Keyword",
  AwaitingApproval: "Keyword",
} as const satisfies Record<string, DevServerAttributeType>;
