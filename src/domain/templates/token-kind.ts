import { WILDCARD } from './mask-message.js';

// Separators inside a word that mark an identifier, path, host, class name or quoted value
// rather than a plain word; trailing punctuation ("failed.", "port:") does not count.
const VALUE_MARK = /[/\\._@#~$'"`|]|<\*>/;

/**
 * True when a token reads like a value (path, dotted name, quoted text, partly masked token),
 * so that two templates differing there may still be the same event.
 */
export function isValueLike(token: string): boolean {
  if (token === WILDCARD) return true;

  const inner = token.replace(/^[([{]+|[)\]},;:.!?]+$/g, '');
  return VALUE_MARK.test(inner);
}

/** "****", "--", "|": layout, never a value. */
export function isSymbolic(token: string): boolean {
  return !/[A-Za-z0-9]/.test(token) && !token.includes(WILDCARD);
}
