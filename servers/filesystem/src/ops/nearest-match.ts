/**
 * Where an edit's `oldText` most nearly occurs, for the diagnostic of a failed match ("could not find exact match"
 * loops are the official server's most reported edit problem). Windows of the same number of lines are scored by
 * the mean similarity of their lines (Dice coefficient of character bigrams, whitespace trimmed). Candidate windows
 * come from lines that match exactly, then from the best first-line matches; the work is bounded.
 */

/** The closest region found. */
export interface NearMatch {
  /** 1-based first and last line of the region. */
  startLine: number;
  endLine: number;
  /** Mean line similarity, 0..1. */
  similarity: number;
  /** The region's text. */
  text: string;
}

const MAX_CANDIDATES = 200;
/** Larger files get no diagnostic: the search runs on the event loop and must stay short. */
const MAX_LINES = 50_000;

function bigrams(text: string): Map<string, number> {
  const grams = new Map<string, number>();
  for (let i = 0; i < text.length - 1; i++) {
    const gram = text.slice(i, i + 2);
    grams.set(gram, (grams.get(gram) ?? 0) + 1);
  }
  return grams;
}

/** Dice similarity of two trimmed lines (1 = equal); `known` are the bigrams of `b` when already counted. */
export function lineSimilarity(a: string, b: string, known?: Map<string, number>): number {
  const x = a.trim();
  const y = b.trim();
  if (x === y) return 1;
  if (x.length < 2 || y.length < 2) return 0;
  const gy = known ?? bigrams(y);
  const seen = new Map<string, number>();
  let shared = 0;
  for (let i = 0; i < x.length - 1; i++) {
    const gram = x.slice(i, i + 2);
    const used = seen.get(gram) ?? 0;
    if (used < (gy.get(gram) ?? 0)) shared++;
    seen.set(gram, used + 1);
  }
  return (2 * shared) / (x.length - 1 + (y.length - 1));
}

/** The region of `content` most like `oldText` (both with `\n` line endings), or undefined for empty input. */
export function nearestMatch(content: string, oldText: string): NearMatch | undefined {
  const lines = content.split('\n');
  const wanted = oldText.replace(/\n$/, '').split('\n');
  if (lines.length === 0 || wanted.length === 0 || lines.length > MAX_LINES) return undefined;
  const span = Math.min(wanted.length, lines.length);
  const lastStart = lines.length - span;
  const candidates = new Set<number>();
  // Windows anchored on a line that matches exactly (after trimming).
  const index = new Map<string, number[]>();
  wanted.forEach((line, j) => {
    const key = line.trim();
    if (key.length > 0) index.set(key, [...(index.get(key) ?? []), j]);
  });
  for (let k = 0; k < lines.length && candidates.size < MAX_CANDIDATES; k++) {
    for (const j of index.get(lines[k]!.trim()) ?? []) {
      const start = k - j;
      if (start >= 0 && start <= lastStart) candidates.add(start);
    }
  }
  // Then windows whose first line is most like the wanted first line.
  const firstScores: Array<[number, number]> = [];
  const firstGrams = bigrams(wanted[0]!.trim());
  for (let start = 0; start <= lastStart; start++) firstScores.push([start, lineSimilarity(lines[start]!, wanted[0]!, firstGrams)]);
  firstScores.sort((a, b) => b[1] - a[1]);
  for (const [start] of firstScores.slice(0, MAX_CANDIDATES / 2)) candidates.add(start);

  let best: NearMatch | undefined;
  for (const start of candidates) {
    let total = 0;
    for (let j = 0; j < span; j++) total += lineSimilarity(lines[start + j]!, wanted[j]!);
    const similarity = total / wanted.length;
    if (!best || similarity > best.similarity) {
      best = { startLine: start + 1, endLine: start + span, similarity, text: lines.slice(start, start + span).join('\n') };
    }
  }
  return best;
}
