// The one format `deep_research` hands the session's model its sources in. The scripted model
// reads it back (parseResearchPrompt) to write its deterministic report, so both sides share
// this module rather than two copies of a format.

/** A source that was read, numbered as the report cites it. */
export interface ResearchSourceText {
  citation: number;
  title: string;
  url: string;
  text: string;
}

const questionPrefix = "Research question: ";
const sourceHeader = /^=== Source \[(\d+)\] ===$/;

export function researchInstructions(): string {
  return [
    "You write a research report from numbered sources that were read from the web for a question.",
    "Use only what the sources say: add no facts, figures or sources of your own, and do not guess what a source might say.",
    "Cite every claim with the number of the source it comes from in square brackets, like [1] or [2][3]; cite only the numbers given.",
    "Write Markdown: a short direct answer first, then the key findings as a list, then where the sources disagree or fall short.",
    "If the sources do not answer the question, say so plainly.",
    "Do not write a list of sources or a title: both are added after your report.",
    "Write in the language of the question.",
  ].join("\n");
}

/** Lines of page text that look like a source header would split the prompt wrongly. */
function neutralise(text: string): string {
  return text.replace(/^=== Source \[/gm, "== Source [");
}

export function formatResearchPrompt(
  query: string,
  sources: readonly ResearchSourceText[],
): string {
  const blocks = sources.map((source) =>
    [
      `=== Source [${source.citation}] ===`,
      `Title: ${source.title.replace(/\s+/g, " ")}`,
      `URL: ${source.url}`,
      "",
      neutralise(source.text),
    ].join("\n"),
  );
  return [`${questionPrefix}${query.replace(/\s+/g, " ")}`, ...blocks].join("\n\n");
}

/** The question and sources of a prompt `formatResearchPrompt` wrote; undefined for any other. */
export function parseResearchPrompt(
  prompt: string,
): { query: string; sources: ResearchSourceText[] } | undefined {
  if (!prompt.startsWith(questionPrefix)) return undefined;
  const lines = prompt.split("\n");
  const query = (lines[0] ?? "").slice(questionPrefix.length).trim();
  const sources: ResearchSourceText[] = [];
  let current: { citation: number; lines: string[] } | undefined;
  const close = (): void => {
    if (current === undefined) return;
    const [titleLine = "", urlLine = "", ...rest] = current.lines;
    sources.push({
      citation: current.citation,
      title: titleLine.replace(/^Title: /, ""),
      url: urlLine.replace(/^URL: /, ""),
      text: rest.join("\n").trim(),
    });
  };
  for (const line of lines.slice(1)) {
    const header = sourceHeader.exec(line);
    if (header !== null) {
      close();
      current = { citation: Number(header[1]), lines: [] };
    } else {
      current?.lines.push(line);
    }
  }
  close();
  return sources.length === 0 ? undefined : { query, sources };
}
