/**
 * Secret redaction: the first stage for every untrusted text that leaves Medic (to the model,
 * Slack, git or the logs). Each rule replaces the secret with a labelled marker.
 */
import { stripInvisible } from './invisible.js';

export interface RedactOptions {
  /** Email addresses are personal data rather than secrets; redact them where they are not needed. */
  emails?: boolean;
}

type Rule = { label: string; re: RegExp; keep?: (match: string) => boolean };

const SECRET_KEYS =
  '[A-Za-z0-9_.-]*(?:password|passwd|pwd|passphrase|secret|api[_-]?key|apikey|access[_-]?key|account[_-]?key|private[_-]?key|signing[_-]?key|access[_-]?token|auth[_-]?token|refresh[_-]?token|id[_-]?token|session[_-]?token|bot[_-]?token|client[_-]?secret|credentials?)';

const RULES: Rule[] = [
  { label: 'private-key', re: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g },
  { label: 'aws-access-key', re: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}\b/g },
  { label: 'gcp-api-key', re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { label: 'gcp-oauth-token', re: /\bya29\.[0-9A-Za-z_-]{20,}/g },
  { label: 'slack-webhook', re: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]+/g },
  { label: 'slack-token', re: /\bxox[abposre]-[A-Za-z0-9-]{10,}|\bxapp-\d-[A-Za-z0-9-]{10,}/g },
  { label: 'github-token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})\b/g },
  { label: 'openai-key', re: /\bsk-(?:proj-|svcacct-|admin-|ant-)?[A-Za-z0-9_-]{20,}/g },
  { label: 'stripe-key', re: /\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}\b/g },
  { label: 'sendgrid-key', re: /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g },
  { label: 'npm-token', re: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { label: 'jwt', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { label: 'bearer', re: /\b(Bearer|Basic|Splunk|Token|Digest)\s+[A-Za-z0-9._~+/=-]{12,}/gi },
  { label: 'url-password', re: /(?<=[a-z][a-z0-9+.-]*:\/\/[^\s:/@[\]]*:)(?!\[REDACTED)[^\s@/]+(?=@)/gi },
  { label: 'sas-signature', re: /(?<=[?&](?:sig|signature|X-Amz-Signature|X-Goog-Signature)=)[^&\s"']+/gi },
  // Quotes may arrive escaped (backslash-quote) when a log line carries JSON inside a string.
  { label: 'secret', re: new RegExp(`(?<=\\b${SECRET_KEYS}(?:\\\\?["'])?\\s*[:=]\\s*(?:\\\\?["'])?)(?!\\[REDACTED)[^\\s"',;&\\\\]+`, 'gi') },
  { label: 'card', re: /\b\d(?:[ -]?\d){12,18}\b/g, keep: (match) => !luhnValid(match.replace(/\D/g, '')) },
];

const EMAIL: Rule = { label: 'email', re: /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b/g };

/** Card numbers are redacted only when they pass the Luhn check, so order ids and timestamps survive. */
export function luhnValid(digits: string): boolean {
  if (digits.length < 13 || digits.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * Replaces every secret shape Medic knows with `[REDACTED:<label>]`. Invisible characters are
 * removed first: a zero-width space inside a token would otherwise hide it from every rule.
 */
export function redactSecrets(text: string, options: RedactOptions = {}): string {
  let out = stripInvisible(text);
  const rules = options.emails ? [...RULES, EMAIL] : RULES;
  for (const { label, re, keep } of rules) {
    out = out.replace(re, (match) => (keep?.(match) ? match : `[REDACTED:${label}]`));
  }
  return out;
}
