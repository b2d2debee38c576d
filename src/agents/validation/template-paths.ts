export type PathSegment = string | number;

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Formats `["orchestration", "steps", 2, "sequence", 1]` as `orchestration.steps[2].sequence[1]`. */
export function formatPath(path: readonly PathSegment[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (identifier.test(segment)) out += out === "" ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** Levenshtein distance, small inputs only (keys and names). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The closest candidate when it is close enough to be a plausible typo. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  // A word that starts exactly one candidate is that candidate cut short ("BLOCK_MEDIUM").
  const lowerWord = word.toLowerCase();
  const extending = candidates.filter(
    (candidate) => lowerWord.length >= 3 && candidate.toLowerCase().startsWith(lowerWord),
  );
  if (extending.length === 1) return extending[0];
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const tolerance = Math.max(2, Math.floor(word.length / 3));
  if (bestDistance <= tolerance) return best;
  // Abbreviations ("user_msg" for "user_message") are far in edits but share a prefix.
  const lower = word.toLowerCase();
  return candidates.find((candidate) => {
    const other = candidate.toLowerCase();
    return lower.length >= 3 && (other.startsWith(lower.slice(0, 5)) || lower.startsWith(other));
  });
}

/** ` — did you mean "x"?` or an empty string. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const suggestion = closest(word, candidates);
  return suggestion === undefined ? "" : ` — did you mean "${suggestion}"?`;
}
