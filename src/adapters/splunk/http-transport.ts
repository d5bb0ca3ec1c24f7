import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { ErrorCode, MedicError } from '../../domain/errors.js';

export interface TransportOptions {
  url: string;
  tlsVerify: boolean;
  ca?: string;
  connectTimeoutMs: number;
  readTimeoutMs: number;
}

export interface TransportRequest {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, string>;
  form?: Record<string, string>;
  headers?: Record<string, string>;
  /** Aborting destroys the request (or the response being read): Splunk sees the connection close. */
  signal?: AbortSignal;
}

export interface Transport {
  /** Resolves once headers arrive; the body is read by the caller (and bounded by the read timeout). */
  send(request: TransportRequest): Promise<IncomingMessage>;
  close(): void;
}

/** node:https rather than fetch so a private CA and per-socket idle timeouts work without extra packages. */
export function createTransport(options: TransportOptions): Transport {
  const base = new URL(options.url);
  const secure = base.protocol === 'https:';
  const agent = secure
    ? new https.Agent({ keepAlive: true, maxSockets: 4, rejectUnauthorized: options.tlsVerify, ...(options.ca ? { ca: options.ca } : {}) })
    : new http.Agent({ keepAlive: true, maxSockets: 4 });
  const where = `${base.protocol}//${base.host}`;

  return {
    send(request) {
      const url = new URL(base.pathname.replace(/\/$/, '') + request.path, base);
      for (const [k, v] of Object.entries(request.query ?? {})) url.searchParams.set(k, v);
      const body = request.form ? new URLSearchParams(request.form).toString() : undefined;
      const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
      if (body !== undefined) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        headers['content-length'] = String(Buffer.byteLength(body));
      }
      return new Promise<IncomingMessage>((resolve, reject) => {
        const { signal } = request;
        const cancelled = () => new MedicError(ErrorCode.UpstreamUnavailable, `The request to Splunk at ${where} was cancelled by its caller (${signal?.reason instanceof Error ? signal.reason.message : 'aborted'}).`, { transient: true });
        if (signal?.aborted) return reject(cancelled());
        const req = (secure ? https : http).request(url, { method: request.method, headers, agent });
        const onAbort = () => (response ?? req).destroy(cancelled());
        signal?.addEventListener('abort', onAbort, { once: true });
        req.once('close', () => {
          if (!response) signal?.removeEventListener('abort', onAbort);
        });
        const connectTimer = setTimeout(() => {
          req.destroy(new MedicError(ErrorCode.UpstreamUnavailable, `Splunk at ${where} did not accept a connection within ${options.connectTimeoutMs} ms; check SPLUNK_URL and the network path to port 8089.`, { transient: true }));
        }, options.connectTimeoutMs);
        req.on('socket', (socket) => {
          // A reused keep-alive socket is already connected.
          if (!socket.connecting) clearTimeout(connectTimer);
          else socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
        });
        let response: IncomingMessage | undefined;
        req.setTimeout(options.readTimeoutMs, () => {
          // After the headers the silence is mid-stream: fail the body the caller is reading.
          (response ?? req).destroy(new MedicError(ErrorCode.UpstreamUnavailable, `Splunk at ${where} went silent for ${options.readTimeoutMs} ms; it may be overloaded (raise SPLUNK_READ_TIMEOUT_MS if searches are slow).`, { transient: true }));
        });
        req.on('response', (res) => {
          clearTimeout(connectTimer);
          response = res;
          res.once('close', () => signal?.removeEventListener('abort', onAbort));
          resolve(res);
        });
        req.on('error', (error) => {
          clearTimeout(connectTimer);
          reject(toTransportError(error, where));
        });
        req.end(body);
      });
    },
    close() {
      agent.destroy();
    },
  };
}

/** Network failures become transient coded errors, except certificate problems, which need the operator. */
export function toTransportError(error: unknown, where: string): MedicError {
  if (error instanceof MedicError) return error;
  const code = (error as { code?: string }).code ?? '';
  const text = error instanceof Error ? error.message : String(error);
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(code)) {
    return new MedicError(ErrorCode.UpstreamRejected, `Splunk at ${where} presented a certificate Medic cannot verify (${code}); set SPLUNK_CA_FILE to the CA that signed it.`, { cause: error });
  }
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new MedicError(ErrorCode.UpstreamUnavailable, `Splunk at ${where} is unreachable (${code}); check SPLUNK_URL and that splunkd listens on the management port.`, { transient: true, cause: error });
  }
  return new MedicError(ErrorCode.UpstreamUnavailable, `The connection to Splunk at ${where} failed (${code || text}); the poll will retry.`, { transient: true, cause: error });
}
