export { agentSession } from "./agent-session.ts";
