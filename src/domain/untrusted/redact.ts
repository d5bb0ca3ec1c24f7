/**
 * Secret redaction: the first stage for every untrusted text that leaves Medic (to the model,
 * embeddings, Slack, git, the logs or the terminal). Each secret becomes a labelled marker.
 * Three passes, each linear in the text: Medic's own configured secrets by value; values whose
 * name is secret-ish (key-values.ts); and secrets with a shape of their own (vendor prefixes,
 * JWTs, keys in URLs, random-looking strings, checksummed personal numbers).
 */
import { IDENTITY_NUMBERS } from './identity-numbers.js';
import { stripInvisible } from './invisible.js';
import { redactKeyValues } from './key-values.js';
import { redactKnownSecrets } from './known-secrets.js';
import { PEM_BLOCK, PREFIXED_TOKENS, RANDOM_TOKEN, redactUrlCredentials, SPANNING_SHAPES, TOKEN_RUN, type ShapeRule } from './token-shapes.js';

export { luhnValid } from './identity-numbers.js';

export interface RedactOptions {
  /** Email addresses are personal data rather than secrets; redact them where they are not needed. */
  emails?: boolean;
  /** Source code: a secret-ish name counts only with a literal value (`password = "…"`). */
  code?: boolean;
}

const EMAIL: ShapeRule = { label: 'email', re: /(?<![\w.%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}\b/g };

function applyShape(text: string, { label, re, accept, keepFirstGroup, hints }: ShapeRule): string {
  if (hints && !hints.some((hint) => text.includes(hint))) return text;
  return text.replace(re, (match: string, first: unknown) => {
    if (match.startsWith('[REDACTED') || (accept && !accept(match))) return match;
    return keepFirstGroup && typeof first === 'string' ? `${first}[REDACTED:${label}]` : `[REDACTED:${label}]`;
  });
}

/**
 * Replaces every secret Medic can recognise with `[REDACTED:<label>]`. Invisible characters are
 * removed first: a zero-width space inside a token would otherwise hide it from every rule. A text
 * whose compatibility form (NFKC: fullwidth `ｐａｓｓｗｏｒｄ＝`, ligatures, styled letters) reveals
 * more secrets than it shows is returned in that form, redacted; any other text keeps its own
 * characters.
 */
export function redactSecrets(text: string, options: RedactOptions = {}): string {
  const out = redactShown(text, options);
  if (!NOT_ASCII.test(text)) return out;
  const folded = text.normalize('NFKC');
  // Every rule reads ASCII names and shapes: a fold that adds no ASCII character can reveal nothing.
  if (asciiCount(folded) <= asciiCount(text)) return out;
  const redacted = redactShown(folded, options);
  return markers(redacted) > markers(out) ? redacted : out;
}

const NOT_ASCII = /[\u0080-\uffff]/;
const markers = (text: string) => text.split('[REDACTED:').length;

function asciiCount(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) < 0x80) n++;
  return n;
}

function redactShown(text: string, options: RedactOptions): string {
  let out = redactKnownSecrets(stripInvisible(text));
  // Shapes first: a vendor token is labelled by its vendor even when it also stands after `token=`.
  // Short texts (one log line of many) skip the passes that cannot match them.
  const long = out.length >= 20;
  out = applyShape(out, PEM_BLOCK);
  if (long) out = out.replace(TOKEN_RUN, (run) => PREFIXED_TOKENS.reduce(applyShape, run));
  for (const rule of SPANNING_SHAPES) out = applyShape(out, rule);
  out = redactKeyValues(redactUrlCredentials(out), { literalsOnly: options.code });
  if (/\d/.test(out)) for (const rule of IDENTITY_NUMBERS) out = applyShape(out, rule);
  if (long) out = out.replace(TOKEN_RUN, (run) => applyShape(run, RANDOM_TOKEN));
  return options.emails ? applyShape(out, EMAIL) : out;
}

// A fenced block or a code span, each closed; its content is code, the rest is prose.
const CODE_PARTS = /```[\s\S]{0,20000}?```|`[^`\n]{1,2000}`/g;

/**
 * A document's text (markdown): its code, fenced or in spans, redacted as code — a secret-ish
 * name counts only with a literal value, so `authorizationId: body.authorizationId` is shown
 * whole — and its prose as any other text.
 */
export function redactDocText(text: string): string {
  let out = '';
  let at = 0;
  for (const match of text.matchAll(CODE_PARTS)) {
    out += redactSecrets(text.slice(at, match.index)) + redactSecrets(match[0], { code: true });
    at = match.index + match[0].length;
  }
  return out + redactSecrets(text.slice(at));
}

/** Every string inside a JSON-like value redacted (log fields, audit events bound for Splunk). */
export function redactDeep(value: unknown, redact: (text: string) => string = redactSecrets, depth = 0): unknown {
  if (typeof value === 'string') return redact(value);
  if (depth > 8 || value === null || typeof value !== 'object' || value instanceof Error) return value;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redact, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactDeep(item, redact, depth + 1)]));
}

/** The labels of the secrets found in a text, in order (e.g. `github-token`, `secret`). */
export function findSecrets(text: string, options: RedactOptions = {}): string[] {
  return [...redactSecrets(text, options).matchAll(/\[REDACTED:([a-z-]+)\]/g)].map((m) => m[1] ?? 'secret');
}
