import type { Checkable } from './service-check.js';

export interface Embedder {
  /** Stable name including the model, so a changed embedder is detected. */
  readonly id: string;
  readonly dimension: number;
  embed(texts: string[]): Promise<number[][]>;
}

export interface VectorPoint {
  id: string;
  vector: number[];
  payload: Record<string, unknown>;
}

export interface VectorHit {
  id: string;
  score: number;
  payload: Record<string, unknown>;
}

export interface VectorQuery {
  vector: number[];
  limit: number;
  filter?: { service?: string };
}

export interface VectorStore extends Checkable {
  /** Creates the collection for this embedder, rebuilding it if the dimension or embedder changed. Returns true when rebuilt. */
  ensure(embedderId: string, dimension: number): Promise<boolean>;
  upsert(points: VectorPoint[]): Promise<void>;
  delete(ids: string[]): Promise<void>;
  query(query: VectorQuery): Promise<VectorHit[]>;
  count(): Promise<number>;
  /** Ids currently stored with the given payload source, for re-ingest pruning. */
  idsBySource(source: string): Promise<string[]>;
}
