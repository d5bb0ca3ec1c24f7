import { WILDCARD } from './mask-message.js';

export const TokenKind = { Word: 0, Value: 1, Symbol: 2, Wildcard: 3 } as const;
export type TokenKind = (typeof TokenKind)[keyof typeof TokenKind];

// Inside a token (ends trimmed, quotes with them), these mark an identifier, path, host, class
// name or quoted text rather than a plain word: "a.b", "x/y", "snake_case", "'two words'". A quote
// around a single plain word (`"GET`, `'closed'`) is layout: the word is still one of a closed set
// (a method, a state) and becomes a variable only on the fold's evidence of many rare values.
const VALUE_MARK = /[/\\._@#~$'"`|]|<\*>/;
const LEADING = /^[([{"'`]+/;
const TRAILING = /[)\]},;:.!?"'`]+$/;
// Letters of any script: a word in Cyrillic or Han is a word, not layout.
const ALPHANUMERIC = /[\p{L}\p{N}]/u;

/**
 * Word ("declined"), value (path, dotted name, quoted text, partly masked token), symbol (layout
 * such as "****" or "--") or wildcard. Templates differing at a value may be one event; at a word
 * only when siblings show it; at a symbol never.
 */
export function kindOf(token: string): TokenKind {
  if (token === WILDCARD) return TokenKind.Wildcard;
  if (!ALPHANUMERIC.test(token) && !token.includes(WILDCARD)) return TokenKind.Symbol;
  const inner = token.replace(LEADING, '').replace(TRAILING, '');
  return VALUE_MARK.test(inner) ? TokenKind.Value : TokenKind.Word;
}

export function kindsOf(tokens: readonly string[]): Uint8Array {
  const kinds = new Uint8Array(tokens.length);
  for (let i = 0; i < tokens.length; i += 1) kinds[i] = kindOf(tokens[i] as string);
  return kinds;
}
