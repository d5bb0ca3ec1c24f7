/**
 * A loopback stand-in for the operator's automation endpoint: verifies Medic's webhook signature,
 * records every request, and answers with scripted statuses (429, 500, …) so the gateway's
 * degradation can be driven. `count()` is how tests prove that a denied or proposal-only call
 * performed nothing.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, verifyAutomationSignature } from '../../src/gateway/actions/automation-client.js';

export interface ReceivedAction {
  path: string;
  /** The parsed JSON body Medic sent. */
  body: { action: string; args: Record<string, unknown>; incidentId?: string; traceId?: string; approverId?: string; requestId: string };
  signatureValid: boolean;
}

export interface LoopbackAutomation {
  url: string;
  received: ReceivedAction[];
  count(path?: string): number;
  /** Statuses to answer next, in order; then 200. */
  script(...statuses: number[]): void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startLoopbackAutomation(secret: string, nowSeconds = () => Math.floor(Date.now() / 1_000)): Promise<LoopbackAutomation> {
  const received: ReceivedAction[] = [];
  const queue: number[] = [];
  const server = createServer((req, res) => {
    void readBody(req).then((raw) => {
      const signatureValid = verifyAutomationSignature({
        secret,
        timestamp: String(req.headers[TIMESTAMP_HEADER] ?? ''),
        body: raw,
        signature: String(req.headers[SIGNATURE_HEADER] ?? ''),
        nowSeconds: nowSeconds(),
      });
      received.push({ path: req.url ?? '', body: JSON.parse(raw) as ReceivedAction['body'], signatureValid });
      const status = signatureValid ? (queue.shift() ?? 200) : 401;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(status === 200 ? { ok: true, path: req.url } : { error: `status ${status}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    count: (path) => received.filter((r) => path === undefined || r.path === path).length,
    script: (...statuses) => void queue.push(...statuses),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
