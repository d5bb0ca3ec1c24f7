import { stat } from 'node:fs/promises';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import type { ServiceCheck } from '../../ports/service-check.js';
import type { VectorHit, VectorPoint, VectorQuery, VectorStore } from '../../ports/retrieval.js';
import { assertEnsured, assertUnitable } from './check-vector.js';
import { ColumnMatrix } from './column-matrix.js';
import { selectTopK } from './top-k.js';
import { readVectorFile, writeVectorFile, type VectorSnapshot } from './vector-file.js';

export interface MemoryVectorStoreOptions {
  /** Where the index persists (e.g. `<MEDIC_DATA_DIR>/vectors/docs.mdv`); omit for a purely in-memory index. */
  file?: string;
}

interface IndexState {
  embedderId: string;
  matrix: ColumnMatrix;
  ids: string[];
  payloads: Record<string, unknown>[];
  rowOf: Map<string, number>;
}

function emptyState(embedderId: string, dimension: number, capacity?: number): IndexState {
  return { embedderId, matrix: new ColumnMatrix(dimension, capacity), ids: [], payloads: [], rowOf: new Map() };
}

function fromSnapshot(snapshot: VectorSnapshot): IndexState {
  const state = emptyState(snapshot.embedderId, snapshot.dimension, snapshot.ids.length);
  snapshot.ids.forEach((id, row) => {
    state.matrix.push(snapshot.vectors.subarray(row * snapshot.dimension, (row + 1) * snapshot.dimension));
    state.ids.push(id);
    state.payloads.push(snapshot.payloads[row] ?? {});
    state.rowOf.set(id, row);
  });
  return state;
}

/**
 * The embedded vector store: exact cosine search over one contiguous Float32Array, persisted as a
 * file under the data directory. Vectors are stored unit-length, so cosine is a dot product.
 * Another process writing the same file is noticed (size/mtime) and reloaded before each call;
 * two processes writing at the same instant still race — run Qdrant for many writers.
 */
export function createMemoryVectorStore(options: MemoryVectorStoreOptions = {}): VectorStore {
  let state: IndexState | undefined;
  // What this instance was ensured for; if another process rebuilt the file for a different
  // embedder, writing or querying with ours would mix vector spaces, so that is refused.
  let ensuredFor: string | undefined;
  let diskStamp: string | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  // One operation at a time within this process, so two persists never interleave.
  function exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  }

  async function stampOf(file: string): Promise<string | undefined> {
    const info = await stat(file).catch(() => undefined);
    return info ? `${info.mtimeMs}:${info.size}` : undefined;
  }

  async function syncFromDisk(): Promise<void> {
    if (!options.file) return;
    const stamp = await stampOf(options.file);
    if (stamp === diskStamp) return;
    const snapshot = await readVectorFile(options.file);
    state = snapshot ? fromSnapshot(snapshot) : undefined;
    diskStamp = stamp;
  }

  async function persist(current: IndexState): Promise<void> {
    if (!options.file) return;
    await writeVectorFile(options.file, {
      embedderId: current.embedderId,
      dimension: current.matrix.dimension,
      ids: current.ids,
      payloads: current.payloads,
      vectors: current.matrix.toRowMajor(),
    });
    diskStamp = await stampOf(options.file);
  }

  function ensuredState(): IndexState {
    const current = assertEnsured(ensuredFor === undefined ? undefined : state);
    if (current.embedderId !== ensuredFor) {
      throw new MedicError(ErrorCode.Conflict, `The vector index was rebuilt for ${current.embedderId} by another process; this one embeds with ${ensuredFor}. Give every Medic process the same MEDIC_EMBEDDER and model.`);
    }
    return current;
  }

  function removeRow(current: IndexState, id: string): void {
    const row = current.rowOf.get(id);
    if (row === undefined) return;
    const moved = current.matrix.removeBySwap(row);
    current.rowOf.delete(id);
    if (moved !== row) {
      const movedId = current.ids[moved] ?? '';
      current.ids[row] = movedId;
      current.payloads[row] = current.payloads[moved] ?? {};
      current.rowOf.set(movedId, row);
    }
    current.ids.pop();
    current.payloads.pop();
  }

  return {
    ensure: (embedderId, dimension) =>
      exclusive(async () => {
        await syncFromDisk();
        ensuredFor = embedderId;
        if (state && state.embedderId === embedderId && state.matrix.dimension === dimension) return false;
        // A different embedder's vectors live in another space: never mix, start over.
        const rebuilt = state !== undefined;
        state = emptyState(embedderId, dimension);
        await persist(state);
        return rebuilt;
      }),

    upsert: (points: VectorPoint[]) =>
      exclusive(async () => {
        await syncFromDisk();
        const current = ensuredState();
        // Check every point before touching the index, so a bad batch changes nothing.
        const vectors = points.map((p) => assertUnitable(p.vector, current.matrix.dimension, `Point ${p.id}`));
        points.forEach((point, i) => {
          const vector = vectors[i] ?? new Float32Array(0);
          const row = current.rowOf.get(point.id);
          if (row !== undefined) {
            current.matrix.set(row, vector);
            current.payloads[row] = { ...point.payload };
            return;
          }
          current.rowOf.set(point.id, current.matrix.push(vector));
          current.ids.push(point.id);
          current.payloads.push({ ...point.payload });
        });
        await persist(current);
      }),

    delete: (ids: string[]) =>
      exclusive(async () => {
        await syncFromDisk();
        const current = ensuredState();
        for (const id of ids) removeRow(current, id);
        await persist(current);
      }),

    query: (query: VectorQuery) =>
      exclusive(async (): Promise<VectorHit[]> => {
        await syncFromDisk();
        const current = ensuredState();
        const vector = assertUnitable(query.vector, current.matrix.dimension, 'The query vector');
        const scores = current.matrix.scoreAll(vector);
        const service = query.filter?.service;
        const accept = service === undefined ? undefined : (row: number) => current.payloads[row]?.service === service;
        return selectTopK(scores, Math.min(query.limit, current.ids.length), accept).map(({ row, score }) => ({
          id: current.ids[row] ?? '',
          score,
          payload: { ...current.payloads[row] },
        }));
      }),

    count: () =>
      exclusive(async () => {
        await syncFromDisk();
        return state?.ids.length ?? 0;
      }),

    idsBySource: (source: string) =>
      exclusive(async () => {
        await syncFromDisk();
        const current = state;
        if (!current) return [];
        return current.ids.filter((_, row) => current.payloads[row]?.source === source);
      }),

    check: () =>
      exclusive(async (): Promise<ServiceCheck> => {
        const adapter = `memory (embedded)${options.file ? ` ${options.file}` : ''}`;
        try {
          await syncFromDisk();
        } catch (error) {
          return { name: 'vector store', adapter, ok: false, detail: error instanceof Error ? error.message : String(error) };
        }
        const detail = state ? `${state.ids.length} documents embedded by ${state.embedderId}` : 'empty: run `npm run medic -- docs ingest <dir>`';
        return { name: 'vector store', adapter, ok: true, detail };
      }),
  };
}
