/**
 * Trims the text, turns whitespace-only lines into empty ones and collapses
 * runs of blank lines into one, so every recorded step has the same shape.
 * Line breaks are normalised to `\n`.
 */
export function normaliseWhitespace(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/^[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** A heading must stay on one line, whatever the model put in the subject. */
function toHeadingText(subject: string): string {
  return subject.replace(/\s+/g, " ").trim();
}

export function formatCognitiveContent(title: string, subject: string, body: string): string {
  return `## ${title}: ${toHeadingText(subject)}\n\n${normaliseWhitespace(body)}`;
}

/** What every cognitive tool returns: `{ type: "think_result", content }` and so on. */
export interface CognitiveResult<T extends string> {
  type: `${T}_result`;
  content: string;
}
