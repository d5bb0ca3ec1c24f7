import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuditLog } from '../../src/adapters/redis/audit-log.js';
import { createCellLocator } from '../../src/adapters/redis/cell-locator.js';
import { deleteByPrefix } from '../../src/adapters/redis/connect.js';
import { createIncidentStore } from '../../src/adapters/redis/incident-store.js';
import { createIncidentGrouping } from '../../src/adapters/redis/open-from-overflow.js';
import { mergeAudits } from '../../src/app/cells/merged-audit.js';
import { routeGroupingPort } from '../../src/app/cells/routed-commands.js';
import { createRoutedStore } from '../../src/app/cells/routed-store.js';
import { PIPELINE_ACTOR } from '../../src/domain/audit.js';
import { cellOfService, cellPrefixes } from '../../src/domain/cells.js';
import type { ErrorEvent } from '../../src/domain/event.js';
import { createIncident } from '../../src/domain/incident.js';
import { buildEvent } from '../support/builders.js';
import { overflowIncident } from '../../src/use-cases/ingest-events.js';
import { TEST_REDIS_URL } from '../support/redis.js';

const CELLS = 3;
const NOW = Date.parse('2026-11-30T09:30:00.000Z');
let redis: Redis;
let prefixes: string[];
beforeAll(() => {
  redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
  prefixes = cellPrefixes(`{medic-test-${randomUUID().slice(0, 8)}}:`, CELLS);
});
afterAll(async () => {
  for (const prefix of prefixes) await deleteByPrefix(redis, prefix);
  redis.disconnect();
});

const cellOfEvent = (event: ErrorEvent) => cellOfService(event.service, CELLS);
/** One service per cell: names whose cell is 0, 1 and 2. */
const services = ['auth', 'search', 'shop'];

function input(service: string, minute: number) {
  const event = buildEvent({ service, time: new Date(NOW + minute * 60_000).toISOString() });
  const fingerprint = `${service}:family`;
  return { event, fingerprint, scope: service, family: 'family', candidate: createIncident({ id: `inc-${service}-${minute}`, fingerprint, title: `${service} failed`, event, at: event.time }) };
}

