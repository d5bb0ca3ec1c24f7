/**
 * Secret redaction: the first stage for every untrusted text that leaves Medic (to the model,
 * Slack, git or the logs). Each rule replaces the secret with a labelled marker.
 */
const RULES: { label: string; re: RegExp }[] = [
  { label: 'private-key', re: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g },
  { label: 'aws-access-key', re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { label: 'slack-token', re: /\bxox[abprs]-[A-Za-z0-9-]{10,}\b/g },
  { label: 'github-token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})\b/g },
  { label: 'openai-key', re: /\bsk-(?:proj-)?[A-Za-z0-9_-]{20,}\b/g },
  { label: 'jwt', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g },
  { label: 'bearer', re: /\b(Bearer|Basic|Splunk|token)\s+[A-Za-z0-9._~+/=-]{12,}/gi },
  { label: 'url-password', re: /(?<=[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+(?=@)/gi },
  { label: 'secret', re: /(?<=\b(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret)["']?\s*[:=]\s*["']?)[^\s"',;&]+/gi },
  { label: 'card', re: /\b(?:\d[ -]?){13,19}\b/g },
];

export function redactSecrets(text: string): string {
  let out = text;
  for (const { label, re } of RULES) out = out.replace(re, `[REDACTED:${label}]`);
  return out;
}
