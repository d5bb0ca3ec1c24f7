import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { route, type RouteDeps } from './routes.js';
import { codeOf, publicMessageOf, statusOf } from '../shared/errors.js';
import { withLogContext, type Logger } from '../shared/logger.js';

const MAX_BODY_BYTES = 256 * 1024;

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw Object.assign(new Error('Request body too large'), { code: 'BODY_TOO_LARGE', status: 413 });
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return undefined;
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
}

function send(res: ServerResponse, status: number, body: unknown, requestId: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': requestId });
  res.end(JSON.stringify(body));
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function handleRequest(req: IncomingMessage, res: ServerResponse, requestId: string, deps: RouteDeps, log: Logger): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://shop.local');
  const reqLog = log.child({ method: req.method, path: url.pathname });
  const started = Date.now();
  try {
    const handler = route(req.method ?? 'GET', url.pathname);
    if (!handler) return send(res, 404, { error: 'NOT_FOUND' }, requestId);
    const result = await handler({ url, body: await readJson(req), customerId: header(req, 'x-customer-id'), log: reqLog }, deps);
    send(res, result.status, result.body, requestId);
    reqLog.info('request finished', { status: result.status, durationMs: Date.now() - started });
  } catch (err) {
    const status = statusOf(err);
    if (status >= 500) reqLog.error(`request failed: ${String(err)}`, { status, errorCode: codeOf(err), durationMs: Date.now() - started }, err);
    else reqLog.warn('request rejected', { status, errorCode: codeOf(err), reason: publicMessageOf(err) });
    send(res, status, { error: codeOf(err), message: publicMessageOf(err) }, requestId);
  }
}

export function createShopServer(deps: RouteDeps, log: Logger): Server {
  return createServer((req, res) => {
    const requestId = header(req, 'x-request-id') ?? `req-${randomUUID().slice(0, 8)}`;
    // Every line logged while serving this request carries its request and session ids.
    void withLogContext({ requestId, sessionId: header(req, 'x-session-id') }, () => handleRequest(req, res, requestId, deps, log));
  });
}
