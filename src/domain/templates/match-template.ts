import { WILDCARD } from './mask-message.js';
import { TokenKind } from './token-kind.js';

export interface Tokens {
  tokens: readonly string[];
  /** `kindsOf(tokens)`, computed once per message or template. */
  kinds: Uint8Array;
}

export interface TemplateMatch {
  /** Template constants the message repeats. */
  same: number;
  /** Template constants where the message has another value-like token (path, dotted name…). */
  valueDiffs: number;
  /** Template constants in all. */
  constants: number;
}

/**
 * Compares a masked message with a template of the same length, position by position. Undefined
 * when a plain word, a layout symbol or the first token differs: that is another event, unless
 * enough siblings later show the position is a variable (see the miner's fold).
 */
export function compareToTemplate(template: Tokens, message: Tokens): TemplateMatch | undefined {
  let same = 0;
  let valueDiffs = 0;
  let constants = 0;
  for (let i = 0; i < template.tokens.length; i += 1) {
    const expected = template.tokens[i] as string;
    if (expected === WILDCARD) continue;
    constants += 1;
    if (expected === message.tokens[i]) {
      same += 1;
      continue;
    }
    // The first token names the event, as in Drain's prefix tree.
    if (i === 0) return undefined;
    const a = template.kinds[i];
    const b = message.kinds[i];
    if (a === TokenKind.Symbol || b === TokenKind.Symbol) return undefined;
    if (a === TokenKind.Word && b === TokenKind.Word) return undefined;
    if (differentKeys(expected, message.tokens[i] as string)) return undefined;
    valueDiffs += 1;
  }
  return { same, valueDiffs, constants };
}

/** The template that covers both: every differing position becomes a wildcard. */
export function generalize(template: readonly string[], tokens: readonly string[]): string[] {
  return template.map((token, i) => (token === tokens[i] ? token : WILDCARD));
}

// `num=<*>` and `topActivity=…` are different fields, not two values of one.
export function differentKeys(a: string, b: string): boolean {
  const ka = a.indexOf('=');
  const kb = b.indexOf('=');
  return ka > 0 && kb > 0 && (ka !== kb || a.slice(0, ka) !== b.slice(0, kb));
}

/** The one position where a template has a different constant than the message; -1 for none or several. */
export function soleDifference(template: readonly string[], tokens: readonly string[]): number {
  let found = -1;
  for (let i = 0; i < template.length; i += 1) {
    if (template[i] === tokens[i]) continue;
    if (found >= 0 || template[i] === WILDCARD) return -1;
    found = i;
  }
  return found;
}
