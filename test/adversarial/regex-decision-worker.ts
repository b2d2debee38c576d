import { parentPort, workerData } from "node:worker_threads";
import { createOrchestrator } from "../../src/orchestration/index.ts";
import { parseAgentTemplate } from "../../src/agents/index.ts";
import { regexAgent, type RegexDecisionRequest } from "./regex-agent.ts";

// Runs in a worker thread so a decision that never returns (a backtracking engine) fails the
// test by its deadline instead of blocking the test process's event loop.
const { pattern, flags, messages } = workerData as RegexDecisionRequest;
const template = parseAgentTemplate(regexAgent(pattern, flags));
const orchestrator = createOrchestrator(template);
const activeSteps = messages.map(
  (message) => orchestrator.onUserMessage(orchestrator.initialState(), message).state.activeStep,
);
parentPort?.postMessage(activeSteps);
