/**
 * The clue fields of a log record: what a line says about why, beside its message. A plain line
 * writes them as `key=value` after the message (`decision=declined decline_reason=do_not_honor`,
 * `detail="connect ECONNREFUSED 10.2.0.14:8080"`); a JSON logger puts them in fields of their own
 * (`detail`, `cause`, `reason`, the serialized error's `err.message` and `err.code`). Evidence and
 * log windows show them on the record's first line, so the clue is never lost with the fields. Pure.
 */

import { recentMemo } from './recent-memo.js';

/** Field names (their last dotted segment) that say why, whatever the logger. */
const CLUE_NAME = /^(?:details?|cause|reason|failure|problem|description|error_description|errorMessage|error_message)$|(?:_|[a-z])(?:[Rr]eason|[Dd]etails?|[Cc]ause)$/;
/** The parts of a serialized error worth a line: pino's `err`, ECS's `error`, OpenTelemetry's `exception`. */
const ERROR_OBJECT = /^(?:err|error|exception|exc|cause)\.(?:message|code|type|errno|syscall|address|port|reason|detail|cause)$/;
/** A top-level string named for an error, when it is not the record's message. */
const ERROR_TEXT = /^(?:err|error|exception|errorMessage|error_message)$/;

const MAX_CLUES = 8;
const MAX_VALUE = 512;

/** A logger's field names repeat on every record: each is judged once. */
const judged = recentMemo<boolean>(4_096);

export function isClueField(name: string): boolean {
  return judged(name, () => {
    const last = name.slice(name.lastIndexOf('.') + 1);
    return ERROR_TEXT.test(name) || ERROR_OBJECT.test(name) || CLUE_NAME.test(last);
  });
}

/**
 * A structured record's clue fields, in the record's order: at most eight, none that only repeats
 * what the first line of `text` (the message as shown) already says, each value capped.
 */
export function clueFields(fields: Record<string, string>, text = ''): [string, string][] {
  const shown = text.split('\n', 1)[0] ?? '';
  const clues: [string, string][] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (clues.length >= MAX_CLUES) break;
    if (!isClueField(name)) continue;
    const trimmed = value.trim();
    if (trimmed === '' || shown.includes(trimmed)) continue;
    clues.push([name, trimmed.length > MAX_VALUE ? `${trimmed.slice(0, MAX_VALUE - 1)}…` : trimmed]);
  }
  return clues;
}

/** `key=value`, the value quoted when it holds a space or a quote, as a plain logger writes it. */
export function formatClue([name, value]: [string, string]): string {
  return /[\s"=]/.test(value) || value === '' ? `${name}="${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n|\r/g, ' ⏎ ')}"` : `${name}=${value}`;
}

/** `text` with the clues appended to its first line (a stack, when there is one, stays below it). */
export function withClues(text: string, clues: readonly [string, string][]): string {
  if (clues.length === 0) return text;
  const suffix = clues.map(formatClue).join(' ');
  const newline = text.indexOf('\n');
  return newline === -1 ? `${text} ${suffix}` : `${text.slice(0, newline)} ${suffix}${text.slice(newline)}`;
}

/** An event's text as evidence shows it: its raw text with its clue fields on the first line. */
export function evidenceText(event: { raw: string; message: string; fields?: Record<string, string> }): string {
  const text = event.raw || event.message;
  return withClues(text, clueFields(event.fields ?? {}, text));
}
