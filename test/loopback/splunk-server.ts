/**
 * A loopback Splunk management port, faithful to REFERENCE.md §1 and §7: the v2 export stream
 * (NDJSON with preview/offset/lastrow), search jobs with paged results (v1 and v2), auth/login,
 * server/info, the Basic / Splunk / Bearer schemes with their 401 bodies, the error envelopes, and
 * faults injected per search. Events carry `_indextime`, and searches really filter on it.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { parseSearch, runSearch, SplError, type SplunkEventRow } from '../splunk/support/spl-evaluator.js';

export type { SplunkEventRow };

export type SplunkFault =
  | { kind: 'status'; status: number; body: string }
  | { kind: 'fatal-in-stream' | 'reset' | 'stall' | 'truncate' | 'malformed' | 'bad-utf8'; afterRows: number }
  /** A slow search: nothing is sent for `ms`, then the result streams as usual. */
  | { kind: 'slow'; ms: number };

export interface ReceivedSearch {
  endpoint: 'export' | 'jobs';
  search: string;
  form: Record<string, string>;
  /** Set when the loopback refused the SPL, as Splunk would with 400 FATAL. */
  refused?: string;
}

export interface LoopbackSplunkOptions {
  token?: string;
  username?: string;
  password?: string;
  version?: string;
  /** false: a server older than 9.0.1 without the v2 endpoints. */
  v2?: boolean;
  nowS?: () => number;
  tls?: { key: string; cert: string };
}

export interface LoopbackSplunk {
  url: string;
  rows: SplunkEventRow[];
  searches: ReceivedSearch[];
  /** `Authorization` schemes seen, in order (values are never kept). */
  schemes: string[];
  jobs: Map<string, SplunkEventRow[]>;
  /** Result rows of export streams written to sockets so far (the stream waits while the reader lags). */
  exported: { rows: number };
  /** Export requests whose client closed the connection before the response was complete. */
  cancelled: { requests: number };
  fault(fault: SplunkFault): void;
  expireSessions(): void;
  close(): Promise<void>;
}

const NOT_AUTHENTICATED = JSON.stringify({ messages: [{ type: 'WARN', text: 'call not properly authenticated' }] });

/** A row the way Splunk's JSON output has it: every value a string. */
export function buildSplunkRow(input: { index?: string; cd: string; time: string; indexTime: number; raw: string; host?: string; sourcetype?: string; fields?: Record<string, string> }): SplunkEventRow {
  return {
    _bkt: `${input.index ?? 'main'}~26~ABC`, _cd: input.cd, _indextime: String(input.indexTime), _raw: input.raw, _serial: '0',
    _si: ['loopback', input.index ?? 'main'], _sourcetype: input.sourcetype ?? 'medic:app', _time: input.time,
    host: input.host ?? 'app-01', index: input.index ?? 'main', linecount: String(input.raw.split('\n').length), source: '/var/log/app.log',
    sourcetype: input.sourcetype ?? 'medic:app', splunk_server: 'loopback', ...input.fields,
  };
}

