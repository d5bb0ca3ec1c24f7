import { describe, expect, it } from 'vitest';
import { fingerprintEvent } from '../../src/domain/fingerprint.js';
import { createTemplateMiner } from '../../src/domain/templates/template-miner.js';
import { buildEvent } from '../support/builders.js';

function finalGroups(messages: string[]): string[] {
  const miner = createTemplateMiner();
  const ids = messages.map((m) => miner.add(m).groupId);
  return ids.map((id) => miner.lookup(id)?.groupId ?? id);
}

const times = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i));

describe('families that generalize without merging different failures', () => {
  it('makes a position of many rarely repeated words a variable, digits or not', () => {
    const users = ['oracle', 'admin', 'guest', 'ubuntu', 'postgres', 'pi'];
    const groups = finalGroups(users.map((u, i) => `Invalid user ${u} from 10.0.0.${i}`));
    expect(new Set(groups).size).toBe(1);
    const jobs = ['com.vendor.sync.heartbeat', 'com.vendor.mail.digest', 'com.vendor.billing.close'];
    expect(new Set(finalGroups(jobs.map((j) => `job ${j} missed its schedule`))).size).toBe(1);
    const hosts = ['api.example.com:443', 'db.internal:5432', 'cache.internal:6379'];
    expect(new Set(finalGroups(hosts.map((h) => `connect to ${h} refused`))).size).toBe(1);
  });

  it('treats a layout symbol and a word at one position as values once enough of them are seen', () => {
    const groups = finalGroups(['lookup failed for () in resolver', 'lookup failed for (host) in resolver', 'lookup failed for (db) in resolver', 'lookup failed for (queue) in resolver']);
    expect(new Set(groups).size).toBe(1);
  });

  it('keeps two verbs or states that tell otherwise equal shapes apart', () => {
    const groups = finalGroups([
      ...times(4, (i) => `request GET /api/orders/${i} failed with status 502`),
      ...times(4, (i) => `request DELETE /api/orders/${i} failed with status 502`),
      ...times(4, (i) => `job sync Started after ${i} retries`),
      ...times(4, (i) => `job sync Stopped after ${i} retries`),
    ]);
    expect(new Set(groups).size).toBe(4);
  });

  it('keeps often-seen verbs apart when a third one arrives: a few values each seen often are events', () => {
    const stream = [
      ...times(20, (i) => `request GET /api/orders/${i} failed with status 502`),
      ...times(20, (i) => `request DELETE /api/orders/${i} failed with status 502`),
      'request PUT /api/orders/7 failed with status 502',
    ];
    const groups = finalGroups(stream);
    expect(new Set(groups).size).toBe(3);
    expect(groups[0]).not.toBe(groups[20]);
  });

  it('separates the same message with another exception type or other top in-app frames', () => {
    const trace = (type: string, fn: string) => `${type}: lookup failed\n    at ${fn} (/srv/app/src/db/lookup.ts:12:3)`;
    const family = { groupId: 'g1', template: 'lookup failed' };
    const fp = (raw: string) => fingerprintEvent(buildEvent({ message: 'lookup failed', raw }), family).key;
    expect(fp(trace('TypeError', 'find'))).not.toBe(fp(trace('RangeError', 'find')));
    expect(fp(trace('TypeError', 'find'))).not.toBe(fp(trace('TypeError', 'findAll')));
    expect(fp(trace('TypeError', 'find'))).toBe(fp(trace('TypeError', 'find')));
  });
});
