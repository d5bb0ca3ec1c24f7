/**
 * GitHub's CODEOWNERS, pure: parse the file, find the owners of one path. Semantics as GitHub
 * documents them: gitignore-style patterns, the *last* matching line wins, a matching line with no
 * owners leaves the path unowned, `#` starts a comment (`\#` is a literal `#`), and `!` negation
 * and `[ ]` ranges are not supported (such lines are skipped, as GitHub skips them).
 * Matching is segment by segment with a bounded table, never a backtracking regex: each pattern
 * segment is matched against each path segment once, so a pattern costs its length times the
 * path's. GitHub reads at most 3 MiB of CODEOWNERS; Medic refuses a longer file, and skips a
 * pattern longer than MAX_PATTERN (no real path needs one) as GitHub skips lines it cannot read.
 */

import { ErrorCode, MedicError } from './errors.js';

/** GitHub's own limit on a CODEOWNERS file. */
export const MAX_CODEOWNERS_BYTES = 3 * 1024 * 1024;
/** Longer patterns are skipped: a path is at most a few hundred characters. */
export const MAX_PATTERN = 1_024;

export interface CodeOwnersRule {
  pattern: string;
  owners: string[];
  line: number;
}

/** Where GitHub looks for the file, in its order: the first one found is the one used. */
export const CODEOWNERS_LOCATIONS = ['.github/CODEOWNERS', 'CODEOWNERS', 'docs/CODEOWNERS'] as const;

const OWNER = /^(@[A-Za-z0-9][A-Za-z0-9-]*(\/[A-Za-z0-9._-]+)?|[^@\s]+@[^@\s]+)$/;

export function parseCodeOwners(text: string): CodeOwnersRule[] {
  if (text.length > MAX_CODEOWNERS_BYTES) {
    throw new MedicError(ErrorCode.ValidationFailed, `CODEOWNERS is ${(text.length / 1024 / 1024).toFixed(1)} MiB: GitHub reads at most 3 MiB of it, and Medic requests no code-owner review from a longer file.`);
  }
  const rules: CodeOwnersRule[] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = stripComment(raw).trim();
    if (line === '') continue;
    const [pattern = '', ...rest] = splitUnescaped(line);
    if (pattern.length > MAX_PATTERN || pattern.startsWith('!') || /(^|[^\\])[[\]]/.test(pattern)) continue;
    rules.push({ pattern: pattern.replace(/\\(.)/g, '$1'), owners: rest.filter((o) => OWNER.test(o)), line: i + 1 });
  }
  return rules;
}

/** The owners of `path` (repository-relative): the last matching rule's, or none. */
export function ownersOf(rules: readonly CodeOwnersRule[], path: string): string[] {
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i]!;
    if (matchesPattern(rule.pattern, path)) return rule.owners;
  }
  return [];
}

/** `@user` → a user reviewer, `@org/team` → a team reviewer (its slug); emails cannot be requested. */
export function reviewRequestOf(owners: readonly string[]): { users: string[]; teams: string[] } {
  const users = owners.filter((o) => o.startsWith('@') && !o.includes('/')).map((o) => o.slice(1));
  const teams = owners.filter((o) => o.startsWith('@') && o.includes('/')).map((o) => o.slice(o.indexOf('/') + 1));
  return { users, teams };
}

function stripComment(line: string): string {
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '\\') i++;
    else if (line[i] === '#') return line.slice(0, i);
  }
  return line;
}

function splitUnescaped(line: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '\\' && i + 1 < line.length) {
      current += c + line[i + 1];
      i++;
    } else if (c === ' ' || c === '\t') {
      if (current) parts.push(current);
      current = '';
    } else current += c;
  }
  if (current) parts.push(current);
  return parts;
}

/**
 * gitignore rules: a leading or middle `/` anchors the pattern at the root; otherwise it matches
 * at any depth. A trailing `/` (or a directory name matching) owns everything below. `*` and `?`
 * stay within a segment; `**` spans segments.
 */
export function matchesPattern(pattern: string, path: string): boolean {
  const file = path.split('/').filter(Boolean);
  let p = pattern;
  const dirOnly = p.endsWith('/');
  if (dirOnly) p = p.replace(/\/+$/, '');
  const anchored = p.startsWith('/') || p.includes('/');
  const segs = p.replace(/^\/+/, '').split('/').filter(Boolean);
  if (segs.length === 0) return false;
  const pat = anchored ? segs : ['**', ...segs];
  // The pattern may match the file itself or any directory above it (which owns the file);
  // a directory-only pattern must match a directory, never the file.
  // `docs/*` is GitHub's exception: files directly in docs/, not a directory below it.
  const filesOnly = anchored && segs[segs.length - 1] === '*';
  const last = dirOnly ? file.length - 1 : file.length;
  const first = filesOnly ? file.length : 1;
  // Whether pattern segment i matches path segment j, worked out once for every prefix tried.
  const segmentMatches = new Map<number, boolean>();
  const segmentMatch = (i: number, j: number) => {
    const key = i * (file.length + 1) + j;
    let hit = segmentMatches.get(key);
    if (hit === undefined) segmentMatches.set(key, (hit = matchSegment(pat[i]!, file[j]!)));
    return hit;
  };
  for (let end = last; end >= first; end--) if (matchSegments(pat, end, segmentMatch)) return true;
  return false;
}

/** Whether `pat` matches the first `n` path segments; `segmentMatch(i, j)` answers one pair. */
function matchSegments(pat: readonly string[], n: number, segmentMatch: (i: number, j: number) => boolean): boolean {
  // table[i][j]: pat[i..] matches segs[j..n). O(|pat| · n) cells, each filled once.
  const m = pat.length;
  let next: boolean[] = new Array<boolean>(n + 1).fill(false);
  next[n] = true;
  for (let i = m - 1; i >= 0; i--) {
    const row: boolean[] = new Array<boolean>(n + 1).fill(false);
    const p = pat[i]!;
    for (let j = n; j >= 0; j--) {
      if (p === '**') row[j] = next[j]! || (j < n && row[j + 1]!);
      else row[j] = j < n && next[j + 1]! && segmentMatch(i, j);
    }
    next = row;
  }
  return next[0]!;
}

/** `*` and `?` within one segment, by a two-row table (linear in pattern × name). */
export function matchSegment(pattern: string, name: string): boolean {
  const m = pattern.length;
  const n = name.length;
  let next: boolean[] = new Array<boolean>(n + 1).fill(false);
  next[n] = true;
  for (let i = m - 1; i >= 0; i--) {
    const row: boolean[] = new Array<boolean>(n + 1).fill(false);
    const c = pattern[i];
    for (let j = n; j >= 0; j--) {
      if (c === '*') row[j] = next[j]! || (j < n && row[j + 1]!);
      else row[j] = j < n && (c === '?' || c === name[j]) && next[j + 1]!;
    }
    next = row;
  }
  return next[0]!;
}
