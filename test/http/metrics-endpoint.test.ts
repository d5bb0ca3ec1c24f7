import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIncidentStore } from '../../src/adapters/redis/incident-store.js';
import type { IncidentStore } from '../../src/ports/incident-store.js';
import { PIPELINE_ACTOR } from '../../src/domain/audit.js';
import { createIncident } from '../../src/domain/incident.js';
import { createOpsRoutes } from '../../src/http/ops-routes.js';
import { startHttpServer } from '../../src/http/start-http-server.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { buildEvent } from '../support/builders.js';
import { createTestRedis } from '../support/redis.js';

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('/metrics', () => {
  const metrics = createMetrics();
  const ops = (token?: string) => createOpsRoutes({ registry: metrics.registry, ready: async () => [], metricsToken: token });

  it('binds to loopback unless a host is given', async () => {
    const http = await startHttpServer(0, [ops()]);
    try {
      expect((http.server.address() as AddressInfo).address).toBe('127.0.0.1');
    } finally {
      await http.close();
    }
  });

  it('answers only the configured bearer token when one is set', async () => {
    const http = await startHttpServer(0, [ops('metrics-token-123')]);
    try {
      expect((await get(http.port, '/metrics')).status).toBe(401);
      expect((await get(http.port, '/metrics', { authorization: 'Bearer wrong-token-123' })).status).toBe(401);
      expect((await get(http.port, '/metrics', { authorization: 'Basic metrics-token-123' })).status).toBe(401);
      const ok = await get(http.port, '/metrics', { authorization: 'Bearer metrics-token-123' });
      expect(ok.status).toBe(200);
      expect(ok.body).toContain('medic_incidents');
      // Health stays open: orchestrators probe it without credentials.
      expect((await get(http.port, '/healthz')).status).toBe(200);
    } finally {
      await http.close();
    }
  });
});

describe('incidents by state are counted as states change', () => {
  let ctx: Awaited<ReturnType<typeof createTestRedis>>;
  let store: IncidentStore;
  beforeEach(async () => {
    ctx = await createTestRedis();
    store = createIncidentStore(ctx.redis, ctx.prefix);
  });
  afterEach(async () => ctx.cleanup());

  const ingest = (fingerprint: string) => {
    const event = buildEvent({ id: `e-${fingerprint}` });
    return store.ingest([{ event, fingerprint, candidate: createIncident({ id: `inc-${fingerprint}`, fingerprint, title: 't', event, at: event.time }) }], Date.now());
  };
  const move = (id: string, state: 'analyzing' | 'awaiting_approval') =>
    store.update(id, (incident) => ({ incident: { ...incident, state }, audit: [{ at: new Date().toISOString(), action: `to.${state}`, outcome: 'done', actor: PIPELINE_ACTOR }] }));

  it('without reading a single incident record', async () => {
    for (const f of ['a', 'b', 'c']) await ingest(f);
    await move('inc-a', 'analyzing');
    await move('inc-a', 'awaiting_approval');
    await move('inc-b', 'analyzing');
    // Records gone, counts stay: the gauge never reads them.
    await ctx.redis.del(`${ctx.prefix}incident:inc-a`, `${ctx.prefix}incident:inc-b`, `${ctx.prefix}incident:inc-c`);
    expect(await store.countByState()).toEqual({ new: 1, analyzing: 1, awaiting_approval: 1 });
  });

  it('counts once, from the records, what was stored before the counts existed', async () => {
    for (const f of ['x', 'y']) await ingest(f);
    await move('inc-x', 'analyzing');
    await ctx.redis.del(`${ctx.prefix}incidents:by-state`);
    expect(await store.countByState()).toEqual({ new: 1, analyzing: 1 });
    await move('inc-y', 'analyzing');
    expect(await store.countByState()).toEqual({ new: 0, analyzing: 2 });
  });
});