async function readForm(req: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

const fatal = (text: string) => ({ messages: [{ type: 'FATAL', text }] });

export async function startLoopbackSplunk(options: LoopbackSplunkOptions = {}): Promise<LoopbackSplunk> {
  const rows: SplunkEventRow[] = [];
  const searches: ReceivedSearch[] = [];
  const schemes: string[] = [];
  const faults: SplunkFault[] = [];
  const sessions = new Set<string>();
  const jobs = new Map<string, SplunkEventRow[]>();
  const jobPolls = new Map<string, number>();
  const sockets = new Set<Socket>();
  const nowS = options.nowS ?? (() => Date.now() / 1000);
  const v2 = options.v2 ?? true;

  /** Checks the Authorization header; answers 401 the way Splunk does and returns false when it fails. */
  function authenticated(req: IncomingMessage, res: ServerResponse): boolean {
    const header = req.headers.authorization ?? '';
    const [scheme = '', value = ''] = header.split(' ', 2);
    schemes.push(scheme || 'none');
    if (scheme === 'Bearer' && options.token !== undefined && value === options.token) return true;
    if (scheme === 'Splunk' && sessions.has(value)) return true;
    if (scheme === 'Basic' && options.username !== undefined && Buffer.from(value, 'base64').toString('utf8') === `${options.username}:${options.password ?? ''}`) return true;
    if (scheme === 'Basic' || scheme === '') {
      send(res, 401, { messages: [{ type: 'ERROR', text: 'Unauthorized' }] }, { 'www-authenticate': 'Basic realm="/splunk"' });
    } else send(res, 401, NOT_AUTHENTICATED);
    return false;
  }

  function evaluate(endpoint: ReceivedSearch['endpoint'], form: Record<string, string>, res: ServerResponse): SplunkEventRow[] | undefined {
    const record: ReceivedSearch = { endpoint, search: form.search ?? '', form };
    searches.push(record);
    if (!form.search) { send(res, 400, fatal('Empty search.')); return undefined; }
    try {
      return runSearch(parseSearch(form.search), rows, { earliest: form.earliest_time, latest: form.latest_time, nowS: nowS() });
    } catch (error) {
      if (!(error instanceof SplError)) throw error;
      record.refused = error.message;
      send(res, 400, fatal(`Error in 'search' command: ${error.message}`));
      return undefined;
    }
  }

  const exported = { rows: 0 };
  const cancelled = { requests: 0 };

  // Like splunkd, the stream goes no faster than the reader: each write waits for the socket to drain.
  async function write(res: ServerResponse, text: string): Promise<void> {
    if (res.write(text) || res.destroyed) return;
    await new Promise<void>((resolve) => {
      const done = () => { res.off('drain', done); res.off('close', done); resolve(); };
      res.on('drain', done);
      res.on('close', done);
    });
  }

  async function streamExport(res: ServerResponse, result: SplunkEventRow[], withPreview: boolean, fault: SplunkFault | undefined): Promise<void> {
    res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
    if (withPreview && result.length > 0) {
      // Non-streaming commands make Splunk send preview sets first; offsets restart in each set.
      const preview = result.slice(0, 3).map((r, i) => JSON.stringify({ preview: true, offset: i, ...(i === Math.min(3, result.length) - 1 ? { lastrow: true } : {}), result: r }));
      res.write(`${preview.join('\n')}\n\n`);
    }
    if (result.length === 0 && !fault) { res.end('{"preview":false,"lastrow":true}\n'); return; }
    let batch: string[] = [];
    for (let i = 0; i < result.length; i++) {
      if (fault && 'afterRows' in fault && i === fault.afterRows) break;
      batch.push(JSON.stringify({ preview: false, offset: i, ...(i === result.length - 1 ? { lastrow: true } : {}), result: result[i] }));
      if (batch.length === 200) {
        await write(res, `${batch.join('\n')}\n`);
        exported.rows += batch.length;
        batch = [];
        if (res.destroyed) return;
      }
    }
    if (batch.length > 0) {
      await write(res, `${batch.join('\n')}\n`);
      exported.rows += batch.length;
    }
    if (!fault || fault.kind === 'status') { res.end(); return; }
    if (fault.kind === 'fatal-in-stream') res.end(`${JSON.stringify({ preview: false, messages: [{ type: 'FATAL', text: 'Search auto-canceled' }] })}\n`);
    else if (fault.kind === 'reset') res.socket?.destroy();
    else if (fault.kind === 'truncate') res.end(); // clean end, but no final lastrow
    else if (fault.kind === 'malformed') res.end('{"preview":false,"offset":9,"result":{"_raw":"x"\n');
    else if (fault.kind === 'bad-utf8') res.end(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]));
    // 'stall': keep the socket open and silent; close() ends it.
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://loopback');
    const path = url.pathname;
    if (path.includes('/v2/') && !v2) { send(res, 404, { messages: [{ type: 'ERROR', text: 'Not Found' }] }); return; }
    if (path === '/services/auth/login' && req.method === 'POST') {
      const form = await readForm(req);
      if (options.username === undefined || form.username !== options.username || form.password !== options.password) {
        send(res, 401, { messages: [{ type: 'WARN', text: 'Login failed' }] });
        return;
      }
      const key = randomUUID();
      sessions.add(key);
      if (url.searchParams.get('output_mode') === 'json' || form.output_mode === 'json') send(res, 200, { sessionKey: key });
      else send(res, 200, `<response>\n  <sessionKey>${key}</sessionKey>\n</response>`, { 'content-type': 'text/xml' });
      return;
    }
    if (!authenticated(req, res)) return;
    if (path === '/services/server/info') {
      const version = options.version ?? '9.3.1';
      send(res, 200, { generator: { build: 'loopback', version }, entry: [{ name: 'server-info', content: { version, serverName: 'loopback-splunk', build: 'loopback' } }] });
      return;
    }
    if (path === '/services/search/v2/jobs/export' && req.method === 'POST') {
      const form = await readForm(req);
      let fault = faults.shift();
      res.once('close', () => (res.writableEnded ? undefined : (cancelled.requests += 1)));
      if (fault?.kind === 'status') { searches.push({ endpoint: 'export', search: form.search ?? '', form }); send(res, fault.status, fault.body); return; }
      if (fault?.kind === 'slow') {
        const { ms } = fault;
        await new Promise((resolve) => setTimeout(resolve, ms));
        fault = undefined;
        if (res.destroyed) return;
      }
      const result = evaluate('export', form, res);
      if (result) await streamExport(res, result, /\|\s*sort\b/.test(form.search ?? ''), fault);
      return;
    }
    const job = /^\/services\/search\/(?:v2\/)?jobs(?:\/([^/]+))?(\/results)?$/.exec(path);
    if (job) { await handleJob(req, res, job[1], Boolean(job[2]), url); return; }
    send(res, 404, { messages: [{ type: 'ERROR', text: `Not Found: ${path}` }] });
  }

  async function handleJob(req: IncomingMessage, res: ServerResponse, sid: string | undefined, results: boolean, url: URL): Promise<void> {
    const form = req.method === 'POST' ? await readForm(req) : {};
    if (!sid && req.method === 'POST') {
      const fault = faults.shift();
      if (fault?.kind === 'status') { searches.push({ endpoint: 'jobs', search: form.search ?? '', form }); send(res, fault.status, fault.body); return; }
      const result = evaluate('jobs', form, res);
      if (!result) return;
      const id = `${Math.floor(nowS())}.${jobs.size + 1}`;
      jobs.set(id, result);
      send(res, 201, form.output_mode === 'json' ? { sid: id } : `<response><sid>${id}</sid></response>`);
      return;
    }
    const found = sid === undefined ? undefined : jobs.get(decodeURIComponent(sid));
    if (!sid || !found) { send(res, 404, { messages: [{ type: 'FATAL', text: `Unknown sid.` }] }); return; }
    if (req.method === 'DELETE') { jobs.delete(sid); send(res, 200, { messages: [{ type: 'INFO', text: 'Search job cancelled.' }] }); return; }
    if (!results) {
      // The first status poll says "running", as a real job would, so the client's wait loop is exercised.
      const polls = (jobPolls.get(sid) ?? 0) + 1;
      jobPolls.set(sid, polls);
      const isDone = polls > 1;
      send(res, 200, { entry: [{ name: sid, content: { sid, isDone, dispatchState: isDone ? 'DONE' : 'RUNNING', resultCount: found.length, defaultTTL: '600' } }] });
      return;
    }
    const params = { ...Object.fromEntries(url.searchParams), ...form };
    const count = Number(params.count ?? 100);
    const offset = Number(params.offset ?? 0);
    const page = count === 0 ? found.slice(offset) : found.slice(offset, offset + count);
    send(res, 200, { preview: false, init_offset: offset, messages: [], fields: [], results: page });
  }

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((error: unknown) => send(res, 500, fatal(String(error))));
  };
  const server = options.tls ? https.createServer(options.tls, listener) : http.createServer(listener);
  server.on('connection', (socket: Socket) => { sockets.add(socket); socket.on('close', () => sockets.delete(socket)); });
  server.on('secureConnection', (socket: Socket) => { sockets.add(socket); socket.on('close', () => sockets.delete(socket)); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    rows, searches, schemes, jobs, exported, cancelled,
    fault: (fault) => faults.push(fault),
    expireSessions: () => sessions.clear(),
    close: () => new Promise<void>((resolve) => { for (const s of sockets) s.destroy(); server.close(() => resolve()); }),
  };
}
