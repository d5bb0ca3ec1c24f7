import { WILDCARD } from './mask-message.js';
import { isSymbolic, isValueLike } from './token-kind.js';

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
export function compareToTemplate(template: readonly string[], tokens: readonly string[]): TemplateMatch | undefined {
  let same = 0;
  let valueDiffs = 0;
  let constants = 0;
  for (let i = 0; i < template.length; i += 1) {
    const expected = template[i] as string;
    if (expected === WILDCARD) continue;
    constants += 1;
    const actual = tokens[i] as string;
    if (expected === actual) same += 1;
    // The first token names the event, as in Drain's prefix tree.
    else if (i === 0 || isSymbolic(expected) || isSymbolic(actual)) return undefined;
    else if (isValueLike(expected) || isValueLike(actual)) valueDiffs += 1;
    else return undefined;
  }
  return { same, valueDiffs, constants };
}

/** The template that covers both: every differing position becomes a wildcard. */
export function generalize(template: readonly string[], tokens: readonly string[]): string[] {
  return template.map((token, i) => (token === tokens[i] ? token : WILDCARD));
}
