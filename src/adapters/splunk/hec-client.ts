import { ErrorCode, MedicError } from '../../domain/errors.js';
import { redactDeep } from '../../domain/untrusted/redact.js';

export interface HecOptions {
  /** The collector base, e.g. https://splunk:8088 (HEC has its own port). */
  url: string;
  token: string;
  index?: string;
  sourcetype: string;
  timeoutMs?: number;
}

export interface HecEvent {
  time: number;
  event: unknown;
}

/**
 * Sends events to Splunk's HTTP Event Collector: one request with the envelopes concatenated,
 * `Authorization: Splunk <token>`. Success is a 200 with `code: 0`; the status and the code are both
 * checked, since some setups answer token errors with a 200.
 */
export function createHecClient(options: HecOptions) {
  const endpoint = new URL('/services/collector/event', options.url).toString();
  return {
    async send(events: HecEvent[]): Promise<void> {
      if (events.length === 0) return;
      const body = events
        .map((e) => JSON.stringify({ time: e.time, event: redactDeep(e.event), sourcetype: options.sourcetype, source: 'medic', ...(options.index ? { index: options.index } : {}) }))
        .join('\n');
      let response: Response;
      try {
        response = await fetch(endpoint, {
          method: 'POST',
          headers: { authorization: `Splunk ${options.token}`, 'content-type': 'application/json' },
          body,
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        });
      } catch (error) {
        throw new MedicError(ErrorCode.UpstreamUnavailable, `Splunk HEC at ${options.url} did not answer: ${error instanceof Error ? error.message : String(error)}`, { transient: true });
      }
      const reply = (await response.json().catch(() => ({}))) as { text?: string; code?: number };
      if (response.status === 200 && reply.code === 0) return;
      const transient = response.status === 429 || response.status >= 500;
      const hint = response.status === 401 || response.status === 403 || [1, 2, 3, 4].includes(reply.code ?? -1) ? ': check SPLUNK_HEC_TOKEN' : '';
      throw new MedicError(transient ? ErrorCode.UpstreamUnavailable : ErrorCode.UpstreamRejected, `Splunk HEC answered ${response.status} ${reply.text ?? ''}${hint}`, { transient });
    },
  };
}
export type HecClient = ReturnType<typeof createHecClient>;
