import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { ErrorCode, MedicError } from '../../domain/errors.js';

/** One operational action sent to the operator's automation (any HTTP endpoint). */
export interface AutomationRequest {
  action: string;
  webhook: string;
  args: Record<string, unknown>;
  incidentId?: string;
  traceId?: string;
  approverId?: string;
  signal?: AbortSignal;
}

export interface AutomationClient {
  run(request: AutomationRequest): Promise<unknown>;
}

export const SIGNATURE_HEADER = 'x-medic-signature';
export const TIMESTAMP_HEADER = 'x-medic-timestamp';

/** `v1=<hex HMAC-SHA256 over "v1:<timestamp>:<body>">`, the same shape Slack uses, so receivers are familiar. */
export function signAutomationBody(secret: string, timestamp: string, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`v1:${timestamp}:${body}`).digest('hex')}`;
}

/**
 * For receivers (and the loopback one in tests): a valid signature over a fresh timestamp.
 * The clock is a parameter; five minutes of skew is what Slack tolerates too.
 */
export function verifyAutomationSignature(input: { secret: string; timestamp: string; body: string; signature: string; nowSeconds: number; toleranceSeconds?: number }): boolean {
  const ts = Number(input.timestamp);
  if (!Number.isInteger(ts) || Math.abs(input.nowSeconds - ts) > (input.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(signAutomationBody(input.secret, input.timestamp, input.body));
  const given = Buffer.from(input.signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export interface WebhookAutomationOptions {
  /** MEDIC_AUTOMATION_URL: where relative webhook paths of the policy file point. */
  baseUrl?: string;
  secret: string;
  now?: () => number;
  fetch?: typeof fetch;
}

/** Signed webhooks: 2xx is done, 429/5xx are transient (they trip the breaker), other 4xx are refusals. */
export function createWebhookAutomation(options: WebhookAutomationOptions): AutomationClient {
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  return {
    async run(request) {
      if (request.webhook.startsWith('/') && !options.baseUrl) {
        throw new MedicError(ErrorCode.ConfigInvalid, `Action ${request.action} posts to ${request.webhook}: set MEDIC_AUTOMATION_URL.`);
      }
      const url = new URL(request.webhook, options.baseUrl);
      const { signal, webhook: _webhook, ...payload } = request;
      const body = JSON.stringify({ ...payload, requestId: randomUUID() });
      const timestamp = String(Math.floor(now() / 1_000));
      const response = await doFetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: signAutomationBody(options.secret, timestamp, body) },
        body,
        signal,
      });
      const text = await response.text();
      if (response.ok) return parseBody(text);
      const where = `The automation endpoint for ${request.action} answered ${response.status}`;
      if (response.status === 429 || response.status >= 500) {
        throw Object.assign(new MedicError(ErrorCode.UpstreamUnavailable, `${where}; retry later.`, { transient: true }), { status: response.status });
      }
      throw Object.assign(new MedicError(ErrorCode.UpstreamRejected, `${where}; check the action and MEDIC_AUTOMATION_SECRET.`), { status: response.status });
    },
  };
}

function parseBody(text: string): unknown {
  if (text === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { text: text.slice(0, 4_000) };
  }
}
