// "Did you mean": the closest known word by edit distance, as gh and git suggest a mistyped command.

/** Levenshtein distance between two words. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length];
}

// What gh (and git) call some of bbdc's words: `pr view` is bbdc's `pr get`, `pr create --head` its `--from`. The
// last word typed is looked up, so `repo view` suggests `repo get`, ahead of words merely spelt alike (`pr review`).
const synonyms: Record<string, string> = {
  view: 'get',
  show: 'get',
  ls: 'list',
  new: 'create',
  edit: 'update',
  rm: 'delete',
  '--head': '--from',
  '--base': '--to',
  '--body': '--description',
  '--body-file': '--description-file',
};

/**
 * The known words within a third of the typed word's length (at least 1 edit) of it, or that it begins; closest
 * first, after bbdc's word for what gh calls it (synonyms).
 */
export function closest(typed: string, known: readonly string[]): string[] {
  const limit = Math.max(1, Math.floor(typed.length / 3));
  const last = typed.lastIndexOf(' ') + 1;
  const synonym =
    Object.hasOwn(synonyms, typed.slice(last)) && typed.slice(0, last) + synonyms[typed.slice(last)];
  return known
    .map((word) => ({
      word,
      d: word === synonym ? 0 : word.startsWith(typed) ? 1 : editDistance(typed, word),
    }))
    .filter((x) => x.d <= limit)
    .sort((x, y) => x.d - y.d || x.word.localeCompare(y.word))
    .map((x) => x.word);
}

/** ` (did you mean "pr list"?)` or nothing. */
export function didYouMean(typed: string, known: readonly string[]): string {
  const [best] = closest(typed, known);
  return best ? ` (did you mean "${best}"?)` : '';
}
