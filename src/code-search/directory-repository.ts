/**
 * A read-only CodeRepository over a plain directory (or a git work tree read as files), for
 * `medic locate` and benchmarks. It never runs or imports anything from the directory.
 */
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { CodeRepository } from '../ports/code.js';
import { readRepoFile } from './safe-read.js';
import { NO_HISTORY } from './no-history.js';

// Directories that are never source: walking them costs time and they hold no candidates.
const SKIP_DIRS = new Set(['.git', 'node_modules', '.hg', '.svn', '.venv', 'venv', '__pycache__', '.medic']);
const MAX_FILES = 50_000;

export function createDirectoryRepository(dir: string): CodeRepository {
  const root = resolve(dir);

  async function walk(relDir: string, out: string[]): Promise<void> {
    const entries = await readdir(join(root, relDir), { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (out.length >= MAX_FILES) return;
      const rel = relDir ? `${relDir}/${entry.name}` : entry.name;
      // Symlinks are not followed: a link out of the tree must not widen what search reads.
      if (entry.isDirectory() && !SKIP_DIRS.has(entry.name)) await walk(rel, out);
      else if (entry.isFile()) out.push(rel);
    }
  }

  return {
    async check() {
      const files = await this.listFiles().catch(() => undefined);
      return { name: 'code repository', adapter: `directory ${root}`, ok: files !== undefined, detail: files ? `${files.length} files` : 'cannot read the directory' };
    },
    async sync() {},
    async listFiles() {
      const out: string[] = [];
      await walk('', out);
      return out;
    },
    readFile: (path) => readRepoFile(root, path),
    ...NO_HISTORY,
  };
}
