/**
 * Text from templates, models and errors, made inert for the Temporal Web UI's markdown: the UI
 * renders current details on its server with typographic replacements, so a bare "1/3" becomes
 * a fraction, "--" a dash and "(c)" a copyright sign; it passes raw HTML through, shows named
 * entities (`&lt;`) as typed, and replaces `{workflowId}`-style placeholders before rendering.
 * Each such character is escaped here (a backslash, or a numeric entity for "/", which markdown
 * cannot escape), so the text reads as written. Quotes still come out curly.
 */
const markdownPunctuation = /[\\`*_{}[\]()#+\-.!|~&<>]/g;

export function markdownText(text: string): string {
  return (
    text
      .replace(markdownPunctuation, (character) => `\\${character}`)
      // An entity keeps "1/3" out of the fraction rule; the browser shows a plain "/".
      .replace(/\//g, "&#47;")
  );
}

/** One line of text: line breaks become spaces, and a long text ends with "…". */
export function markdownLine(text: string, maxChars = 300): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return markdownText(flat.length > maxChars ? `${flat.slice(0, maxChars - 1)}…` : flat);
}

/**
 * Several lines kept apart (a hard break ends each one) as the lines of a block quote; a text
 * longer than `maxChars` is cut, saying how much was left out.
 */
export function markdownQuote(text: string, maxChars = 800): string {
  const kept =
    text.length > maxChars
      ? `${text.slice(0, maxChars)}… (${text.length - maxChars} more characters)`
      : text;
  return kept
    .split(/\r?\n/)
    .map((line) => `> ${markdownText(line.trimEnd())}`)
    .join("  \n");
}
