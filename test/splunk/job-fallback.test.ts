import { afterEach, describe, expect, it } from 'vitest';
import { buildErrorRow, startSplunkFixture, T0, type SplunkFixture } from './support/fixtures.js';

describe('servers without the v2 export', () => {
  let fx: SplunkFixture;
  afterEach(async () => fx.close());

  it('fall back to a search job, page its results, and delete the job', async () => {
    fx = await startSplunkFixture({ server: { v2: false }, client: { pageSize: 4 } });
    for (let n = 1; n <= 10; n++) fx.server.rows.push(buildErrorRow({ n, indexTime: T0 - 20 + n }));
    const first = await fx.source.poll(undefined);
    expect(first.events.map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => `splunk:main:26:${n}`));
    expect(fx.server.searches.map((s) => s.endpoint)).toEqual(['jobs']);
    expect(fx.server.searches[0]?.form).toMatchObject({ auto_cancel: '120', exec_mode: 'normal', output_mode: 'json' });
    expect(fx.server.jobs.size).toBe(0);

    fx.server.rows.push(buildErrorRow({ n: 11, indexTime: T0 + 1 }));
    const second = await fx.source.poll(first.checkpoint);
    expect(second.events.map((e) => e.id)).toEqual(['splunk:main:26:11']);
    expect(fx.server.jobs.size).toBe(0);
  });

  it('use the job path directly when configured, and a refused job search is a coded error', async () => {
    fx = await startSplunkFixture({ client: { api: 'jobs', retries: 0 } });
    fx.server.fault({ kind: 'status', status: 503, body: JSON.stringify({ messages: [{ type: 'FATAL', text: 'The maximum number of concurrent historical searches has been reached' }] }) });
    const error = await fx.source.poll(undefined).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ERR_UPSTREAM_UNAVAILABLE', transient: true });
    expect(fx.server.searches.map((s) => s.endpoint)).toEqual(['jobs']);
  });
});
