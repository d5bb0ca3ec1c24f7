// Builds the shipped entry points (`dist/main.js`, `dist/cli/medic.js`) with esbuild: one bundle of
// Medic's own code per entry, split into chunks along the dynamic imports so that each command
// loads only its own code; npm packages stay external and are loaded from node_modules as usual.
// The Redis scripts are copied beside the bundles, to dist/lua.
import { cp, rm } from 'node:fs/promises';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

export async function buildDist(outdir = `${root}/dist`) {
  await rm(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: ['src/main.ts', 'src/cli/medic.ts'],
    outbase: 'src',
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: true,
    logLevel: 'warning',
  });
  // Redis scripts stay .lua files (src/adapters/redis/lua-scripts.ts reads them from dist/lua).
  await cp(`${root}/src/adapters/redis/lua`, `${outdir}/lua`, { recursive: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildDist();
