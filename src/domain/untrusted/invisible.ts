/**
 * Characters that change how text reads without being seen: zero-width joiners and spaces, bidi
 * overrides and isolates (the "Trojan Source" trick), variation selectors, tag characters and
 * stray control characters. Ranges, not a regex: combining marks confuse regex character classes.
 */
const INVISIBLE_RANGES: [number, number][] = [
  [0x00ad, 0x00ad], // soft hyphen
  [0x034f, 0x034f], // combining grapheme joiner
  [0x061c, 0x061c], // arabic letter mark
  [0x115f, 0x1160], // hangul fillers
  [0x17b4, 0x17b5],
  [0x180b, 0x180f], // mongolian selectors and vowel separator
  [0x200b, 0x200f], // zero-width space/joiners, LRM/RLM
  [0x202a, 0x202e], // bidi embeddings and overrides
  [0x2060, 0x206f], // word joiner, invisible operators, bidi isolates
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f], // variation selectors
  [0xfeff, 0xfeff], // byte-order mark / zero-width no-break space
  [0xffa0, 0xffa0],
  [0xfff9, 0xfffb], // interlinear annotations
  [0xe0000, 0xe0fff], // tag characters and supplementary variation selectors
];

function isInvisible(code: number): boolean {
  // Keep tab, newline and carriage return; every other C0/C1 control is noise or an attack.
  if (code < 0x20) return code !== 0x09 && code !== 0x0a && code !== 0x0d;
  if (code >= 0x7f && code <= 0x9f) return true;
  return INVISIBLE_RANGES.some(([from, to]) => code >= from && code <= to);
}

export function stripInvisible(text: string): string {
  let out = '';
  for (const char of text) {
    if (!isInvisible(char.codePointAt(0) ?? 0)) out += char;
  }
  return out;
}

/**
 * Folds compatibility look-alikes (fullwidth `＜`, small-form `﹤`, ligatures) into their plain
 * form, then strips invisibles, so a delimiter cannot be smuggled past the fence check.
 */
export function normalizeUntrusted(text: string): string {
  return stripInvisible(text.normalize('NFKC'));
}
