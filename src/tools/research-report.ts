// The Markdown `deep_research` returns around the model's report: a heading, the numbered
// sources the citations point at, and, plainly, what could not be read and why. These parts are
// written here, not by the model, so they are exact whatever the model does.

/** One search result, as the report lists it. */
export type ResearchSource =
  | { url: string; title: string; status: "read"; citation: number; truncated: boolean }
  | { url: string; title: string; status: "unreachable"; reason: string };

export function researchHeading(query: string): string {
  return `## 🔬 Deep research: ${query.replace(/\s+/g, " ")}`;
}

function sourceList(sources: readonly ResearchSource[]): string[] {
  const read = sources.filter((source) => source.status === "read");
  if (read.length === 0) return [];
  return [
    "### Sources",
    read
      .map((source) => {
        const cut = source.truncated ? " (only its beginning was read: the page is long)" : "";
        return `${source.citation}. [${escapeLinkText(source.title)}](${source.url})${cut}`;
      })
      .join("\n"),
  ];
}

function unreachableList(sources: readonly ResearchSource[]): string[] {
  const missed = sources.filter((source) => source.status === "unreachable");
  if (missed.length === 0) return [];
  const these = missed.length === 1 ? "This source" : `These ${missed.length} sources`;
  return [
    "### Could not be read",
    `${these} from the search could not be read, so nothing above comes from ${missed.length === 1 ? "it" : "them"}:`,
    missed.map((source) => `- ${source.url}: ${source.reason}`).join("\n"),
  ];
}

function escapeLinkText(text: string): string {
  return text.replace(/[[\]]/g, (bracket) => `\\${bracket}`);
}

/** Citations the report uses that name no source read (a model's slip), to say so. */
export function unknownCitations(report: string, sources: readonly ResearchSource[]): number[] {
  const known = new Set(
    sources.flatMap((source) => (source.status === "read" ? [source.citation] : [])),
  );
  const cited = [...report.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]));
  return [...new Set(cited)].filter((citation) => !known.has(citation)).sort((a, b) => a - b);
}

/** The full result: the model's report on what was read, its sources, and what was not read. */
export function researchContent(
  query: string,
  report: string,
  sources: readonly ResearchSource[],
): string {
  const unknown = unknownCitations(report, sources);
  const warning =
    unknown.length === 0
      ? []
      : [
          `_Note: the report cites ${unknown.map((n) => `[${n}]`).join(", ")}, which ${unknown.length === 1 ? "is" : "are"} not among the sources read; treat ${unknown.length === 1 ? "that claim" : "those claims"} as unsourced._`,
        ];
  return [
    researchHeading(query),
    report,
    ...warning,
    ...sourceList(sources),
    ...unreachableList(sources),
  ].join("\n\n");
}

/** The result when nothing could be read: no report, and no content invented in its place. */
export function nothingReadContent(query: string, sources: readonly ResearchSource[]): string {
  if (sources.length === 0) {
    return [
      researchHeading(query),
      `The search for "${query.replace(/\s+/g, " ")}" found no results, so there is nothing to report. Try broader or different words.`,
    ].join("\n\n");
  }
  const noun = sources.length === 1 ? "source" : "sources";
  return [
    researchHeading(query),
    `No report: none of the ${sources.length} ${noun} the search found could be read, so nothing here is drawn from their content. The reasons are below; if they are network errors, this server may be offline or unable to reach those sites.`,
    "### Could not be read",
    sources
      .map((source) =>
        source.status === "unreachable" ? `- ${source.url}: ${source.reason}` : `- ${source.url}`,
      )
      .join("\n"),
  ].join("\n\n");
}
