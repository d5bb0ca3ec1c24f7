/**
 * The ingest script's parts that open incidents, each through the functions it defines
 * (lua/ingest/*.lua): forming holds a family to its opening rule, open-incident writes the
 * record and its indexes, caps count what opened and find the lightest, overflow suppresses
 * families past a cap and promotes one that outgrows the lightest incident.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hourOf, severityWeight } from '../../src/domain/storm-policy.js';
import { NOW, overflowTemplate, partInput, runParts } from '../support/ingest-parts.js';
import { createTestRedis } from '../support/redis.js';

let t: Awaited<ReturnType<typeof createTestRedis>>;
beforeEach(async () => {
  t = await createTestRedis();
});
afterEach(async () => {
  await t.cleanup();
});

const HOUR = hourOf(NOW);
const rule = { minEvents: 3, windowMs: 60_000 };
/** Each event of the call through form(); 'held' where the rule is not met yet, else {n, first, last}. */
const FORM_EACH = `
  local out = {}
  for i = 0, N - 1 do
    local e = event_at(i)
    local n, first, last = form(e, group_of(e.group))
    out[#out + 1] = n and { n = n, first = first, last = last } or 'held'
  end
  return cjson.encode(out)`;

describe('lua/ingest forming', () => {
  it('holds a family until its minEvents-th event, with its first and last seen, and records its scope', async () => {
    const times = ['2026-11-30T09:05:00.000Z', '2026-11-30T09:04:00.000Z', '2026-11-30T09:06:00.000Z'];
    const inputs = times.map((time, n) => partInput(`e${n}`, 'fp-a', { time, rule, scope: 'shop' }));
    expect(await runParts(t.redis, t.prefix, 'forming', FORM_EACH, { inputs })).toEqual([
      'held', 'held', { n: 3, first: '2026-11-30T09:04:00.000Z', last: '2026-11-30T09:06:00.000Z' },
    ]);
    expect(await t.redis.smembers(`${t.prefix}family:fp-a:scopes`)).toEqual(['shop']);
    expect(await t.redis.lrange(`${t.prefix}forming:fp-a:events`, 0, -1)).toHaveLength(3);
    expect(await t.redis.pttl(`${t.prefix}forming:fp-a`)).toBeGreaterThan(0);
  });

  it('starts the count again once the window has passed, and opens at once under a rule of one', async () => {
    await runParts(t.redis, t.prefix, 'forming', FORM_EACH, { inputs: [partInput('e0', 'fp-a', { rule }), partInput('e1', 'fp-a', { rule })] });
    const later = await runParts(t.redis, t.prefix, 'forming', FORM_EACH, { inputs: [partInput('e2', 'fp-a', { rule })], nowMs: NOW + 61_000 });
    expect(later).toEqual(['held']);
    expect(await t.redis.hget(`${t.prefix}forming:fp-a`, 'count')).toBe('1');
    expect(await runParts(t.redis, t.prefix, 'forming', FORM_EACH, { inputs: [partInput('e3', 'fp-b')] })).toEqual([{ n: 1, first: '2026-11-30T09:05:00.000Z', last: '2026-11-30T09:05:00.000Z' }]);
    expect(await t.redis.exists(`${t.prefix}forming:fp-b`)).toBe(0);
  });

  it('moves the waiting events into the incident that opens, and clears the forming family', async () => {
    const inputs = [0, 1, 2].map((n) => partInput(`e${n}`, 'fp-a', { rule }));
    await runParts(t.redis, t.prefix, 'forming', `
      for i = 0, N - 1 do local e = event_at(i); form(e, group_of(e.group)) end
      local e = event_at(N - 1)
      move_forming_events(e, group_of(e.group), 'inc-x')
      flush_all()
      return cjson.encode(true)`, { inputs });
    const moved = (await t.redis.lrange(`${t.prefix}incident:inc-x:events`, 0, -1)).map((json) => (JSON.parse(json) as { id: string }).id);
    expect(moved).toEqual(['e2', 'e1', 'e0']);
    expect(await t.redis.exists(`${t.prefix}forming:fp-a`, `${t.prefix}forming:fp-a:events`)).toBe(0);
  });
});

