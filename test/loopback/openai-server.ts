/**
 * A loopback server that speaks the OpenAI wire format (chat completions and embeddings), so the
 * real `openai` client can be driven through every fault Medic must survive. Replies are scripted
 * per call (a queue) or computed by a handler; every request is recorded for assertions.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// Request bodies are whatever JSON the client sent; tests inspect them freely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonBody = any;

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body (undefined when the body was not JSON). */
  body: JsonBody;
  raw: string;
}

export type ChatFault =
  | { fault: 'rate-limit'; retryAfterMs?: number; retryAfterSeconds?: number }
  | { fault: 'server-error'; status?: number; message?: string }
  | { fault: 'http-error'; status: number; message: string; type?: string; code?: string | null; headers?: Record<string, string> }
  /** Never answers; the client's timeout must fire. */
  | { fault: 'hang' }
  /** A 200 whose HTTP body is not JSON at all. */
  | { fault: 'malformed-body' }
  | { fault: 'refusal'; refusal?: string }
  | { fault: 'length'; content?: string }
  | { fault: 'content-filter'; content?: string };

export type ChatReply =
  /** Raw assistant content: use for non-JSON or schema-invalid text. */
  | { content: string; usage?: { prompt_tokens?: number; completion_tokens?: number } }
  /** Content is JSON.stringify(json). */
  | { json: unknown; usage?: { prompt_tokens?: number; completion_tokens?: number } }
  | ChatFault;

export type ChatHandler = (body: JsonBody, index: number) => ChatReply | Promise<ChatReply>;
export type EmbeddingFault = Exclude<ChatFault, { fault: 'refusal' | 'length' | 'content-filter' }>;

export interface LoopbackOpenAIOptions {
  /** Used when the script queue is empty; without it an empty queue answers 400. */
  chat?: ChatHandler;
  embed?: (text: string) => number[];
  /** Dimension of the default hash embedding. */
  dimension?: number;
  model?: string;
}

export interface LoopbackOpenAI {
  /** Base URL ending in /v1, for `new OpenAI({ baseURL })`. */
  url: string;
  requests: RecordedRequest[];
  /** Chat requests only, in order. */
  chatRequests(): RecordedRequest[];
  script(...replies: ChatReply[]): void;
  scriptEmbeddings(...faults: EmbeddingFault[]): void;
  close(): Promise<void>;
}

/** Deterministic bag-of-words hash embedding, L2-normalized: similar texts share dimensions. */
export function hashEmbedding(text: string, dimension = 64): number[] {
  const vector = new Array<number>(dimension).fill(0);
  for (const token of text.toLowerCase().split(/[^a-z0-9_]+/).filter(Boolean)) {
    const digest = createHash('sha256').update(token).digest();
    const index = digest.readUInt32LE(0) % dimension;
    vector[index] = (vector[index] ?? 0) + ((digest[4] ?? 0) & 1 ? 1 : -1);
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((v) => v / norm);
}

function toBase64Float32(vector: number[]): string {
  const buffer = Buffer.alloc(vector.length * 4);
  vector.forEach((v, i) => buffer.writeFloatLE(v, i * 4));
  return buffer.toString('base64');
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req_${Date.now()}`, ...headers });
  res.end(JSON.stringify(body));
}

function sendError(res: ServerResponse, status: number, message: string, type: string, code: string | null, headers: Record<string, string> = {}): void {
  sendJson(res, status, { error: { message, type, param: null, code } }, headers);
}

function approxTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Answers a fault common to both endpoints; returns true when it handled the response. */
function answerTransportFault(res: ServerResponse, reply: ChatReply): boolean {
  if (!('fault' in reply)) return false;
  switch (reply.fault) {
    case 'rate-limit': {
      const headers: Record<string, string> = {};
      if (reply.retryAfterMs !== undefined) headers['retry-after-ms'] = String(reply.retryAfterMs);
      if (reply.retryAfterSeconds !== undefined) headers['retry-after'] = String(reply.retryAfterSeconds);
      sendError(res, 429, 'Rate limit reached for requests', 'requests', 'rate_limit_exceeded', headers);
      return true;
    }
    case 'server-error':
      // retry-after-ms: 0 keeps the client's own backoff out of test time.
      sendError(res, reply.status ?? 500, reply.message ?? 'The server had an error while processing your request.', 'server_error', null, { 'retry-after-ms': '0' });
      return true;
    case 'http-error':
      sendError(res, reply.status, reply.message, reply.type ?? 'invalid_request_error', reply.code ?? null, reply.headers);
      return true;
    case 'hang':
      return true;
    case 'malformed-body':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"id":"chatcmpl-broken","object":"chat.completion","choices":[{"index":0,');
      return true;
    default:
      return false;
  }
}

function completion(model: string, prompt: number, content: string | null, finish: string, extra: { refusal?: string; usage?: { prompt_tokens?: number; completion_tokens?: number } } = {}) {
  const promptTokens = extra.usage?.prompt_tokens ?? prompt;
  const completionTokens = extra.usage?.completion_tokens ?? approxTokens(content ?? extra.refusal ?? '');
  return {
    id: `chatcmpl-loopback${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: extra.refusal ?? null }, logprobs: null, finish_reason: finish }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    system_fingerprint: 'fp_loopback',
  };
}

