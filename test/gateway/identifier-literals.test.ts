/**
 * Selectors are refused where they would select: real correlation ids with `+/=()` pass as quoted
 * literals, a `*` or a bare `all` does not, and a policy enum cannot offer `all`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createActionTools } from '../../src/gateway/actions/action-tools.js';
import { explicitName, repoPath } from '../../src/gateway/arguments/identifiers.js';
import { parsePolicy } from '../../src/gateway/actions/policy.js';
import type { PipelineDeps } from '../../src/pipeline/pipeline-deps.js';
import { logWindowStep } from '../../src/pipeline/steps/log-window.js';
import type { WindowQuery } from '../../src/ports/log-source.js';
import { buildIncident } from '../support/builders.js';
import { createTestRedis } from '../support/redis.js';
import { buildCountingAutomation, buildEvent, buildFakePorts, buildHarness, exampleArgs, type Harness } from './support.js';

const LEGITIMATE_IDS = ['q3Zs+9kLp/0aBcD==', 'SO-(1001)', 'order#42', 'a=b;c', '[eu-west-1]', 'ticket?id=7', 'user@example.com', '50%-off', 'Checkout API'];
const STILL_SELECTING = ['*', 'orders-*', '*-1001', 'all', 'ALL', ' any ', '%', '.*'];

describe('identifiers used as quoted literals', () => {
  let env: Awaited<ReturnType<typeof createTestRedis>>;
  let h: Harness;
  let ports: ReturnType<typeof buildFakePorts>;
  beforeEach(async () => {
    env = await createTestRedis();
    ports = buildFakePorts();
    h = buildHarness(env.redis, env.prefix, { deps: ports });
  });
  afterEach(async () => env.cleanup());

  it('accepts real correlation ids and paths, and refuses what still selects', () => {
    for (const id of LEGITIMATE_IDS) expect([id, explicitName().safeParse(id).success]).toEqual([id, true]);
    for (const id of STILL_SELECTING) expect([id, explicitName().safeParse(id).success]).toEqual([id, false]);
    for (const path of ['app/[id]/page.tsx', 'src/(shop)/cart.ts', 'lib/c++/main.cc']) expect([path, repoPath().safeParse(path).success]).toEqual([path, true]);
    expect(repoPath().safeParse('src/*.ts').success).toBe(false);
  });

  it('fetches the log window for an event whose correlation ids carry +, /, = and parentheses', async () => {
    const event = buildEvent({ correlationIds: { requestId: 'q3Zs+9kLp/0aBcD==', orderNumber: 'SO-(1001)' } });
    const result = await h.gateway.invoke({ tool: 'logs.window', args: { ...exampleArgs('logs.window'), event } }, { caller: { kind: 'pipeline' }, incidentId: 'inc-1' });
    expect(result.status).toBe('executed');
    expect(ports.calls.window).toBe(1);
  });

  it('refuses a * correlation id with the stable code, and the log-window step leaves it out instead of losing the window', async () => {
    const event = buildEvent({ correlationIds: { requestId: 'req-7', orderNumber: '*' } });
    const refused = await h.gateway.invoke({ tool: 'logs.window', args: { ...exampleArgs('logs.window'), event } }, { caller: { kind: 'pipeline' }, incidentId: 'inc-1' });
    expect(refused).toMatchObject({ status: 'denied', code: 'ERR_TOOL_WILDCARD_PROHIBITED' });

    const asked: WindowQuery[] = [];
    const deps = {
      settings: { windowBeforeMs: 300_000, windowAfterMs: 300_000, windowLimit: 100 },
      logs: { window: async (query: WindowQuery) => (asked.push(query), [{ sourceId: 's1', time: event.time, level: 'ERROR', service: event.service, message: 'boom', correlationIds: {} }]) },
      store: { recentEvents: async () => [] },
      logger: { warn: () => undefined },
    } as unknown as PipelineDeps;
    const out = await logWindowStep.run(buildIncident({ firstEvent: event }), deps);
    expect(asked.map((q) => q.event.correlationIds)).toEqual([{ requestId: 'req-7' }]);
    expect(out.patch.logs?.entries.map((e) => e.message)).toEqual(['boom']);
    expect(out.patch.logs?.note).toContain('orderNumber');
  });

  it('refuses a policy enum offering all at load, and an enum built in code cannot run with it', () => {
    const policy = (values: string) => `version: 1
actions:
  - { name: cache.flush, summary: flush, effect: MUTATING, permission: approve, reversible: true, webhook: /hooks/flush, target: service,
      args: { service: { type: slug }, scope: { type: enum, values: [${values}] } } }
`;
    expect(() => parsePolicy(policy('one-node, all'), 'p')).toThrow(/scope.*selector such as "all"/s);
    expect(() => parsePolicy(policy('every, any'), 'p')).toThrow(/selector such as "all"/);
    const [action] = parsePolicy(policy('one-node, zone'), 'p');
    const crafted = { ...action!, args: { ...action!.args, scope: { type: 'enum' as const, values: ['one-node', 'all'], optional: false } } };
    const [tool] = createActionTools([crafted], buildCountingAutomation().client);
    expect(tool!.schema.safeParse({ service: 'orders-api', scope: 'one-node' }).success).toBe(true);
    const all = tool!.schema.safeParse({ service: 'orders-api', scope: 'all' });
    expect(all.success).toBe(false);
    expect(JSON.stringify(all.error?.issues)).toContain('wildcard');
  });
});
