/**
 * A CodeRepository held in memory: a map of repository paths to contents. For benchmarks that
 * rebuild a real project's layout from its list of paths, and for tests of pure ranking.
 */
import type { CodeRepository } from '../ports/code.js';
import { assertRepoRelativePath } from './safe-read.js';
import { NO_HISTORY } from './no-history.js';

export function createMemoryRepository(files: Readonly<Record<string, string>>): CodeRepository {
  const paths = Object.keys(files).sort();
  return {
    async check() {
      return { name: 'code repository', adapter: 'memory', ok: true, detail: `${paths.length} files` };
    },
    async sync() {},
    async listFiles() {
      return [...paths];
    },
    async readFile(path) {
      assertRepoRelativePath(path);
      return Object.prototype.hasOwnProperty.call(files, path) ? files[path] : undefined;
    },
    ...NO_HISTORY,
  };
}
