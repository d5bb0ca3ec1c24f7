import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { chooseRetrieval, retrievalEnv } from '../../src/config/sections/retrieval.js';

const parse = (env: Record<string, string>) => z.object(retrievalEnv).parse(env);

describe('retrieval configuration', () => {
  it('defaults to the embedded local embedder and in-process index', () => {
    expect(chooseRetrieval(parse({}))).toEqual({ embedder: { kind: 'local' }, store: { kind: 'memory' }, problems: [] });
  });

  it('switches to OpenAI embeddings and Qdrant by configuration alone', () => {
    const env = { ...parse({ QDRANT_URL: 'http://qdrant:6333', QDRANT_API_KEY: 'k', MEDIC_EMBEDDING_DIMENSIONS: '512' }), OPENAI_API_KEY: 'sk-x' };
    expect(chooseRetrieval(env)).toEqual({
      embedder: { kind: 'openai', apiKey: 'sk-x', baseURL: 'https://api.openai.com/v1', model: 'text-embedding-3-small', dimensions: 512, batchSize: 96 },
      store: { kind: 'qdrant', url: 'http://qdrant:6333', apiKey: 'k', collection: 'medic_docs', timeoutMs: 30_000 },
      problems: [],
    });
  });

  it('lets a keyless compatible server embed when asked explicitly', () => {
    const choice = chooseRetrieval({ ...parse({ MEDIC_EMBEDDER: 'openai', MEDIC_EMBEDDING_MODEL: 'nomic-embed-text' }), OPENAI_BASE_URL: 'http://localhost:11434/v1' });
    expect(choice.embedder).toMatchObject({ kind: 'openai', baseURL: 'http://localhost:11434/v1', apiKey: 'unused', model: 'nomic-embed-text' });
    expect(choice.problems).toEqual([]);
  });

  it('keeps the local embedder or memory store when told to, and lists every inconsistency', () => {
    expect(chooseRetrieval({ ...parse({ MEDIC_EMBEDDER: 'local', MEDIC_VECTOR_STORE: 'memory', QDRANT_URL: 'http://q:6333' }), OPENAI_API_KEY: 'sk' })).toMatchObject({
      embedder: { kind: 'local' },
      store: { kind: 'memory' },
    });
    expect(chooseRetrieval(parse({ MEDIC_EMBEDDER: 'openai', MEDIC_VECTOR_STORE: 'qdrant' })).problems).toEqual([
      expect.stringContaining('OPENAI_API_KEY'),
      expect.stringContaining('QDRANT_URL'),
    ]);
    expect(() => parse({ QDRANT_COLLECTION: 'bad name!' })).toThrow();
  });
});
