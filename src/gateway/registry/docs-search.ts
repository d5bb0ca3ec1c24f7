import type { Embedder, VectorStore } from '../../ports/retrieval.js';
import type { DocsSearch } from './read-tools.js';

/**
 * `docs.search` over the embedder and the vector store, for wiring into the registry. The
 * similar-docs step then asks the gateway (`gatedPorts.searchDocs`) instead of the store directly.
 */
export function createDocsSearch(deps: { embedder: Embedder; vectors: VectorStore }): DocsSearch {
  return async (args) => {
    const [vector] = await deps.embedder.embed([args.query]);
    if (!vector) return [];
    return deps.vectors.query({ vector, limit: args.limit, filter: args.service ? { service: args.service } : undefined });
  };
}
