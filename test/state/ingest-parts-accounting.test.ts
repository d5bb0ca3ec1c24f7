/**
 * The ingest script's first parts, each through the functions it defines (lua/ingest/*.lua):
 * call and layout read what ingest-batch-args.ts lays out, held-writes writes nothing until it
 * is flushed and then writes each incident once, duplicates finds the repeats before anything is
 * written and refuses light events that might be sampled.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { severityWeight } from '../../src/domain/storm-policy.js';
import { NOW, partInput, runParts } from '../support/ingest-parts.js';
import { createTestRedis } from '../support/redis.js';

let t: Awaited<ReturnType<typeof createTestRedis>>;
beforeEach(async () => {
  t = await createTestRedis();
});
afterEach(async () => {
  await t.cleanup();
});

/** An event as layout.lua reads it, with its group's and service's keys. */
interface LaidOut {
  id: string; time: string; json: string; candidate: string; minEvents: number; windowMs: number; weight: number; info: string; shape: string;
  group: Record<string, string>; service: { cap: string; volume: string };
}

describe('lua/ingest call and layout', () => {
  it('reads the scalars, the fixed keys, each group, service and event as the arguments lay them out', async () => {
    const inputs = [
      partInput('e1', 'fp-a', { scope: 'shop', rule: { minEvents: 3, windowMs: 60_000 } }),
      partInput('e2', 'fp-b', { severity: 'critical', service: 'orders' }),
      partInput('e3', 'fp-a', { scope: 'shop', rule: { minEvents: 3, windowMs: 60_000 } }),
    ];
    const seen = await runParts<{ events: LaidOut[] }>(t.redis, t.prefix, 'layout', `
      local events = {}
      for i = 0, N - 1 do
        local e = event_at(i)
        local g, s = group_of(e.group), service_of(e.service)
        events[#events + 1] = { id = e.id, time = e.time, json = e.json, candidate = e.candidateId, group = g, service = s,
          minEvents = e.minEvents, windowMs = e.windowMs, weight = e.weight, info = shared(e.info), shape = shared(e.shape) }
      end
      return cjson.encode({ prefix = prefix, now = now, sampleCap = sampleCap, G = G, N = N, processed = K.processed, byState = K.byState, events = events })`,
    { inputs, sampleCap: 7 });
    expect(seen).toMatchObject({ prefix: t.prefix, now: NOW, sampleCap: 7, G: 2, N: 3, processed: `${t.prefix}processed`, byState: `${t.prefix}incidents:by-state` });
    const [first, second, third] = seen.events as [LaidOut, LaidOut, LaidOut];
    expect(first.group).toEqual({ fp: 'fp-a', scope: 'shop', open: `${t.prefix}open:fp-a`, forming: `${t.prefix}forming:fp-a`, formingEvents: `${t.prefix}forming:fp-a:events`, last: `${t.prefix}last:fp-a`, scopes: `${t.prefix}family:fp-a:scopes` });
    expect(first.service).toEqual({ cap: `${t.prefix}cap:checkout:${Math.floor(NOW / 3_600_000)}`, volume: `${t.prefix}cap:checkout:${Math.floor(NOW / 3_600_000)}:volume` });
    expect(second.service.cap).toContain('cap:orders:');
    expect(third.group).toEqual(first.group);
    expect([first.id, first.candidate, (JSON.parse(first.json) as { id: string }).id, first.minEvents, first.windowMs]).toEqual(['e1', 'inc-e1', 'e1', 3, 60_000]);
    expect([second.minEvents, second.windowMs, second.weight]).toEqual([1, 0, severityWeight('critical')]);
    expect(JSON.parse(second.info)).toEqual({ service: 'orders', title: 'boom fp-b' });
    // The shape is the candidate without its id and first event, which the script adds per incident.
    const shape = JSON.parse(first.shape) as Record<string, unknown>;
    expect(shape).toMatchObject({ fingerprint: 'fp-a', state: 'new' });
    expect(shape).not.toHaveProperty('id');
    expect(shape).not.toHaveProperty('firstEvent');
  });
});

