import { runCli } from "./cli/run-cli.ts";

// `npm run worker`: the CLI's worker command (agentdock-temporal worker), as its own entry point.
runCli(["worker", ...process.argv.slice(2)], {
  env: process.env,
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  },
);
