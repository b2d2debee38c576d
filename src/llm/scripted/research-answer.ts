import { parseResearchPrompt } from "../../tools/research-prompt.ts";

const quoteLimit = 280;

/**
 * The opening sentences of a source's text, up to about `quoteLimit` characters, on one line.
 * Leading heading-like lines (short, no closing punctuation: the page's title) are skipped.
 */
function opening(text: string): string {
  const lines = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const start = lines.findIndex((line) => /[.!?:]$/.test(line) || line.length > 80);
  const flat = (start === -1 ? lines : lines.slice(start)).join(" ").replace(/\s+/g, " ");
  const sentences = flat.match(/[^.!?]+[.!?]+(?=\s|$)/g) ?? [flat];
  let quote = "";
  for (const sentence of sentences) {
    const next = `${quote} ${sentence.trim()}`.trim();
    if (quote !== "" && next.length > quoteLimit) break;
    quote = next;
  }
  return quote.length <= quoteLimit ? quote : `${quote.slice(0, quoteLimit - 1).trimEnd()}…`;
}

/**
 * The scripted model's report for a `deep_research` prompt: it cannot synthesise, so it quotes
 * the opening of each source with its citation, which is faithful and deterministic. Undefined
 * for any other prompt.
 */
export function researchAnswer(userText: string): string | undefined {
  const parsed = parseResearchPrompt(userText);
  if (parsed === undefined) return undefined;
  const count = parsed.sources.length;
  const sources = count === 1 ? "the source read says" : `the ${count} sources read say`;
  return [
    `What ${sources} about "${parsed.query}", quoted from the opening of each (the scripted model quotes rather than synthesises):`,
    parsed.sources
      .map((source) => `- **${source.title}**: ${opening(source.text)} [${source.citation}]`)
      .join("\n"),
  ].join("\n\n");
}
