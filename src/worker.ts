import { runAsEntryPoint } from "./cli/run-entry.ts";

// `npm run worker`: the CLI's worker command (agentdock-temporal worker) as its own entry point.
runAsEntryPoint(["worker", ...process.argv.slice(2)]);
