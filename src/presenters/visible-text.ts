/**
 * Makes invisible and control characters visible, so what an approver reads is every character
 * that will be pushed: a zero-width space shows as ⟨U+200B⟩ instead of vanishing (or being
 * stripped, which would hide it). Newlines and tabs stay as they are: they are what they look like.
 *
 * Covered: C0/C1 controls (incl. CR, ESC, DEL), format characters (zero-width, bidi overrides and
 * isolates, BOM, soft hyphen, tag characters), line/paragraph separators, every space that is not
 * U+0020, variation selectors, the combining grapheme joiner and the blank-looking fillers.
 */
// Combining marks (U+034F, the variation selectors) sit outside the class: a class would read them as joined to their neighbour.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Zs}\u115F\u1160\u2800\u3164\uFFA0]|\u034F|\p{Variation_Selector}|[\uD800-\uDFFF]/gu;

function codePoint(char: string): string {
  const cp = char.codePointAt(0) ?? 0;
  return `⟨U+${cp.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

export function showInvisible(text: string): string {
  return text.replace(INVISIBLE, (char) => (char === '\n' || char === '\t' || char === ' ' ? char : codePoint(char)));
}

/** How many characters `showInvisible` would mark; the card says so next to the diff. */
export function countInvisible(text: string): number {
  let count = 0;
  for (const match of text.matchAll(INVISIBLE)) if (match[0] !== '\n' && match[0] !== '\t' && match[0] !== ' ') count++;
  return count;
}
