import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIncidentStore } from '../../src/adapters/redis/incident-store.js';
import type { IncidentStore } from '../../src/ports/incident-store.js';
import { runCli } from '../../src/cli/run-cli.js';
import { loadGroupingRules } from '../../src/config/load-grouping-rules.js';
import { parseGroupingRules } from '../../src/domain/grouping-rules.js';
import { createTemplateMiner } from '../../src/domain/templates/template-miner.js';
import { ingestEvents } from '../../src/use-cases/ingest-events.js';
import { buildEvent } from '../support/builders.js';
import { buildCliIo } from '../support/cli-io.js';
import { createWorld } from '../support/medic-world.js';
import { createTestRedis } from '../support/redis.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/grouping');

describe('the grouping rules file', () => {
  it('lists every problem of a bad file with its place', async () => {
    const error = await loadGroupingRules(join(FIXTURES, 'evil.yaml')).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toContain('rules.0.name: must be a lowercase slug');
    expect(message).toContain('rules.0.match');
    expect(message).toMatch(/colour/);
    expect(message).toContain('rules.1.match: needs at least one of service, message, exception, frame');
    expect(message).toContain('rules.2: needs exactly one of family or split_by');
    expect(message).toContain('rules.3.split_by: must be a field name');
    expect(message).toContain('rules.4.name: "dup" is used by an earlier rule');
    expect(message).toContain('MEDIC_GROUPING_FILE');
    await expect(loadGroupingRules(join(FIXTURES, 'malformed.yaml'))).rejects.toThrow(/not valid YAML/);
  });

  it('ships a valid file, and a missing one means no rules', async () => {
    expect(await loadGroupingRules(join(import.meta.dirname, '../../data/policy/grouping.yaml'))).toEqual([]);
    expect(await loadGroupingRules(join(FIXTURES, 'absent.yaml'))).toEqual([]);
    expect(parseGroupingRules('version: 1\nrules:\n  - name: a\n    match: { service: s }\n    family: b\n', 'inline')).toHaveLength(1);
  });

  it('stops the start with every problem listed', async () => {
    const world = await createWorld({ llm: 'offline' });
    try {
      const io = buildCliIo({ env: { ...world.env, MEDIC_GROUPING_FILE: join(FIXTURES, 'evil.yaml') } });
      // Any command that boots Medic (not the read-only ones) loads the rules first.
      expect(await runCli(['doctor'], io)).toBe(1);
      expect(io.err()).toContain('rules.2: needs exactly one of family or split_by');
      expect(io.err()).toContain('rules.4.name');
    } finally {
      await world.close();
    }
  }, 60_000);
});

describe('grouping rules at ingest', () => {
  let ctx: Awaited<ReturnType<typeof createTestRedis>>;
  let store: IncidentStore;
  beforeEach(async () => {
    ctx = await createTestRedis();
    store = createIncidentStore(ctx.redis, ctx.prefix);
  });
  afterEach(async () => ctx.cleanup());

  const rules = parseGroupingRules([
    'version: 1', 'rules:',
    '  - name: declines', '    match: { service: checkout, message: declined }', '    family: card-declines',
    '  - name: per-tenant', '    match: { service: search }', '    split_by: tenant',
  ].join('\n'), 'inline');
  let seq = 0;
  const event = (service: string, message: string, tenant = '') =>
    buildEvent({ id: `e${++seq}`, service, message, raw: message, fields: tenant ? { tenant } : {}, time: '2026-11-30T09:00:00.000Z' });
  const deps = () => ({ store, rules, miner: createTemplateMiner(), clock: () => new Date('2026-11-30T09:00:01Z'), enqueueAnalysis: async () => undefined });

  it('puts every matching event in the rule\'s family, and splits another by a field, for every future event', async () => {
    await ingestEvents([event('checkout', 'card declined by issuer'), event('checkout', 'wallet declined: insufficient funds'), event('checkout', 'cart empty')], deps());
    expect((await store.list()).filter((i) => i.service === 'checkout')).toHaveLength(2);
    await ingestEvents([event('search', 'query timed out', 'acme'), event('search', 'query timed out', 'globex'), event('search', 'query timed out', 'acme')], deps());
    const search = (await store.list()).filter((i) => i.service === 'search');
    expect(search).toHaveLength(2);
    expect(search.map((i) => i.family?.template).sort()).toEqual(['query timed out [tenant=acme]', 'query timed out [tenant=globex]']);
  });
});
