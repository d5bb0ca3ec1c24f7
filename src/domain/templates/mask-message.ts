export const WILDCARD = '<*>';

export interface MaskLimits {
  /** Characters of a message looked at; the rest is ignored (a 1 MB line costs no more than this). */
  maxMessageLength: number;
  /** Tokens kept per message. */
  maxTokens: number;
  /** Characters kept per token. */
  maxTokenLength: number;
}

export const defaultMaskLimits: MaskLimits = { maxMessageLength: 4096, maxTokens: 64, maxTokenLength: 256 };

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';

// Spans that are variable as a whole and may hold spaces or the separators words are cut at, in
// the order they are masked. A span runs only when its hint is in the message (or, for spans
// that cannot match without a digit, when the message holds one), and each pattern opens with a
// lookahead on its first character: both keep masking cheap on long messages.
const SPANS: { hint?: string; needsDigit?: boolean; pattern: RegExp }[] = [
  { hint: '://', pattern: /[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^\s"'<>]+/g }, // url
  { hint: '@', pattern: /[\w.+-]+@[a-zA-Z][\w-]*(?:\.[\w-]+)+/g }, // email
  { hint: '=', pattern: /(?<==)(?:"[^"]*"|'[^']*')/g }, // quoted value of key=value
  { hint: ':\\', pattern: /\b[A-Za-z]:\\[^\s,;'"]*/g }, // windows path
  { hint: '-', pattern: /\b(?=[0-9a-fA-F]{8}-)[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}/g }, // uuid
  {
    // ctime or syslog time: "Fri Jul 1 12:34:56 PDT 2005", "Jul 1 12:34:56"
    needsDigit: true,
    pattern: new RegExp(
      `\\b(?=[A-Z])(?:${DAY},?\\s+)?${MONTH}\\s+\\d{1,2},?\\s+(?:\\d{4}\\s+)?\\d{1,2}:\\d{2}(?::\\d{2})?(?:\\s+[A-Z]{2,5}\\b)?(?:\\s+\\d{4}\\b)?`,
      'g',
    ),
  },
  { pattern: /\b(?=[0-9a-fA-F]{2}[:-])[0-9a-fA-F]{2}(?:[:-][0-9a-fA-F]{2}){5}\b/g }, // mac
  {
    needsDigit: true,
    pattern: new RegExp(
      `(?=[-\\d[])(?:${[
        /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/, // iso datetime
        /\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?/, // ipv4[:port]
        /-?\d+(?:\.\d+)?\s?(?:[KMGTP]i?B|B|bytes|ms|us|ns|s|sec|secs|seconds|min|mins|minutes|h|hours|days)\b/, // size, duration
        /0[xX][0-9a-fA-F]+/, // hex literal
        /\[\d[\d.:-]*(?:[\s\\,;]+\d[\d.:-]*)+\]/, // list of numbers
      ]
        .map((p) => p.source)
        .join('|')})`,
      'g',
    ),
  },
  { hint: '/', pattern: /(?<![\w.])(?:\.{1,2}|~)?(?:\/[\w.$@+-]*){2,}/g }, // unix path
];
// eslint-disable-next-line no-control-regex -- matching control bytes is the point: binary input
const CONTROL = /[\u0000-\u0008\u000e-\u001f\u007f]+/g;
const DIGIT = /\d/;

// Inside a word: the value of `key=`, then every piece between separators that holds a digit or
// an already masked span ("node-<*>", "blk_-42"). A run of dots is filler ("depth.....0").
// Booleans stay: `force=true` and `force=false` are usually different code paths.
const KEY_VALUE = /(?<=[A-Za-z_][\w.-]*=)(?!(?:true|false|null)(?:[,;&)\]}\s]|$))[^,;&)\]}\s]+/gi;
const MAY_MASK = /[\d=]|<\*>/;
const MASKED = /<\*>/g;
const MARK = '\u0001';
// Maximal runs only, tested afterwards: a pattern that must find a digit inside backtracks
// quadratically on long digit-free words.
const PIECE = /(?:[^=:,(){}[\]|"';<>\s.]|\.(?!\.))+/g;
// eslint-disable-next-line no-control-regex -- \u0001 stands in for an already masked span
const VARIABLE_PIECE = /[\d\u0001]/;
const JOINED_WILDCARDS = /<\*>(?:[-.:_/,+#~]+<\*>)+/g;
// Words looked at per token kept: a message of 2,000 numbers costs no more than a few hundred.
const WORDS_PER_TOKEN = 4;

/**
 * Splits a message into words and replaces what looks variable with `<*>`: numbers and anything
 * holding a digit, ids, addresses, paths, times, sizes, `key=` values. Runs of values and repeated
 * value lists collapse, so a list's length does not make a new template.
 */
export function maskMessage(message: string, limits: MaskLimits = defaultMaskLimits): string[] {
  const text = message.length > limits.maxMessageLength ? message.slice(0, limits.maxMessageLength) : message;
  let masked = text.replace(CONTROL, ' ');
  const hasDigit = DIGIT.test(masked);
  for (const { hint, needsDigit, pattern } of SPANS) {
    if (needsDigit && !hasDigit) continue;
    if (hint === undefined || masked.includes(hint)) masked = masked.replace(pattern, WILDCARD);
  }
  const words = masked.split(/\s+/, limits.maxTokens * WORDS_PER_TOKEN);
  const tokens: string[] = [];
  for (const word of words) {
    if (tokens.length === limits.maxTokens) break;
    if (word === '') continue;
    tokens.push(maskWord(word.length > limits.maxTokenLength ? word.slice(0, limits.maxTokenLength) : word));
    collapseRepeat(tokens);
  }
  return tokens;
}

function maskWord(word: string): string {
  if (word === WILDCARD || !MAY_MASK.test(word)) return word;
  return word
    .replace(KEY_VALUE, WILDCARD)
    .replace(MASKED, MARK)
    .replace(PIECE, (piece) => (VARIABLE_PIECE.test(piece) ? WILDCARD : piece))
    .replace(JOINED_WILDCARDS, WILDCARD);
}

// "<*> <*>" → "<*>", and "<*> <ok> <*> <ok>" → "<*> <ok>": a repeated unit that holds a value.
function collapseRepeat(tokens: string[]): void {
  for (let unit = 1; unit <= 3 && unit * 2 <= tokens.length; unit += 1) {
    const end = tokens.length;
    let repeated = false;
    let holdsValue = false;
    for (let i = end - unit; i < end; i += 1) {
      if (tokens[i] !== tokens[i - unit]) break;
      if (tokens[i] === WILDCARD) holdsValue = true;
      repeated = i === end - 1;
    }
    if (repeated && holdsValue) {
      tokens.length = end - unit;
      return;
    }
  }
}
