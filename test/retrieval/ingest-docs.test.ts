import { cp, mkdtemp, readFile, rm, writeFile, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalEmbedder } from '../../src/adapters/embedding/local-embedder.js';
import { createMemoryVectorStore } from '../../src/adapters/vector/memory-vector-store.js';
import { ErrorCode, MedicError } from '../../src/domain/errors.js';
import { ingestDocs, readDocs } from '../../src/retrieval/ingest-docs.js';
import type { RetrievalDeps } from '../../src/retrieval/indexed-doc.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'docs');

describe('ingestDocs', () => {
  let dir: string;
  let deps: RetrievalDeps;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'medic-docs-'));
    await cp(FIXTURES, join(dir, 'docs'), { recursive: true });
    deps = { embedder: createLocalEmbedder(), store: createMemoryVectorStore({ file: join(dir, 'index', 'docs.mdv') }) };
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads one document per ## section with content-hash ids, file paths and family metadata, skipping READMEs', async () => {
    const { files, docs } = await readDocs(join(dir, 'docs'));
    expect(files).toBe(3);
    expect(docs).toHaveLength(9);
    const timeout = docs.find((d) => d.title === 'Payments: card gateway timeout — Symptom');
    expect(timeout).toMatchObject({ source: 'docs', path: 'payments/gateway-timeout.md', service: 'payments', errorCode: 'PAY-504' });
    expect(timeout!.id).toMatch(/^doc-[0-9a-f]{16}$/);
  });

  it('indexes every section, then does nothing on a second run', async () => {
    const first = await ingestDocs(deps, { dir: join(dir, 'docs') });
    expect(first).toEqual({ files: 3, sections: 9, added: 9, unchanged: 0, removed: 0, rebuilt: false });
    const second = await ingestDocs(deps, { dir: join(dir, 'docs') });
    expect(second).toEqual({ files: 3, sections: 9, added: 0, unchanged: 9, removed: 0, rebuilt: false });
    expect(await deps.store.count()).toBe(9);
  });

  it('replaces an edited section and removes the sections of a deleted file', async () => {
    await ingestDocs(deps, { dir: join(dir, 'docs') });
    const file = join(dir, 'docs', 'checkout-divide-by-zero.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('Return a zero discount', 'Return an untouched line'));
    await unlink(join(dir, 'docs', 'inventory-pool.md'));
    const report = await ingestDocs(deps, { dir: join(dir, 'docs') });
    expect(report).toMatchObject({ sections: 7, added: 1, unchanged: 6, removed: 3 });
    expect(await deps.store.count()).toBe(7);
    const bodies = (await deps.store.query({ vector: (await deps.embedder.embed(['untouched line']))[0]!, limit: 7 })).map((h) => String(h.payload.body));
    expect(bodies.some((b) => b.includes('Return an untouched line'))).toBe(true);
    expect(bodies.some((b) => b.includes('Return a zero discount'))).toBe(false);
  });

  it('leaves other sources (incident write-backs) alone when pruning', async () => {
    await deps.store.ensure(deps.embedder.id, deps.embedder.dimension);
    await deps.store.upsert([{ id: 'incident-1', vector: (await deps.embedder.embed(['x']))[0]!, payload: { source: 'incidents' } }]);
    await ingestDocs(deps, { dir: join(dir, 'docs') });
    expect(await deps.store.idsBySource('incidents')).toEqual(['incident-1']);
  });

  it('re-embeds everything when the embedder changes', async () => {
    await ingestDocs(deps, { dir: join(dir, 'docs') });
    const wider = { ...deps, embedder: createLocalEmbedder({ dimension: 128 }) };
    expect(await ingestDocs(wider, { dir: join(dir, 'docs') })).toMatchObject({ added: 9, removed: 0, rebuilt: true });
  });

  it('refuses a missing or empty directory instead of pruning everything', async () => {
    await ingestDocs(deps, { dir: join(dir, 'docs') });
    const missing = await ingestDocs(deps, { dir: join(dir, 'nope') }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(MedicError);
    expect((missing as MedicError).code).toBe(ErrorCode.ValidationFailed);
    expect((missing as MedicError).message).toContain('MEDIC_DOCS_DIR');
    const empty = await ingestDocs(deps, { dir: join(dir, 'index') }).catch((e: unknown) => e);
    expect((empty as MedicError).code).toBe(ErrorCode.ValidationFailed);
    expect(await deps.store.count()).toBe(9);
  });
});
