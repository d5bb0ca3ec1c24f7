import type { IncomingMessage, ServerResponse } from 'node:http';

const MAX_BODY = 1_000_000;

export async function readBody(req: IncomingMessage): Promise<string> {
  return (await readBytes(req, MAX_BODY)).toString('utf8');
}

/** The raw body, refused past `max` bytes (an upload's bytes are binary, not text). */
export async function readBytes(req: IncomingMessage, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) throw new BodyTooLarge(max);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export class BodyTooLarge extends Error {
  constructor(readonly max: number) {
    super(`request body too large (over ${max} bytes)`);
  }
}

/** Web API arguments arrive form-encoded (what @slack/web-api sends) or as JSON. */
export function parseArgs(raw: string, contentType: string | undefined): Record<string, unknown> {
  if (contentType?.startsWith('application/json')) {
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  }
  return Object.fromEntries(new URLSearchParams(raw));
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

export function sendFile(res: ServerResponse, body: string, type: string): void {
  // The page builds every node with textContent; the CSP makes an injection a dead letter anyway.
  res.writeHead(200, {
    'content-type': `${type}; charset=utf-8`,
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'",
    'x-content-type-options': 'nosniff',
  });
  res.end(body);
}
