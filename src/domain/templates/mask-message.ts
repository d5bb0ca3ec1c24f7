import { maskWord } from './mask-word.js';
import { WILDCARD } from './wildcard.js';
import { CODE_COLON, CODE_DASH, CODE_EQUALS, CODE_GREATER, CODE_LESS, CODE_OPEN_CURLY, CODE_OPEN_ROUND, CODE_OPEN_SQUARE, CODE_TILDE } from './char-codes.js';

export { WILDCARD };

export interface MaskLimits {
  /** Characters of a message looked at; the rest is ignored (a 1 MB line costs no more than this). */
  maxMessageLength: number;
  /** Tokens kept per message. */
  maxTokens: number;
  /** Characters kept per token. */
  maxTokenLength: number;
}

export const defaultMaskLimits: MaskLimits = { maxMessageLength: 4096, maxTokens: 64, maxTokenLength: 256 };

/**
 * Which preprocessing made a template. 1: masking before structured tokens (dates in RFC 1123
 * form, empty `key=` values, bounded values, optional value groups) were recognised; 2: today's.
 * A store written by generation 1 keeps its families: see the miner's adoption of legacy groups.
 */
export const MASKING_GENERATION = 2;
export type MaskingGeneration = 1 | 2;

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';

// Characters a span cannot match without, noted in one pass over the message.
const HAS_CONTROL = 1;
const HAS_DIGIT = 2;
const HAS_COLON = 4;
const HAS_EQUALS = 8;
const HAS_DASH = 16;
const HAS_SLASH = 32;
const HAS_AT = 64;
const HAS_BACKSLASH = 128;
const CHARACTER_FLAGS = new Uint8Array(128);
for (let c = 0; c < 32; c += 1) if (c <= 8 || c >= 14) CHARACTER_FLAGS[c] = HAS_CONTROL;
CHARACTER_FLAGS[127] = HAS_CONTROL;
for (let c = 48; c <= 57; c += 1) CHARACTER_FLAGS[c] = HAS_DIGIT;
CHARACTER_FLAGS[CODE_COLON] = HAS_COLON;
CHARACTER_FLAGS['='.charCodeAt(0)] = HAS_EQUALS;
CHARACTER_FLAGS[CODE_DASH] = HAS_DASH;
CHARACTER_FLAGS['/'.charCodeAt(0)] = HAS_SLASH;
CHARACTER_FLAGS['@'.charCodeAt(0)] = HAS_AT;
CHARACTER_FLAGS['\\'.charCodeAt(0)] = HAS_BACKSLASH;

