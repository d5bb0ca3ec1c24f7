import type { CodeRepository } from '../ports/code.js';

/** The history half of a repository that has none (a plain directory, files in memory): nothing to ask. */
export const NO_HISTORY: Pick<CodeRepository, 'recentChanges' | 'blame' | 'blameFunction' | 'commitFileChange'> = {
  recentChanges: async () => [],
  blame: async () => undefined,
  blameFunction: async () => undefined,
  commitFileChange: async () => undefined,
};
