/**
 * The card's action buttons through the real Bolt app, the sandbox as Slack, the real gateway and
 * the loopback automation receiver: the button names the intent, the server re-resolves it from
 * the stored incident and the clicker's verified id, and the receiver's count proves what ran.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliverCard, type DeliverCardDeps } from '../../jobs/deliver-card.js';
import { createRedisCardDeliveryState } from '../../src/adapters/redis/card-delivery-state.js';
import { createIncidentStore } from '../../src/adapters/redis/incident-store.js';
import { createLogger } from '../../src/observability/logger.js';
import { createMetrics } from '../../src/observability/metrics.js';
import type { CardDeliveries } from '../../src/ports/card-delivery.js';
import type { Chat } from '../../src/ports/chat.js';
import type { IncidentStore } from '../../src/ports/incident-store.js';
import type { Incident } from '../../src/domain/incident.js';
import { proposeActions } from '../../src/gateway/actions/propose-actions.js';
import { presentIncidentCard } from '../../src/presenters/incident-card.js';
import { buildViewSubmission } from '../../src/sandbox/inbound.js';
import { formBody, postSigned } from '../../src/sandbox/sign-request.js';
import { createActionCommands } from '../../src/use-cases/run-action.js';
import { buildAnalysedIncident } from '../fixtures/slack/build-incident.js';
import { buildBlockActions } from '../fixtures/slack/build-payloads.js';
import { SIGNING_SECRET, startSlackHarness, type SlackHarness } from '../slack/support/slack-harness.js';
import { createTestRedis } from '../support/redis.js';
import { exampleArgs } from '../gateway/support.js';
import { startActionGateway } from './support.js';

const ALICE = 'U0APPROVER'; // approver and elevated
const BOB = 'U0VIEWER'; // neither
const ERIN = 'U0ELEVATED'; // a second, elevated approver

let env: Awaited<ReturnType<typeof createTestRedis>>;
let stack: Awaited<ReturnType<typeof startActionGateway>>;
let store: IncidentStore;
let h: SlackHarness;
let incident: Incident;
let seq = 0;
/** The receiver is shared by the file's tests: each test counts from its own baseline. */
let baseline = 0;
const ran = (path: string) => stack.receiver.received.slice(baseline).filter((r) => r.path === path).length;

/** The card delivery path run at once instead of queued: the real deliver-card job's work, on this file's Redis and Slack. */
function deliveredAtOnce(chat: Chat): CardDeliveries {
  const deps: DeliverCardDeps = {
    store, chat, state: createRedisCardDeliveryState(env.redis, env.prefix), clock: () => new Date(), logger: createLogger({ level: 'silent' }), metrics: createMetrics(),
    retry: { minMs: 10, maxMs: 100 }, attempts: 1,
  };
  return {
    requestCard: (id) => deliverCard(id, 'final', deps),
    async requestReply(id, key, message) {
      await deps.state.addReply(id, { key, message, at: Date.now() });
      await deliverCard(id, 'final', deps);
    },
  };
}

beforeAll(async () => {
  env = await createTestRedis();
  stack = await startActionGateway(env.redis, env.prefix, { approvers: [ALICE, ERIN], elevated: [ALICE, ERIN] });
  store = createIncidentStore(env.redis, env.prefix);
  h = await startSlackHarness({
    actions: (chat) => createActionCommands({ gateway: stack.h.gateway, approvals: stack.h.approvals, store, deliveries: deliveredAtOnce(chat), clock: () => new Date('2025-03-01T10:00:00Z') }),
  });
});
afterAll(async () => {
  await h.close();
  await stack.receiver.close();
  await env.cleanup();
});

/** An analysed incident in Redis whose recommendation proposed a scale and a failover, and its card in the sandbox. */
beforeEach(async () => {
  seq += 1;
  const seeded = buildAnalysedIncident({ id: `inc-act-${seq}`, fingerprint: `fp-act-${seq}` });
  // A fresh event id each time: the store deduplicates events it has already processed.
  const base = { ...seeded, firstEvent: { ...seeded.firstEvent, id: `evt-act-${seq}` } };
  const diagnostics = await proposeActions({
    gateway: stack.h.gateway, incidentId: base.id, at: '2025-03-01T10:00:00.000Z',
    intents: [{ tool: 'deploy.scale', args: exampleArgs('deploy.scale') }, { tool: 'db.failover', args: exampleArgs('db.failover') }],
  });
  await store.ingest([{ event: base.firstEvent, fingerprint: base.fingerprint, candidate: base }], Date.now());
  const card = await h.chat.postCard(`card:${base.id}`, presentIncidentCard({ incident: { ...base, diagnostics } }));
  baseline = stack.receiver.received.length;
  incident = await store.update(base.id, (current) => ({ incident: { ...current, diagnostics, card }, audit: [] }));
});

const ephemerals = (user: string) => h.sandbox.state.messages.filter((m) => m.ephemeralFor === user);
const threadOf = () => h.sandbox.state.messages.filter((m) => m.threadTs === incident.card!.ts);
const actionOf = (tool: string) => incident.diagnostics!.actions.find((a) => a.tool === tool)!;

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

/** One signed click on the card (or a thread message); resolves with the clicker's ephemeral answer. */
async function click(userId: string, actionId: string, value: unknown, messageTs = incident.card!.ts): Promise<string> {
  const before = ephemerals(userId).length;
  const payload = buildBlockActions({ userId, actionId, value: JSON.stringify(value), channel: h.sandbox.channelId, messageTs, triggerId: h.sandbox.state.newTrigger(userId) });
  const result = await postSigned(h.eventsUrl, SIGNING_SECRET, formBody({ payload: JSON.stringify(payload) }));
  expect(result.status).toBe(200);
  await until(() => ephemerals(userId).length > before);
  return ephemerals(userId).at(-1)?.text ?? '';
}

