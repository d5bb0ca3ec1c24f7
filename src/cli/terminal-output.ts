/**
 * What the command-line tool prints holds text from logs, the model and git. It passes the same
 * redaction as every other text leaving Medic — except code (a proposal's diff and file contents),
 * which is what `approve` binds to and is shown whole, its secret-shaped lines flagged, never
 * masked. A terminal escape in it could recolour, erase
 * or rewrite the lines around it (an added line can erase itself), so control, escape and
 * invisible characters are shown as visible escapes (`\x1b[2K`, `\u{202e}`); tab and newline stay.
 */
import { Writable } from 'node:stream';
import { revealInvisible } from '../domain/untrusted/invisible.js';
import { redactSecrets } from '../domain/untrusted/redact.js';
import type { CliIo } from './command.js';

export function terminalText(text: string): string {
  // Reveal first: redaction strips invisibles, and the reader should see they were there.
  return redactSecrets(revealInvisible(text));
}

// Whatever revealInvisible would escape, except newline and tab (JSON never holds them raw),
// matched as UTF-16 units because the escapes are written per unit. Built from a string: some of
// these code points are combining marks, which lint reads as misleading in a character class.
const HIDDEN_IN_JSON = new RegExp(
  // eslint-disable-next-line no-misleading-character-class -- each listed code point is matched alone, on purpose
  '[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u00ad\\u034f\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f' +
    '\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u206f\\u3164\\ufe00-\\ufe0f\\ufeff\\uffa0\\ufff9-\\ufffb]|[\\udb40-\\udb43][\\udc00-\\udfff]',
  'g',
);

/** Code as it will be pushed: never redacted, hidden characters shown as escapes (tab and newline stay). */
export function terminalCode(text: string): string {
  return revealInvisible(text);
}

function revealing(target: Writable): Writable {
  return new Writable({
    decodeStrings: false,
    write(chunk: Buffer | string, _encoding, done) {
      target.write(terminalText(typeof chunk === 'string' ? chunk : chunk.toString('utf8')));
      // Done at once: the target buffers, and a command's output must not wait on a slow reader.
      done();
    },
  });
}

/** The same io, with standard output and error made safe for a terminal. */
export function terminalIo(io: CliIo): CliIo {
  return { ...io, stdout: revealing(io.stdout), stderr: revealing(io.stderr) };
}

function safeStrings(value: unknown, codeKeys: ReadonlySet<string>, key = ''): unknown {
  // Code stays exact; jsonSafe escapes its hidden characters once the whole value is written.
  if (typeof value === 'string') return codeKeys.has(key) ? value : terminalText(value);
  if (Array.isArray(value)) return value.map((item) => safeStrings(item, codeKeys, key));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, safeStrings(v, codeKeys, k)]));
  return value;
}

/**
 * Machine-read JSON lines (`templates`, `locate`) keep their data exact: hidden characters, which
 * JSON.stringify leaves raw, are written as `\uXXXX` escapes, so the line parses back to the same
 * strings and a terminal shows nothing raw.
 */
export function jsonSafe(json: string): string {
  return json.replace(HIDDEN_IN_JSON, (char) => [...Array(char.length).keys()].map((i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''));
}

/**
 * JSON for a terminal or a pipe: every string redacted and its hidden characters shown as escapes,
 * except the strings under `codeKeys` (a proposal's `diff`, `before`, `after`): exact, with hidden
 * characters written as `\uXXXX`.
 */
export function terminalJson(value: unknown, indent?: number, codeKeys: ReadonlySet<string> = new Set()): string {
  return jsonSafe(JSON.stringify(safeStrings(value, codeKeys), null, indent));
}
