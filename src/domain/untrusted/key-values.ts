/**
 * Finds values by their shape — `name=value`, `name: value`, `"name": "value"`, `--name value`,
 * `?name=value&`, `<name>value</name>`, `Cookie: a=b; c=d`, `Authorization: Scheme value` — and
 * redacts those whose name is secret-ish (see secret-keys.ts). The finder is one regex of bounded
 * quantifiers tried once per word start; values are then read by hand, so the whole pass is linear
 * in the text whatever it holds.
 */
import { classifyKey, mayNameSecret, type KeyKind } from './secret-keys.js';
import { looksRandom } from './token-shapes.js';

// A name (optionally a -/-- flag) and its separator. Flags may take their value after spaces;
// prose names it with "is" or "was" ("the password is hunter2").
const FIELD = /(?<![\w.-])(?:(--?)([A-Za-z][\w.-]{0,63})(?:[ \t]{1,4}|=)|<([A-Za-z][\w.:-]{0,63})>|([A-Za-z][\w.-]{0,63})(\\?["'])?[ \t]{0,4}(?::=|=>|[:=])[ \t]{0,4}|([A-Za-z][\w-]{0,63})[ \t]{1,4}(?:is|was)[ \t]{1,4})/g;
// In prose the next word is a secret only if it is not a plain word: "is incorrect" says nothing.
const PLAIN_WORD = /^[A-Za-z]+[.,;:!?]*$/;

const STOP = new Set([' ', '\t', '\n', '\r', '"', "'", '`', ',', ';', '&', '\\', '<', '>']);
const QUOTES = new Set(['"', "'", '`']);
const MAX_VALUE = 4_096;
const SCHEME = /[A-Za-z][\w-]{0,20}[ \t]{1,4}/y;
const AUTH_SCHEMES = /^(?:bearer|basic|digest|token|negotiate|ntlm|splunk|apikey|api-key|sso-key|ssws|aws4-hmac-sha256|hmac|mac|oauth)$/i;

/** Values that say nothing secret: placeholders, booleans, masks, status words. */
const TRIVIAL = /^(?:|null|nil|none|undefined|true|false|yes|no|on|off|n\/a|\*+|x+|\.+|-+|redacted|masked|hidden|expired|invalid|missing|required|revoked|present|absent|provided|rejected|refreshed|ok|valid|unknown|empty|set|unset|default|\$\{[^}]*\}|\{\{[^}]*\}\}|\$[A-Z_][A-Z0-9_]*|%[sd]|<[^>]*>|\[REDACTED[^\]]*\]?)$/i;

interface Span {
  start: number;
  end: number;
}

export interface KeyValueOptions {
  /** Code names secrets in variables (`password = req.body.password`): only literal values count. */
  literalsOnly?: boolean;
}

/**
 * `indexOf` that remembers: fields are read left to right, so the next quote or newline after a
 * position is found once per occurrence, not once per field — a text of many unclosed quotes
 * would otherwise be searched to its end from every field.
 */
function createFinder(text: string): (needle: string, from: number) => number {
  const found = new Map<string, number>();
  return (needle, from) => {
    const cached = found.get(needle);
    if (cached !== undefined && (cached >= from || cached < 0)) return cached < 0 ? -1 : cached;
    const at = text.indexOf(needle, from);
    found.set(needle, at);
    return at;
  };
}

type Finder = ReturnType<typeof createFinder>;

function readValue(text: string, from: number, allowLeadingDash: boolean, find: Finder, literalsOnly = false): Span | undefined {
  let i = from;
  const escapedQuote = text[i] === '\\' && QUOTES.has(text[i + 1] ?? '');
  const quote = escapedQuote ? text[i + 1] : QUOTES.has(text[i] ?? '') ? text[i] : undefined;
  if (quote !== undefined) {
    const closer = escapedQuote ? `\\${quote}` : quote;
    const start = i + closer.length;
    const newline = find('\n', start);
    const limit = Math.min(text.length, start + MAX_VALUE, newline < 0 ? Infinity : newline);
    const end = find(closer, start);
    if (end >= start && end <= limit) return { start, end };
    i = start;
  }
  if (literalsOnly) return undefined;
  if (!allowLeadingDash && text[i] === '-') return undefined;
  if (text[i] === '{' || text[i] === '[') return undefined;
  const start = i;
  while (i < text.length && i - start < MAX_VALUE && !STOP.has(text[i] as string)) i++;
  return i > start ? { start, end: i } : undefined;
}

