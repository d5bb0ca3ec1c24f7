import { redactDocText, redactSecrets } from '../domain/untrusted/redact.js';

/**
 * Escapes text for Slack mrkdwn. Slack only treats `<…>` as links and mentions, so escaping
 * `&`, `<` and `>` is what stops a log line from forging `<https://evil|docs>` or `<!channel>`.
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Mrkdwn has no backslash escape. A formatting character only opens or closes `*bold*`,
 * `_italic_`, `~strike~` or a code span at a word boundary, so a zero-width space on each side
 * makes it an ordinary, intra-word character: `<*>` in a title can no longer end the title's bold,
 * and three backticks in a log line can no longer open a code block that swallows the card.
 */
export const INERT = '\u200b';

/** The one escaper for untrusted text in mrkdwn: entities, then formatting characters made inert. */
export function escapeText(text: string): string {
  return escapeMrkdwn(text).replace(/[*_~`]/g, (c) => `${INERT}${c}${INERT}`);
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
 * Shortens prose to `max` characters, at a word boundary when one is near, and never inside a
 * ``` fenced block: a doc excerpt cut there would open a fence it never closes.
 */
export function clipProse(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, Math.max(0, max - 1));
  const fences = cut.match(/```/g)?.length ?? 0;
  if (fences % 2 === 1) cut = cut.slice(0, cut.lastIndexOf('```'));
  const space = cut.search(/\s\S*$/);
  if (space > cut.length * 0.7) cut = cut.slice(0, space);
  return `${cut.trimEnd()}…`;
}

/**
 * Every piece of untrusted prose (logs, model output, docs) goes through here: secrets redacted,
 * clipped (on the raw text, so no entity or inert pair is split), escaped, and bare
 * `@channel`-style words defused with a word joiner (Slack may parse them where `verbatim` is off).
 */
export function untrusted(text: string, max: number): string {
  return defuse(escapeText(clipProse(redactSecrets(text), max)));
}

/** A document's excerpt (markdown): as `untrusted`, with its code redacted as code (redactDocText). */
export function untrustedDoc(text: string, max: number): string {
  return defuse(escapeText(clipProse(redactDocText(text), max)));
}

/**
 * Names Medic made itself (branch names, incident ids): escaped and capped, never redacted — a
 * timestamped branch can look like a card number to the redactor, and it is no secret. They are
 * shown in code spans, so formatting characters stay as they are (copy-paste keeps working).
 */
export function generated(text: string, max: number): string {
  return truncate(escapeMrkdwn(text), max).replace(/`/g, "'");
}

/** A code span for a name: `` `src/a.ts` ``; a name holding a backtick is shown as escaped text. */
export function code(text: string, max = 200): string {
  const clipped = truncate(text, max);
  return clipped.includes('`') ? untrusted(clipped, max) : `\`${escapeMrkdwn(clipped)}\``;
}

/** Untrusted text for a code block: redacted, escaped, and no ``` left to close the fence early. */
export function untrustedCode(text: string, max: number): string {
  return breakFences(defuse(escapeMrkdwn(truncate(redactSecrets(text), max))));
}

/** Inside a code block only a run of three backticks matters; an inert mark breaks each run. */
export function breakFences(text: string): string {
  return text.replace(/`(?=``)/g, `\`${INERT}`);
}

export function defuse(text: string): string {
  return text.replace(/@(channel|here|everyone)\b/gi, '@\u2060$1');
}

/**
 * Text for `plain_text` objects (headers, modal text): Slack renders no markup there, so only
 * the entities are escaped — once — and secrets redacted.
 */
export function plain(text: string, max: number): string {
  // Capped again after escaping: `max` is Slack's hard limit here (150 for a header, 75 for a button).
  return truncate(defuse(escapeMrkdwn(clipProse(redactSecrets(text), max))), max);
}

/** A mrkdwn section. `verbatim` stops Slack from auto-linking names and channels in the text. */
export function section(text: string, blockId?: string): Record<string, unknown> {
  return { type: 'section', ...(blockId ? { block_id: blockId } : {}), text: { type: 'mrkdwn', text: truncate(text, 3_000), verbatim: true } };
}

/** A two-column `fields` section (Slack: at most 10 fields of 2,000 characters). */
export function fields(items: string[], blockId?: string): Record<string, unknown> {
  return {
    type: 'section', ...(blockId ? { block_id: blockId } : {}),
    fields: items.slice(0, 10).map((text) => ({ type: 'mrkdwn', text: truncate(text, 2_000), verbatim: true })),
  };
}

export function context(text: string): Record<string, unknown> {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: truncate(text, 2_000), verbatim: true }] };
}
