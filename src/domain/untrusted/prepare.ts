/**
 * The one path untrusted text takes to the model, always in this order: normalize (invisibles,
 * look-alikes) → redact secrets → compact to a budget → fence with a per-call nonce. Redaction
 * runs before compaction so a secret cut in half by a line cap is still caught whole.
 */
import { capText } from '../event.js';
import { compactLines, type UntrustedLine } from './compact.js';
import { fenceUntrusted } from './fence.js';
import { normalizeUntrusted } from './invisible.js';
import { redactSecrets, type RedactOptions } from './redact.js';
import { CHARS_PER_TOKEN, estimateTokens } from './tokens.js';

export interface PrepareOptions extends RedactOptions {
  label: string;
  nonce: string;
  maxTokens: number;
}

export interface PreparedSection {
  fenced: string;
  tokens: number;
  /** Ids shown inside the fence (log lines only). */
  shownIds: string[];
  omittedLines: number;
}

/** Normalized and redacted, not yet fenced: what Slack, git and logs should receive too. */
export function sanitizeUntrusted(text: string, options: RedactOptions = {}): string {
  return redactSecrets(normalizeUntrusted(text), options);
}

export function prepareText(text: string, options: PrepareOptions): PreparedSection {
  const capped = capText(sanitizeUntrusted(text, options), options.maxTokens * CHARS_PER_TOKEN);
  const fenced = fenceUntrusted(options.label, capped, options.nonce);
  return { fenced, tokens: estimateTokens(fenced), shownIds: [], omittedLines: 0 };
}

export function prepareLines(lines: UntrustedLine[], options: PrepareOptions & { maxLineChars: number; focus?: number }): PreparedSection {
  const clean = lines.map((line) => ({ ...line, text: sanitizeUntrusted(line.text, options) }));
  const compacted = compactLines(clean, { maxLineChars: options.maxLineChars, maxTokens: options.maxTokens, focus: options.focus });
  const fenced = fenceUntrusted(options.label, compacted.text || '(no lines)', options.nonce);
  return { fenced, tokens: estimateTokens(fenced), shownIds: compacted.shownIds, omittedLines: compacted.omittedLines };
}
