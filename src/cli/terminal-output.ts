/**
 * What the command-line tool prints holds text from logs, the model and git. It passes the same
 * redaction as every other text leaving Medic, and a terminal escape in it could recolour, erase
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

function safeStrings(value: unknown): unknown {
  if (typeof value === 'string') return terminalText(value);
  if (Array.isArray(value)) return value.map(safeStrings);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, safeStrings(v)]));
  return value;
}

/** JSON for a terminal or a pipe: every string redacted and its hidden characters shown as escapes. */
export function terminalJson(value: unknown, indent?: number): string {
  return JSON.stringify(safeStrings(value), null, indent);
}