describe('lua/ingest open-incident', () => {
  it('writes the candidate record with its first event, its indexes and its counts, and links the family\'s last incident', async () => {
    await t.redis.set(`${t.prefix}last:fp-a`, 'inc-before');
    const input = partInput('e1', 'fp-a', { severity: 'critical' });
    const opened = await runParts<{ id: string; open: string }>(t.redis, t.prefix, 'open-incident', `
      local e = event_at(0)
      local group = group_of(e.group)
      local id = open_incident(e, group, 4, '2026-11-30T09:01:00.000Z', '2026-11-30T09:05:00.000Z', 'overflow-x')
      flush_all()
      return cjson.encode({ id = id, open = open_of(group) })`, { inputs: [input] });
    expect(opened).toEqual({ id: 'inc-e1', open: 'inc-e1' });
    const record = JSON.parse((await t.redis.get(`${t.prefix}incident:inc-e1`))!) as Record<string, unknown>;
    expect(record).toEqual({ ...JSON.parse(JSON.stringify(input.candidate)), previousIncidentId: 'inc-before', promotedFrom: 'overflow-x' });
    // The record's head carries what a later write reads first.
    expect(Object.keys(record)[0]).toBe('id');
    expect(await t.redis.get(`${t.prefix}open:fp-a`)).toBe('inc-e1');
    expect(await t.redis.zscore(`${t.prefix}incidents`, 'inc-e1')).toBe(String(NOW));
    expect(await t.redis.zscore(`${t.prefix}incidents:state:new`, 'inc-e1')).toBe(String(NOW));
    expect(await t.redis.hget(`${t.prefix}incidents:by-state`, 'new')).toBe('1');
    expect(await t.redis.sismember(`${t.prefix}pending-analysis`, 'inc-e1')).toBe(1);
    expect(await t.redis.hgetall(`${t.prefix}incident:inc-e1:stats`)).toEqual({ count: '4', firstSeen: '2026-11-30T09:01:00.000Z', lastSeen: '2026-11-30T09:05:00.000Z', weight: String(severityWeight('critical')) });
  });
});

describe('lua/ingest caps', () => {
  const capKey = `cap:${HOUR}`;
  it('is reached at either the hour\'s cap or the service\'s, and counts what opens under both', async () => {
    const reached = (options: { perHour: number; perServiceHour: number }) => runParts<boolean>(t.redis, t.prefix, 'caps', `
      return cjson.encode(cap_reached(service_of(event_at(0).service)))`, { inputs: [partInput('e1', 'fp-a')], options: { caps: options } });
    expect(await reached({ perHour: 2, perServiceHour: 2 })).toBe(false);
    await runParts(t.redis, t.prefix, 'caps', `count_opened(service_of(event_at(0).service), 'inc-a', 3) count_opened(service_of(event_at(0).service), 'inc-b', 5) return cjson.encode(true)`, { inputs: [partInput('e1', 'fp-a')] });
    expect(await t.redis.get(`${t.prefix}${capKey}`)).toBe('2');
    expect(await t.redis.get(`${t.prefix}cap:checkout:${HOUR}`)).toBe('2');
    expect(await t.redis.zrange(`${t.prefix}${capKey}:volume`, 0, -1, 'WITHSCORES')).toEqual(['inc-a', '3', 'inc-b', '5']);
    expect(await t.redis.pttl(`${t.prefix}${capKey}`)).toBeGreaterThan(60_000);
    expect(await reached({ perHour: 2, perServiceHour: 0 })).toBe(true);
    expect(await reached({ perHour: 0, perServiceHour: 2 })).toBe(true);
    expect(await reached({ perHour: 3, perServiceHour: 3 })).toBe(false);
    expect(await reached({ perHour: 0, perServiceHour: 0 })).toBe(false);
  });

  it('finds the lightest incident, refreshing ranking scores that its counts have outgrown', async () => {
    const ranking = `${t.prefix}${capKey}:volume`;
    await t.redis.zadd(ranking, 1, 'inc-grown', 2, 'inc-light');
    await t.redis.hset(`${t.prefix}incident:inc-grown:stats`, { count: 5, weight: 2 });
    await t.redis.hset(`${t.prefix}incident:inc-light:stats`, { count: 2, weight: 1 });
    const lightest = await runParts(t.redis, t.prefix, 'caps', `return cjson.encode(lightest(K.capVolume))`, { inputs: [partInput('e1', 'fp-a')] });
    expect(lightest).toEqual(['inc-light', '2']);
    expect(await t.redis.zscore(ranking, 'inc-grown')).toBe('10');
  });
});

