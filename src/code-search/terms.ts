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

/** Identifier-like words of a text, split into their parts, lower-cased, generic words dropped. */
export function extractTerms(text: string): string[] {
  const out: string[] = [];
  for (const word of text.match(/[A-Za-z_$][\w$]*/g) ?? []) {
    const parts = word
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
      .split(/[\s_$]+/)
      .map((p) => p.toLowerCase())
      .filter(Boolean);
    const whole = word.toLowerCase().replace(/^[_$]+|[_$]+$/g, '');
    for (const term of new Set([whole, ...parts])) {
      if (term.length >= 3 && !GENERIC.has(term) && !/^\d/.test(term)) out.push(term);
    }
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
