/**
 * A loopback server that speaks Qdrant's REST wire format (REFERENCE.md §4), so the real
 * `@qdrant/js-client-rest` (which uses its own undici dispatcher: fetch mocks cannot reach it) is
 * tested over HTTP: `GET /` version info, the `{result,status,time}` envelope, `{"status":{"error":…}}` bodies with 4xx,
 * point-id rules, `wait`, `with_payload` default false on query and true on scroll, `limit` default
 * 10, cosine vectors normalized on upsert, and the filter subset Medic uses.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- request bodies are arbitrary JSON under test
type Json = any;
type PointId = string | number;

interface StoredPoint {
  id: PointId;
  vector: number[];
  payload: Record<string, unknown>;
  version: number;
}

interface Collection {
  size: number;
  distance: string;
  points: Map<string, StoredPoint>;
  payloadSchema: Record<string, string>;
}

export interface RecordedQdrantRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: Json;
}

export interface LoopbackQdrantOptions {
  /** When set, every request must carry this `api-key` header. */
  apiKey?: string;
  version?: string;
}

export interface LoopbackQdrant {
  url: string;
  requests: RecordedQdrantRequest[];
  /** The next `count` requests (after GET /) answer with this status and error message. */
  failNext(status: number, message: string, count?: number): void;
  collectionNames(): string[];
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const UUID = /^(?:urn:uuid:)?([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})$/i;

/** Unsigned integers and UUIDs (simple, hyphenated, urn) are ids; UUIDs come back canonical. */
function pointId(value: unknown): { key: string; id: PointId } {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return { key: `n:${value}`, id: value };
  const m = typeof value === 'string' ? UUID.exec(value) : null;
  if (m) {
    const canonical = m.slice(1, 6).join('-').toLowerCase();
    return { key: `u:${canonical}`, id: canonical };
  }
  throw new HttpError(400, `Format error in JSON body: value ${JSON.stringify(value)} is not a valid point ID, valid values are either an unsigned integer or a UUID`);
}

function matches(point: StoredPoint, condition: Json): boolean {
  if (condition && Array.isArray(condition.has_id)) return condition.has_id.some((v: unknown) => pointId(v).key === pointId(point.id).key);
  if (!condition || typeof condition.key !== 'string' || !condition.match) throw new HttpError(400, 'Format error in JSON body: unsupported filter condition');
  const value = point.payload[condition.key];
  const values = Array.isArray(value) ? value : [value];
  if ('value' in condition.match) return values.includes(condition.match.value);
  if (Array.isArray(condition.match.any)) return values.some((v) => condition.match.any.includes(v));
  if (Array.isArray(condition.match.except)) return value !== undefined && !values.some((v) => condition.match.except.includes(v));
  throw new HttpError(400, 'Format error in JSON body: unsupported match');
}

function passes(point: StoredPoint, filter: Json): boolean {
  if (!filter) return true;
  const must: Json[] = filter.must ?? [];
  const mustNot: Json[] = filter.must_not ?? [];
  const should: Json[] = filter.should ?? [];
  return (
    must.every((c) => matches(point, c)) &&
    !mustNot.some((c) => matches(point, c)) &&
    (should.length === 0 || should.some((c) => matches(point, c)))
  );
}

function normalize(vector: number[]): number[] {
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((v) => v / norm);
}

function pickPayload(payload: Record<string, unknown>, withPayload: Json): Record<string, unknown> | undefined {
  if (withPayload === true) return { ...payload };
  if (Array.isArray(withPayload)) return Object.fromEntries(withPayload.filter((k: string) => k in payload).map((k: string) => [k, payload[k]]));
  return undefined;
}

export async function startLoopbackQdrant(options: LoopbackQdrantOptions = {}): Promise<LoopbackQdrant> {
  const collections = new Map<string, Collection>();
  const requests: RecordedQdrantRequest[] = [];
  const faults: { status: number; message: string }[] = [];
  let operationId = 0;

  function collection(name: string): Collection {
    const found = collections.get(name);
    if (!found) throw new HttpError(404, `Not found: Collection \`${name}\` doesn't exist!`);
    return found;
  }

  function updated(query: URLSearchParams) {
    operationId += 1;
    return { operation_id: operationId, status: query.get('wait') === 'true' ? 'completed' : 'acknowledged' };
  }

  function upsert(c: Collection, body: Json): void {
    const incoming: { id: unknown; vector: unknown; payload?: Record<string, unknown> }[] = body?.batch
      ? (body.batch.ids as unknown[]).map((id, i) => ({ id, vector: body.batch.vectors?.[i], payload: body.batch.payloads?.[i] ?? undefined }))
      : (body?.points ?? []);
    if (!body?.batch && !Array.isArray(body?.points)) throw new HttpError(400, 'Format error in JSON body: missing field `points`');
    // Validate the whole request first: Qdrant rejects it as a unit.
    const ready = incoming.map((p) => {
      const { key, id } = pointId(p.id);
      if (!Array.isArray(p.vector) || p.vector.some((v) => typeof v !== 'number')) throw new HttpError(400, 'Format error in JSON body: vector must be an array of numbers');
      if (p.vector.length !== c.size) throw new HttpError(400, `Wrong input: Vector dimension error: expected dim: ${c.size}, got ${p.vector.length}`);
      return { key, id, vector: c.distance === 'Cosine' ? normalize(p.vector as number[]) : (p.vector as number[]), payload: p.payload ?? {} };
    });
    for (const p of ready) c.points.set(p.key, { id: p.id, vector: p.vector, payload: { ...p.payload }, version: operationId + 1 });
  }

  function queryPoints(c: Collection, body: Json) {
    const raw = Array.isArray(body?.query) ? body.query : body?.query?.nearest;
    if (!Array.isArray(raw)) throw new HttpError(400, 'Format error in JSON body: only nearest-vector queries are supported here');
    if (raw.length !== c.size) throw new HttpError(400, `Wrong input: Vector dimension error: expected dim: ${c.size}, got ${raw.length}`);
    const vector = c.distance === 'Cosine' ? normalize(raw) : raw;
    const limit = body.limit ?? 10;
    const offset = body.offset ?? 0;
    const scored = [...c.points.values()]
      .filter((p) => passes(p, body.filter))
      .map((p) => ({ p, score: p.vector.reduce((sum, v, i) => sum + v * (vector[i] ?? 0), 0) }))
      .filter(({ score }) => body.score_threshold === undefined || score >= body.score_threshold)
      .sort((a, b) => b.score - a.score)
      .slice(offset, offset + limit);
    return {
      points: scored.map(({ p, score }) => ({
        id: p.id,
        version: p.version,
        score,
        ...(pickPayload(p.payload, body.with_payload ?? false) ? { payload: pickPayload(p.payload, body.with_payload) } : {}),
        ...(body.with_vector ? { vector: p.vector } : {}),
      })),
    };
  }

  function scroll(c: Collection, body: Json) {
    const limit = body?.limit ?? 10;
    const sorted = [...c.points.entries()].filter(([, p]) => passes(p, body?.filter)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const start = body?.offset === undefined || body.offset === null ? 0 : sorted.findIndex(([key]) => key >= pointId(body.offset).key);
    const page = start < 0 ? [] : sorted.slice(start, start + limit);
    const next = start < 0 ? undefined : sorted[start + limit];
    return {
      points: page.map(([, p]) => ({ id: p.id, ...(pickPayload(p.payload, body?.with_payload ?? true) ? { payload: pickPayload(p.payload, body?.with_payload ?? true) } : {}) })),
      next_page_offset: next ? next[1].id : null,
    };
  }

  function info(c: Collection) {
    return {
      status: 'green',
      optimizer_status: 'ok',
      points_count: c.points.size,
      indexed_vectors_count: 0,
      segments_count: 1,
      config: {
        params: { vectors: { size: c.size, distance: c.distance }, shard_number: 1, replication_factor: 1, write_consistency_factor: 1, on_disk_payload: true },
        hnsw_config: { m: 16, ef_construct: 100, full_scan_threshold: 10000, max_indexing_threads: 0, on_disk: false },
        optimizer_config: { deleted_threshold: 0.2, vacuum_min_vector_number: 1000, default_segment_number: 0, flush_interval_sec: 5 },
        wal_config: { wal_capacity_mb: 32, wal_segments_ahead: 0 },
        quantization_config: null,
      },
      payload_schema: Object.fromEntries(Object.entries(c.payloadSchema).map(([field, type]) => [field, { data_type: type, points: c.points.size }])),
    };
  }

  function route(method: string, parts: string[], params: URLSearchParams, body: Json): unknown {
    if (parts[0] !== 'collections') throw new HttpError(404, `Not found: ${parts.join('/')}`);
    const name = parts[1];
    if (name === undefined) {
      if (method === 'GET') return { collections: [...collections.keys()].map((n) => ({ name: n })) };
      throw new HttpError(405, 'Method not allowed');
    }
    const rest = parts.slice(2).join('/');
    switch (`${method} ${rest}`) {
      case 'PUT ': {
        if (collections.has(name)) throw new HttpError(409, `Wrong input: Collection \`${name}\` already exists!`);
        const size = body?.vectors?.size;
        if (!Number.isInteger(size) || size < 1) throw new HttpError(400, 'Format error in JSON body: vectors.size must be a positive integer');
        collections.set(name, { size, distance: body.vectors.distance ?? 'Cosine', points: new Map(), payloadSchema: {} });
        return true;
      }
      case 'GET exists':
        return { exists: collections.has(name) };
      case 'GET ':
        return info(collection(name));
      case 'DELETE ':
        return collections.delete(name);
      case 'PUT index':
        collection(name).payloadSchema[String(body?.field_name)] = typeof body?.field_schema === 'string' ? body.field_schema : String(body?.field_schema?.type);
        return updated(params);
      case 'PUT points':
        upsert(collection(name), body);
        return updated(params);
      case 'POST points/query':
        return queryPoints(collection(name), body);
      case 'POST points/scroll':
        return scroll(collection(name), body);
      case 'POST points/count': {
        const c = collection(name);
        return { count: [...c.points.values()].filter((p) => passes(p, body?.filter)).length };
      }
      case 'POST points/delete': {
        const c = collection(name);
        if (Array.isArray(body?.points)) {
          for (const id of body.points) c.points.delete(pointId(id).key);
        } else if (body?.filter) {
          for (const [key, p] of c.points) if (passes(p, body.filter)) c.points.delete(key);
        } else {
          throw new HttpError(400, 'Format error in JSON body: expected `points` or `filter`');
        }
        return updated(params);
      }
      default:
        throw new HttpError(404, `Not found: ${method} /collections/${name}/${rest}`);
    }
  }

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://loopback');
    const method = req.method ?? 'GET';
    const time = () => (performance.now() - started) / 1000;
    try {
      let body: Json;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        throw new HttpError(400, 'Format error in JSON body: expected value at line 1 column 1');
      }
      requests.push({ method, path: url.pathname, query: url.searchParams, body });
      if (options.apiKey !== undefined && req.headers['api-key'] !== options.apiKey) throw new HttpError(401, 'Invalid api-key');
      const fault = url.pathname === '/' ? undefined : faults.shift();
      if (fault) throw new HttpError(fault.status, fault.message);
      // The root and the health probes are the only answers outside the envelope.
      if (method === 'GET' && url.pathname === '/') return send(res, 200, { title: 'qdrant - vector search engine', version: options.version ?? '1.18.0', commit: 'loopback' });
      if (method === 'GET' && ['/healthz', '/livez', '/readyz'].includes(url.pathname)) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(url.pathname === '/readyz' ? 'all shards are ready' : 'healthz check passed');
        return;
      }
      const result = route(method, url.pathname.split('/').filter(Boolean).map(decodeURIComponent), url.searchParams, body);
      send(res, 200, { result, status: 'ok', time: time() });
    } catch (error) {
      const status = error instanceof HttpError ? error.status : 500;
      send(res, status, { status: { error: error instanceof Error ? error.message : String(error) }, time: time(), result: null });
    }
  };

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext: (status, message, count = 1) => {
      for (let i = 0; i < count; i += 1) faults.push({ status, message });
    },
    collectionNames: () => [...collections.keys()],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
