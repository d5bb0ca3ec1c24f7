import { SimilarDoc } from '../domain/analysis.js';
import { capText, type ErrorEvent } from '../domain/event.js';
import { eventTrace } from '../domain/event-trace.js';
import { informativeText } from '../domain/informative-text.js';
import { sanitizeUntrusted } from '../domain/untrusted/prepare.js';
import type { VectorHit } from '../ports/retrieval.js';
import type { RetrievalDeps } from './indexed-doc.js';

export interface SimilarDocsInput {
  event: ErrorEvent;
  /** The incident's message template (variable parts as <*>). */
  template: string;
  limit?: number;
  /** Only documents of this service (documents without one are excluded too). */
  service?: string;
}

const DEFAULT_LIMIT = 5;
const EXCERPT_CHARS = 600;
const QUERY_FRAMES = 5;

/** The query: error code, exception type, message, template and the top in-app frames — redacted, as it leaves the process. */
export function similarDocsQuery(event: ErrorEvent, template: string): string {
  return sanitizeUntrusted(rawSimilarDocsQuery(event, template));
}

function rawSimilarDocsQuery(event: ErrorEvent, template: string): string {
  const trace = eventTrace(event);
  const inApp = trace.frames.filter((f) => f.inApp);
  const frames = (inApp.length > 0 ? inApp : trace.frames).slice(0, QUERY_FRAMES);
  const frameText = frames.map((f) => [f.file.split('/').pop() ?? f.file, f.fn].filter(Boolean).join(' '));
  // A body inside the message (a 32 KB JSON response) would outweigh the words that say what failed.
  const message = capText(informativeText(event.message), 1_000);
  const family = capText(informativeText(template), 1_000);
  return [event.errorCode, trace.exceptionType, message, family.trim() === message.trim() ? '' : family, ...frameText]
    .filter((part): part is string => typeof part === 'string' && part.trim() !== '')
    .join('\n');
}

function text(value: unknown, fallback: string): string {
  return typeof value === 'string' && value !== '' ? value : fallback;
}

/**
 * The similar-docs step: documented error families nearest to this error. At most `limit` (default
 * 5) and never more than the store holds. Similarity is cosine clamped to [0, 1] — approximate, for
 * ranking and display, not a calibrated probability.
 */
export async function findSimilarDocs(deps: RetrievalDeps, input: SimilarDocsInput): Promise<SimilarDoc[]> {
  // A store built by another embedder is rebuilt here rather than queried across vector spaces.
  await deps.store.ensure(deps.embedder.id, deps.embedder.dimension);
  const held = await deps.store.count();
  const limit = Math.min(Math.max(1, Math.floor(input.limit ?? DEFAULT_LIMIT)), held);
  if (limit < 1) return [];
  const [vector] = await deps.embedder.embed([similarDocsQuery(input.event, input.template)]);
  if (!vector) return [];
  const hits = await deps.store.query({ vector, limit, ...(input.service === undefined ? {} : { filter: { service: input.service } }) });
  return hits.map(toSimilarDoc);
}

/** A vector hit as the card and the analyst see it: similarity clamped to [0, 1], excerpt capped. */
export function toSimilarDoc(hit: VectorHit): SimilarDoc {
  return SimilarDoc.parse({
    id: hit.id,
    title: text(hit.payload.title, hit.id),
    excerpt: capText(text(hit.payload.body, ''), EXCERPT_CHARS),
    source: text(hit.payload.path, text(hit.payload.source, 'unknown')),
    similarity: Math.min(1, Math.max(0, Number.isFinite(hit.score) ? hit.score : 0)),
  });
}
