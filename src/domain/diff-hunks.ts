/**
 * A one-file unified diff read by its structure: the file header, then hunks whose `@@` line says
 * how many old and new lines follow. Inside a hunk every line is content whatever it starts with —
 * an added `++x;` is written `+++x;`, a removed SQL comment `-- drop` is written `--- drop` — so
 * nothing may be dropped or classified by its prefix alone. The `diff` package's parser reads
 * hunks by their counts and refuses a diff whose counts do not add up.
 */
import { parsePatch } from 'diff';

export type DiffLineKind = 'hunk' | 'added' | 'removed' | 'context' | 'marker';

export interface DiffBodyLine {
  kind: DiffLineKind;
  /** The line as the diff writes it, with its one-character prefix (`+`, `-`, ` `, `\`). */
  text: string;
}

const KIND: Record<string, DiffLineKind> = { '+': 'added', '-': 'removed', ' ': 'context', '\\': 'marker' };

const FILE_HEADER = /^(?:Index: |diff |--- |\+\+\+ |=+$)/;

/**
 * Every hunk's header and content lines, in order, without the file header; undefined when the
 * text is not exactly one file's well-formed diff whose hunks account for every line after the
 * header (the caller then shows every line as it is).
 */
export function parseDiffBody(diff: string): DiffBodyLine[] | undefined {
  let files;
  try {
    files = parsePatch(diff);
  } catch {
    return undefined;
  }
  if (files.length !== 1) return undefined;
  const raw = diff.split('\n');
  if (raw[raw.length - 1] === '') raw.pop();
  let at = raw.findIndex((line) => line.startsWith('@@'));
  if (at < 0) at = raw.length;
  // The parser skips what it does not know before the first hunk; nothing unknown may hide there.
  if (!raw.slice(0, at).every((line) => FILE_HEADER.test(line))) return undefined;
  const out: DiffBodyLine[] = [];
  for (const hunk of files[0]?.hunks ?? []) {
    if (!raw[at]?.startsWith('@@')) return undefined;
    out.push({ kind: 'hunk', text: raw[at] ?? '' });
    at++;
    for (const line of hunk.lines) {
      if (raw[at] !== line) return undefined;
      out.push({ kind: KIND[line[0] ?? ' '] ?? 'context', text: line });
      at++;
    }
  }
  return at === raw.length ? out : undefined;
}
