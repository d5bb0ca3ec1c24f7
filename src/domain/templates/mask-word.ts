import { WILDCARD } from './wildcard.js';
import { CODE_0, CODE_9, CODE_DOT, CODE_EQUALS, CODE_LESS, CODE_MARK } from './char-codes.js';

// Inside a word: the value of `key=`, then every piece between separators that holds a digit or
// an already masked span ("node-<*>", "blk_-42"). A run of dots is filler ("depth.....0").
// Booleans stay: `force=true` and `force=false` are usually different code paths.
const KEY_VALUE = /(?<=[A-Za-z_][\w.-]*=)(?!(?:true|false|null)(?:[,;&)\]}\s]|$))[^,;&)\]}\s]+/gi;
const MASKED = /<\*>/g;
const EMPTY_VALUE = /^[A-Za-z_][\w.-]*=$/;
const MARK = '\u0001';
const JOINED_WILDCARDS = /<\*>(?:[-.:_/,+#~]+<\*>)+/g;


// Characters that end a piece: = : , ( ) { } [ ] | " ' ; < > and whitespace (a dot only when
// another follows it).
const ASCII_SEPARATOR = new Uint8Array(128);
for (const c of '=:,(){}[]|"\';<> \t\n\v\f\r') ASCII_SEPARATOR[c.charCodeAt(0)] = 1;

/** Whitespace as the regular expression `\s` has it: ECMAScript WhiteSpace and LineTerminator. */
export function isSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * Masks one word (no whitespace): the value of `key=`, then every piece between separators that
 * holds a digit or an already masked span, then runs of wildcards joined by punctuation
 * ("<*>-<*>.<*>" → "<*>"). Words without a digit, `=` or `<*>` stay as they are.
 */
export function maskWord(word: string, generation = 2): string {
  if (word === WILDCARD) return word;
  let digit = false;
  let equals = false;
  let less = false;
  for (let i = 0; i < word.length; i += 1) {
    const c = word.charCodeAt(i);
    if (c >= CODE_0 && c <= CODE_9) digit = true;
    else if (c === CODE_EQUALS) equals = true;
    else if (c === CODE_LESS) less = true;
  }
  if (!digit && !equals && !(less && word.includes(WILDCARD))) return word;
  // `peer=` with no value is the same field as `peer=10.0.0.1`: its value is empty, not absent.
  if (equals && generation >= 2 && word.charCodeAt(word.length - 1) === CODE_EQUALS && EMPTY_VALUE.test(word)) return `${word}${WILDCARD}`;
  let w = equals ? word.replace(KEY_VALUE, WILDCARD) : word;
  if (w.includes(WILDCARD)) w = w.replace(MASKED, MARK);
  w = maskPieces(w);
  const first = w.indexOf(WILDCARD);
  return first >= 0 && w.indexOf(WILDCARD, first + WILDCARD.length) >= 0 ? w.replace(JOINED_WILDCARDS, WILDCARD) : w;
}

/** Each maximal piece (a run of non-separators; a dot belongs unless a dot follows) holding a digit or a mark becomes `<*>`. */
function maskPieces(w: string): string {
  let out = '';
  let copied = 0;
  let i = 0;
  const n = w.length;
  while (i < n) {
    const start = i;
    let variable = false;
    for (; i < n; i += 1) {
      const c = w.charCodeAt(i);
      if (c === CODE_DOT) {
        if (i + 1 < n && w.charCodeAt(i + 1) === CODE_DOT) break;
      } else if (c < 128 ? ASCII_SEPARATOR[c] === 1 : isSpace(c)) break;
      else if ((c >= CODE_0 && c <= CODE_9) || c === CODE_MARK) variable = true;
    }
    if (variable) {
      out += w.slice(copied, start) + WILDCARD;
      copied = i;
    }
    if (i === start) i += 1;
  }
  return copied === 0 ? w : out + w.slice(copied);
}
