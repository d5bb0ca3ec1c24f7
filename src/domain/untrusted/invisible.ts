/**
 * Characters that change how text reads without being seen: zero-width joiners and spaces, bidi
 * overrides and isolates (the "Trojan Source" trick), variation selectors, tag characters and
 * stray control characters. Listed as code point ranges, matched as one `u`-flag character class.
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

function rangeClass(ranges: [number, number][]): string {
  const hex = (code: number) => `\\u{${code.toString(16)}}`;
  return ranges.map(([from, to]) => (from === to ? hex(from) : `${hex(from)}-${hex(to)}`)).join('');
}

// Keep tab, newline and carriage return; every other C0/C1 control is noise or an attack.
// One character class with the `u` flag: linear, and code points rather than UTF-16 halves.
const INVISIBLE = new RegExp(`[${rangeClass([[0x00, 0x08], [0x0b, 0x0c], [0x0e, 0x1f], [0x7f, 0x9f], ...INVISIBLE_RANGES])}]`, 'gu');

export function isInvisible(code: number): boolean {
  INVISIBLE.lastIndex = 0;
  return INVISIBLE.test(String.fromCodePoint(code));
}

export function stripInvisible(text: string): string {
  return text.replace(INVISIBLE, '');
}

// The same characters plus carriage return, which lets a line overwrite itself on a terminal.
const HIDDEN = new RegExp(`[\\r${INVISIBLE.source.slice(1)}`, 'gu');

/**
 * Shows every invisible or control character as an escape (`\x1b`, `\u{202e}`) instead of removing
 * it: for an approver or operator who must see exactly what a text holds. Tab and newline stay.
 */
export function revealInvisible(text: string): string {
  return text.replace(HIDDEN, (char) => {
    const code = char.codePointAt(0) ?? 0;
    if (code === 0x0d) return '\\r';
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
  });
}

/** True when the text holds a character revealInvisible would show as an escape. */
export function hasHiddenCharacters(text: string): boolean {
  HIDDEN.lastIndex = 0;
  return HIDDEN.test(text);
}

/**
 * Folds compatibility look-alikes (fullwidth `＜`, small-form `﹤`, ligatures) into their plain
 * form, then strips invisibles, so a delimiter cannot be smuggled past the fence check.
 */
export function normalizeUntrusted(text: string): string {
  return stripInvisible(text.normalize('NFKC'));
}
