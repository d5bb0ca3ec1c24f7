import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/domain/errors.js';
import { buildSplunkRow } from '../loopback/splunk-server.js';
import { startSplunkFixture, T0, type SplunkFixture } from './support/fixtures.js';
import { parseSearch } from './support/spl-evaluator.js';

const at = (offsetS: number) => new Date((T0 + offsetS) * 1000).toISOString();

function line(n: number, offsetS: number, text: string, service = 'checkout') {
  return buildSplunkRow({ cd: `40:${n}`, time: at(offsetS), indexTime: T0 + offsetS, raw: `${at(offsetS)} INFO [${service}] ${text}`, fields: { level: 'INFO', service } });
}

describe('Splunk deploy marker: the first log line with the pattern', () => {
  let fx: SplunkFixture;
  beforeEach(async () => {
    fx = await startSplunkFixture();
  });
  afterEach(async () => fx.close());

  it("finds the service's earliest line since the merge that contains the text, whatever its case", async () => {
    fx.clock.now = T0 + 3_600;
    fx.server.rows.push(
      line(1, -60, 'Deployed version 41'),
      line(2, 120, 'deployed version 42 (canary)', 'billing'),
      line(3, 300, 'DEPLOYED VERSION 42'),
      line(4, 600, 'deployed version 43'),
      line(5, 200, 'deployed, version unknown'),
    );
    expect(await fx.source.findLine!('checkout', 'deployed version', at(0))).toEqual({ at: at(300), line: `${at(300)} INFO [checkout] DEPLOYED VERSION 42` });
    const search = fx.server.searches.at(-1)!;
    expect(search.search).toMatch(/"deployed version"/);
    expect(search.search).toMatch(/\| sort 0 _time \| head 20$/);
    expect(Number(search.form.earliest_time)).toBe(T0);
    expect(await fx.source.findLine!('checkout', 'rolled back', at(0))).toBeUndefined();
  });

  it('keeps search syntax in the pattern inert, and refuses a pattern that is not one line of bounded text', async () => {
    fx.clock.now = T0 + 3_600;
    fx.server.rows.push(line(1, 10, 'release "v2" | done'));
    const hit = await fx.source.findLine!('checkout', 'release "v2" | done', at(0));
    expect(hit?.line).toContain('release "v2" | done');
    const parsed = parseSearch(fx.server.searches.at(-1)!.search);
    expect(parsed.commands.map((c) => c.name)).toEqual(['sort', 'head']);
    await expect(fx.source.findLine!('checkout', '', at(0))).rejects.toMatchObject({ code: ErrorCode.ValidationFailed });
    await expect(fx.source.findLine!('checkout', 'x'.repeat(201), at(0))).rejects.toMatchObject({ code: ErrorCode.ValidationFailed });
    await expect(fx.source.findLine!('checkout', 'a\nb', at(0))).rejects.toMatchObject({ code: ErrorCode.ValidationFailed });
    await expect(fx.source.findLine!('checkout', 'deployed', 'soon')).rejects.toMatchObject({ code: ErrorCode.ValidationFailed });
  });
});
