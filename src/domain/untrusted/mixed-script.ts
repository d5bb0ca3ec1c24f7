/**
 * Identifiers written in more than one script (`isAdmіn` with a Cyrillic і): they read as one
 * name and are another to the compiler, so a fix can define or call a look-alike. Judged as
 * Unicode's "highly restrictive" level does (UTS #39): one script, or Latin with the scripts
 * written together in Chinese, Japanese or Korean code; anything else is mixed.
 */
const SCRIPTS = [
  'Latin', 'Greek', 'Cyrillic', 'Armenian', 'Hebrew', 'Arabic', 'Syriac', 'Thaana', 'Devanagari', 'Bengali', 'Gurmukhi',
  'Gujarati', 'Tamil', 'Telugu', 'Kannada', 'Malayalam', 'Thai', 'Lao', 'Tibetan', 'Myanmar', 'Georgian', 'Hangul',
  'Ethiopic', 'Cherokee', 'Canadian_Aboriginal', 'Ogham', 'Runic', 'Khmer', 'Mongolian', 'Hiragana', 'Katakana',
  'Bopomofo', 'Han', 'Coptic', 'Glagolitic', 'Tifinagh', 'Vai', 'Lisu', 'Osage', 'Adlam',
].map((name) => ({ name, re: new RegExp(`\\p{Script=${name}}`, 'u') }));

const ALLOWED_TOGETHER = [new Set(['Latin', 'Han', 'Hiragana', 'Katakana']), new Set(['Latin', 'Han', 'Bopomofo']), new Set(['Latin', 'Han', 'Hangul'])];

const IDENTIFIER = /[\p{L}\p{M}\p{N}_$]{2,256}/gu;
const NOT_ASCII = /[\u0080-\uffff]/;
// Letters of no script of their own (the Japanese long-vowel mark ー) go with any.
const LETTER = /(?![\p{Script=Common}\p{Script=Inherited}])\p{L}/u;

export interface MixedScriptIdentifier {
  identifier: string;
  scripts: string[];
}

function scriptOf(char: string): string {
  return SCRIPTS.find(({ re }) => re.test(char))?.name ?? 'Other';
}

/** The identifiers of `text` whose letters mix scripts, each once, in order. */
export function findMixedScriptIdentifiers(text: string): MixedScriptIdentifier[] {
  if (!NOT_ASCII.test(text)) return [];
  const found = new Map<string, string[]>();
  for (const [identifier] of text.matchAll(IDENTIFIER)) {
    if (found.has(identifier) || !NOT_ASCII.test(identifier)) continue;
    const scripts = new Set<string>();
    for (const char of identifier) if (LETTER.test(char)) scripts.add(char < '\u0080' ? 'Latin' : scriptOf(char));
    if (scripts.size > 1 && !ALLOWED_TOGETHER.some((allowed) => [...scripts].every((s) => allowed.has(s)))) found.set(identifier, [...scripts]);
  }
  return [...found].map(([identifier, scripts]) => ({ identifier, scripts }));
}
