/** Shared pieces of the operational-action tests: a gateway over the loopback automation receiver. */
import type { Redis } from 'ioredis';
import { createWebhookAutomation } from '../../src/gateway/actions/automation-client.js';
import type { ActionIntent } from '../../src/domain/analysis.js';
import { startLoopbackAutomation, type LoopbackAutomation } from '../loopback/automation-receiver.js';
import { buildHarness, exampleArgs, type Harness } from '../gateway/support.js';

export const AUTOMATION_SECRET = 'automation-secret-for-action-tests-0123';

/** One of each: READ_ONLY diagnostics, MUTATING scale, DESTRUCTIVE failover. */
export function buildProposedIntents(): ActionIntent[] {
  return [
    { tool: 'diagnostics.pod-logs', args: exampleArgs('diagnostics.pod-logs') },
    { tool: 'deploy.scale', args: exampleArgs('deploy.scale') },
    { tool: 'db.failover', args: exampleArgs('db.failover') },
  ];
}

export async function startActionGateway(redis: Redis, prefix: string, people: { approvers: string[]; elevated: string[] }): Promise<{ h: Harness; receiver: LoopbackAutomation }> {
  const receiver = await startLoopbackAutomation(AUTOMATION_SECRET);
  const h = buildHarness(redis, prefix, { ...people, deps: { automation: createWebhookAutomation({ baseUrl: receiver.url, secret: AUTOMATION_SECRET }) } });
  return { h, receiver };
}
