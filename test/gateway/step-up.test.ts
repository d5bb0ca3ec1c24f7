import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestRedis } from '../support/redis.js';
import { APPROVER, ELEVATED, SECOND_APPROVER, buildCountingAutomation, buildHarness, exampleArgs, type Harness } from './support.js';

const incidentId = 'inc-7';
const failover = { tool: 'db.failover', args: exampleArgs('db.failover') };
const asUser = (userId: string) => ({ caller: { kind: 'user' as const, userId }, incidentId, traceId: 'trace-7' });

describe('step-up for DESTRUCTIVE actions', () => {
  let env: Awaited<ReturnType<typeof createTestRedis>>;
  let h: Harness;
  let automation: ReturnType<typeof buildCountingAutomation>;
  beforeEach(async () => {
    env = await createTestRedis();
    automation = buildCountingAutomation();
    // Two elevated people, so "same person" and "second person" can both be shown.
    h = buildHarness(env.redis, env.prefix, { deps: { automation: automation.client }, elevated: [ELEVATED, SECOND_APPROVER] });
  });
  afterEach(async () => env.cleanup());

  async function request(by = APPROVER) {
    const result = await h.gateway.requestStepUp(failover, asUser(by));
    if (result.status !== 'challenge') throw new Error(result.reason);
    return result.challenge;
  }

  it('runs once when a second, elevated person types the target', async () => {
    const challenge = await request();
    expect(challenge.target).toBe('orders-db');
    const result = await h.gateway.confirmStepUp({ token: challenge.token, typedTarget: 'orders-db', incidentId }, asUser(ELEVATED));
    expect(result.status).toBe('executed');
    expect(automation.runs).toEqual([{ action: 'db.failover', args: { cluster: 'orders-db', region: 'eu-west-1' } }]);
    const [, confirmed] = await h.audit.list({ incidentId });
    expect(confirmed).toMatchObject({ outcome: 'allowed', actor: { id: ELEVATED }, details: { tool: 'db.failover', effect: 'DESTRUCTIVE', requestedBy: APPROVER, approverId: ELEVATED } });
  });

  it('refuses a replayed challenge', async () => {
    const challenge = await request();
    await h.gateway.confirmStepUp({ token: challenge.token, typedTarget: 'orders-db', incidentId }, asUser(ELEVATED));
    const replay = await h.gateway.confirmStepUp({ token: challenge.token, typedTarget: 'orders-db', incidentId }, asUser(SECOND_APPROVER));
    expect(replay).toMatchObject({ status: 'denied', code: 'ERR_TOOL_DENIED', reason: expect.stringContaining('already redeemed') });
    expect(automation.runs).toHaveLength(1);
  });

  it('refuses an expired challenge (the clock is a parameter)', async () => {
    const challenge = await request();
    h.clock.now += 120_001;
    const result = await h.gateway.confirmStepUp({ token: challenge.token, typedTarget: 'orders-db', incidentId }, asUser(ELEVATED));
    expect(result).toMatchObject({ status: 'denied', reason: expect.stringContaining('expired') });
    expect(automation.runs).toHaveLength(0);
  });

  it('refuses a challenge re-bound to another incident, another intent or another signature', async () => {
    const first = await request();
    const other = await h.gateway.requestStepUp({ tool: 'db.failover', args: { cluster: 'billing-db', region: 'eu-west-1' } }, asUser(APPROVER));
    if (other.status !== 'challenge') throw new Error('expected a challenge');

    const elsewhere = await h.gateway.confirmStepUp({ token: first.token, typedTarget: 'orders-db', incidentId: 'inc-other' }, asUser(ELEVATED));
    expect(elsewhere).toMatchObject({ status: 'denied', reason: expect.stringContaining('another incident') });

    // The id of one challenge with the signature of another.
    const spliced = `${other.challenge.challengeId}.${first.token.split('.')[1]}`;
    const splice = await h.gateway.confirmStepUp({ token: spliced, typedTarget: 'billing-db', incidentId }, asUser(ELEVATED));
    expect(splice).toMatchObject({ status: 'denied', reason: expect.stringContaining('signature') });

    // Someone with Redis access rewrites the stored intent: the signature no longer matches.
    const key = `${env.prefix}gw:challenge:${first.challengeId}`;
    const stored = JSON.parse((await env.redis.get(key))!);
    await env.redis.set(key, JSON.stringify({ ...stored, target: 'billing-db', args: { cluster: 'billing-db', region: 'eu-west-1' } }));
    const rebound = await h.gateway.confirmStepUp({ token: first.token, typedTarget: 'billing-db', incidentId }, asUser(ELEVATED));
    expect(rebound).toMatchObject({ status: 'denied', reason: expect.stringContaining('signature') });
    expect(automation.runs).toHaveLength(0);
  });

  it('refuses the same person as both approvers, without burning the challenge', async () => {
    const challenge = await request(SECOND_APPROVER);
    const self = await h.gateway.confirmStepUp({ token: challenge.token, typedTarget: 'orders-db', incidentId }, asUser(SECOND_APPROVER));
    expect(self).toMatchObject({ status: 'denied', reason: expect.stringContaining('second person') });
    expect(automation.runs).toHaveLength(0);
    const other = await h.gateway.confirmStepUp({ token: challenge.token, typedTarget: 'orders-db', incidentId }, asUser(ELEVATED));
    expect(other.status).toBe('executed');
  });

  it('refuses a mistyped target, a non-elevated confirmer and a forged token', async () => {
    const challenge = await request();
    const typo = await h.gateway.confirmStepUp({ token: challenge.token, typedTarget: 'orders-db2', incidentId }, asUser(ELEVATED));
    expect(typo).toMatchObject({ status: 'denied', reason: expect.stringContaining('typed target') });
    const plain = await h.gateway.confirmStepUp({ token: challenge.token, typedTarget: 'orders-db', incidentId }, asUser(APPROVER));
    expect(plain).toMatchObject({ status: 'denied', reason: expect.stringContaining('elevated') });
    const forged = await h.gateway.confirmStepUp({ token: `${challenge.challengeId}.${'0'.repeat(64)}`, typedTarget: 'orders-db', incidentId }, asUser(ELEVATED));
    expect(forged).toMatchObject({ status: 'denied', reason: expect.stringContaining('signature') });
    expect(automation.runs).toHaveLength(0);
  });

  it('never runs a destructive action for the pipeline, whatever it claims', async () => {
    const pipeline = { caller: { kind: 'pipeline' as const }, incidentId };
    expect((await h.gateway.requestStepUp(failover, pipeline)).status).toBe('denied');
    expect((await h.gateway.invoke(failover, pipeline)).status).toBe('proposed');
    expect((await h.gateway.invoke(failover, { ...pipeline, approvalId: 'severity-critical-auto' })).status).toBe('denied');
    const challenge = await request();
    expect((await h.gateway.confirmStepUp({ token: challenge.token, typedTarget: 'orders-db', incidentId }, pipeline)).status).toBe('denied');
    expect(automation.runs).toHaveLength(0);
  });

  it('refuses a step-up for a non-destructive tool and one requested by a non-approver', async () => {
    expect(await h.gateway.requestStepUp({ tool: 'deploy.scale', args: exampleArgs('deploy.scale') }, asUser(APPROVER))).toMatchObject({ status: 'denied' });
    expect(await h.gateway.requestStepUp(failover, asUser('U-NOBODY'))).toMatchObject({ status: 'denied', code: 'ERR_TOOL_DENIED' });
    expect(await h.audit.length()).toBe(2);
  });
});