function readLineEnd(text: string, from: number, find: Finder): number {
  const newline = find('\n', from);
  return Math.min(newline < 0 ? text.length : newline, from + MAX_VALUE);
}

/** `a=1; b=2` (Cookie) or `a=1; Path=/` (Set-Cookie): every value of a Cookie, the first of a Set-Cookie. */
function redactCookie(line: string, all: boolean): string {
  let first = true;
  return line.replace(/([^;=\s"]{1,128}=)([^;"]*)/g, (match, name: string, value: string) => {
    if (!first && !all) return match;
    first = false;
    return value.trim() === '' || value.startsWith('[REDACTED') ? match : `${name}[REDACTED:cookie]`;
  });
}

// Logs repeat the same few field names; classifying each once keeps the pass cheap.
const classified = new Map<string, KeyKind | undefined>();
function classifyKeyCached(key: string): KeyKind | undefined {
  if (classified.has(key)) return classified.get(key);
  if (classified.size > 4_096) classified.clear();
  const kind = classifyKey(key);
  classified.set(key, kind);
  return kind;
}

function isSecretValue(kind: KeyKind, value: string): boolean {
  if (TRIVIAL.test(value)) return false;
  if (kind === 'weak') return looksRandom(value);
  if (kind === 'credential' && (/^(?:[A-Z][a-z]{0,15}|[A-Z]{1,16})$/.test(value) || /^[A-Za-z_$][\w.$]{0,127}[{(@]/.test(value))) return false;
  return true;
}

export function redactKeyValues(text: string, options: KeyValueOptions = {}): string {
  if (!mayNameSecret(text)) return text;
  let out = '';
  let copied = 0;
  const find = createFinder(text);
  FIELD.lastIndex = 0;
  for (let m = FIELD.exec(text); m !== null; m = FIELD.exec(text)) {
    const [, flag, flagKey, tagKey, plainKey, , proseKey] = m;
    const kind = classifyKeyCached(flagKey ?? tagKey ?? plainKey ?? proseKey ?? '');
    if (kind === undefined) continue;
    let from = FIELD.lastIndex;
    if (kind === 'cookie') {
      const end = readLineEnd(text, from, find);
      out += text.slice(copied, from) + redactCookie(text.slice(from, end), /^set/i.test(plainKey ?? '') === false);
      copied = end;
      FIELD.lastIndex = end;
      continue;
    }
    SCHEME.lastIndex = from;
    const scheme = tagKey === undefined ? SCHEME.exec(text) : null;
    if (scheme && AUTH_SCHEMES.test(scheme[0].trim())) from += scheme[0].length;
    else if (kind === 'authorization' && scheme) from += scheme[0].length;
    const span = tagKey !== undefined ? readTagValue(text, from, find) : readValue(text, from, flag === undefined, find, options.literalsOnly);
    if (!span) continue;
    // A token never ends in a closing bracket; `(auth:SIMPLE)` closes the text around it.
    if (kind !== 'secret') while (span.end > span.start && ')]}'.includes(text[span.end - 1] as string)) span.end--;
    const value = text.slice(span.start, span.end);
    // Past the value either way: reading it again from every later field would be quadratic.
    FIELD.lastIndex = Math.max(FIELD.lastIndex, span.end);
    if (!isSecretValue(kind, value) || (proseKey !== undefined && PLAIN_WORD.test(value))) continue;
    out += `${text.slice(copied, span.start)}[REDACTED:secret]`;
    copied = span.end;
    FIELD.lastIndex = span.end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

function readTagValue(text: string, from: number, find: Finder): Span | undefined {
  const end = find('<', from);
  if (end < 0 || end - from > MAX_VALUE || end === from) return undefined;
  return { start: from, end };
}
