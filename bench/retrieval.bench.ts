/**
 * Retrieval quality and speed of the embedded defaults (local embedder + in-process index).
 *
 * Quality: every ground-truth template of each Loghub-2k system is a document (EventId as id); each
 * raw message (`Content`) is a query; a hit is the message's own EventId. All systems share one
 * index and each query is filtered to its system (`service` = system), so every system is searched
 * on its own, exactly as the pipeline's service filter works.
 *
 * Speed: top-5 queries on the in-process index at 10k and 100k documents whose vectors are the
 * local embedder's own (synthetic messages made from the Loghub templates with random values),
 * queried with real Loghub messages. A dense random-vector run is reported in the detail too.
 */
import { availableParallelism, loadavg } from 'node:os';
import { createLocalEmbedder } from '../src/adapters/embedding/local-embedder.js';
import { createMemoryVectorStore } from '../src/adapters/vector/memory-vector-store.js';
import type { Embedder, VectorStore } from '../src/ports/retrieval.js';
import { loadLoghub } from './loghub.js';
import type { BenchReport } from './report.js';

const QUERIES_PER_SIZE = 300;
const WARMUP = 30;


interface SystemData {
  system: string;
  templates: Map<string, string>;
  messages: { content: string; eventId: string }[];
}

async function loadSystems(): Promise<SystemData[]> {
  return (await loadLoghub()).map(({ system, rows }) => ({
    system,
    templates: new Map(rows.map((r) => [r.eventId, r.template])),
    messages: rows.map((r) => ({ content: r.content, eventId: r.eventId })),
  }));
}

async function measureRecall(embedder: Embedder, systems: SystemData[]) {
  const store = createMemoryVectorStore();
  await store.ensure(embedder.id, embedder.dimension);
  for (const { system, templates } of systems) {
    const entries = [...templates];
    const vectors = await embedder.embed(entries.map(([, template]) => template));
    await store.upsert(entries.map(([eventId], i) => ({ id: `${system}:${eventId}`, vector: vectors[i] ?? [], payload: { service: system, eventId } })));
  }
  const perSystem: { system: string; templates: number; messages: number; recall1: number; recall5: number }[] = [];
  for (const { system, templates, messages } of systems) {
    let at1 = 0;
    let at5 = 0;
    const vectors = await embedder.embed(messages.map((m) => m.content));
    for (let i = 0; i < messages.length; i += 1) {
      const hits = await store.query({ vector: vectors[i] ?? [], limit: 5, filter: { service: system } });
      const want = messages[i]?.eventId;
      if (hits[0]?.payload.eventId === want) at1 += 1;
      if (hits.some((h) => h.payload.eventId === want)) at5 += 1;
    }
    perSystem.push({ system, templates: templates.size, messages: messages.length, recall1: at1 / messages.length, recall5: at5 / messages.length });
  }
  return perSystem;
}

