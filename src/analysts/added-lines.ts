/**
 * What a fix adds, checked before anyone is asked to approve it. The approver must see exactly the
 * bytes that will be pushed, so a fix that could only be shown masked — a secret-shaped string,
 * or invisible and control characters — is refused rather than redacted or stripped for display.
 */
import { diffLines } from 'diff';
import { hasHiddenCharacters, revealInvisible } from '../domain/untrusted/invisible.js';
import { findSecrets } from '../domain/untrusted/redact.js';

export interface AddedLine {
  /** 1-based line number in the new content. */
  number: number;
  text: string;
}

export function addedLines(before: string, after: string): AddedLine[] {
  const out: AddedLine[] = [];
  let number = 1;
  for (const part of diffLines(before, after)) {
    const lines = part.value.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    if (part.added) lines.forEach((text, i) => out.push({ number: number + i, text: text.replace(/\r$/, '') }));
    if (!part.removed) number += lines.length;
  }
  return out;
}

/** Why the added lines cannot be shown as they are, or undefined when they can. */
export function findUnshowableAddition(before: string, after: string): string | undefined {
  for (const line of addedLines(before, after)) {
    if (hasHiddenCharacters(line.text)) {
      const shown = revealInvisible(line.text).slice(0, 160);
      return `added line ${line.number} holds invisible or control characters (${shown})`;
    }
    const secrets = findSecrets(line.text, { code: true });
    if (secrets.length > 0) return `added line ${line.number} holds a secret-shaped string (${[...new Set(secrets)].join(', ')})`;
  }
  return undefined;
}