describe('one store over three cells', () => {
  it('ingests each event in its service\'s cell and reaches every incident through the cell holding it', async () => {
    expect(services.map((s) => cellOfService(s, CELLS))).toEqual([0, 1, 2]);
    const cells = prefixes.map((p) => createIncidentStore(redis, p));
    const locator = createCellLocator(redis, prefixes);
    const store = createRoutedStore(cells, locator, cellOfEvent);

    const inputs = [input('shop', 0), input('auth', 1), input('shop', 2), input('search', 3)];
    const results = await store.ingest(inputs, NOW);
    // Answers in input order, whichever cell each went to.
    expect(results.map((r) => r.status)).toEqual(['created', 'created', 'absorbed', 'created']);
    expect(results.map((r) => r.incidentId)).toEqual(['inc-shop-0', 'inc-auth-1', 'inc-shop-0', 'inc-search-3']);
    for (const [n, cell] of cells.entries()) expect((await cell.list()).map((i) => i.service)).toEqual([services[n]]);
    expect(await Promise.all(['inc-auth-1', 'inc-search-3', 'inc-shop-0', 'inc-none'].map((id) => locator.cellOf(id)))).toEqual([0, 1, 2, undefined]);

    expect((await store.require('inc-shop-0')).service).toBe('shop');
    expect(await store.stats('inc-shop-0')).toMatchObject({ count: 2 });
    expect(await store.get('inc-none')).toBeUndefined();
    await expect(store.require('inc-none')).rejects.toMatchObject({ code: 'ERR_NOT_FOUND' });
    const updated = await store.update('inc-search-3', (current) => ({ incident: { ...current, state: 'reported' }, audit: [{ at: new Date(NOW).toISOString(), action: 'test.report', outcome: 'done', actor: PIPELINE_ACTOR }] }));
    expect(updated.state).toBe('reported');
    expect((await cells[1]!.get('inc-search-3'))?.state).toBe('reported');

    // Lists ask every cell and merge newest first, cut to the limit.
    expect((await store.list()).map((i) => i.id)).toEqual(['inc-search-3', 'inc-auth-1', 'inc-shop-0']);
    expect((await store.list({ limit: 2 })).map((i) => i.id)).toEqual(['inc-search-3', 'inc-auth-1']);
    expect((await store.list({ states: ['reported'] })).map((i) => i.id)).toEqual(['inc-search-3']);
    expect(await store.countByState()).toMatchObject({ new: 2, reported: 1 });
    expect((await store.pendingAnalysis()).sort()).toEqual(['inc-auth-1', 'inc-search-3', 'inc-shop-0']);
  });

  it('runs a family merge in every cell, between the events before and after it', async () => {
    const cells = prefixes.map((p) => createIncidentStore(redis, p));
    const store = createRoutedStore(cells, createCellLocator(redis, prefixes), cellOfEvent);
    const family = (service: string, name: string, minute: number) => {
      const event = buildEvent({ service, time: new Date(NOW + minute * 60_000).toISOString() });
      const fingerprint = `${service}-m:${name}`;
      return { event, fingerprint, scope: `${service}-m`, family: name, candidate: createIncident({ id: `inc-${service}-${name}-${minute}`, fingerprint, title: name, event, at: event.time }) };
    };
    // The family is open in cell 0 and cell 2; the merge rides on an event of cell 1.
    await store.ingest([family('auth', 'old', 0), family('shop', 'old', 0)], NOW);
    const merged = await store.ingest([{ ...family('search', 'new', 1), merges: [['old', 'new']] }, family('auth', 'new', 2), family('shop', 'new', 2)], NOW);
    expect(merged.map((r) => [r.status, r.incidentId])).toEqual([['created', 'inc-search-new-1'], ['absorbed', 'inc-auth-old-0'], ['absorbed', 'inc-shop-old-0']]);
    expect(await cells[0]!.openIncidentOf('auth-m:new')).toBe('inc-auth-old-0');
    expect(await cells[2]!.openIncidentOf('shop-m:new')).toBe('inc-shop-old-0');
  });

  it('gives each cell its share of the hourly cap and an overflow incident of its own', async () => {
    const cells = prefixes.map((p) => createIncidentStore(redis, `${p}caps:`));
    const store = createRoutedStore(cells, createCellLocator(redis, prefixes.map((p) => `${p}caps:`)), cellOfEvent);
    const at = NOW + 3_600_000;
    const overflow = overflowIncident(new Date(at), buildEvent());
    const inputs = services.flatMap((service) => [0, 1].map((k) => {
      const event = buildEvent({ service, time: new Date(at).toISOString() });
      const fingerprint = `${service}-cap:f${k}`;
      return { event, fingerprint, scope: `${service}-cap`, family: `f${k}`, candidate: createIncident({ id: `inc-${service}-cap-${k}`, fingerprint, title: `f${k}`, event, at: event.time }) };
    }));
    // A cap of 3 an hour over three cells: one each; each cell's second family overflows there.
    const results = await store.ingest(inputs, at, { caps: { perHour: 3, perServiceHour: 100 }, overflow });
    expect(results.map((r) => r.status)).toEqual(['created', 'overflow', 'created', 'overflow', 'created', 'overflow']);
    const overflowIds = results.filter((r) => r.status === 'overflow').map((r) => r.incidentId);
    expect(overflowIds).toEqual([0, 1, 2].map((cell) => `${overflow.id}-c${cell}`));
  });

  it('keeps a merge within one cell: the grouping port refuses two incidents of different cells', async () => {
    const grouping = routeGroupingPort(prefixes.map((p) => createIncidentGrouping(redis, p)), createCellLocator(redis, prefixes));
    await expect(grouping.mergeIncidents({ incidentId: 'inc-auth-1', intoIncidentId: 'inc-shop-0' })).rejects.toMatchObject({ code: 'ERR_CONFLICT', message: expect.stringMatching(/different cells/) });
    // Nothing moved: both still hold their own family.
    const cells = prefixes.map((p) => createIncidentStore(redis, p));
    expect(await cells[0]!.openIncidentOf('auth:family')).toBe('inc-auth-1');
    expect(await cells[2]!.openIncidentOf('shop:family')).toBe('inc-shop-0');
  });

  it('reads audit trails as one, in time order, appending to the first', async () => {
    const [own, shared] = [createAuditLog(redis, `${prefixes[1]}a:`), createAuditLog(redis, `${prefixes[0]}a:`)];
    const at = (minute: number) => new Date(NOW + minute * 60_000).toISOString();
    await own.append([{ at: at(0), action: 'step.rca', outcome: 'done', actor: PIPELINE_ACTOR, incidentId: 'inc-x' }]);
    await shared.append([{ at: at(1), action: 'tool.git.push', outcome: 'allowed', actor: PIPELINE_ACTOR, incidentId: 'inc-x' }]);
    const merged = mergeAudits([own, shared]);
    await merged.append([{ at: at(2), action: 'step.publish', outcome: 'done', actor: PIPELINE_ACTOR, incidentId: 'inc-x' }]);
    expect((await merged.list({ incidentId: 'inc-x' })).map((a) => a.action)).toEqual(['step.rca', 'tool.git.push', 'step.publish']);
    expect((await merged.list({ incidentId: 'inc-x', count: 2 })).map((a) => a.action)).toEqual(['tool.git.push', 'step.publish']);
    expect([await merged.length('inc-x'), await own.length('inc-x'), await shared.length('inc-x')]).toEqual([3, 2, 1]);
    expect(() => mergeAudits([])).toThrow(/at least one/);
  });
});
