import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createMemoryVectorStore } from '../../src/adapters/vector/memory-vector-store.js';
import { createQdrantVectorStore } from '../../src/adapters/vector/qdrant-vector-store.js';
import { startLoopbackQdrant, type LoopbackQdrant } from '../loopback/qdrant-server.js';
import { describeVectorStoreContract } from './vector-store.contract.js';

describeVectorStoreContract('memory (persisted to a file)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'medic-vectors-'));
  return { store: createMemoryVectorStore({ file: join(dir, 'docs.mdv') }), cleanup: () => rm(dir, { recursive: true, force: true }) };
});

describeVectorStoreContract('memory (in-process only)', async () => ({ store: createMemoryVectorStore(), cleanup: async () => undefined }));

let qdrant: LoopbackQdrant;
beforeAll(async () => {
  qdrant = await startLoopbackQdrant();
});
afterAll(async () => {
  await qdrant.close();
});

describeVectorStoreContract('qdrant (loopback server)', async () => ({
  // A collection of its own per test, like a fresh queue name per test.
  store: createQdrantVectorStore({ url: qdrant.url, collection: `medic_contract_${randomUUID().slice(0, 8)}`, batchSize: 100 }),
  cleanup: async () => undefined,
}));