/** A small seeded generator: the same synthetic corpus on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Synthetic but realistic messages: a Loghub template with its <*> filled by values and words seen in real messages. */
function synthesize(systems: SystemData[], count: number, random: () => number): string[] {
  const templates = systems.flatMap((s) => [...s.templates.values()]);
  const vocabulary = [...new Set(systems.flatMap((s) => s.messages.flatMap((m) => m.content.split(/\s+/))))].filter((w) => w.length > 1);
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)] as T;
  return Array.from({ length: count }, () => {
    const filled = pick(templates).replace(/<\*>/g, () => (random() < 0.5 ? String(Math.floor(random() * 1e6)) : pick(vocabulary)));
    return random() < 0.5 ? `${filled} ${pick(vocabulary)} ${pick(vocabulary)}` : filled;
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function timeQueries(store: VectorStore, queries: number[][]): Promise<{ p50: number; p95: number; mean: number }> {
  for (const vector of queries.slice(0, WARMUP)) await store.query({ vector, limit: 5 });
  const times: number[] = [];
  for (const vector of queries) {
    const started = performance.now();
    await store.query({ vector, limit: 5 });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), mean: times.reduce((a, b) => a + b, 0) / times.length };
}

async function fill(store: VectorStore, count: number, next: (from: number, to: number) => Promise<number[][]>, from: number): Promise<void> {
  for (let i = from; i < count; i += 5_000) {
    const to = Math.min(count, i + 5_000);
    const vectors = await next(i, to);
    await store.upsert(vectors.map((vector, j) => ({ id: `d${i + j}`, vector, payload: {} })));
  }
}

async function measureLatency(embedder: Embedder, systems: SystemData[]) {
  const random = seeded(42);
  const messages = systems.flatMap((s) => s.messages.map((m) => m.content));
  const queries = await embedder.embed(Array.from({ length: QUERIES_PER_SIZE }, () => messages[Math.floor(random() * messages.length)] ?? ''));
  const corpus = synthesize(systems, 100_000, random);
  const nonZero = (await embedder.embed(corpus.slice(0, 1_000))).map((v) => v.filter((x) => x !== 0).length);

  const store = createMemoryVectorStore();
  await store.ensure(embedder.id, embedder.dimension);
  const realistic = (from: number, to: number) => embedder.embed(corpus.slice(from, to));
  await fill(store, 10_000, realistic, 0);
  const at10k = await timeQueries(store, queries);
  await fill(store, 100_000, realistic, 10_000);
  const at100k = await timeQueries(store, queries);

  // Dense random unit vectors: the worst case for the column sweep (every coordinate non-zero).
  const dense = createMemoryVectorStore();
  await dense.ensure('dense-random', embedder.dimension);
  const gaussian = () => Math.sqrt(-2 * Math.log(random() || 1e-12)) * Math.cos(2 * Math.PI * random());
  const randomVectors = async (from: number, to: number) => Array.from({ length: to - from }, () => Array.from({ length: embedder.dimension }, gaussian));
  await fill(dense, 100_000, randomVectors, 0);
  const denseAt100k = await timeQueries(dense, await randomVectors(0, QUERIES_PER_SIZE));

  return { at10k, at100k, denseAt100k, meanNonZero: nonZero.reduce((a, b) => a + b, 0) / nonZero.length };
}

export default async function (): Promise<BenchReport> {
  const embedder = createLocalEmbedder();
  const systems = await loadSystems();
  const recall = await measureRecall(embedder, systems);
  const latency = await measureLatency(embedder, systems);
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const round = (value: number, digits = 4) => Number(value.toFixed(digits));

  return {
    headline: {
      recall_at_5_mean: round(mean(recall.map((r) => r.recall5))),
      recall_at_1_mean: round(mean(recall.map((r) => r.recall1))),
      p50_ms_10k: round(latency.at10k.p50, 3),
      p95_ms_10k: round(latency.at10k.p95, 3),
      p50_ms_100k: round(latency.at100k.p50, 3),
      p95_ms_100k: round(latency.at100k.p95, 3),
    },
    table: {
      columns: ['system', 'templates', 'messages', 'recall@1', 'recall@5'],
      rows: [
        ...recall.map((r) => [r.system, r.templates, r.messages, r.recall1, r.recall5]),
        ['mean', '', '', mean(recall.map((r) => r.recall1)), mean(recall.map((r) => r.recall5))],
        ['top-5 query 10k docs', '', '', `p50 ${latency.at10k.p50.toFixed(2)} ms`, `p95 ${latency.at10k.p95.toFixed(2)} ms`],
        ['top-5 query 100k docs', '', '', `p50 ${latency.at100k.p50.toFixed(2)} ms`, `p95 ${latency.at100k.p95.toFixed(2)} ms`],
        ['100k dense random vectors', '', '', `p50 ${latency.denseAt100k.p50.toFixed(2)} ms`, `p95 ${latency.denseAt100k.p95.toFixed(2)} ms`],
      ],
    },
    detail: {
      embedder: embedder.id,
      indexing: 'one in-process index for all systems; each query filtered to its own system (service = system)',
      recall: recall.map((r) => ({ ...r, recall1: round(r.recall1), recall5: round(r.recall5) })),
      latency: {
        // Tail latencies move with machine load (other processes preempt the query); recorded for context.
        machine: { cpus: availableParallelism(), load_average_1m_at_end: round(loadavg()[0] ?? 0, 2) },
        queries: QUERIES_PER_SIZE,
        warmup: WARMUP,
        vectors: 'local embedder vectors of synthetic Loghub-template messages; queries are real Loghub messages',
        mean_non_zero_coordinates: round(latency.meanNonZero, 1),
        at_10k: latency.at10k,
        at_100k: latency.at100k,
        dense_random_at_100k: latency.denseAt100k,
      },
    },
  };
}
