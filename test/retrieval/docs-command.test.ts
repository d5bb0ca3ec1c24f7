import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalEmbedder } from '../../src/adapters/embedding/local-embedder.js';
import { createMemoryVectorStore } from '../../src/adapters/vector/memory-vector-store.js';
import { createDocsCommand, type DocsDeps } from '../../src/cli/commands/docs.js';
import { buildCliIo } from '../support/cli-io.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'docs');

const buildIo = (stdin = '') => buildCliIo({ stdin });

describe('docs command', () => {
  let dir: string;
  let closed: number;
  let build: () => Promise<DocsDeps>;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'medic-docs-cli-'));
    await cp(FIXTURES, join(dir, 'docs'), { recursive: true });
    closed = 0;
    // A persisted index, so each run of the command starts from what the previous one wrote.
    build = async () => ({
      embedder: createLocalEmbedder(),
      store: createMemoryVectorStore({ file: join(dir, 'vectors.mdv') }),
      defaultDir: join(dir, 'docs'),
      close: async () => void (closed += 1),
    });
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('ingests a directory, then reports nothing to do on a second run', async () => {
    const command = createDocsCommand(build);
    const first = buildIo();
    expect(await command.run(['ingest', join(dir, 'docs')], first)).toBe(0);
    expect(first.out()).toContain('Indexed 9 sections from 3 files');
    expect(first.out()).toContain('9 added, 0 unchanged, 0 removed.');
    const second = buildIo();
    expect(await command.run(['ingest'], second)).toBe(0);
    expect(second.out()).toContain('0 added, 9 unchanged, 0 removed.');
    expect(closed).toBe(2);
  });

  it('searches from arguments or stdin and prints JSON lines, best first', async () => {
    const command = createDocsCommand(build);
    await command.run(['ingest'], buildIo());
    const io = buildIo('TimeoutError: ResourceRequest timed out acquiring a pg connection');
    expect(await command.run(['search'], io)).toBe(0);
    const lines = io.out().trim().split('\n').map((l) => JSON.parse(l) as { source: string; similarity: number });
    expect(lines).toHaveLength(5);
    expect(lines[0]!.source).toBe('inventory-pool.md');
  });

  it('fails with the coded error for a missing directory, and exits 2 on bad usage', async () => {
    const command = createDocsCommand(build);
    const io = buildIo();
    expect(await command.run(['ingest', join(dir, 'missing')], io)).toBe(1);
    expect(io.err()).toContain('ERR_VALIDATION_FAILED');
    expect(await command.run(['reindex'], buildIo())).toBe(2);
    expect(await command.run(['search'], buildIo('   '))).toBe(2);
    expect(closed).toBe(2);
  });
});
