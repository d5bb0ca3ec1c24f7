import { createServer, type Server } from 'node:http';
import type { Route } from './ops-routes.js';

/** A plain HTTP server over a list of routes; the first route that answers wins. */
export async function startHttpServer(port: number, routes: Route[], host = '127.0.0.1'): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    void (async () => {
      for (const route of routes) if (await route(req, res)) return;
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not found' }));
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return {
    server,
    port: typeof address === 'object' && address ? address.port : port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
