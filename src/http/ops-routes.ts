import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import type { ServiceCheck } from '../ports/service-check.js';

export interface OpsRouteDeps {
  registry: Registry;
  /** Refreshes gauges (queue depth, incidents by state) just before a scrape. */
  beforeScrape?: () => Promise<void>;
  /** Redis and the queues: without them Medic cannot take work. Must not call upstreams. */
  ready: () => Promise<ServiceCheck[]>;
  /** `/readyz` answers within this bound whatever `ready` does (503 past it). */
  readyTimeoutMs?: number;
  /** When set, `/metrics` requires `Authorization: Bearer <token>`. */
  metricsToken?: string;
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer\s+(.+)$/i.exec(header ?? '')?.[1]?.trim() ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export type Route = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' });
  res.end(body);
}

/** What `/healthz` answers: the process is up, and it is Medic (a second start on a taken port asks). */
export const HEALTH_BODY = { ok: true, service: 'medic' } as const;

/** `/healthz` (the process is up), `/readyz` (its dependencies answer) and `/metrics` (Prometheus). */
export function createOpsRoutes(deps: OpsRouteDeps): Route {
  return async (req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (req.method !== 'GET') return false;
    if (path === '/healthz') {
      send(res, 200, 'application/json', JSON.stringify(HEALTH_BODY));
      return true;
    }
    if (path === '/readyz') {
      const limitMs = deps.readyTimeoutMs ?? 1_000;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<ServiceCheck[]>((resolve) => {
        timer = setTimeout(() => resolve([{ name: 'readiness', adapter: '-', ok: false, detail: `no answer within ${limitMs} ms` }]), limitMs);
      });
      const checks = await Promise.race([deps.ready().catch((error: unknown) => [{ name: 'readiness', adapter: '-', ok: false, detail: String(error) }]), late]);
      clearTimeout(timer);
      const ok = checks.every((c) => c.ok);
      send(res, ok ? 200 : 503, 'application/json', JSON.stringify({ ok, checks }));
      return true;
    }
    if (path === '/metrics') {
      if (deps.metricsToken && !bearerMatches(req.headers.authorization, deps.metricsToken)) {
        res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="medic-metrics"', 'cache-control': 'no-store' });
        res.end(JSON.stringify({ error: 'unauthorized', detail: 'send Authorization: Bearer <MEDIC_METRICS_TOKEN>' }));
        return true;
      }
      await deps.beforeScrape?.().catch(() => undefined);
      send(res, 200, deps.registry.contentType, await deps.registry.metrics());
      return true;
    }
    return false;
  };
}
