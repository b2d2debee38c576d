import { chmod, mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

/** Writes an executable /bin/sh script; scripts use absolute paths so tests can empty PATH. */
export async function writeScript(path: string, body: string): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `#!/bin/sh\n${body}\n`);
  await chmod(path, 0o755);
  return path;
}
