import { createHmac } from 'node:crypto';

/**
 * Slack's v0 request signature: HMAC-SHA256 over `v0:{timestamp}:{raw body}` keyed by the signing
 * secret. The sandbox signs the exact bytes it sends; tests and the benchmark use the same function
 * (with their own clock) to build valid, stale and forged requests.
 */
export function signSlackRequest(signingSecret: string, rawBody: string, timestampSeconds: number): Record<string, string> {
  const timestamp = String(Math.floor(timestampSeconds));
  const signature = createHmac('sha256', signingSecret).update(`v0:${timestamp}:${rawBody}`).digest('hex');
  return { 'x-slack-request-timestamp': timestamp, 'x-slack-signature': `v0=${signature}` };
}

/** Slack's content type for interactions and slash commands; Bolt compares it by string equality. */
export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

export function formBody(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

export interface ForwardResult {
  status: number;
  body: string;
}

/** Sends one signed request to Medic's `/slack/events`, exactly as Slack would. */
export async function postSigned(
  url: string,
  signingSecret: string,
  rawBody: string,
  options: { now?: () => number; contentType?: string; headers?: Record<string, string> } = {},
): Promise<ForwardResult> {
  const now = options.now ?? Date.now;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': options.contentType ?? FORM_CONTENT_TYPE, ...signSlackRequest(signingSecret, rawBody, now() / 1000), ...options.headers },
    body: rawBody,
  });
  return { status: response.status, body: await response.text() };
}
