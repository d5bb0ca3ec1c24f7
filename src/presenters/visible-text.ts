import { countHidden, markHidden } from '../domain/untrusted/invisible.js';

/**
 * Makes invisible and control characters visible in Slack, so what an approver reads is every
 * character that will be pushed: a zero-width space shows as ⟨U+200B⟩ instead of vanishing (or
 * being stripped, which would hide it). Newlines and tabs stay: they are what they look like.
 */
export function showInvisible(text: string): string {
  return markHidden(text, (code) => `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`);
}

/** How many characters `showInvisible` would mark; the card says so next to the diff. */
export const countInvisible = countHidden;
