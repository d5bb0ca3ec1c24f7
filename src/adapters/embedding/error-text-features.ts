import { maskMessage, WILDCARD } from '../../domain/templates/mask-message.js';

/** One hashed feature of a text and how much it counts before normalization. */
export interface WeightedFeature {
  key: string;
  weight: number;
}

// Error codes ("CO-500", "ORA-00942", "DISCOUNT_INVALID") are identity, not variable parts: they are
// read whole before masking, which would otherwise turn their digits into <*>.
const ERROR_CODE = /\b[A-Z][A-Z0-9]*(?:[-_][A-Z0-9]+)+\b/g;

// Glue words carry little of an error's identity; a fixed list keeps the weighting deterministic.
const STOP_WORDS = new Set(
  'a an and are as at be by for from has have in into is it its of on or that the this to was were will with not no'.split(' '),
);

/** "WcpInitialize" → wcp initialize; "MRAppMaster" → mr app master; "blk_count" → blk count. */
export function splitIdentifier(word: string): string[] {
  return word
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((part) => part.length > 1);
}

/** Stems a word crudely but deterministically so "received"/"receiving"/"receives" meet. */
function stem(word: string): string {
  return word.length > 5 ? word.slice(0, 5) : word;
}

function wordWeight(word: string): number {
  if (STOP_WORDS.has(word)) return 0.25;
  // Longer words are rarer and more telling; a cheap, corpus-free stand-in for IDF.
  return Math.min(1.6, 0.6 + word.length / 8);
}

/**
 * Turns error text into weighted features: error codes, words (identifiers split, variable parts
 * masked away), stems, adjacent-word bigrams for order, and each original identifier whole.
 */
export function extractFeatures(text: string): WeightedFeature[] {
  const features: WeightedFeature[] = [];
  for (const code of text.match(ERROR_CODE) ?? []) features.push({ key: `c:${code.toLowerCase()}`, weight: 2.5 });

  const words: string[] = [];
  for (const token of maskMessage(text, { maxMessageLength: 2_048, maxTokens: 160, maxTokenLength: 128 })) {
    if (token === WILDCARD) continue;
    const parts = splitIdentifier(token.replaceAll(WILDCARD, ' '));
    if (parts.length > 1) features.push({ key: `i:${parts.join('')}`, weight: 0.8 });
    words.push(...parts);
  }
  for (const word of words) {
    const weight = wordWeight(word);
    features.push({ key: `w:${word}`, weight });
    if (word.length > 5) features.push({ key: `s:${stem(word)}`, weight: weight * 0.5 });
  }
  for (let i = 1; i < words.length; i += 1) {
    const pair = `b:${words[i - 1] ?? ''} ${words[i] ?? ''}`;
    features.push({ key: pair, weight: 0.7 });
  }
  return features;
}
