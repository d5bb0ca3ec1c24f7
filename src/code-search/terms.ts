/**
 * The words code search ranks by: identifiers from the error text, split at camelCase and
 * snake_case, lower-cased, minus words every error or every program says (they point nowhere).
 */
const GENERIC = new Set(
  (
    'a an and are as at be been but by can cannot could did do does for from got had has have if in into is it its may ' +
    'must no not of on or should so than that the then there this to was were when which while will with without ' +
    // error vocabulary: present in every error message, so it never tells files apart
    'error errors exception exceptions fail failed failure fatal warn warning info debug trace traceback stack ' +
    'panic panicked caused cause thrown throw raise raised unhandled uncaught unexpected expected invalid ' +
    'incident demo config problem occurred most recent call last line file function method object class type ' +
    'value values undefined null nil none nan true false read reading write properties property attribute ' +
    'index length message code status internal runtime system lang java util base main thread goroutine ' +
    'node module modules anonymous native async await new return src lib app srv usr home opt dist build ' +
    'js ts tsx jsx mjs cjs py rb go cs kt java php net com org www http https localhost request response ' +
    'handler handlers process processing run running service server client'
  ).split(' '),
);

export interface WeightedTerm {
  term: string;
  weight: number;
}

/** Longer runs are data (hashes, base64, padding), not names; cutting them keeps the scan linear. */
const MAX_WORD = 64;

/**
 * A word's camelCase, PascalCase, ACRONYMWord, snake_case and $-separated parts, in one pass
 * (regex splitting backtracks quadratically on long uppercase runs).
 */
const isUpper = (code: number) => code >= 65 && code <= 90;
const isLower = (code: number) => code >= 97 && code <= 122;
const isDigit = (code: number) => code >= 48 && code <= 57;

export function splitIdentifier(word: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c === 95 || c === 36) {
      if (i > start) parts.push(word.slice(start, i).toLowerCase());
      start = i + 1;
      continue;
    }
    if (!isUpper(c) || i === start) continue;
    const before = word.charCodeAt(i - 1);
    const after = i + 1 < word.length ? word.charCodeAt(i + 1) : 0;
    // fooBar, foo2Bar | HTTPResponse (the last capital of a run starts the next word)
    if (isLower(before) || isDigit(before) || (isUpper(before) && isLower(after))) {
      parts.push(word.slice(start, i).toLowerCase());
      start = i;
    }
  }
  if (word.length > start) parts.push(word.slice(start).toLowerCase());
  return parts;
}

function trimSeparators(word: string): string {
  let from = 0;
  let to = word.length;
  while (from < to && (word[from] === '_' || word[from] === '$')) from++;
  while (to > from && (word[to - 1] === '_' || word[to - 1] === '$')) to--;
  return word.slice(from, to);
}

const isWordStart = (code: number) => (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 36;
const isWordChar = (code: number) => isWordStart(code) || (code >= 48 && code <= 57);

/** Identifier-like words of a text, split into their parts, lower-cased, generic words dropped. */
export function extractTerms(text: string): string[] {
  const out: string[] = [];
  const keep = (term: string) => {
    if (term.length >= 3 && !GENERIC.has(term) && !(term.charCodeAt(0) >= 48 && term.charCodeAt(0) <= 57)) out.push(term);
  };
  for (let i = 0; i < text.length; ) {
    if (!isWordStart(text.charCodeAt(i))) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < text.length && isWordChar(text.charCodeAt(end))) end++;
    // Words under three characters hold no term; long runs are cut (see MAX_WORD).
    if (end - i >= 3) {
      const word = text.slice(i, Math.min(end, i + MAX_WORD));
      const whole = trimSeparators(word).toLowerCase();
      keep(whole);
      for (const part of splitIdentifier(word)) if (part !== whole) keep(part);
    }
    i = end;
  }
  return out;
}

/** Merges several sources of terms; a term found in several sources keeps its highest weight. */
export function weighTerms(sources: { text: string | undefined; weight: number }[]): WeightedTerm[] {
  const weights = new Map<string, number>();
  for (const { text, weight } of sources) {
    if (!text) continue;
    for (const term of extractTerms(text.slice(0, 20_000))) weights.set(term, Math.max(weights.get(term) ?? 0, weight));
  }
  return [...weights].map(([term, weight]) => ({ term, weight }));
}

/** Occurrences of a lower-case term in lower-case text, capped (a term repeated 50 times is not 50 times better). */
export function countOccurrences(haystack: string, term: string, cap = 8): number {
  let count = 0;
  for (let at = haystack.indexOf(term); at !== -1 && count < cap; at = haystack.indexOf(term, at + term.length)) count++;
  return count;
}
