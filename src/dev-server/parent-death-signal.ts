import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/**
 * How to start `command` so the OS ends it when its parent dies, even by `kill -9`: on Linux,
 * through util-linux's `setpriv --pdeathsig SIGTERM` (it sets the signal, then execs the command,
 * so the pid stays the command's). Elsewhere, or without setpriv on PATH, the command as is: the
 * server record (server-record.ts) then lets the next start clean up after a killed parent.
 */
export function tiedToParent(
  command: string,
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): { command: string; args: string[]; tied: boolean } {
  const setpriv = process.platform === "linux" ? findOnPath("setpriv", env["PATH"]) : undefined;
  return setpriv === undefined
    ? { command, args: [...args], tied: false }
    : { command: setpriv, args: ["--pdeathsig", "SIGTERM", "--", command, ...args], tied: true };
}

/** The first executable `name` in the folders of a PATH-style list. */
export function findOnPath(name: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this folder.
    }
  }
  return undefined;
}
