import type { ErrorDoc } from '../domain/analysis.js';
import { capText } from '../domain/event.js';
import type { Embedder, VectorStore } from '../ports/retrieval.js';

/** What the retrieval steps need: an embedder and the store holding its vectors. */
export interface RetrievalDeps {
  embedder: Embedder;
  store: VectorStore;
}

/** A document as indexed: the domain's ErrorDoc plus where it came from (a file path, an incident). */
export type IndexedDoc = ErrorDoc & { path?: string };

// Stored bodies are capped: they are shown as excerpts and fenced for the model, never in full.
const MAX_BODY_CHARS = 8_000;
const EMBED_BATCH = 256;

/** The text that is embedded: title and family metadata first, because that is what a query names. */
export function embeddingText(doc: IndexedDoc): string {
  return [doc.title, doc.errorCode ? `Error code: ${doc.errorCode}` : '', doc.service ? `Service: ${doc.service}` : '', doc.body].filter(Boolean).join('\n');
}

export function docPayload(doc: IndexedDoc): Record<string, unknown> {
  return {
    title: doc.title,
    body: capText(doc.body, MAX_BODY_CHARS),
    source: doc.source,
    ...(doc.path === undefined ? {} : { path: doc.path }),
    ...(doc.service === undefined ? {} : { service: doc.service }),
    ...(doc.errorCode === undefined ? {} : { errorCode: doc.errorCode }),
  };
}

/** Embeds and upserts documents in batches (the store must already be ensured for this embedder). */
export async function upsertDocs(deps: RetrievalDeps, docs: IndexedDoc[]): Promise<void> {
  for (let i = 0; i < docs.length; i += EMBED_BATCH) {
    const batch = docs.slice(i, i + EMBED_BATCH);
    const vectors = await deps.embedder.embed(batch.map(embeddingText));
    await deps.store.upsert(batch.map((doc, j) => ({ id: doc.id, vector: vectors[j] ?? [], payload: docPayload(doc) })));
  }
}
