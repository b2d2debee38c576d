export { createToolActivities } from "./tool-activities.ts";
export type { ToolActivityDeps } from "./tool-activities.ts";
export type {
  PureToolInput,
  RunToolInput,
  ToolActivities,
  ToolFailureType,
  ToolOutput,
} from "./tool-types.ts";
export type {
  PluginToolDefinition,
  ToolAvailability,
  ToolAvailabilityInput,
} from "./tool-availability.ts";