// Spans that are variable as a whole and may hold spaces or the separators words are cut at, in
// the order they are masked. A span runs only when the message holds every character it cannot
// match without (`needs`, and `hint` where one character says too little; a mac address needs
// five `:` or `-`), and each pattern opens with a lookahead on its first character: both keep
// masking cheap on long messages. Masking a span only takes characters away and puts `<*>`
// (none of those) in, so what the message lacked at the start it lacks at every later span.
const SPANS: { needs: number; hint?: string; colonsOrDashes?: number; since?: MaskingGeneration; month?: boolean; pattern: RegExp }[] = [
  { needs: HAS_COLON | HAS_SLASH, hint: '://', pattern: /[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^\s"'<>]+/g }, // url
  { needs: HAS_AT, pattern: /[\w.+-]+@[a-zA-Z][\w-]*(?:\.[\w-]+)+/g }, // email
  { needs: HAS_EQUALS, pattern: /(?<==)(?:"[^"]*"|'[^']*')/g }, // quoted value of key=value
  { needs: HAS_COLON | HAS_BACKSLASH, hint: ':\\', pattern: /\b[A-Za-z]:\\[^\s,;'"]*/g }, // windows path
  { needs: HAS_DASH, pattern: /\b(?=[0-9a-fA-F]{8}-)[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}/g }, // uuid
  {
    // Generation 2: RFC 1123 / 2822 and day-first dates ("Tue, 22 Aug 2017 10:42:02 GMT", "4 Mar
    // 2014"), and month-first dates without a time ("Mar 4, 2014"). Only messages naming a month.
    needs: HAS_DIGIT,
    since: 2,
    month: true,
    pattern: new RegExp(
      `(?=[\\dA-Z])(?:(?:\\b(?=[A-Z])${DAY},?\\s+)?\\b(?=\\d{1,2}[\\s-][A-Z])\\d{1,2}[\\s-]${MONTH}[\\s-]\\d{2,4}\\b(?:[\\s:T]+\\d{1,2}:\\d{2}(?::\\d{2}(?:[.,]\\d+)?)?)?(?:\\s+(?:[A-Z]{2,5}|[+-]\\d{4})\\b)?` +
        `|\\b(?=[A-Z])(?:${DAY},?\\s+)?${MONTH}\\s+\\d{1,2},?\\s+\\d{4}\\b(?!:))`,
      'g',
    ),
  },
  {
    // ctime or syslog time: "Fri Jul 1 12:34:56 PDT 2005", "Jul 1 12:34:56"
    needs: HAS_DIGIT | HAS_COLON,
    pattern: new RegExp(
      `\\b(?=[A-Z])(?:${DAY},?\\s+)?${MONTH}\\s+\\d{1,2},?\\s+(?:\\d{4}\\s+)?\\d{1,2}:\\d{2}(?::\\d{2})?(?:\\s+[A-Z]{2,5}\\b)?(?:\\s+\\d{4}\\b)?`,
      'g',
    ),
  },
  { needs: 0, colonsOrDashes: 5, pattern: /\b(?=[0-9a-fA-F]{2}[:-])[0-9a-fA-F]{2}(?:[:-][0-9a-fA-F]{2}){5}\b/g }, // mac
  {
    needs: HAS_DIGIT,
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
  { needs: HAS_SLASH, pattern: /(?<![\w.])(?:\.{1,2}|~)?(?:\/[\w.$@+-]*){2,}/g }, // unix path
];
const MONTH_NAME = new RegExp(`${MONTH}\\b`);
// eslint-disable-next-line no-control-regex -- matching control bytes is the point: binary input
const CONTROL = /[\u0000-\u0008\u000e-\u001f\u007f]+/g;

const NONZERO_DIGIT = /[1-9]/g;

/**
 * A stand-in that masks exactly as `message` does: every digit but 0 becomes 1. Masking sees
 * digits only as a class (`\d`, hex digits, word characters) but for the 0 of a `0x` literal,
 * never keeps a digit in a token, and cuts by position only; so messages that differ only in
 * their numbers, digit for digit, share one shape and one masked form.
 */
export function maskShape(message: string): string {
  return message.replace(NONZERO_DIGIT, '1');
}

// Words looked at per token kept: a message of 2,000 numbers costs no more than a few hundred.
const WORDS_PER_TOKEN = 4;

/**
 * Splits a message into words and replaces what looks variable with `<*>`: numbers and anything
 * holding a digit, ids, addresses, paths, times, sizes, `key=` values. Runs of values and repeated
 * value lists collapse, so a list's length does not make a new template.
 *
 * This is the preprocessing of Qin, Aghili, Li and Merlo, "Preprocessing is All You Need: Boosting
 * the Performance of Log Parsers With a General Preprocessing Framework" (2024), put in front of a
 * Drain-style tree (He et al., ICWS 2017): structured tokens — dates and times in their common
 * forms, host names, IP and MAC addresses, URLs, paths, hex, UUIDs, numbers with units, the values
 * of `key=value` (an empty value included) — become one `<*>` each before any token is compared,
 * so no system needs its own regular expressions. Generation 2 adds, as classes: a value written
 * with a bound or approximation (`<1 ms`, `~2s`) is a value; a group in brackets that holds only
 * values (`(2.0 KB)`, `[<*>]`) is optional detail and leaves the key, so messages with and
 * without it are one template.
 */
export function maskMessage(message: string, limits: MaskLimits = defaultMaskLimits, generation: MaskingGeneration = MASKING_GENERATION): string[] {
  const text = message.length > limits.maxMessageLength ? message.slice(0, limits.maxMessageLength) : message;
  let present = 0;
  let colonsOrDashes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c >= 128) continue;
    present |= CHARACTER_FLAGS[c] as number;
    if (c === CODE_COLON || c === CODE_DASH) colonsOrDashes += 1;
  }
  let masked = present & HAS_CONTROL ? text.replace(CONTROL, ' ') : text;
  let namesMonth: boolean | undefined;
  for (const span of SPANS) {
    if ((span.since ?? 1) > generation) continue;
    if (span.month && !(namesMonth ??= MONTH_NAME.test(masked))) continue;
    if ((present & span.needs) !== span.needs || colonsOrDashes < (span.colonsOrDashes ?? 0)) continue;
    if (span.hint === undefined || masked.includes(span.hint)) masked = masked.replace(span.pattern, WILDCARD);
  }
  const words = masked.split(/\s+/, limits.maxTokens * WORDS_PER_TOKEN);
  const tokens: string[] = [];
  for (const word of words) {
    if (tokens.length === limits.maxTokens) break;
    if (word === '') continue;
    const token = maskWord(word.length > limits.maxTokenLength ? word.slice(0, limits.maxTokenLength) : word, generation);
    // Generation 2's token rules look only at tokens that end in a value or open with a bracket.
    const last = token.charCodeAt(token.length - 1);
    const first = token.charCodeAt(0);
    if (generation < 2 || token === WILDCARD || (last !== CODE_GREATER && first !== CODE_OPEN_ROUND && first !== CODE_OPEN_SQUARE && first !== CODE_OPEN_CURLY && first !== CODE_LESS)) tokens.push(token);
    else {
      const bounded = last === CODE_GREATER ? boundedValue(token) : undefined;
      if (bounded !== undefined) tokens.push(bounded);
      else if (!dropValueGroup(tokens, token)) tokens.push(token);
    }
    collapseRepeat(tokens);
  }
  return tokens;
}


/**
 * `<<*>`, `>=<*>`, `~<*>`, `time<<*>`: a value written with a bound or an approximation is the
 * value, and `key<value` the field `key=value` (`time<1ms` beside `time=9ms`). Undefined when the
 * token is something else.
 */
function boundedValue(token: string): string | undefined {
  if (token.length <= WILDCARD.length || !token.endsWith(WILDCARD)) return undefined;
  const end = token.length - WILDCARD.length;
  let i = end;
  while (i > 0 && isBound(token.charCodeAt(i - 1))) i -= 1;
  if (i === end) return undefined;
  if (i === 0) return WILDCARD;
  return KEY.test(token.slice(0, i)) ? `${token.slice(0, i)}=${WILDCARD}` : undefined;
}

const KEY = /^[A-Za-z_][\w.-]*$/;

function isBound(c: number): boolean {
  return c === CODE_LESS || c === CODE_GREATER || c === CODE_TILDE || c === CODE_EQUALS || c === 0x2248 || c === 0x2264 || c === 0x2265;
}

const CLOSING: Record<number, string> = { [CODE_OPEN_ROUND]: ')', [CODE_OPEN_SQUARE]: ']', [CODE_OPEN_CURLY]: '}' };

/**
 * A bracketed group of values only — `(<*>)`, `[<*>]`, or `(<*>` … `<*>)` over several tokens —
 * is detail a message may or may not carry (`wrote 2048 bytes (2.0 KB)` / `wrote 0 bytes`): it
 * is left out of the key rather than aligned position by position. True when `token` was such a
 * group or closed one (whose opening tokens are then taken back off `tokens`).
 */
function dropValueGroup(tokens: string[], token: string): boolean {
  // Most tokens neither open with a bracket nor are a value closing one: two character looks.
  const open = token.charCodeAt(0);
  const close = CLOSING[open];
  if (close === undefined && open !== CODE_LESS) return false;
  const body = trimPunctuation(token);
  // A group the message opens with is always there (a kernel timestamp, a thread id): it stays.
  if (tokens.length === 0) return false;
  if (close !== undefined) return body.length === WILDCARD.length + 2 && body.endsWith(close) && body.startsWith(WILDCARD, 1);
  const last = body[body.length - 1];
  if ((last !== ')' && last !== ']' && last !== '}') || body.length !== WILDCARD.length + 1 || !body.startsWith(WILDCARD)) return false;
  // The group opened one or more tokens back: `(<*>` then only values.
  for (let i = tokens.length - 1; i > 0 && i >= tokens.length - 4; i -= 1) {
    const t = trimPunctuation(tokens[i] as string);
    if (t === WILDCARD) continue;
    if (t.length === WILDCARD.length + 1 && CLOSING[t.charCodeAt(0)] === last && t.endsWith(WILDCARD)) {
      tokens.length = i;
      return true;
    }
    return false;
  }
  return false;
}

/** The token without the `,;:.` that follow it. */
function trimPunctuation(token: string): string {
  let end = token.length;
  while (end > 0) {
    const c = token.charCodeAt(end - 1);
    if (c !== 44 && c !== 59 && c !== 58 && c !== 46) break;
    end -= 1;
  }
  return end === token.length ? token : token.slice(0, end);
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
