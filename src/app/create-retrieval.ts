import { createLocalEmbedder } from '../adapters/embedding/local-embedder.js';
import { createOpenAIEmbedder } from '../adapters/embedding/openai-embedder.js';
import { createMemoryVectorStore } from '../adapters/vector/memory-vector-store.js';
import { createQdrantVectorStore } from '../adapters/vector/qdrant-vector-store.js';
import { chooseRetrieval } from '../config/sections/retrieval.js';
import type { Config } from '../config/schema.js';
import { ErrorCode, MedicError } from '../domain/errors.js';
import type { Embedder, VectorStore } from '../ports/retrieval.js';
import type { MedicPaths } from './paths.js';

/** OpenAI embeddings and Qdrant when configured; the local embedder and in-process index otherwise. */
export async function createRetrieval(config: Config, paths: MedicPaths): Promise<{ embedder: Embedder; store: VectorStore }> {
  const choice = chooseRetrieval(config);
  if (choice.problems.length > 0) throw new MedicError(ErrorCode.ConfigInvalid, choice.problems.join('\n'));
  const embedder = choice.embedder.kind === 'openai' ? await createOpenAIEmbedder(choice.embedder) : createLocalEmbedder();
  const store = choice.store.kind === 'qdrant' ? createQdrantVectorStore(choice.store) : createMemoryVectorStore({ file: paths.vectors });
  return { embedder, store };
}
