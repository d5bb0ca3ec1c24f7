/** The model proposes, code decides: intents are parsed from the answer, then validated by the registry. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toRecommendation } from '../../src/analysts/answers.js';
import { proposeActions } from '../../src/gateway/actions/propose-actions.js';
import { describeActionCatalog } from '../../src/gateway/actions/action-catalog.js';
import { TEST_POLICY } from '../gateway/support.js';
import { createTestRedis } from '../support/redis.js';
import { startActionGateway } from './support.js';

const answer = (actions: { tool: string; args: string }[]) => ({ kind: 'mitigate' as const, summary: 'Scale out', steps: [], risk: 'low' as const, actions });

describe('intents from the model answer', () => {
  it('keeps JSON-object arguments and drops anything else with a note', () => {
    const rec = toRecommendation(answer([
      { tool: 'deploy.scale', args: '{"service":"orders-api","namespace":"prod","replicas":4}' },
      { tool: 'deploy.restart-service', args: 'restart everything' },
      { tool: 'db.failover', args: '["orders-db"]' },
    ]));
    expect(rec.actions).toEqual([{ tool: 'deploy.scale', args: { service: 'orders-api', namespace: 'prod', replicas: 4 } }]);
    expect(rec.actionNotes).toHaveLength(2);
    expect(rec.actionNotes?.[0]).toMatch(/deploy\.restart-service.*not a JSON object/);
  });

  it('an answer without actions (older scripts, the offline analyst) proposes none', () => {
    const rec = toRecommendation({ kind: 'fix', summary: 's', steps: [], risk: 'low', actions: [] });
    expect(rec.actions).toBeUndefined();
    expect(rec.actionNotes).toBeUndefined();
  });

  it('lists the policy actions with their effect and argument shapes for the prompt', () => {
    const lines = describeActionCatalog(TEST_POLICY);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^deploy\.scale \(MUTATING, needs an approver\).*replicas: an integer 1–10/);
  });
});

describe('intents validated by the registry', () => {
  let env: Awaited<ReturnType<typeof createTestRedis>>;
  let stack: Awaited<ReturnType<typeof startActionGateway>>;
  beforeEach(async () => {
    env = await createTestRedis();
    stack = await startActionGateway(env.redis, env.prefix, { approvers: ['U-A'], elevated: ['U-E'] });
  });
  afterEach(async () => {
    await stack.receiver.close();
    await env.cleanup();
  });

  it('drops an unknown tool and a wildcard argument, keeps MUTATING as needing approval and DESTRUCTIVE as step-up', async () => {
    const diagnostics = await proposeActions({
      gateway: stack.h.gateway,
      incidentId: 'inc-1',
      at: '2025-03-01T10:00:00.000Z',
      notes: ['Dropped x: its arguments are not a JSON object.'],
      intents: [
        { tool: 'kubectl.delete-namespace', args: { namespace: 'prod' } },
        { tool: 'deploy.scale', args: { service: '*', namespace: 'prod', replicas: 3 } },
        { tool: 'deploy.scale', args: { service: 'orders-api', namespace: 'prod', replicas: 25 } },
        { tool: 'db.failover', args: { cluster: 'orders-db', region: 'eu-west-1' } },
      ],
    });
    expect(diagnostics.actions.map((a) => [a.tool, a.effect, a.requires])).toEqual([
      ['deploy.scale', 'MUTATING', 'approval'],
      ['db.failover', 'DESTRUCTIVE', 'step-up'],
    ]);
    expect(diagnostics.actions[0]).toMatchObject({ args: { replicas: 10 }, capped: ['replicas: 25 capped to 10'], target: 'orders-api' });
    expect(diagnostics.actions.every((a) => a.outcome === undefined)).toBe(true);
    expect(diagnostics.notes).toHaveLength(3);
    expect(diagnostics.notes[1]).toMatch(/kubectl\.delete-namespace.*ERR_TOOL_UNKNOWN/);
    expect(diagnostics.notes[2]).toMatch(/deploy\.scale.*ERR_TOOL_WILDCARD_PROHIBITED/);
    expect(stack.receiver.count()).toBe(0);
  });
});
