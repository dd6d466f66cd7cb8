/**
 * "Did you mean …?" for any vocabulary (commands, flags, scenario names, operations): the candidate nearest
 * to a mistyped word, when it is near enough to be what was meant.
 */

/**
 * The candidate closest to `word`, ignoring case, or undefined when none is within a third of the word's
 * length (at least one edit). Ties go to the earlier candidate, so callers can order by preference.
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const typed = word.toLowerCase();
  // Any short candidate would be "one edit away" from nothing: an empty word suggests nothing.
  if (typed === '') return undefined;
  // One slip in a short word, two in a long one. Beyond that a suggestion is more often a different word
  // than the one meant, and a wrong "did you mean" misleads more than none.
  const limit = Math.max(1, Math.floor([...typed].length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const distance = editDistance(typed, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * Insertions, deletions, substitutions and swaps of two neighbouring characters, each counted as one edit
 * (optimal string alignment). Swaps count as one because they are the commonest typing slip ("hlep").
 */
export function editDistance(a: string, b: string): number {
  // Code points, not UTF-16 units, so a character outside the BMP counts as one edit.
  const s = [...a];
  const t = [...b];
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const current = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        d = Math.min(d, (beforePrevious[j - 2] as number) + 1);
      current.push(d);
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[t.length] as number;
}

/** ` Did you mean "x"?` (or with `quote: false`, ` Did you mean x?`) when a candidate is near, else ''. */
export function didYouMean(word: string, candidates: readonly string[], { quote = true } = {}): string {
  const near = closest(word, candidates);
  return near === undefined ? '' : ` Did you mean ${quote ? JSON.stringify(near) : near}?`;
}

/**
 * A reference to something the scenario does not declare, saying where to declare it:
 * `integration "openia" is not declared (did you mean "openai"?); declare it under integrations:`.
 */
export function undeclared(kind: string, id: string, section: string, declared: Iterable<string>): string {
  const near = closest(id, [...declared]);
  return `${kind} ${JSON.stringify(id)} is not declared${near === undefined ? '' : ` (did you mean ${JSON.stringify(near)}?)`}; declare it under ${section}:`;
}
