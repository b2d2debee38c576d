// Inside this project a bare "zod" resolves; a folder elsewhere installs zod 4 next to it.
import { z } from "zod";

export default {
  name: "word_count",
  // One lowercase word: templates match it with wildcards ("*analysis*").
  category: "analysis",
  description: "Count the words of a text. Pass the whole text in `text`.",
  inputSchema: z.object({ text: z.string().min(1).describe("The text to count.") }),
  execute: ({ text }: { text: string }) => {
    const words = text.trim().split(/\s+/).length;
    // Plain JSON. A `content` string in Markdown is what chats and the scripted model quote.
    return { type: "word_count_result", words, content: `## ${words} words counted` };
  },
};
