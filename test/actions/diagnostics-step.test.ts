/**
 * The diagnostics step over real signed webhooks: the READ_ONLY intent runs through the gateway
 * and its output lands in the card's thread; MUTATING and DESTRUCTIVE ones never reach the
 * automation, they wait on the card behind a Run or step-up button.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Incident } from '../../src/domain/incident.js';
import { proposeActions } from '../../src/gateway/actions/propose-actions.js';
import type { PipelineDeps } from '../../src/pipeline/pipeline-deps.js';
import { diagnosticsStep } from '../../src/pipeline/steps/diagnostics.js';
import { presentIncidentCard } from '../../src/presenters/incident-card.js';
import { buildAnalysedIncident } from '../fixtures/slack/build-incident.js';
import { recordingDeliveries } from '../support/recording-deliveries.js';
import { createTestRedis } from '../support/redis.js';
import { buildProposedIntents, startActionGateway } from './support.js';

describe('the diagnostics step', () => {
  let env: Awaited<ReturnType<typeof createTestRedis>>;
  let stack: Awaited<ReturnType<typeof startActionGateway>>;
  let recording: ReturnType<typeof recordingDeliveries>;
  let deps: PipelineDeps;
  beforeEach(async () => {
    env = await createTestRedis();
    stack = await startActionGateway(env.redis, env.prefix, { approvers: ['U-A'], elevated: ['U-E'] });
    recording = recordingDeliveries();
    // The step reaches only the thread's delivery and runDiagnostics; the rest of the deps are not its business.
    deps = {
      requestReply: recording.deliveries.requestReply,
      runDiagnostics: ({ incidentId, intents, notes }) => proposeActions({ gateway: stack.h.gateway, intents, notes, incidentId, at: '2025-03-01T10:00:00.000Z' }),
    } as Partial<PipelineDeps> as PipelineDeps;
  });
  afterEach(async () => {
    await stack.receiver.close();
    await env.cleanup();
  });

  const analysed = (actions = buildProposedIntents()): Incident => {
    const base = buildAnalysedIncident({ id: 'inc-diag-1', card: { channel: 'C1', ts: '1.1' } });
    return { ...base, recommendation: { ...base.recommendation!, actions } };
  };

  it('runs the READ_ONLY intent once over a signed webhook, posts its output to the thread, and runs nothing else', async () => {
    const incident = analysed();
    const output = await diagnosticsStep.run(incident, deps);
    expect(stack.receiver.count()).toBe(1);
    expect(stack.receiver.received[0]).toMatchObject({ path: '/hooks/pod-logs', signatureValid: true, body: { action: 'diagnostics.pod-logs', incidentId: 'inc-diag-1' } });
    expect(stack.receiver.count('/hooks/scale')).toBe(0);
    expect(stack.receiver.count('/hooks/failover')).toBe(0);

    const actions = output.patch.diagnostics?.actions ?? [];
    expect(actions.map((a) => [a.tool, a.requires, a.outcome?.status])).toEqual([
      ['diagnostics.pod-logs', 'auto', 'executed'],
      ['deploy.scale', 'approval', undefined],
      ['db.failover', 'step-up', undefined],
    ]);
    expect(actions[0]?.outcome?.output).toContain('/hooks/pod-logs');

    const reply = recording.replies.get('diagnostics:inc-diag-1:0');
    expect(reply?.text).toContain('diagnostics.pod-logs');
    expect(reply?.text).toContain('/hooks/pod-logs');

    // A retried step posts nothing new: the reply is keyed by incident and round.
    await diagnosticsStep.run(incident, deps);
    expect(recording.replies.size).toBe(1);
  });

  it('the card shows each intent with its effect class; buttons carry only incident, tool and args hash', async () => {
    const incident = analysed();
    const { patch } = await diagnosticsStep.run(incident, deps);
    const card = presentIncidentCard({ incident: { ...incident, ...patch } });
    const text = JSON.stringify(card.blocks);
    expect(text).toContain('READ_ONLY');
    expect(text).toContain('MUTATING');
    expect(text).toContain('DESTRUCTIVE');
    const buttons = card.blocks.flatMap((b) => (b.type === 'actions' ? (b.elements as { action_id: string; value: string }[]) : []));
    const run = buttons.find((b) => b.action_id === 'medic_action_run');
    const stepUp = buttons.find((b) => b.action_id === 'medic_action_step_up');
    expect(Object.keys(JSON.parse(run!.value) as object).sort()).toEqual(['argsHash', 'incidentId', 'tool']);
    expect(JSON.parse(stepUp!.value)).toMatchObject({ incidentId: 'inc-diag-1', tool: 'db.failover' });
    expect(buttons.some((b) => b.value.includes('diagnostics.pod-logs'))).toBe(false);
    expect(card.blocks.length).toBeLessThanOrEqual(50);
    expect(buttons.every((b) => b.value.length <= 2_000)).toBe(true);
  });

  it('records nothing to run when the recommendation proposes no action', async () => {
    const output = await diagnosticsStep.run(analysed([]), deps);
    expect(output.patch).toEqual({});
    expect(stack.receiver.count()).toBe(0);
    expect(recording.replies.size).toBe(0);
  });
});
