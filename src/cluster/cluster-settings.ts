import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { ClusterError } from "./cluster-error.ts";

/** What is fixed when a cluster is created, kept beside its data (`cluster-settings.json`). */
const port = z.int().min(1).max(65_535);
const settingsSchema = z.object({
  historyShards: z.int().min(1).max(16_384),
  /** The server's services' ports of the last start, reused while they are free. */
  servicePorts: z.record(z.string(), port).optional(),
});
export type ClusterSettings = z.infer<typeof settingsSchema>;

const fileIn = (dataDir: string): string => join(dataDir, "cluster-settings.json");

export async function readClusterSettings(dataDir: string): Promise<ClusterSettings | undefined> {
  let text: string;
  try {
    text = await readFile(fileIn(dataDir), "utf8");
  } catch {
    return undefined;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ClusterError(
      `${fileIn(dataDir)} is not JSON (${error instanceof Error ? error.message : String(error)}): restore it, e.g. {"historyShards": 4}`,
    );
  }
  const parsed = settingsSchema.safeParse(json);
  if (!parsed.success) {
    throw new ClusterError(
      `${fileIn(dataDir)}: ${z.prettifyError(parsed.error)} (expected e.g. {"historyShards": 4}, the number the cluster was created with)`,
    );
  }
  return parsed.data;
}

export async function writeClusterSettings(
  dataDir: string,
  settings: ClusterSettings,
): Promise<void> {
  await writeFile(fileIn(dataDir), `${JSON.stringify(settings, null, 2)}\n`);
}
