import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ErrorCode, MedicError } from '../../domain/errors.js';

/** What the in-process index persists: who embedded it, and every row. */
export interface VectorSnapshot {
  embedderId: string;
  dimension: number;
  ids: string[];
  payloads: Record<string, unknown>[];
  /** Row-major, ids.length × dimension. */
  vectors: Float32Array;
}

// Layout: "MDV1", u32 LE header length, UTF-8 JSON header, zero padding to 4 bytes, float32 LE rows.
// Binary rows because 100k × 256 floats as JSON text would be ~5× larger and slow to parse.
const MAGIC = 'MDV1';

export async function writeVectorFile(path: string, snapshot: VectorSnapshot): Promise<void> {
  const header = Buffer.from(JSON.stringify({ embedderId: snapshot.embedderId, dimension: snapshot.dimension, ids: snapshot.ids, payloads: snapshot.payloads }), 'utf8');
  const headerEnd = 8 + header.length;
  const padding = (4 - (headerEnd % 4)) % 4;
  const prefix = Buffer.alloc(8 + header.length + padding);
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(header.length, 4);
  header.copy(prefix, 8);
  const rows = Buffer.alloc(snapshot.vectors.length * 4);
  for (let i = 0; i < snapshot.vectors.length; i += 1) rows.writeFloatLE(snapshot.vectors[i] ?? 0, i * 4);
  await mkdir(dirname(path), { recursive: true });
  // Write-then-rename: a crash mid-write leaves the previous index intact, never half a file.
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, Buffer.concat([prefix, rows]));
  await rename(temporary, path);
}

/** Reads a snapshot; undefined when the file does not exist; a coded error when it is damaged. */
export async function readVectorFile(path: string): Promise<VectorSnapshot | undefined> {
  let buffer: Buffer;
  try {
    buffer = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const damaged = (why: string) =>
    new MedicError(ErrorCode.ValidationFailed, `The vector index ${path} is damaged (${why}). Delete it and run \`npm run medic -- docs ingest <dir>\` to rebuild it.`);
  if (buffer.length < 8 || buffer.toString('latin1', 0, 4) !== MAGIC) throw damaged('not a Medic vector file');
  const headerLength = buffer.readUInt32LE(4);
  if (8 + headerLength > buffer.length) throw damaged('truncated header');
  let header: { embedderId?: unknown; dimension?: unknown; ids?: unknown; payloads?: unknown };
  try {
    header = JSON.parse(buffer.toString('utf8', 8, 8 + headerLength)) as typeof header;
  } catch {
    throw damaged('unreadable header');
  }
  const { embedderId, dimension, ids, payloads } = header;
  if (typeof embedderId !== 'string' || typeof dimension !== 'number' || !Array.isArray(ids) || !Array.isArray(payloads) || ids.length !== payloads.length) {
    throw damaged('unexpected header');
  }
  const start = 8 + headerLength + ((4 - ((8 + headerLength) % 4)) % 4);
  const expected = ids.length * dimension;
  if (buffer.length - start !== expected * 4) throw damaged(`expected ${expected} floats`);
  const vectors = new Float32Array(expected);
  for (let i = 0; i < expected; i += 1) vectors[i] = buffer.readFloatLE(start + i * 4);
  return { embedderId, dimension, ids: ids.map(String), payloads: payloads as Record<string, unknown>[], vectors };
}
