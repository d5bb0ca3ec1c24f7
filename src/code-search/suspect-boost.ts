/**
 * The recent-change boost: a candidate gains only when a recent commit changed the very line (or
 * function) one of the error's frames points at — blame's evidence, not a commit that merely
 * touched the file somewhere.
 */
import type { SuspectCommit } from '../domain/analysis.js';
import type { CodeCandidate } from '../ports/analyst.js';

/** Below the innermost frame (60), enough to reorder frames a few steps apart. */
export const RECENT_SUSPECT_BOOST = 15;

export function boostRecentSuspects(candidates: readonly CodeCandidate[], suspects: readonly SuspectCommit[], withinDays: number): CodeCandidate[] {
  const boosted = new Set(suspects.filter((s) => s.ageDays >= 0 && s.ageDays <= withinDays).map((s) => s.file));
  if (boosted.size === 0) return [...candidates];
  return candidates
    .map((c) => (boosted.has(c.file) ? { ...c, score: Math.round((c.score + RECENT_SUSPECT_BOOST) * 1000) / 1000 } : c))
    .sort((a, b) => b.score - a.score || a.file.localeCompare(b.file));
}