describe('lua/ingest held-writes', () => {
  it('writes nothing until flushed, then each incident once: counts, first and last seen, per-minute rates, the newest samples, activity and processed ids', async () => {
    const seen = await runParts<{ before: number[]; after: number[] }>(t.redis, t.prefix, 'held-writes', `
      count_into('inc-a', 1, '2026-11-30T09:05:10.000Z', '2026-11-30T09:05:10.000Z')
      count_into('inc-a', 2, '2026-11-30T09:04:00.000Z', '2026-11-30T09:06:30.000Z')
      for n = 1, 4 * sampleCap + 3 do sample('inc-a', 'event-' .. n) end
      record_processed('e1')
      local function present()
        return { redis.call('EXISTS', prefix .. 'incident:inc-a:stats'), redis.call('EXISTS', prefix .. 'incident:inc-a:events'),
          redis.call('EXISTS', prefix .. 'incident:inc-a:rate'), redis.call('EXISTS', K.activity), redis.call('EXISTS', K.processed) }
      end
      local before = present()
      flush_all()
      return cjson.encode({ before = before, after = present() })`,
    { inputs: [partInput('e1', 'fp-a')], sampleCap: 3 });
    expect(seen).toEqual({ before: [0, 0, 0, 0, 0], after: [1, 1, 1, 1, 1] });
    expect(await t.redis.hgetall(`${t.prefix}incident:inc-a:stats`)).toEqual({ count: '3', firstSeen: '2026-11-30T09:04:00.000Z', lastSeen: '2026-11-30T09:06:30.000Z' });
    expect(await t.redis.hgetall(`${t.prefix}incident:inc-a:rate`)).toEqual({ '2026-11-30T09:05': '1', '2026-11-30T09:06': '2' });
    // What LPUSH + LTRIM per event would have kept: the newest three, newest first.
    expect(await t.redis.lrange(`${t.prefix}incident:inc-a:events`, 0, -1)).toEqual(['event-15', 'event-14', 'event-13']);
    expect(await t.redis.zscore(`${t.prefix}processed`, 'e1')).toBe(String(NOW));
    expect(await t.redis.zscore(`${t.prefix}activity`, 'inc-a')).toBe(String(NOW));
  });

  it('adds to what an incident already holds, keeping its earlier first seen and later last seen', async () => {
    await t.redis.hset(`${t.prefix}incident:inc-a:stats`, { count: 5, firstSeen: '2026-11-30T08:00:00.000Z', lastSeen: '2026-11-30T09:30:00.000Z' });
    await t.redis.lpush(`${t.prefix}incident:inc-a:events`, 'old-1', 'old-2');
    await runParts(t.redis, t.prefix, 'held-writes', `
      count_into('inc-a', 2, '2026-11-30T09:00:00.000Z', '2026-11-30T09:01:00.000Z')
      sample('inc-a', 'new-1')
      flush_all()
      return cjson.encode(true)`, { inputs: [partInput('e1', 'fp-a')], sampleCap: 2 });
    expect(await t.redis.hgetall(`${t.prefix}incident:inc-a:stats`)).toEqual({ count: '7', firstSeen: '2026-11-30T08:00:00.000Z', lastSeen: '2026-11-30T09:30:00.000Z' });
    expect(await t.redis.lrange(`${t.prefix}incident:inc-a:events`, 0, -1)).toEqual(['new-1', 'old-2']);
  });
});

describe('lua/ingest duplicates', () => {
  it('finds ids Redis already holds and repeats within the call, before anything is written', async () => {
    await t.redis.zadd(`${t.prefix}processed`, 1, 'e1');
    const ids = ['e1', 'e2', 'e2', 'e3', 'e1'];
    const duplicate = await runParts<boolean[]>(t.redis, t.prefix, 'duplicates', `
      local events = {}
      for i = 0, N - 1 do events[i] = event_at(i) end
      local found, out = find_duplicates(events), {}
      for i = 0, N - 1 do out[#out + 1] = found[i] end
      return cjson.encode(out)`, { inputs: ids.map((id) => partInput(id, 'fp-a')) });
    expect(duplicate).toEqual([true, false, true, false, true]);
    expect(await t.redis.zcard(`${t.prefix}processed`)).toBe(1);
  });

  it('lets events go without their JSON only while their family is open and enough events of it follow', async () => {
    const inputs = Array.from({ length: 6 }, (_, n) => partInput(`e${n}`, 'fp-a'));
    const call = { inputs, sampleCap: 2, knownOpen: new Set(['fp-a']) };
    const driver = `
      local events = {}
      for i = 0, N - 1 do events[i] = event_at(i) end
      local light = 0
      for i = 0, N - 1 do if events[i].json == '' then light = light + 1 end end
      return cjson.encode({ light = light, hold = light_events_hold(events, find_duplicates(events)) })`;
    // The first three have more than sampleCap events after them: sent light; the family is not open.
    expect(await runParts(t.redis, t.prefix, 'duplicates', driver, call)).toEqual({ light: 3, hold: false });
    await t.redis.set(`${t.prefix}open:fp-a`, 'inc-open');
    expect(await runParts(t.redis, t.prefix, 'duplicates', driver, call)).toEqual({ light: 3, hold: true });
    // Events Redis already holds push no sample, so fewer than sampleCap follow the last light one.
    await t.redis.zadd(`${t.prefix}processed`, 1, 'e4', 1, 'e5');
    expect(await runParts(t.redis, t.prefix, 'duplicates', driver, call)).toEqual({ light: 3, hold: false });
  });
});
