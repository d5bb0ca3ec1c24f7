import { ErrorCode, MedicError } from '../../domain/errors.js';

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_.]{0,99}$/;
// Control characters cannot be written inside an SPL string; a space keeps the value inert.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/g;

/**
 * Quotes a value for SPL so it is one literal term, whatever it contains: backslashes and double
 * quotes are escaped, control characters become spaces. A pipe, bracket or keyword inside stays text.
 */
export function quoteSpl(value: string): string {
  return `"${value.replace(CONTROL, ' ').replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Field names come from configuration; anything that is not a plain identifier is refused. */
export function assertFieldName(name: string, setting: string): string {
  if (!FIELD_NAME.test(name)) {
    throw new MedicError(ErrorCode.ConfigInvalid, `${setting} has "${name.slice(0, 40)}", which is not a plain Splunk field name; use letters, digits, _ and .`);
  }
  return name;
}

/** `field="value"` with the value quoted. */
export function term(field: string, value: string): string {
  return `${field}=${quoteSpl(value)}`;
}

/** Pairs (field, value) OR-ed in parentheses; empty string when there are none. */
export function anyOf(terms: string[]): string {
  if (terms.length === 0) return '';
  return terms.length === 1 ? (terms[0] ?? '') : `(${terms.join(' OR ')})`;
}

/**
 * Splits an operator's base search into its first `search` segment and the rest of the pipeline,
 * so Medic's own terms join the first segment instead of landing after a pipe.
 */
export function splitBaseSearch(base: string, setting: string): { head: string; tail: string } {
  const trimmed = base.trim();
  if (trimmed.startsWith('|')) {
    throw new MedicError(ErrorCode.ConfigInvalid, `${setting} must start with an event search (e.g. "search index=main level=ERROR"), not a generating command.`);
  }
  const body = trimmed.replace(/^search\s+/i, '');
  const pipe = findTopLevelPipe(body);
  return pipe === -1 ? { head: body, tail: '' } : { head: body.slice(0, pipe).trim(), tail: body.slice(pipe).trim() };
}

function findTopLevelPipe(text: string): number {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && quoted) i++;
    else if (c === '"') quoted = !quoted;
    else if (c === '|' && !quoted) return i;
  }
  return -1;
}

/** Assembles `search <head> <terms…> <tail> | <commands…>`. */
export function buildSearch(base: { head: string; tail: string }, terms: string[], commands: string[]): string {
  const first = ['search', ...terms.filter(Boolean), base.head ? `(${base.head})` : ''].filter(Boolean).join(' ');
  return [first, base.tail.replace(/^\|\s*/, ''), ...commands].filter(Boolean).join(' | ');
}
