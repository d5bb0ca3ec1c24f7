import { CODEOWNERS_LOCATIONS, ownersOf, parseCodeOwners } from '../domain/codeowners.js';
import type { CodeRepository } from '../ports/code.js';

/** The CODEOWNERS owners of `file`, read from the clone where GitHub looks (the first file found wins). */
export async function findCodeOwners(repo: Pick<CodeRepository, 'readFile'>, file: string): Promise<string[]> {
  for (const location of CODEOWNERS_LOCATIONS) {
    const text = await repo.readFile(location);
    if (text !== undefined) return ownersOf(parseCodeOwners(text), file);
  }
  return [];
}
