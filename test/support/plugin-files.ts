import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Plug-in modules live outside this project, where a bare `import "zod"` would not resolve: the
 * files tests write import this project's zod by its URL instead.
 */
export const zodImport = `import { z } from ${JSON.stringify(import.meta.resolve("zod"))};`;

/** A word counter, category "analysis": the plug-in the tests install. */
export const wordCountPlugin = `${zodImport}
export default {
  name: "word_count",
  category: "analysis",
  description: "Count the words of a text. Pass the text in \`text\`.",
  inputSchema: z.object({ text: z.string().min(1) }),
  execute: ({ text }: { text: string }) => {
    const words = text.trim().split(/\\s+/).length;
    return { type: "word_count_result", words, content: \`## \${words} words counted\` };
  },
};
`;

/** A fresh folder holding `files` (name → source); remove it with the returned function. */
export async function writePluginFolder(
  files: Record<string, string>,
): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "agentdock-plugins-"));
  for (const [name, source] of Object.entries(files)) await writeFile(join(dir, name), source);
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