describe('lua/ingest overflow', () => {
  const caps = { perHour: 1, perServiceHour: 0 };
  const overflow = overflowTemplate();
  const ingestEach = `
    local out = {}
    for i = 0, N - 1 do
      local e = event_at(i)
      local group, service = group_of(e.group), service_of(e.service)
      local status, id = count_suppressed(e, group, service)
      if not status then
        local n, first, last = form(e, group)
        status, id = enter_overflow(e, group, n, first, last)
        if not status then return cjson.encode({ error = id }) end
      end
      out[#out + 1] = { status, id }
    end
    flush_all()
    return cjson.encode(out)`;

  it('suppresses a family past the cap into the hour\'s overflow incident, opened from its template once', async () => {
    await t.redis.set(`${t.prefix}${overflow.fingerprint}:template`, JSON.stringify(overflow));
    const out = await runParts(t.redis, t.prefix, 'overflow', ingestEach, { inputs: [partInput('e1', 'fp-a'), partInput('e2', 'fp-b'), partInput('e3', 'fp-a')], options: { caps } });
    expect(out).toEqual([['overflow', overflow.id], ['overflow', overflow.id], ['overflow', overflow.id]]);
    expect(JSON.parse((await t.redis.get(`${t.prefix}incident:${overflow.id}`))!)).toMatchObject({ id: overflow.id });
    expect(await t.redis.hget(`${t.prefix}incident:${overflow.id}:stats`, 'count')).toBe('3');
    expect((await t.redis.smembers(`${t.prefix}${overflow.fingerprint}:families`)).sort()).toEqual(['fp-a', 'fp-b']);
    expect(await t.redis.hget(`${t.prefix}${overflow.fingerprint}:info`, 'fp-a:count')).toBe('2');
    expect(await t.redis.hget(`${t.prefix}incidents:by-state`, 'new')).toBe('1');
  });

  it('promotes a suppressed family that outweighs the lightest incident opened under the cap', async () => {
    await t.redis.set(`${t.prefix}${overflow.fingerprint}:template`, JSON.stringify(overflow));
    await t.redis.zadd(`${t.prefix}cap:${HOUR}:volume`, 2, 'inc-small');
    await t.redis.hset(`${t.prefix}incident:inc-small:stats`, { count: 2, weight: 1 });
    const out = await runParts(t.redis, t.prefix, 'overflow', ingestEach, { inputs: ['e1', 'e2', 'e3'].map((id) => partInput(id, 'fp-a')), options: { caps } });
    expect(out).toEqual([['overflow', overflow.id], ['overflow', overflow.id], ['created', 'inc-e3']]);
    expect(JSON.parse((await t.redis.get(`${t.prefix}incident:inc-e3`))!)).toMatchObject({ promotedFrom: overflow.id });
    // Its events leave the overflow's count for its own: three in all, none twice.
    expect(await t.redis.hget(`${t.prefix}incident:inc-e3:stats`, 'count')).toBe('3');
    expect(await t.redis.hget(`${t.prefix}incident:${overflow.id}:stats`, 'count')).toBe('0');
    expect(await t.redis.zrange(`${t.prefix}cap:${HOUR}:volume`, 0, -1)).toEqual(['inc-e3']);
    expect(await t.redis.sismember(`${t.prefix}${overflow.fingerprint}:families`, 'fp-a')).toBe(0);
  });

  it('answers an error, naming the key, when the overflow template is missing', async () => {
    const out = await runParts(t.redis, t.prefix, 'overflow', ingestEach, { inputs: [partInput('e1', 'fp-a')], options: { caps } });
    expect(out).toEqual({ error: `overflow template missing for ${t.prefix}${overflow.fingerprint}:template` });
  });
});
