import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let found: string | undefined;

/**
 * The directory Medic is installed in (the one holding its package.json), for the files it ships
 * beside its code (prompts, the sandbox page). Found by walking up, because this module runs both
 * from `src/` and from a chunk of the `dist/` bundle, whose locations differ.
 */
export function installDir(): string {
  if (found !== undefined) return found;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${fileURLToPath(import.meta.url)}: Medic's install is incomplete.`);
    dir = parent;
  }
  found = dir;
  return dir;
}
