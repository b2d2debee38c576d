import type { Command } from "../cli-context.ts";
import { startCommand as runStart, startHelp } from "../start-command.ts";

/** `npm start`: unchanged, registered with the other commands. */
export const startCommand: Command = {
  name: "start",
  summary: "embedded dev server + worker + an interactive chat (npm start)",
  help: startHelp,
  run: (argv, context) => runStart([...argv], { ...context.env }),
};
