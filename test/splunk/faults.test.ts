import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode, MedicError } from '../../src/domain/errors.js';
import type { SplunkFault } from '../loopback/splunk-server.js';
import { createTestRedis } from '../support/redis.js';
import { buildErrorRow, createPollTick, startSplunkFixture, T0, type SplunkFixture } from './support/fixtures.js';

const CONCURRENCY = JSON.stringify({ messages: [{ type: 'FATAL', text: 'Search not executed: The maximum number of concurrent historical searches for this user based on their role quota has been reached., concurrency_category="historical", concurrency_context="user_instance-wide", current_concurrency=3, concurrency_limit=3' }] });

const FAULTS: [string, SplunkFault, { code: string; transient: boolean; text: RegExp }][] = [
  ['400 FATAL', { kind: 'status', status: 400, body: JSON.stringify({ messages: [{ type: 'FATAL', text: "Error in 'search' command: Unable to parse the search" }] }) }, { code: ErrorCode.UpstreamRejected, transient: false, text: /Splunk answered 400 \(FATAL: Error in 'search' command/ }],
  ['401 expired', { kind: 'status', status: 401, body: JSON.stringify({ messages: [{ type: 'WARN', text: 'call not properly authenticated' }] }) }, { code: ErrorCode.Unauthorized, transient: false, text: /Splunk answered 401: check SPLUNK_TOKEN/ }],
  ['503 concurrency quota', { kind: 'status', status: 503, body: CONCURRENCY }, { code: ErrorCode.UpstreamUnavailable, transient: true, text: /concurrent search quota is full/ }],
  ['200 stream with FATAL', { kind: 'fatal-in-stream', afterRows: 3 }, { code: ErrorCode.UpstreamUnavailable, transient: true, text: /mid-stream \(FATAL: Search auto-canceled\)/ }],
  ['connection reset mid-stream', { kind: 'reset', afterRows: 3 }, { code: ErrorCode.UpstreamUnavailable, transient: true, text: /connection to Splunk .* failed/ }],
  ['read timeout mid-stream', { kind: 'stall', afterRows: 3 }, { code: ErrorCode.UpstreamUnavailable, transient: true, text: /went silent for 300 ms/ }],
  ['truncated stream', { kind: 'truncate', afterRows: 3 }, { code: ErrorCode.UpstreamUnavailable, transient: true, text: /cut short \(no final lastrow\)/ }],
  ['malformed line', { kind: 'malformed', afterRows: 3 }, { code: ErrorCode.UpstreamUnavailable, transient: true, text: /a line was not JSON/ }],
  ['non-UTF-8 bytes', { kind: 'bad-utf8', afterRows: 3 }, { code: ErrorCode.UpstreamUnavailable, transient: true, text: /not valid UTF-8/ }],
];

describe('Splunk faults lose nothing and duplicate nothing', () => {
  let fx: SplunkFixture;
  let redis: Awaited<ReturnType<typeof createTestRedis>>;
  beforeEach(async () => {
    redis = await createTestRedis();
  });
  afterEach(async () => {
    await fx.close();
    await redis.cleanup();
  });

  it.each(FAULTS)('%s: a coded error, the checkpoint stays, the next tick delivers each event once', async (_name, fault, expected) => {
    fx = await startSplunkFixture({ client: { retries: 0, readTimeoutMs: 300 } });
    const tick = createPollTick(fx.source, redis.redis, redis.prefix);
    for (let n = 1; n <= 5; n++) fx.server.rows.push(buildErrorRow({ n, indexTime: T0 - 50 + n }));
    await tick.tick();
    const before = await tick.checkpoints.get('splunk');
    for (let n = 6; n <= 10; n++) fx.server.rows.push(buildErrorRow({ n, indexTime: T0 - 40 + n }));

    fx.server.fault(fault);
    const error = (await tick.tick().then(() => undefined, (e: unknown) => e)) as MedicError;
    expect(error).toBeInstanceOf(MedicError);
    expect({ code: error.code, transient: error.transient }).toEqual({ code: expected.code, transient: expected.transient });
    expect(error.message).toMatch(expected.text);
    expect(error.message).not.toContain('tok-loopback');
    expect(await tick.checkpoints.get('splunk')).toBe(before);

    const after = await tick.tick();
    expect(after.events.map((e) => e.id)).toEqual([6, 7, 8, 9, 10].map((n) => `splunk:main:26:${n}`));
    expect(after.statuses).not.toContain('duplicate');
    expect((await tick.processed()).sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => `splunk:main:26:${n}`).sort());
  });

  it('backs off and retries a 503 and a reset within the same poll', async () => {
    fx = await startSplunkFixture({ client: { retries: 3, retryBaseMs: 1 } });
    for (let n = 1; n <= 4; n++) fx.server.rows.push(buildErrorRow({ n, indexTime: T0 - 10 + n }));
    fx.server.fault({ kind: 'status', status: 503, body: CONCURRENCY });
    fx.server.fault({ kind: 'reset', afterRows: 2 });
    const result = await fx.source.poll(undefined);
    expect(result.events).toHaveLength(4);
    expect(fx.server.searches).toHaveLength(3);
  });
});
