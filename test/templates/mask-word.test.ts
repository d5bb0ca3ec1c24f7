import { describe, expect, it } from 'vitest';
import { isSpace, maskWord } from '../../src/domain/templates/mask-word.js';

// The word masking as a chain of regular expressions: the readable statement of what the
// one-pass `maskWord` must do.
const KEY_VALUE = /(?<=[A-Za-z_][\w.-]*=)(?!(?:true|false|null)(?:[,;&)\]}\s]|$))[^,;&)\]}\s]+/gi;
const PIECE = /(?:[^=:,(){}[\]|"';<>\s.]|\.(?!\.))+/g;
// eslint-disable-next-line no-control-regex -- \u0001 stands in for an already masked span
const VARIABLE_PIECE = /[\d\u0001]/;
function maskWordByPatterns(word: string): string {
  if (word === '<*>' || !/[\d=]|<\*>/.test(word)) return word;
  // An empty value is a value: `peer=` is the field of `peer=10.0.0.1`.
  if (/^[A-Za-z_][\w.-]*=$/.test(word)) return `${word}<*>`;
  return word
    .replace(KEY_VALUE, '<*>')
    .replace(/<\*>/g, '\u0001')
    .replace(PIECE, (piece) => (VARIABLE_PIECE.test(piece) ? '<*>' : piece))
    .replace(/<\*>(?:[-.:_/,+#~]+<\*>)+/g, '<*>');
}

describe('maskWord', () => {
  it.each([
    ['u42', '<*>'],
    ['blk_-42', '<*>'],
    ['node-7.example', '<*>'],
    ['retry=3,backoff=250ms', 'retry=<*>,backoff=<*>'],
    ['force=true', 'force=true'],
    ['depth.....0', 'depth....<*>'],
    ['(<*>:12)', '(<*>)'],
    ['declined', 'declined'],
    ['OUT=', 'OUT=<*>'],
  ])('masks %s as %s', (word, expected) => {
    expect(maskWord(word)).toBe(expected);
    expect(maskWordByPatterns(word)).toBe(expected);
  });

  it('masks every word as the chain of regular expressions does', () => {
    let seed = 5;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const parts = ['<*>', '=', '==', 'true', 'false', 'null', 'key', 'a_b', '.', '..', '...', '0', '42', 'x', 'Z', '-', '_', ':', ',', ';', '&', '(', ')', '[', ']', '{', '}', '|', '"', "'", '<', '>', '*', '/', '#', '~', '+', '\u00a0', '\u3000', '\u0085', 'é', '漢', '\ud83d\ude00'];
    for (let n = 0; n < 20_000; n += 1) {
      const word = Array.from({ length: 1 + random(9) }, () => parts[random(parts.length)] as string).join('');
      expect(maskWord(word), word).toBe(maskWordByPatterns(word));
    }
  });

  it('knows whitespace as regular expressions do', () => {
    for (let c = 0; c < 0x10000; c += 1) expect(isSpace(c), c.toString(16)).toBe(/\s/.test(String.fromCharCode(c)));
  });
});
