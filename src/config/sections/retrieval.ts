/**
 * Retrieval: the embedder and the vector store behind the similar-docs step. Merged into EnvSchema
 * in src/config/schema.ts; nothing here reads process.env.
 *
 * - Nothing set: the local embedder and the in-process index under MEDIC_DATA_DIR.
 * - OPENAI_API_KEY set (MEDIC_EMBEDDER=auto): OpenAI embeddings, MEDIC_EMBEDDING_MODEL; for a
 *   keyless compatible server (Ollama, vLLM) set MEDIC_EMBEDDER=openai and OPENAI_BASE_URL.
 * - QDRANT_URL set (MEDIC_VECTOR_STORE=auto): Qdrant, collection QDRANT_COLLECTION.
 * Changing the embedder or its model rebuilds the index on the next `docs ingest` or query.
 */
import { z } from 'zod';
import { intFrom, optionalString, urlString } from '../env-helpers.js';

export const retrievalEnv = {
  MEDIC_EMBEDDER: z.enum(['auto', 'local', 'openai']).default('auto'),
  MEDIC_EMBEDDING_MODEL: z.string().min(1).default('text-embedding-3-small'),
  /** Vector size: shortens text-embedding-3 vectors, and names the size of models Medic does not know. */
  MEDIC_EMBEDDING_DIMENSIONS: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).max(16_384).optional()),
  MEDIC_EMBEDDING_BATCH: intFrom(96, 1, 2_048),
  MEDIC_VECTOR_STORE: z.enum(['auto', 'memory', 'qdrant']).default('auto'),
  QDRANT_URL: urlString,
  QDRANT_API_KEY: optionalString,
  QDRANT_COLLECTION: z.string().regex(/^[A-Za-z0-9_-]{1,200}$/, 'letters, digits, _ and -').default('medic_docs'),
  QDRANT_TIMEOUT_MS: intFrom(30_000, 100, 600_000),
};

/** The section on its own, for validating it alone (tests, tools). */
export const RetrievalEnvSchema = z.object(retrievalEnv);
export type RetrievalEnv = z.infer<typeof RetrievalEnvSchema>;

export type EmbedderChoice =
  | { kind: 'local' }
  | { kind: 'openai'; apiKey: string; baseURL: string; model: string; dimensions?: number; batchSize: number };

export type VectorStoreChoice = { kind: 'memory' } | { kind: 'qdrant'; url: string; apiKey?: string; collection: string; timeoutMs: number };

/**
 * Which embedder and store the configuration selects, with the options their factories take, and
 * every inconsistency as an operator-facing problem (empty when the choice is sound). Pure.
 */
export function chooseRetrieval(env: RetrievalEnv & { OPENAI_API_KEY?: string; OPENAI_BASE_URL?: string }): {
  embedder: EmbedderChoice;
  store: VectorStoreChoice;
  problems: string[];
} {
  const problems: string[] = [];
  const wantsOpenAI = env.MEDIC_EMBEDDER === 'openai' || (env.MEDIC_EMBEDDER === 'auto' && env.OPENAI_API_KEY !== undefined);
  if (env.MEDIC_EMBEDDER === 'openai' && env.OPENAI_API_KEY === undefined && env.OPENAI_BASE_URL === undefined) {
    problems.push('MEDIC_EMBEDDER=openai needs OPENAI_API_KEY, or OPENAI_BASE_URL for a keyless OpenAI-compatible server.');
  }
  const embedder: EmbedderChoice = wantsOpenAI
    ? {
        kind: 'openai',
        // The SDK insists on a key; keyless servers (Ollama) ignore whatever is sent.
        apiKey: env.OPENAI_API_KEY ?? 'unused',
        baseURL: env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
        model: env.MEDIC_EMBEDDING_MODEL,
        ...(env.MEDIC_EMBEDDING_DIMENSIONS === undefined ? {} : { dimensions: env.MEDIC_EMBEDDING_DIMENSIONS }),
        batchSize: env.MEDIC_EMBEDDING_BATCH,
      }
    : { kind: 'local' };

  if (env.MEDIC_VECTOR_STORE === 'qdrant' && env.QDRANT_URL === undefined) problems.push('MEDIC_VECTOR_STORE=qdrant needs QDRANT_URL (e.g. http://localhost:6333).');
  const store: VectorStoreChoice =
    env.MEDIC_VECTOR_STORE !== 'memory' && env.QDRANT_URL !== undefined
      ? {
          kind: 'qdrant',
          url: env.QDRANT_URL,
          ...(env.QDRANT_API_KEY === undefined ? {} : { apiKey: env.QDRANT_API_KEY }),
          collection: env.QDRANT_COLLECTION,
          timeoutMs: env.QDRANT_TIMEOUT_MS,
        }
      : { kind: 'memory' };
  return { embedder, store, problems };
}
