/**
 * Commit subject rules shared by the fix pipeline and the git publisher: at most 72 characters,
 * cut at a word boundary (never mid-word), and recognised when already conventional.
 */
export const SUBJECT_MAX = 72;

/** Cuts at a word boundary so the subject stays within `max`, marking the cut with "…". */
export function clipSubject(text: string, max = SUBJECT_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const room = flat.slice(0, max - 1);
  const space = room.lastIndexOf(' ');
  const cut = space > max / 2 ? room.slice(0, space) : room;
  return `${trimTrailing(cut)}…`;
}

/** True when a line already reads as a conventional-commit subject (`fix(x): …`). */
export function isConventionalSubject(line: string): boolean {
  return /^[a-z]+(\([^()\n]{1,100}\))?!?: \S/.test(line);
}

/** Drops trailing spaces and punctuation; a loop, because `/[…]+$/` backtracks on long runs. */
export function trimTrailing(text: string, chars = ' \t\n:;,.-'): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1] ?? '')) end--;
  return text.slice(0, end);
}
