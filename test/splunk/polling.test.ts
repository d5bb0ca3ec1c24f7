import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SplunkEventRow } from '../loopback/splunk-server.js';
import { createTestRedis } from '../support/redis.js';
import { buildErrorRow, createPollTick, startSplunkFixture, T0, type SplunkFixture } from './support/fixtures.js';

describe('Splunk polling never misses and never repeats', () => {
  let fx: SplunkFixture;
  let redis: Awaited<ReturnType<typeof createTestRedis>>;
  beforeEach(async () => {
    fx = await startSplunkFixture();
    redis = await createTestRedis();
  });
  afterEach(async () => {
    await fx.close();
    await redis.cleanup();
  });

  it('polls on index time from checkpoint minus the overlap, with auto_cancel', async () => {
    fx.server.rows.push(buildErrorRow({ n: 1, indexTime: T0 - 10 }));
    const first = await fx.source.poll(undefined);
    expect(first.events.map((e) => e.id)).toEqual(['splunk:main:26:1']);
    await fx.source.poll(first.checkpoint);
    const [a, b] = fx.server.searches;
    expect(a?.search).toMatch(/^search _index_earliest=-900s \(index=main \(level=ERROR OR status=ERROR\)\) \| sort 0 _indextime \| head 10000$/);
    expect(b?.search).toContain(`_index_earliest=${T0 - 10 - 300} `);
    expect(b?.form.auto_cancel).toBe('120');
    expect(Number(b?.form.earliest_time)).toBe(T0 - 10 - 300 - 86_400);
  });

  it('dedupes the overlap across consecutive polls and catches what became searchable inside it', async () => {
    const tick = createPollTick(fx.source, redis.redis, redis.prefix);
    fx.server.rows.push(buildErrorRow({ n: 1, indexTime: T0 - 30 }), buildErrorRow({ n: 2, indexTime: T0 - 20 }));
    const first = await tick.tick();
    expect(first.statuses).toEqual(['created', 'absorbed']);

    // Indexed before the checkpoint but searchable only now (indexing lag): inside the overlap.
    fx.server.rows.push(buildErrorRow({ n: 3, indexTime: T0 - 25 }), buildErrorRow({ n: 4, indexTime: T0 + 5 }));
    fx.clock.now += 60;
    const second = await tick.tick();
    expect(second.events.map((e) => e.id).sort()).toEqual(['splunk:main:26:3', 'splunk:main:26:4']);
    expect(second.statuses).toEqual(['absorbed', 'absorbed']);

    const third = await tick.tick();
    expect(third.events).toEqual([]);
    expect((await tick.processed()).sort()).toEqual(['splunk:main:26:1', 'splunk:main:26:2', 'splunk:main:26:3', 'splunk:main:26:4']);
  });

  it('catches a late-arriving event: indexed after the checkpoint with an old _time', async () => {
    const tick = createPollTick(fx.source, redis.redis, redis.prefix);
    fx.server.rows.push(buildErrorRow({ n: 1, indexTime: T0 - 5 }));
    await tick.tick();
    const twoHoursAgo = new Date((T0 - 7_200) * 1000).toISOString();
    fx.server.rows.push(buildErrorRow({ n: 2, indexTime: T0 + 30, time: twoHoursAgo, message: 'Ledger write timed out' }));
    fx.clock.now += 60;
    const next = await tick.tick();
    expect(next.events.map((e) => [e.id, e.time])).toEqual([['splunk:main:26:2', twoHoursAgo.replace(/\.\d+Z$/, '.000Z')]]);
    expect(next.statuses).toEqual(['created']);
  });

  it('re-polls after a crash between ingest and checkpoint without double-processing', async () => {
    const tick = createPollTick(fx.source, redis.redis, redis.prefix);
    for (let n = 1; n <= 5; n++) fx.server.rows.push(buildErrorRow({ n, indexTime: T0 - 60 + n }));
    const crashed = await tick.tick({ crashBeforeCheckpoint: true });
    expect(crashed.statuses.filter((s) => s !== 'duplicate')).toHaveLength(5);
    expect(await tick.checkpoints.get('splunk')).toBeUndefined();

    const replay = await tick.tick();
    expect(replay.events).toHaveLength(5);
    expect(replay.statuses).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate']);
    const [incident] = await tick.store.list();
    expect((await tick.store.stats(incident!.id))?.count).toBe(5);
  });

  it('resumes a capped poll exactly where it stopped', async () => {
    await fx.close();
    fx = await startSplunkFixture({ source: { maxEventsPerPoll: 3 } });
    const tick = createPollTick(fx.source, redis.redis, redis.prefix);
    for (let n = 1; n <= 8; n++) fx.server.rows.push(buildErrorRow({ n, indexTime: T0 - 100 + n }));
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) seen.push(...(await tick.tick()).events.map((e) => e.id));
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => `splunk:main:26:${n}`));
  });

  it('skips malformed rows with a reason and keeps polling; an odd _time falls back to the index time', async () => {
    const empty: SplunkEventRow = { ...buildErrorRow({ n: 4, indexTime: T0 - 2 }), _raw: '' };
    delete empty.message;
    fx.server.rows.push(
      buildErrorRow({ n: 1, indexTime: T0 - 5 }),
      { ...buildErrorRow({ n: 2, indexTime: T0 - 4 }), _time: 'yesterday-ish' },
      { ...buildErrorRow({ n: 3, indexTime: T0 - 3 }), _cd: [] },
      empty,
    );
    const result = await fx.source.poll(undefined);
    expect(result.events.map((e) => [e.id, e.time])).toEqual([
      ['splunk:main:26:1', new Date((T0 - 5) * 1000).toISOString()],
      ['splunk:main:26:2', new Date((T0 - 4) * 1000).toISOString()],
    ]);
    expect(fx.invalid).toEqual([
      { id: 'splunk:?', reason: 'no index and _cd to identify the event' },
      { id: 'splunk:main:26:4', reason: 'empty event (no _raw and no message)' },
    ]);
    // A rejected row is remembered like any other, so it is not reported on every poll.
    await fx.source.poll(result.checkpoint);
    expect(fx.invalid.map((i) => i.id)).toEqual(['splunk:?', 'splunk:main:26:4', 'splunk:?']);
  });
});
