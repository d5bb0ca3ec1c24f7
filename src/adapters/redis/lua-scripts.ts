import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Medic's Redis scripts, kept as `.lua` files by duty under `lua/` (beside this module in the
 * sources; `dist/lua` in the build, which scripts/build.mjs copies there). A script is its parts
 * joined in order, one chunk: a part's top-level locals are what the parts after it use, each
 * part's header names what it uses and defines.
 */
function scriptsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 3; up++, dir = dirname(dir)) {
    const candidate = join(dir, 'lua');
    if (existsSync(join(candidate, 'ingest'))) return candidate;
  }
  throw new Error(`Medic's Redis scripts (lua/ingest/*.lua) are missing: looked beside ${fileURLToPath(import.meta.url)} and up to two folders above it; rebuild with npm run build`);
}

const DIR = scriptsDir();

/** The parts of the ingest script, in the order they are joined (see each file's header). */
export const INGEST_PARTS = ['call', 'layout', 'held-writes', 'duplicates', 'forming', 'open-incident', 'caps', 'overflow', 'ingest'] as const;
export type IngestPart = (typeof INGEST_PARTS)[number];

/** The named parts of lua/<script>/ joined in order, each introduced by its file name. */
export function luaParts(script: string, parts: readonly string[]): string {
  return parts.map((part) => `-- ${script}/${part}.lua\n${readFileSync(join(DIR, script, `${part}.lua`), 'utf8')}`).join('\n');
}
