import { WILDCARD } from './mask-message.js';
import { isSymbolic, isValueLike } from './token-kind.js';

export interface TemplateMatch {
  /** Positions where the template keeps a constant and the message has the same token. */
  same: number;
  /** Positions where the template has a constant the message replaces with a value-like token. */
  valueDiffs: number;
  /** Positions where two plain words differ: a different event unless siblings prove otherwise. */
  wordDiffs: number;
  /** Template constants in all. */
  constants: number;
}

/** Compares a masked message with a template of the same length, position by position. */
export function compareToTemplate(template: readonly string[], tokens: readonly string[]): TemplateMatch {
  let same = 0;
  let valueDiffs = 0;
  let wordDiffs = 0;
  let constants = 0;
  for (let i = 0; i < template.length; i += 1) {
    const expected = template[i] as string;
    if (expected === WILDCARD) continue;
    constants += 1;
    const actual = tokens[i] as string;
    if (expected === actual) same += 1;
    // The first word names the event, as in Drain's prefix tree; layout symbols are structure.
    else if (i === 0 || isSymbolic(expected) || isSymbolic(actual)) wordDiffs += 1;
    else if (isValueLike(expected) || isValueLike(actual)) valueDiffs += 1;
    else wordDiffs += 1;
  }
  return { same, valueDiffs, wordDiffs, constants };
}

/** The template that covers both: every differing position becomes a wildcard. */
export function generalize(template: readonly string[], tokens: readonly string[]): string[] {
  return template.map((token, i) => (token === tokens[i] ? token : WILDCARD));
}
