export interface ToolAvailabilityInput {
  /** The agent's tool names, as its template lists them. */
  tools: string[];
}

/**
 * Plain JSON, recorded in history: tool name → why this worker cannot run it. The tool
 * registry computes it (`ToolRegistry.unavailable`).
 */
export interface ToolAvailability {
  unavailable: Record<string, string>;
}
