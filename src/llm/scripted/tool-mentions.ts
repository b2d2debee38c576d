// How the scripted model notices a tool named in a message. A tool is named when a whole word
// (case-insensitive; letters, digits and `_` are word characters) is its name, or its stem (the
// name without a final "e") followed by one of these endings: "brainstorming", "critiques",
// "debated", "comparison", "reflection", "summarization".
const endings = ["s", "es", "d", "ed", "ing", "ion", "ions", "ison", "isons", "ation", "ations"];

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function wordPattern(alternatives: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternatives})(?![\\p{L}\\p{N}_])`, "iu");
}

function mentionPattern(toolName: string): RegExp {
  const stem = toolName.endsWith("e") ? toolName.slice(0, -1) : toolName;
  return wordPattern(`${escape(toolName)}|${escape(stem)}(?:${endings.join("|")})`);
}

/** Where the text first names the tool (inflections allowed), or -1. */
export function mentionIndex(text: string, toolName: string): number {
  return text.search(mentionPattern(toolName));
}

/** Where the text first names the tool exactly, as a whole word, or -1. */
export function exactMentionIndex(text: string, toolName: string): number {
  return text.search(wordPattern(escape(toolName)));
}

/** The tools the text names, in the order it first names them (ties keep the given order). */
export function toolsNamedIn(
  text: string,
  toolNames: readonly string[],
  find: (text: string, toolName: string) => number = mentionIndex,
): string[] {
  return toolNames
    .map((name, order) => ({ name, order, at: find(text, name) }))
    .filter((entry) => entry.at !== -1)
    .sort((a, b) => a.at - b.at || a.order - b.order)
    .map((entry) => entry.name);
}
