/**
 * Characters that take no room yet change how text reads: C0/C1 controls (bar tab, newline and
 * carriage return), format characters (zero-width spaces and joiners, bidi overrides and isolates —
 * the "Trojan Source" trick — BOM, soft hyphen, tag characters), the combining grapheme joiner,
 * variation selectors and the blank-looking fillers. Stripped before text is checked or redacted.
 */
const ZERO_WIDTH = String.raw`[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\p{Cf}\u115F\u1160\u3164\uFFA0]|\u034F|\u17B4|\u17B5|\p{Variation_Selector}`;
/**
 * Shown, never stripped: characters that pass for others — carriage return (a terminal line
 * overwrites itself), every space that is not U+0020, line and paragraph separators, the braille
 * blank — and lone surrogate halves.
 */
const LOOKALIKE = String.raw`[\r\p{Zs}\p{Zl}\p{Zp}\u2800\uD800-\uDFFF]`;

// Combining marks (U+034F, U+17B4/5, the variation selectors) sit outside the class: a class would
// read them as joined to their neighbour. The `u` flag: linear, and code points rather than UTF-16 halves.
const STRIPPED = new RegExp(ZERO_WIDTH, 'gu');
const HIDDEN = new RegExp(`${ZERO_WIDTH}|${LOOKALIKE}`, 'gu');

export function isInvisible(code: number): boolean {
  STRIPPED.lastIndex = 0;
  return STRIPPED.test(String.fromCodePoint(code));
}

export function stripInvisible(text: string): string {
  return text.replace(STRIPPED, '');
}

/**
 * Replaces every hidden character (zero-width, control, look-alike space) with `mark(codePoint)`,
 * so an approver or operator sees exactly what a text holds; tab, newline and the space stay. One
 * set of characters, shown as each reader needs: escapes on a terminal, `⟨U+200B⟩` in Slack.
 */
export function markHidden(text: string, mark: (code: number) => string): string {
  return text.replace(HIDDEN, (char) => (char === ' ' ? char : mark(char.codePointAt(0) ?? 0)));
}

/** How many characters `markHidden` would mark. */
export function countHidden(text: string): number {
  let count = 0;
  for (const match of text.matchAll(HIDDEN)) if (match[0] !== ' ') count++;
  return count;
}

/** True when the text holds a character `markHidden` would mark. */
export function hasHiddenCharacters(text: string): boolean {
  return countHidden(text) > 0;
}

/** Hidden characters as escapes (`\x1b`, `\r`, `\u{202e}`), for terminals and plain text. */
export function revealInvisible(text: string): string {
  return markHidden(text, (code) => {
    if (code === 0x0d) return '\\r';
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
  });
}

/**
 * Folds compatibility look-alikes (fullwidth `＜`, small-form `﹤`, ligatures) into their plain
 * form, then strips invisibles, so a delimiter cannot be smuggled past the fence check.
 */
export function normalizeUntrusted(text: string): string {
  return stripInvisible(text.normalize('NFKC'));
}
