/**
 * Reads every POST to /slack/events with a bound, before any signature check can run: a body
 * declared or streamed past MAX_EVENT_BODY_BYTES is answered 413 and the rest is never read.
 * The bytes read go on as `rawBody`, which Bolt's receiver and the click fast path take as the
 * body instead of reading the stream again (Bolt's own read has no bound).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/** Slack's largest payloads (a block_actions carrying a whole message, a view submission) stay well under this. */
export const MAX_EVENT_BODY_BYTES = 4 * 1024 * 1024;

const EVENTS_PATH = '/slack/events';

/** The body, or undefined once it passed `limit` bytes: reading stops there. */
function readBounded(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.off('data', onData);
      req.pause();
      chunks.length = 0;
      resolve(undefined);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function refuse(req: IncomingMessage, res: ServerResponse, limit: number): void {
  res.writeHead(413, { 'content-type': 'text/plain', connection: 'close' });
  // The unread rest is dropped with the connection once the answer is out.
  res.end(`Request body over ${limit} bytes.\n`, () => req.destroy());
}

export function boundEventBodies(inner: RequestListener, limit = MAX_EVENT_BODY_BYTES): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || req.url?.split('?')[0] !== EVENTS_PATH) return void inner(req, res);
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) return refuse(req, res, limit);
    readBounded(req, limit).then((raw) => {
      if (raw === undefined) return refuse(req, res, limit);
      (req as IncomingMessage & { rawBody?: Buffer }).rawBody = raw;
      inner(req, res);
    }, () => {
      if (!res.headersSent) res.writeHead(400).end();
    });
  };
}
