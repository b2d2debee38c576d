import { runAsEntryPoint } from "./cli/run-entry.ts";

runAsEntryPoint(process.argv.slice(2));
