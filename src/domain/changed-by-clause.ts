/**
 * The offline root cause's clause naming the commit that last changed the failing code —
 * `, code last changed by 9f400e0f "payments: move to gateway API v2" (Alice Moreau, 2026-11-25)`.
 * Written and recognised here only, so a surface that already names that commit (the card's
 * revert line) can leave it out of the root cause instead of saying it twice.
 */
export interface ChangedBy { sha: string; subject: string; author: string; date: string }

const SHA_CHARS = 8;

export function changedByClause(change: ChangedBy, clip: (text: string, max: number) => string): string {
  return `, code last changed by ${change.sha.slice(0, SHA_CHARS)} "${clip(change.subject, 120)}" (${clip(change.author, 60)}, ${change.date.slice(0, 10)})`;
}

/** `text` without the clause naming `sha`; the text unchanged when it has none. */
export function withoutChangedBy(text: string, sha: string): string {
  const start = text.indexOf(`, code last changed by ${sha.slice(0, SHA_CHARS)} "`);
  if (start < 0) return text;
  // The clause ends at its closing parenthesis: `(author, YYYY-MM-DD)`.
  const end = /\(([^()]*), \d{4}-\d{2}-\d{2}\)/.exec(text.slice(start));
  return end ? text.slice(0, start) + text.slice(start + end.index + end[0].length) : text;
}
