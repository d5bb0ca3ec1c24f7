import type { IncomingMessage } from 'node:http';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import type { SplunkAuth } from './splunk-options.js';

export interface SplunkMessage {
  type: string;
  text: string;
}

const MAX_BODY = 64 * 1024;
const MAX_TEXT = 300;

/** Reads a small (error or JSON) body whole, bounded so a misbehaving server cannot flood memory. */
export async function readSmallBody(res: IncomingMessage, limit = MAX_BODY): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Messages from a JSON envelope or the XML `<msg type="FATAL">` form. */
export function parseMessages(body: string): SplunkMessage[] {
  try {
    const parsed = JSON.parse(body) as { messages?: unknown };
    if (Array.isArray(parsed.messages)) {
      return parsed.messages.flatMap((m: unknown) => {
        const { type, text } = (m ?? {}) as { type?: unknown; text?: unknown };
        return typeof text === 'string' ? [{ type: typeof type === 'string' ? type : 'ERROR', text }] : [];
      });
    }
  } catch {
    // Not JSON: fall through to XML.
  }
  return [...body.matchAll(/<msg type="([A-Z]+)"[^>]*>([^<]*)<\/msg>/g)].map((m) => ({ type: m[1] ?? 'ERROR', text: m[2] ?? '' }));
}

export function credentialHint(auth: SplunkAuth): string {
  return auth.kind === 'token' ? 'check SPLUNK_TOKEN' : 'check SPLUNK_USERNAME and SPLUNK_PASSWORD';
}

export function summarize(messages: SplunkMessage[]): string {
  const text = messages.map((m) => `${m.type}: ${m.text}`).join('; ');
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}

/** Turns a non-2xx answer into a coded error whose message tells the operator what to do. */
export function statusError(status: number, messages: SplunkMessage[], auth: SplunkAuth): MedicError {
  const said = messages.length > 0 ? ` (${summarize(messages)})` : '';
  if (status === 401) return new MedicError(ErrorCode.Unauthorized, `Splunk answered 401: ${credentialHint(auth)}${said}.`);
  if (status === 403) return new MedicError(ErrorCode.Unauthorized, `Splunk answered 403: the Splunk user lacks a capability or index access this search needs; check its role${said}.`);
  if (status === 503 || status === 429 || status >= 500) {
    const hint = /concurrent/i.test(said) ? 'the concurrent search quota is full; Medic backs off and retries' : 'Splunk is overloaded or restarting; Medic backs off and retries';
    return new MedicError(ErrorCode.UpstreamUnavailable, `Splunk answered ${status}: ${hint}${said}.`, { transient: true });
  }
  if (status === 404) return new MedicError(ErrorCode.NotFound, `Splunk answered 404${said}; check SPLUNK_URL points at the management port (8089).`);
  return new MedicError(ErrorCode.UpstreamRejected, `Splunk answered ${status}${said}; check SPLUNK_SEARCH and SPLUNK_WINDOW_SEARCH.`);
}

/** A FATAL or ERROR message inside a 200 stream fails the whole search. */
export function streamError(messages: SplunkMessage[]): MedicError | undefined {
  const bad = messages.filter((m) => m.type === 'FATAL' || m.type === 'ERROR');
  if (bad.length === 0) return undefined;
  const transient = bad.some((m) => /concurrent|quota|auto-?cancel|restart|unavailable/i.test(m.text));
  return new MedicError(
    transient ? ErrorCode.UpstreamUnavailable : ErrorCode.UpstreamRejected,
    `Splunk failed the search mid-stream (${summarize(bad)})${transient ? '; the poll will retry' : '; check SPLUNK_SEARCH'}.`,
    { transient },
  );
}
