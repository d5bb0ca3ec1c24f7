/**
 * GitHub's CODEOWNERS, pure: parse the file, find the owners of one path. Semantics as GitHub
 * documents them: gitignore-style patterns, the *last* matching line wins, a matching line with no
 * owners leaves the path unowned, `#` starts a comment (`\#` is a literal `#`), and `!` negation
 * and `[ ]` ranges are not supported (such lines are skipped, as GitHub skips them).
 * Matching is segment by segment with a bounded table, never a backtracking regex.
 */

export interface CodeOwnersRule {
  pattern: string;
  owners: string[];
  line: number;
}

/** Where GitHub looks for the file, in its order: the first one found is the one used. */
export const CODEOWNERS_LOCATIONS = ['.github/CODEOWNERS', 'CODEOWNERS', 'docs/CODEOWNERS'] as const;

const OWNER = /^(@[A-Za-z0-9][A-Za-z0-9-]*(\/[A-Za-z0-9._-]+)?|[^@\s]+@[^@\s]+)$/;

export function parseCodeOwners(text: string): CodeOwnersRule[] {
  const rules: CodeOwnersRule[] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = stripComment(raw).trim();
    if (line === '') continue;
    const [pattern = '', ...rest] = splitUnescaped(line);
    if (pattern.startsWith('!') || /(^|[^\\])[[\]]/.test(pattern)) continue;
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
  for (let end = last; end >= first; end--) if (matchSegments(pat, file.slice(0, end))) return true;
  return false;
}

function matchSegments(pat: readonly string[], segs: readonly string[]): boolean {
  // table[i][j]: pat[i..] matches segs[j..]. O(|pat| · |segs|) cells, each filled once.
  const m = pat.length;
  const n = segs.length;
  let next: boolean[] = new Array<boolean>(n + 1).fill(false);
  next[n] = true;
  for (let i = m - 1; i >= 0; i--) {
    const row: boolean[] = new Array<boolean>(n + 1).fill(false);
    const p = pat[i]!;
    for (let j = n; j >= 0; j--) {
      if (p === '**') row[j] = next[j]! || (j < n && row[j + 1]!);
      else row[j] = j < n && matchSegment(p, segs[j]!) && next[j + 1]!;
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
