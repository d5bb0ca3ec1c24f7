import { QdrantClient } from '@qdrant/js-client-rest';
import type { ServiceCheck } from '../../ports/service-check.js';
import type { VectorHit, VectorPoint, VectorQuery, VectorStore } from '../../ports/retrieval.js';
import { assertEnsured, assertUnitable } from './check-vector.js';
import { pointIdFor } from './point-id.js';
import { asQdrantError } from './qdrant-errors.js';

export interface QdrantVectorStoreOptions {
  url: string;
  apiKey?: string;
  collection: string;
  /** Per-request timeout; the client's own default is 5 minutes, far too long for a pipeline step. */
  timeoutMs?: number;
  /** Points per upsert request. */
  batchSize?: number;
  /** How long a successful ensure() is trusted before the collection is checked again. */
  recheckMs?: number;
}

// Medic's bookkeeping inside each payload: the original document id (point ids must be UUIDs) and
// the embedder that produced the vector, which is how a changed embedder is detected.
const ID_KEY = 'medic_id';
const EMBEDDER_KEY = 'medic_embedder';
const INDEXED_FIELDS = ['service', 'source', EMBEDDER_KEY] as const;

function stripBookkeeping(payload: Record<string, unknown> | null | undefined): Record<string, unknown> {
  const { [ID_KEY]: _id, [EMBEDDER_KEY]: _embedder, ...rest } = payload ?? {};
  return rest;
}

/**
 * The vector store on Qdrant: one cosine collection sized to the embedder, keyword payload indexes
 * for the filters, v5 UUID point ids with the document id in the payload, upserts that wait.
 */
export function createQdrantVectorStore(options: QdrantVectorStoreOptions): VectorStore {
  const client = new QdrantClient({
    url: options.url,
    apiKey: options.apiKey,
    timeout: options.timeoutMs ?? 30_000,
    // The compatibility probe runs unawaited in the constructor and only warns on the console;
    // `check()` reports the server version instead.
    checkCompatibility: false,
  });
  const name = options.collection;
  const batchSize = options.batchSize ?? 256;
  const where = (() => {
    try {
      return new URL(options.url).origin; // never echo credentials embedded in the URL
    } catch {
      return 'QDRANT_URL';
    }
  })();
  let ensured: { embedderId: string; dimension: number; at: number } | undefined;
  // Re-checked now and then: another process with a different embedder may have rebuilt the collection.
  const recheckMs = options.recheckMs ?? 60_000;

  async function call<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw asQdrantError(error, what, where);
    }
  }

  async function create(dimension: number): Promise<void> {
    try {
      await client.createCollection(name, { vectors: { size: dimension, distance: 'Cosine' } });
    } catch (error) {
      // Another worker created it between our exists-check and now: same outcome.
      if ((error as { status?: unknown }).status !== 409) throw error;
    }
    for (const field of INDEXED_FIELDS) await client.createPayloadIndex(name, { field_name: field, field_schema: 'keyword', wait: true });
  }

  async function isCompatible(embedderId: string, dimension: number): Promise<boolean> {
    const info = await client.getCollection(name);
    const vectors = info.config.params.vectors;
    const params = vectors && 'size' in vectors ? vectors : undefined;
    if (params?.size !== dimension || params.distance !== 'Cosine') return false;
    // Any point not written by this embedder means another vector space: rebuild, never mix.
    const foreign = await client.count(name, { filter: { must_not: [{ key: EMBEDDER_KEY, match: { value: embedderId } }] }, exact: true });
    return foreign.count === 0;
  }

  return {
    ensure: (embedderId, dimension) =>
      call(`ensuring collection ${name}`, async () => {
        if (ensured?.embedderId === embedderId && ensured.dimension === dimension && Date.now() - ensured.at < recheckMs) return false;
        let rebuilt = false;
        if (!(await client.collectionExists(name)).exists) {
          await create(dimension);
        } else if (!(await isCompatible(embedderId, dimension))) {
          await client.deleteCollection(name);
          await create(dimension);
          rebuilt = true;
        }
        ensured = { embedderId, dimension, at: Date.now() };
        return rebuilt;
      }),

    upsert: (points: VectorPoint[]) =>
      call(`upserting into ${name}`, async () => {
        const { embedderId, dimension } = assertEnsured(ensured);
        const prepared = points.map((p) => ({
          id: pointIdFor(p.id),
          vector: Array.from(assertUnitable(p.vector, dimension, `Point ${p.id}`)),
          payload: { ...p.payload, [ID_KEY]: p.id, [EMBEDDER_KEY]: embedderId },
        }));
        for (let i = 0; i < prepared.length; i += batchSize) {
          await client.upsert(name, { wait: true, points: prepared.slice(i, i + batchSize) });
        }
      }),

    delete: (ids: string[]) =>
      call(`deleting from ${name}`, async () => {
        for (let i = 0; i < ids.length; i += batchSize) {
          await client.delete(name, { wait: true, points: ids.slice(i, i + batchSize).map(pointIdFor) });
        }
      }),

    query: (query: VectorQuery) =>
      call(`querying ${name}`, async (): Promise<VectorHit[]> => {
        const { dimension } = assertEnsured(ensured);
        const vector = Array.from(assertUnitable(query.vector, dimension, 'The query vector'));
        if (query.limit <= 0) return [];
        const service = query.filter?.service;
        const result = await client.query(name, {
          query: vector,
          limit: query.limit,
          with_payload: true,
          ...(service === undefined ? {} : { filter: { must: [{ key: 'service', match: { value: service } }] } }),
        });
        return result.points.map((p) => ({
          id: typeof p.payload?.[ID_KEY] === 'string' ? p.payload[ID_KEY] : String(p.id),
          score: p.score,
          payload: stripBookkeeping(p.payload),
        }));
      }),

    count: () =>
      call(`counting ${name}`, async () => {
        if (!(await client.collectionExists(name)).exists) return 0;
        return (await client.count(name, { exact: true })).count;
      }),

    idsBySource: (source: string) =>
      call(`listing ${name} by source`, async () => {
        if (!(await client.collectionExists(name)).exists) return [];
        const ids: string[] = [];
        let offset: string | number | undefined;
        do {
          const page = await client.scroll(name, {
            filter: { must: [{ key: 'source', match: { value: source } }] },
            with_payload: [ID_KEY],
            limit: 512,
            ...(offset === undefined ? {} : { offset }),
          });
          for (const p of page.points) ids.push(typeof p.payload?.[ID_KEY] === 'string' ? p.payload[ID_KEY] : String(p.id));
          const next = page.next_page_offset;
          offset = typeof next === 'string' || typeof next === 'number' ? next : undefined;
        } while (offset !== undefined);
        return ids;
      }),

    check: async (): Promise<ServiceCheck> => {
      const adapter = `qdrant ${where} (collection ${name})`;
      try {
        const version = await call('the version probe', () => client.versionInfo());
        const exists = await call(`checking ${name}`, async () => (await client.collectionExists(name)).exists);
        const points = exists ? await call(`counting ${name}`, async () => (await client.count(name, { exact: true })).count) : 0;
        const detail = `Qdrant ${version.version}; ${exists ? `${points} documents` : 'collection not created yet: run `npm run medic -- docs ingest <dir>`'}`;
        return { name: 'vector store', adapter, ok: true, detail };
      } catch (error) {
        return { name: 'vector store', adapter, ok: false, detail: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}
