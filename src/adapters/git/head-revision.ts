import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

const SHA = /^[0-9a-f]{40,64}$/;

/** A file of a few dozen bytes, read in one call: a fraction of what an open/stat/read/close round trip costs. */
function readSmall(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/**
 * The commit a clone's HEAD points at, read from `.git` directly (HEAD, then the loose ref, then
 * packed-refs): a few small file reads instead of a `git rev-parse` process per lookup. Every
 * cached repository read asks, so HEAD and the loose ref are read synchronously (microseconds);
 * packed-refs, which can be large, is read asynchronously. Undefined when it cannot be told, so a
 * caller falls back to not caching.
 */
export async function readHeadRevision(workDir: string): Promise<string | undefined> {
  const gitDir = join(workDir, '.git');
  const head = readSmall(join(gitDir, 'HEAD')).trim();
  if (SHA.test(head)) return head;
  const ref = /^ref: (refs\/[\w./-]+)$/.exec(head)?.[1];
  if (!ref || ref.includes('..')) return undefined;
  const loose = readSmall(join(gitDir, ref)).trim();
  if (SHA.test(loose)) return loose;
  const packed = await readFile(join(gitDir, 'packed-refs'), 'utf8').catch(() => '');
  for (const line of packed.split('\n')) {
    const [sha, name] = line.split(' ');
    if (name === ref && sha && SHA.test(sha)) return sha;
  }
  return undefined;
}