const runValue = (tool: string) => ({ incidentId: incident.id, tool, argsHash: actionOf(tool).argsHash });

describe('Run (MUTATING)', () => {
  it('runs once for an approver; a non-approver and a second click run nothing more', async () => {
    expect(await click(BOB, 'medic_action_run', runValue('deploy.scale'))).toMatch(/did not run deploy\.scale/);
    expect(ran('/hooks/scale')).toBe(0);

    expect(await click(ALICE, 'medic_action_run', runValue('deploy.scale'))).toMatch(/Ran deploy\.scale/);
    expect(ran('/hooks/scale')).toBe(1);
    expect(stack.receiver.received.at(-1)).toMatchObject({ signatureValid: true, body: { action: 'deploy.scale', args: { service: 'orders-api', replicas: 4 }, approverId: ALICE } });
    await until(() => threadOf().length > 0);
    expect(threadOf()[0]!.text).toMatch(/deploy\.scale/);

    expect(await click(ALICE, 'medic_action_run', runValue('deploy.scale'))).toMatch(/already run/);
    expect(await click(ERIN, 'medic_action_run', runValue('deploy.scale'))).toMatch(/already run/);
    expect(ran('/hooks/scale')).toBe(1);
    const stored = (await store.require(incident.id)).diagnostics!.actions.find((a) => a.tool === 'deploy.scale');
    expect(stored?.outcome).toMatchObject({ status: 'executed', by: ALICE });
  });

  it('a forged args hash names no stored intent: refused, nothing runs', async () => {
    const text = await click(ALICE, 'medic_action_run', { ...runValue('deploy.scale'), argsHash: 'f'.repeat(64) });
    expect(text).toMatch(/did not run deploy\.scale/);
    expect(await click(ALICE, 'medic_action_run', runValue('db.failover'))).toMatch(/did not run db\.failover/);
    expect(ran('/hooks/scale')).toBe(0);
    expect(ran('/hooks/failover')).toBe(0);
  });
});

describe('Step-up (DESTRUCTIVE)', () => {
  /** Clicks Confirm in the thread as `userId`, then submits the modal Slack opened for them. */
  async function confirmAs(userId: string, typed: string): Promise<string> {
    const request = threadOf().find((m) => JSON.stringify(m.blocks).includes('medic_action_confirm'))!;
    const element = (request.blocks as { elements?: { action_id: string; value: string }[] }[]).flatMap((b) => b.elements ?? []).find((e) => e.action_id === 'medic_action_confirm')!;
    const viewsBefore = h.sandbox.state.views.size;
    const clickedBefore = ephemerals(userId).length;
    const payload = buildBlockActions({ userId, actionId: 'medic_action_confirm', value: element.value, channel: h.sandbox.channelId, messageTs: request.ts, triggerId: h.sandbox.state.newTrigger(userId) });
    await postSigned(h.eventsUrl, SIGNING_SECRET, formBody({ payload: JSON.stringify(payload) }));
    // Either Slack opens the modal, or Medic answers the click (nothing pending to confirm).
    await until(() => h.sandbox.state.views.size > viewsBefore || ephemerals(userId).length > clickedBefore);
    if (h.sandbox.state.views.size === viewsBefore) return ephemerals(userId).at(-1)?.text ?? '';
    const view = [...h.sandbox.state.views.values()].filter((v) => v.userId === userId).at(-1)!;
    const submission = buildViewSubmission({ state: h.sandbox.state, baseUrl: h.sandbox.url, user: { id: userId, name: userId.toLowerCase(), label: userId } }, view.id, { target: { target_input: typed } });
    const before = ephemerals(userId).length;
    const result = await postSigned(h.eventsUrl, SIGNING_SECRET, formBody({ payload: JSON.stringify(submission) }));
    expect(result.status).toBe(200);
    await until(() => ephemerals(userId).length > before);
    return ephemerals(userId).at(-1)?.text ?? '';
  }

  it('requested by A, refused to A, refused on a wrong name, run once when elevated B types the target', async () => {
    expect(await click(BOB, 'medic_action_step_up', runValue('db.failover'))).toMatch(/did not request a step-up/);
    expect(await click(ALICE, 'medic_action_step_up', runValue('db.failover'))).toMatch(/Step-up requested for db\.failover on orders-db/);
    await until(() => threadOf().length > 0);
    expect(threadOf()[0]!.text).toMatch(/second, elevated approver/);

    expect(await confirmAs(ALICE, 'orders-db')).toMatch(/did not run db\.failover/);
    expect(await confirmAs(ERIN, 'orders-db-2')).toMatch(/did not run db\.failover/);
    expect(ran('/hooks/failover')).toBe(0);

    expect(await confirmAs(ERIN, 'orders-db')).toMatch(/Confirmed: db\.failover ran/);
    expect(ran('/hooks/failover')).toBe(1);
    expect(stack.receiver.received.at(-1)).toMatchObject({ signatureValid: true, body: { action: 'db.failover', args: { cluster: 'orders-db' }, approverId: ERIN } });

    // The challenge is single-use: confirming again runs nothing.
    expect(await confirmAs(ERIN, 'orders-db')).toMatch(/no longer pending/);
    expect(ran('/hooks/failover')).toBe(1);
  });
});
