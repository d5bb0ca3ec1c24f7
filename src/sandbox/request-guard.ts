/**
 * The sandbox approves fixes, so its page routes are guarded like a real app's: it listens on a
 * loopback address only; every request must name a loopback Host (a rebound DNS name is refused);
 * and the page's POSTs must be JSON from the page's own origin, which a cross-site form or a
 * `text/plain` fetch cannot be without a CORS preflight the sandbox never answers.
 */
import type { IncomingMessage } from 'node:http';
import { ErrorCode, MedicError } from '../domain/errors.js';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost', '[::1]']);

export function assertLoopbackHost(host: string): void {
  if (!LOOPBACK_HOSTS.has(host) && !/^127(?:\.\d{1,3}){3}$/.test(host)) {
    throw new MedicError(ErrorCode.ConfigInvalid, `The local Slack sandbox listens on loopback only, not "${host}": it is an approval endpoint for whoever reaches it.`);
  }
}

function hostName(hostHeader: string): string {
  const bracket = /^\[([^\]]+)\](?::\d+)?$/.exec(hostHeader);
  if (bracket) return `[${bracket[1]}]`;
  return hostHeader.replace(/:\d+$/, '');
}

/** Why a request is refused, or undefined when it may proceed. */
export function refuseRequest(req: IncomingMessage, options: { pageAction: boolean }): string | undefined {
  const host = req.headers.host ?? '';
  const name = hostName(host);
  if (!LOOPBACK_HOSTS.has(name) && !/^127(?:\.\d{1,3}){3}$/.test(name)) return 'host_not_loopback';
  if (!options.pageAction) return undefined;
  if (req.headers['sec-fetch-site'] === 'cross-site') return 'cross_site';
  const origin = req.headers.origin;
  if (origin !== undefined) {
    let originHost: string;
    try {
      originHost = new URL(origin).host;
    } catch {
      return 'bad_origin';
    }
    if (originHost !== host) return 'cross_origin';
  }
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return 'json_required';
  return undefined;
}
