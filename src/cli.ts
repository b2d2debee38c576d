import { startCommand, startHelp } from "./cli/start-command.ts";

const help = `Usage: agentdock-temporal <command> [options]

Commands:
  start     embedded dev server + worker + an interactive chat (npm start)

Run a command with --help for its options.

${startHelp}`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case "start":
      return startCommand(rest, process.env);
    case undefined:
    case "help":
    case "--help":
    case "-h":
      console.log(help);
      return 0;
    default:
      console.error(`unknown command "${command}"\n\n${help}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  },
);
