export { createOrchestrator, type Orchestrator, type ToolChoice } from "./orchestrator.ts";
export type { Decision } from "./step-selection.ts";
export type { ToolCallCheck, ToolDecision } from "./tool-policy.ts";
export type { OrchestrationEvent, OrchestrationEventType, StepEntryReason } from "./events.ts";
export {
  orchestrationStateSchema,
  type OrchestrationState,
  type ReportedTokenUsage,
  type TokenUsage,
  type ToolFailure,
} from "./state.ts";
export { DEFAULT_RELEASE_AFTER_FAILURES } from "./compiled-template.ts";
export {
  agentTemplateSchema,
  arrivalPolicies,
  arrivalPolicySchema,
  type ArrivalPolicy,
  DEFAULT_RECENT_TURNS,
  llmProviders,
  type AgentTemplate,
  type AgentTemplateInput,
  type LlmProvider,
  type ResetTrigger,
  type Step,
} from "./template-schema.ts";
export {
  conditionSchema,
  conditionTypes,
  type Condition,
  type ConditionType,
} from "./condition-schema.ts";
export type { ToolCatalogueEntry } from "./tool-catalogue-entry.ts";
export { matchesPattern } from "./tool-patterns.ts";
export { parseDuration } from "./duration.ts";
export { TURN_NOTE_PREFIX, turnNote } from "./turn-notes.ts";
export { carryStateToTemplate, type CarriedState } from "./template-change.ts";
export {
  approvalRulesSchema,
  type ApprovalCondition,
  type ApprovalRule,
} from "./approval-schema.ts";
export {
  approvalFor,
  compileApprovalRegex,
  conditionHolds,
  parseApprovalTimeout,
  type ApprovalNeed,
} from "./tool-approval.ts";
