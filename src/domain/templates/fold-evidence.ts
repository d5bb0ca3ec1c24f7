import type { Group } from './group-store.js';
import { differentKeys } from './match-template.js';
import { TokenKind } from './token-kind.js';

export interface FoldSettings {
  /** Distinct words (or layout symbols) seen at one position, all else nearly equal, before it is a variable. */
  siblingsToGeneralize: number;
  /** Word positions a sibling may differ at and still fold; each needs its own evidence. */
  maxWordDiffs: number;
  /**
   * The values at a position must be rare to be a variable: the median events per value at most
   * this. A few values each seen often (GET / DELETE, Started / Stopped) are distinct events.
   */
  maxMedianCount: number;
}

/**
 * The positions (never the first) where `other` has another word or layout symbol than `group`,
 * when the two are otherwise one shape: values may differ, keys of `key=value` may not. Undefined
 * when they cannot be one event.
 */
export function wordDiffs(group: Group, other: Group, maxWordDiffs: number): number[] | undefined {
  const diffs: number[] = [];
  for (let i = 0; i < group.tokens.length; i += 1) {
    const a = group.tokens[i] as string;
    const b = other.tokens[i] as string;
    if (a === b) continue;
    if (i === 0) return undefined;
    const ka = group.kinds[i];
    const kb = other.kinds[i];
    if (ka === TokenKind.Wildcard || kb === TokenKind.Wildcard) continue;
    if (differentKeys(a, b)) return undefined;
    if (ka === TokenKind.Value || kb === TokenKind.Value) continue;
    diffs.push(i);
    if (diffs.length > maxWordDiffs) return undefined;
  }
  return diffs;
}

/**
 * Positional evidence in the spirit of Drain, Brain and Spell: across the groups of one shape, a
 * position holding many distinct, rarely repeated words is a variable whether or not they hold
 * digits (user names, host names, job names); a position holding few words, each often seen, is
 * what tells two events apart. Returns the siblings that fold into `group` and the positions that
 * become variables.
 */
export function siblingsToFold(group: Group, candidates: Iterable<Group>, settings: FoldSettings): { siblings: Group[]; positions: number[] } {
  const diffsOf = new Map<Group, number[]>();
  const valuesAt = new Map<number, Map<string, number>>();
  const note = (p: number, value: string, count: number): void => {
    const values = valuesAt.get(p) ?? valuesAt.set(p, new Map()).get(p)!;
    values.set(value, (values.get(value) ?? 0) + Math.max(1, count));
  };
  for (const other of candidates) {
    if (other === group || other.legacy) continue;
    const diffs = wordDiffs(group, other, settings.maxWordDiffs);
    if (!diffs || diffs.length === 0) continue;
    diffsOf.set(other, diffs);
    for (const p of diffs) note(p, other.tokens[p] as string, other.count);
  }
  const variable = new Set<number>();
  for (const [p, values] of valuesAt) {
    note(p, group.tokens[p] as string, group.count);
    if (values.size < settings.siblingsToGeneralize) continue;
    const counts = [...values.values()].sort((a, b) => a - b);
    if ((counts[Math.floor((counts.length - 1) / 2)] as number) <= settings.maxMedianCount) variable.add(p);
  }
  if (variable.size === 0) return { siblings: [], positions: [] };
  const siblings = [...diffsOf].filter(([, diffs]) => diffs.every((p) => variable.has(p))).map(([other]) => other);
  const positions = [...new Set(siblings.flatMap((s) => diffsOf.get(s) as number[]))].sort((a, b) => a - b);
  return { siblings: siblings.sort((a, b) => a.seq - b.seq), positions };
}
