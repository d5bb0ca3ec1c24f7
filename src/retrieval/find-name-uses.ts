/**
 * Which repository files mention some names, as whole words: what a revert's consistency check
 * asks of the rest of the repository. Reads go through the CodeRepository port (the gateway in the
 * pipeline), at most `maxFiles` of them; a file the repository will not read as text (binary, too
 * large) mentions nothing.
 */
import { countMentions } from '../domain/declared-names.js';
import type { CodeRepository } from '../ports/code.js';

export const DEFAULT_MAX_FILES_READ = 2_000;
const PARALLEL_READS = 8;

export interface NameUses {
  /** Each name and the files (besides the excluded one) that mention it. */
  usedIn: Map<string, string[]>;
  /** False when the repository has more files than were read. */
  complete: boolean;
}

export async function findNameUses(repo: Pick<CodeRepository, 'listFiles' | 'readFile'>, names: readonly string[], options: { exclude: string; maxFiles?: number }): Promise<NameUses> {
  const usedIn = new Map<string, string[]>(names.map((n) => [n, []]));
  if (names.length === 0) return { usedIn, complete: true };
  const all = (await repo.listFiles()).filter((f) => f !== options.exclude);
  const files = all.slice(0, options.maxFiles ?? DEFAULT_MAX_FILES_READ);
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++]!;
      const text = await repo.readFile(file).catch(() => undefined);
      if (text === undefined) continue;
      for (const name of names) if (countMentions(text, name) > 0) usedIn.get(name)?.push(file);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, files.length) }, worker));
  for (const users of usedIn.values()) users.sort();
  return { usedIn, complete: files.length === all.length };
}
