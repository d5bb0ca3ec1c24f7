import { ErrorCode, MedicError } from '../../domain/errors.js';
import type { Transport } from './http-transport.js';
import { parseMessages, readSmallBody, statusError } from './splunk-errors.js';
import type { SplunkAuth } from './splunk-options.js';

export interface AuthHeader {
  /** The Authorization value for the next request. */
  get(): Promise<string>;
  /** Called after a 401; true when a fresh credential is worth one more try (an expired session key). */
  refresh(): Promise<boolean>;
}

/** Splunk's three schemes: `Bearer <token>`, `Basic …`, and `Splunk <sessionKey>` from /services/auth/login. */
export function createAuthHeader(auth: SplunkAuth, transport: Transport): AuthHeader {
  if (auth.kind === 'token') return { get: async () => `Bearer ${auth.token}`, refresh: async () => false };
  if (auth.kind === 'basic') {
    const value = `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
    return { get: async () => value, refresh: async () => false };
  }
  const { username, password } = auth;
  let sessionKey: Promise<string> | undefined;

  async function login(): Promise<string> {
    const res = await transport.send({
      method: 'POST',
      path: '/services/auth/login',
      query: { output_mode: 'json' },
      form: { username, password },
    });
    const body = await readSmallBody(res);
    if (res.statusCode !== 200) throw statusError(res.statusCode ?? 0, parseMessages(body), auth);
    // JSON with output_mode=json; older servers answer XML <sessionKey> regardless.
    const key = /"sessionKey"\s*:\s*"([^"]+)"/.exec(body)?.[1] ?? /<sessionKey>([^<]+)<\/sessionKey>/.exec(body)?.[1];
    if (!key) throw new MedicError(ErrorCode.UpstreamRejected, 'Splunk accepted the login but sent no session key; check SPLUNK_URL points at splunkd (port 8089).');
    return key;
  }

  return {
    async get() {
      sessionKey ??= login();
      try {
        return `Splunk ${await sessionKey}`;
      } catch (error) {
        sessionKey = undefined;
        throw error;
      }
    },
    async refresh() {
      sessionKey = undefined;
      return true;
    },
  };
}
