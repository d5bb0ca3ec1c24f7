import { ErrorCode, MedicError } from '../../domain/errors.js';

/**
 * Refuses vectors the index must never hold: wrong length (an embedder change that was not
 * ensured), non-finite values, or zero length (cosine is undefined there; Qdrant rejects it).
 * Returns the vector scaled to unit length.
 */
export function assertUnitable(vector: number[], dimension: number, what: string): Float32Array {
  if (vector.length !== dimension) {
    throw new MedicError(
      ErrorCode.ValidationFailed,
      `${what} has ${vector.length} dimensions but the index holds ${dimension}. The embedder changed without ensure(); re-run \`npm run medic -- docs ingest <dir>\`.`,
    );
  }
  let norm = 0;
  for (const v of vector) {
    if (!Number.isFinite(v)) throw new MedicError(ErrorCode.ValidationFailed, `${what} holds a non-finite value; check the embedder's output.`);
    norm += v * v;
  }
  if (norm === 0) throw new MedicError(ErrorCode.ValidationFailed, `${what} is a zero vector, which has no direction to compare; check the embedder's output.`);
  const scale = 1 / Math.sqrt(norm);
  return Float32Array.from(vector, (v) => v * scale);
}

export function assertEnsured<T>(value: T | undefined): T {
  if (value === undefined) {
    throw new MedicError(ErrorCode.Internal, 'The vector store was used before ensure(embedderId, dimension); call ensure first.');
  }
  return value;
}
