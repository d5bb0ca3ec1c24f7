import { createServer, type IncomingMessage } from 'node:http';

export interface LoopbackHec {
  url: string;
  /** Envelopes accepted, in order. */
  received: Record<string, unknown>[];
  /** Makes the next `times` requests fail with this status and HEC reply. */
  fail(status: number, reply: { text: string; code: number }, times?: number): void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  return body;
}

/**
 * A loopback HTTP Event Collector: `POST /services/collector/event`, `Authorization: Splunk <token>`,
 * concatenated JSON envelopes, and HEC's documented replies (`{"text":"Success","code":0}`, 401 code 2/3,
 * 403 code 4, 400 code 5/6).
 */
export async function startHecServer(token: string): Promise<LoopbackHec> {
  const received: Record<string, unknown>[] = [];
  let failure: { status: number; reply: { text: string; code: number }; times: number } | undefined;
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const reply = (status: number, payload: { text: string; code: number }) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
      if (req.method !== 'POST' || !req.url?.startsWith('/services/collector/event')) return reply(404, { text: 'Not found', code: 404 });
      if (failure && failure.times > 0) {
        failure.times--;
        return reply(failure.status, failure.reply);
      }
      const auth = req.headers.authorization;
      if (!auth) return reply(401, { text: 'Token is required', code: 2 });
      if (!auth.startsWith('Splunk ')) return reply(401, { text: 'Invalid authorization', code: 3 });
      if (auth.slice('Splunk '.length) !== token) return reply(403, { text: 'Invalid token', code: 4 });
      if (body.trim() === '') return reply(400, { text: 'No data', code: 5 });
      const envelopes: Record<string, unknown>[] = [];
      try {
        // Envelopes are concatenated JSON objects, newline-separated or not.
        for (const piece of body.replace(/}\s*{/g, '}\n{').split('\n')) if (piece.trim()) envelopes.push(JSON.parse(piece) as Record<string, unknown>);
      } catch {
        return reply(400, { text: 'Invalid data format', code: 6 });
      }
      if (envelopes.some((e) => e.event === undefined)) return reply(400, { text: 'Event field is required', code: 12 });
      received.push(...envelopes);
      reply(200, { text: 'Success', code: 0 });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    fail: (status, reply, times = 1) => (failure = { status, reply, times }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
