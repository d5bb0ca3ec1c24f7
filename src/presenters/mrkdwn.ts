import { redactSecrets } from '../domain/untrusted/redact.js';

/**
 * Escapes text for Slack mrkdwn. Slack only treats `<…>` as links and mentions, so escaping
 * `&`, `<` and `>` is what stops a log line from forging `<https://evil|docs>` or `<!channel>`.
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Cuts at `max` characters with an ellipsis, never splitting an `&amp;` entity in half. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, Math.max(0, max - 1));
  const amp = cut.lastIndexOf('&');
  if (amp >= 0 && amp > cut.length - 6 && !cut.slice(amp).includes(';')) cut = cut.slice(0, amp);
  return `${cut}…`;
}

/**
 * Every piece of untrusted text (logs, model output, docs, diffs) goes through here: secrets
 * redacted, escaped, bare `@channel`-style words defused with a word joiner (Slack may parse them
 * where `verbatim` is off), and capped. The defusing comes after redaction, which strips invisible
 * characters.
 */
export function untrusted(text: string, max: number): string {
  return truncate(defuse(escapeMrkdwn(redactSecrets(text))), max);
}

/**
 * Names Medic made itself (branch names, incident ids): escaped and capped, never redacted — a
 * timestamped branch can look like a card number to the redactor, and it is no secret.
 */
export function generated(text: string, max: number): string {
  return truncate(escapeMrkdwn(text), max);
}

/** Untrusted text for a code block: also breaks any ``` so content cannot close the fence. */
export function untrustedCode(text: string, max: number): string {
  return truncate(defuse(escapeMrkdwn(redactSecrets(text))).replace(/```/g, '`\u200b``'), max);
}

function defuse(text: string): string {
  return text.replace(/@(channel|here|everyone)\b/gi, '@\u2060$1');
}

/**
 * Text for `plain_text` objects (headers, modal text). Slack does not parse them for links or
 * mentions, but its escaping rule covers every text field, so they get the same treatment.
 */
export function plain(text: string, max: number): string {
  return untrusted(text, max);
}

/** A mrkdwn section. `verbatim` stops Slack from auto-linking names and channels in the text. */
export function section(text: string, blockId?: string): Record<string, unknown> {
  return { type: 'section', ...(blockId ? { block_id: blockId } : {}), text: { type: 'mrkdwn', text: truncate(text, 3_000), verbatim: true } };
}

export function context(text: string): Record<string, unknown> {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: truncate(text, 2_000), verbatim: true }] };
}
