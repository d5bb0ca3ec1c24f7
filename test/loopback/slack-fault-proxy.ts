/**
 * A fault-injecting loopback in front of a Slack Web API (the sandbox): it forwards each call as
 * Slack's wire format has it (form body, Bearer token) and, where the test says, answers the way a
 * bad day at Slack does — HTTP 429 with Retry-After, a 200 with `ok:false` and a platform error, an
 * answer later than the client's deadline (the call was applied), or a call applied only after the
 * client gave up. Every call is recorded with its arrival time, to count calls per second.
 */
import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export type SlackFault =
  | { kind: 'ratelimited'; retryAfterS: number }
  | { kind: 'error'; error: string }
  /** Forwarded at once, answered after `ms`: Slack did it, the answer is late. */
  | { kind: 'slow-answer'; ms: number }
  /** Held for `ms`, then forwarded: Slack applies it after the client gave up. */
  | { kind: 'late-apply'; ms: number };

export interface ProxiedCall {
  method: string;
  at: number;
  form: URLSearchParams;
  answered: 'forwarded' | SlackFault['kind'];
}

export interface LoopbackSlackFaults {
  /** SLACK_API_URL for the client (ends in `/`). */
  apiUrl: string;
  calls: ProxiedCall[];
  /** Chooses the fault for each call (undefined: forward it). */
  setFaults(choose: (method: string, form: URLSearchParams) => SlackFault | undefined): void;
  /** The most calls that arrived within any window of `windowMs`. */
  maxCallsWithin(windowMs: number, since?: number): number;
  close(): Promise<void>;
}

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks).toString('utf8'))).on('error', reject);
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function createLoopbackSlackFaults(upstreamApiUrl: string): Promise<LoopbackSlackFaults> {
  let choose: (method: string, form: URLSearchParams) => SlackFault | undefined = () => undefined;
  const calls: ProxiedCall[] = [];
  const forward = async (method: string, body: string, req: IncomingMessage) => {
    const res = await fetch(new URL(method, upstreamApiUrl), {
      method: 'POST',
      headers: { 'content-type': req.headers['content-type'] ?? 'application/x-www-form-urlencoded', ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) },
      body,
    });
    return { status: res.status, headers: Object.fromEntries(res.headers.entries()), text: await res.text() };
  };
  const server = http.createServer((req, res) => {
    void (async () => {
      const method = (req.url ?? '').split('?')[0]?.split('/').filter(Boolean).at(-1) ?? '';
      const body = await read(req);
      const form = new URLSearchParams(body);
      const fault = choose(method, form);
      calls.push({ method, at: Date.now(), form, answered: fault?.kind ?? 'forwarded' });
      const send = (status: number, text: string, headers: Record<string, string> = {}) => {
        if (res.destroyed || res.writableEnded) return; // the client gave up on this call
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(text);
      };
      if (fault?.kind === 'ratelimited') return send(429, JSON.stringify({ ok: false, error: 'ratelimited' }), { 'retry-after': String(fault.retryAfterS) });
      if (fault?.kind === 'error') return send(200, JSON.stringify({ ok: false, error: fault.error }));
      if (fault?.kind === 'late-apply') await sleep(fault.ms);
      const answer = await forward(method, body, req);
      if (fault?.kind === 'slow-answer') await sleep(fault.ms);
      send(answer.status, answer.text, answer.headers['retry-after'] ? { 'retry-after': answer.headers['retry-after'] } : {});
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}/api/`,
    calls,
    setFaults(next) {
      choose = next;
    },
    maxCallsWithin(windowMs, since = 0) {
      const times = calls.filter((c) => c.at >= since).map((c) => c.at).sort((a, b) => a - b);
      let max = 0;
      for (let i = 0, j = 0; i < times.length; i++) {
        while ((times[i] ?? 0) - (times[j] ?? 0) >= windowMs) j++;
        max = Math.max(max, i - j + 1);
      }
      return max;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
