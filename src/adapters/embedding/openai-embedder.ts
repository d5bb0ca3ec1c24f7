import OpenAI from 'openai';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import type { Embedder } from '../../ports/retrieval.js';
import { asEmbeddingError } from './openai-errors.js';
import { sanitizeUntrusted } from '../../domain/untrusted/prepare.js';

export interface OpenAIEmbedderOptions {
  /** Required by the SDK even for servers that ignore it (Ollama): pass any placeholder there. */
  apiKey: string;
  /** e.g. https://api.openai.com/v1, http://localhost:11434/v1 */
  baseURL: string;
  model: string;
  /** Asks text-embedding-3 models for shorter vectors; also tells Medic the size of unknown models. */
  dimensions?: number;
  /** Texts per request (OpenAI accepts up to 2048). */
  batchSize?: number;
  /** The SDK retries 408/409/429/5xx and connection errors with backoff this many times. */
  maxRetries?: number;
  timeoutMs?: number;
}

const KNOWN_DIMENSIONS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

// Long log excerpts are truncated before sending: the models stop at ~8k tokens and the head of an
// error (message, top frames) is what identifies it.
const MAX_INPUT_CHARS = 12_000;

/** Base64 float32 little-endian, the SDK's default wire encoding, decoded by hand for servers that force it. */
function decodeBase64Floats(text: string): number[] {
  const bytes = Buffer.from(text, 'base64');
  const out = new Array<number>(Math.floor(bytes.length / 4));
  for (let i = 0; i < out.length; i += 1) out[i] = bytes.readFloatLE(i * 4);
  return out;
}

/**
 * Embeddings through the `openai` package, against OpenAI or any compatible server. Always asks for
 * `encoding_format: 'float'`: left unset, the SDK requests base64 and decodes whatever comes back as
 * base64, so a server that answers with plain arrays silently yields dims/4 garbage values
 * (REFERENCE.md §5). Every answer's size is checked against the expected dimension.
 */
export async function createOpenAIEmbedder(options: OpenAIEmbedderOptions): Promise<Embedder> {
  const client = new OpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    // Explicit nulls keep the SDK from reading OPENAI_ORG_ID / OPENAI_PROJECT_ID from the environment.
    organization: null,
    project: null,
    maxRetries: options.maxRetries ?? 3,
    timeout: options.timeoutMs ?? 60_000,
  });
  const where = new URL(options.baseURL).origin;
  const batchSize = Math.max(1, Math.min(options.batchSize ?? 96, 2048));
  const { model } = options;

  async function request(texts: string[], expected: number | undefined): Promise<number[][]> {
    const input = texts.map((t) => (t.trim() === '' ? '(empty)' : t.slice(0, MAX_INPUT_CHARS))); // OpenAI rejects empty strings
    let response: OpenAI.CreateEmbeddingResponse;
    try {
      response = await client.embeddings.create({
        model,
        input,
        encoding_format: 'float',
        ...(options.dimensions === undefined ? {} : { dimensions: options.dimensions }),
      });
    } catch (error) {
      throw asEmbeddingError(error, where, model);
    }
    const vectors: number[][] = new Array<number[]>(texts.length);
    for (const item of response.data) {
      const raw = item.embedding as unknown;
      vectors[item.index] = typeof raw === 'string' ? decodeBase64Floats(raw) : (raw as number[]);
    }
    for (let i = 0; i < texts.length; i += 1) {
      const vector = vectors[i];
      if (!Array.isArray(vector) || vector.some((v) => typeof v !== 'number' || !Number.isFinite(v))) {
        throw new MedicError(ErrorCode.UpstreamRejected, `The embeddings endpoint ${where} returned no valid vector for input ${i}; check that model "${model}" is an embedding model.`);
      }
      if (expected !== undefined && vector.length !== expected) {
        throw new MedicError(
          ErrorCode.UpstreamRejected,
          `The embeddings endpoint ${where} returned ${vector.length}-dimensional vectors for "${model}", expected ${expected}; set MEDIC_EMBEDDING_DIMENSIONS to the model's size.`,
        );
      }
    }
    return vectors;
  }

  // A model Medic does not know is asked once, so the vector store is created with the right size.
  const dimension = options.dimensions ?? KNOWN_DIMENSIONS[model] ?? (await request(['dimension probe'], undefined))[0]?.length ?? 0;
  if (dimension < 1) throw new MedicError(ErrorCode.UpstreamRejected, `The embeddings endpoint ${where} returned an empty vector for "${model}".`);

  return {
    id: `openai:${model}:${dimension}`,
    dimension,
    async embed(texts: string[]): Promise<number[][]> {
      const out: number[][] = [];
      // The embeddings endpoint is outside the process: it gets the same redacted text as the model.
      const clean = texts.map((text) => sanitizeUntrusted(text));
      for (let i = 0; i < clean.length; i += batchSize) out.push(...(await request(clean.slice(i, i + batchSize), dimension)));
      return out;
    },
  };
}
