import type { IncomingMessage } from 'node:http';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import { createAuthHeader } from './auth-header.js';
import { readExportStream, type SplunkRow } from './export-stream.js';
import { createTransport, toTransportError, type TransportRequest } from './http-transport.js';
import { withRetry } from './retry.js';
import { runSearchJob } from './search-job.js';
import { parseMessages, readSmallBody, statusError } from './splunk-errors.js';
import type { SplunkClientOptions } from './splunk-options.js';

export interface SearchRequest {
  search: string;
  /** Event-time bounds: epoch seconds (fractions allowed) or relative specs like `-15m`. */
  earliestTime?: string;
  latestTime?: string;
  /** Cancels the search: the request in flight is destroyed and no retry follows. */
  signal?: AbortSignal;
}

export interface SplunkClient {
  readonly where: string;
  /** Runs a search to completion; a failure anywhere fails the whole search (never a partial result). */
  search(request: SearchRequest): Promise<SplunkRow[]>;
  /**
   * Runs a search and hands its rows over as they stream in, reading no further while `onRows`
   * is busy. Resolves once the result proved complete; a failure after some rows were handed over
   * rejects, and a retried attempt hands rows over again from the start: the consumer must treat
   * rows idempotently (by identity) and act on completeness only once this resolves.
   */
  searchStream(request: SearchRequest, onRows: (rows: SplunkRow[]) => void | Promise<void>): Promise<void>;
  serverInfo(): Promise<{ version: string; serverName?: string }>;
  close(): void;
}

export function createSplunkClient(options: SplunkClientOptions): SplunkClient {
  const base = new URL(options.url);
  const where = `${base.protocol}//${base.host}`;
  const transport = createTransport({
    url: options.url,
    tlsVerify: options.tlsVerify ?? true,
    ca: options.ca,
    connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
    readTimeoutMs: options.readTimeoutMs ?? 60_000,
  });
  const auth = createAuthHeader(options.auth, transport);
  const policy = { retries: options.retries ?? 3, baseMs: options.retryBaseMs ?? 500 };
  let api = options.api ?? 'auto';

  /** Sends with credentials; one fresh login when a session key has expired; non-2xx becomes a coded error. */
  async function send(request: TransportRequest): Promise<IncomingMessage> {
    for (let attempt = 0; ; attempt++) {
      const res = await transport.send({ ...request, headers: { authorization: await auth.get() } });
      const status = res.statusCode ?? 0;
      if (status >= 200 && status < 300) return res;
      const body = await readSmallBody(res).catch(() => '');
      if (status === 401 && attempt === 0 && (await auth.refresh())) continue;
      throw statusError(status, parseMessages(body), options.auth);
    }
  }

  async function json(method: TransportRequest['method'], path: string, query?: Record<string, string>, form?: Record<string, string>, signal?: AbortSignal): Promise<unknown> {
    const res = await send({ method, path, query, form, signal });
    const body = await readSmallBody(res, 256 * 1024 * 1024).catch((error: unknown) => {
      throw toTransportError(error, where);
    });
    try {
      return JSON.parse(body) as unknown;
    } catch {
      throw new MedicError(ErrorCode.UpstreamUnavailable, `Splunk sent a body that is not JSON for ${path}; the poll will retry.`, { transient: true });
    }
  }

  function searchForm(request: SearchRequest): Record<string, string> {
    const form: Record<string, string> = { search: request.search, output_mode: 'json' };
    if (request.earliestTime) form.earliest_time = request.earliestTime;
    if (request.latestTime) form.latest_time = request.latestTime;
    // Splunk cancels a search nobody reads, so a crashed poll never holds a quota slot.
    if ((options.autoCancelS ?? 120) > 0) form.auto_cancel = String(options.autoCancelS ?? 120);
    return form;
  }

  async function exportSearch(request: SearchRequest, onRows: (rows: SplunkRow[]) => void | Promise<void>): Promise<void> {
    const res = await send({ method: 'POST', path: '/services/search/v2/jobs/export', form: searchForm(request), signal: request.signal });
    try {
      await readExportStream(res, onRows);
    } catch (error) {
      res.destroy();
      throw toTransportError(error, where);
    }
  }

  function jobSearch(request: SearchRequest, onRows: (rows: SplunkRow[]) => void | Promise<void>): Promise<void> {
    const search = { form: searchForm(request), pageSize: options.pageSize ?? 10_000, deadlineMs: options.readTimeoutMs ?? 60_000 };
    const bound = { json: (...args: Parameters<typeof json>) => json(args[0], args[1], args[2], args[3], request.signal) };
    return runSearchJob(bound, search, (ms) => new Promise((resolve) => setTimeout(resolve, ms)), onRows);
  }

  /** One attempt: the v2 export, or the job endpoints on servers without it. */
  async function attemptSearch(request: SearchRequest, onRows: (rows: SplunkRow[]) => void | Promise<void>): Promise<void> {
    if (api === 'jobs') return jobSearch(request, onRows);
    try {
      return await exportSearch(request, onRows);
    } catch (error) {
      // Servers older than 9.0.1 have no v2 export; their v1 job endpoints still work.
      if (api === 'auto' && error instanceof MedicError && error.code === ErrorCode.NotFound) {
        api = 'jobs';
        return jobSearch(request, onRows);
      }
      throw error;
    }
  }

  return {
    where,
    searchStream: (request, onRows) => withRetry({ ...policy, signal: request.signal }, () => attemptSearch(request, onRows)),
    search(request) {
      return withRetry({ ...policy, signal: request.signal }, async () => {
        // Collected per attempt: a retry starts the result over.
        const rows: SplunkRow[] = [];
        await attemptSearch(request, (batch) => {
          for (const row of batch) rows.push(row);
        });
        return rows;
      });
    },
    async serverInfo() {
      const info = (await withRetry(policy, () => json('GET', '/services/server/info', { output_mode: 'json' }))) as {
        entry?: { content?: { version?: unknown; serverName?: unknown } }[];
      };
      const content = info.entry?.[0]?.content ?? {};
      return { version: typeof content.version === 'string' ? content.version : 'unknown', serverName: typeof content.serverName === 'string' ? content.serverName : undefined };
    },
    close() {
      transport.close();
    },
  };
}