function answerChat(res: ServerResponse, reply: ChatReply, body: JsonBody, raw: string, fallbackModel: string): void {
  if (answerTransportFault(res, reply)) return;
  const model = typeof body?.model === 'string' ? body.model : fallbackModel;
  const prompt = approxTokens(raw);
  if ('content' in reply && !('fault' in reply)) return sendJson(res, 200, completion(model, prompt, reply.content, 'stop', reply));
  if ('json' in reply) return sendJson(res, 200, completion(model, prompt, JSON.stringify(reply.json), 'stop', reply));
  if (reply.fault === 'refusal') return sendJson(res, 200, completion(model, prompt, null, 'stop', { refusal: reply.refusal ?? "I'm sorry, I can't help with that." }));
  if (reply.fault === 'length') return sendJson(res, 200, completion(model, prompt, reply.content ?? '{"rootCause":"The conn', 'length'));
  if (reply.fault === 'content-filter') return sendJson(res, 200, completion(model, prompt, reply.content ?? null, 'content_filter'));
}

export async function startLoopbackOpenAI(options: LoopbackOpenAIOptions = {}): Promise<LoopbackOpenAI> {
  const requests: RecordedRequest[] = [];
  const chatQueue: ChatReply[] = [];
  const embeddingQueue: EmbeddingFault[] = [];
  const dimension = options.dimension ?? 64;
  const embed = options.embed ?? ((text: string) => hashEmbedding(text, dimension));
  const fallbackModel = options.model ?? 'gpt-4o-mini-loopback';
  let chatIndex = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: JsonBody;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body, raw });

    if (req.method === 'GET' && path === '/v1/models') {
      return sendJson(res, 200, { object: 'list', data: [{ id: fallbackModel, object: 'model', created: 0, owned_by: 'loopback' }] });
    }
    if (req.method === 'POST' && path === '/v1/chat/completions') {
      const index = chatIndex++;
      const reply = chatQueue.shift() ?? (options.chat ? await options.chat(body, index) : undefined);
      if (!reply) return sendError(res, 400, 'The loopback server has no scripted reply for this call.', 'invalid_request_error', 'no_script');
      return answerChat(res, reply, body, raw, fallbackModel);
    }
    if (req.method === 'POST' && path === '/v1/embeddings') {
      const fault = embeddingQueue.shift();
      if (fault && answerTransportFault(res, fault)) return;
      const inputs: string[] = Array.isArray(body?.input) ? body.input : [String(body?.input ?? '')];
      // The SDK asks for base64 when no encoding_format is given, and decodes it as float32 LE.
      const asFloat = body?.encoding_format === 'float';
      const data = inputs.map((text, index) => {
        const vector = embed(text);
        return { object: 'embedding', index, embedding: asFloat ? vector : toBase64Float32(vector) };
      });
      const tokens = inputs.reduce((sum, text) => sum + approxTokens(text), 0);
      return sendJson(res, 200, { object: 'list', data, model: body?.model ?? 'text-embedding-3-small', usage: { prompt_tokens: tokens, total_tokens: tokens } });
    }
    sendError(res, 404, `Unknown path ${path}`, 'invalid_request_error', 'unknown_url');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => sendError(res, 500, String(error), 'server_error', null));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    chatRequests: () => requests.filter((r) => r.path === '/v1/chat/completions'),
    script: (...replies) => void chatQueue.push(...replies),
    scriptEmbeddings: (...faults) => void embeddingQueue.push(...faults),
    close: () =>
      new Promise<void>((resolve) => {
        // Hung requests hold their sockets open; drop them so close() returns.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
