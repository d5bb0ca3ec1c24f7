/**
 * Partial top-k selection: one pass, a small sorted buffer and a threshold, so only the rare
 * score that beats the current k-th best costs more than one comparison. No full sort of n scores.
 * Ties keep the earlier row, which makes results deterministic for a given index.
 */
export function selectTopK(scores: ArrayLike<number>, k: number, accept?: (row: number) => boolean): { row: number; score: number }[] {
  if (k <= 0) return [];
  const rows: number[] = [];
  const best: number[] = [];
  let threshold = -Infinity;
  for (let i = 0; i < scores.length; i += 1) {
    const score = scores[i] ?? -Infinity;
    if (score <= threshold && best.length === k) continue;
    if (accept && !accept(i)) continue;
    let at = best.length;
    while (at > 0 && (best[at - 1] ?? -Infinity) < score) at -= 1;
    best.splice(at, 0, score);
    rows.splice(at, 0, i);
    if (best.length > k) {
      best.pop();
      rows.pop();
    }
    if (best.length === k) threshold = best[k - 1] ?? -Infinity;
  }
  return rows.map((row, i) => ({ row, score: best[i] ?? 0 }));
}
