/* eslint-disable @typescript-eslint/no-explicit-any -- Slack payloads are JSON documents; tests read and reshape them freely. */
/**
 * The approval loop through the real Bolt app and the real Web API client, with the sandbox as
 * Slack: who may approve is decided from the verified user id, the button value only names the
 * proposal, repeats change nothing, and refusals reach only the clicker.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { presentIncidentCard } from '../../src/presenters/incident-card.js';
import { formBody, postSigned } from '../../src/sandbox/sign-request.js';
import { buildAnalysedIncident } from '../fixtures/slack/build-incident.js';
import { buildBlockActions, buildViewSubmission } from '../fixtures/slack/build-payloads.js';
import { SIGNING_SECRET, startSlackHarness, type SlackHarness } from './support/slack-harness.js';

let h: SlackHarness;
let cardTs = '';
let id = 0;
let incident = buildAnalysedIncident();

beforeAll(async () => {
  h = await startSlackHarness();
});
afterAll(async () => h.close());

beforeEach(async () => {
  id += 1;
  const base = buildAnalysedIncident();
  const fresh = buildAnalysedIncident({ id: `inc-loop-${id}`, title: 'Checkout <*> failed for order <*>', firstEvent: { ...base.firstEvent, message: 'Checkout <v2> failed for order 991' } });
  const card = await h.chat.postCard(`card:${fresh.id}`, presentIncidentCard({ incident: fresh }));
  incident = { ...fresh, card };
  cardTs = card.ts;
  h.commands.add(incident);
});

const value = (over: Record<string, unknown> = {}) => JSON.stringify({ incidentId: incident.id, proposalHash: incident.proposal!.contentHash, ...over });
const ephemeralsFor = (user: string) => h.sandbox.state.messages.filter((m) => m.ephemeralFor === user);
const lastEphemeral = (user: string) => ephemeralsFor(user).at(-1)?.text ?? '';

/**
 * One signed click. The listener acks first and answers the clicker after the use-case returns, so
 * unless `answered` is false this waits for that ephemeral, then for the enqueued job to settle.
 */
async function click(userId: string, actionId: string, v = value(), answered = true) {
  const before = ephemeralsFor(userId).length;
  const payload = buildBlockActions({ userId, actionId, value: v, channel: h.sandbox.channelId, messageTs: cardTs, triggerId: h.sandbox.state.newTrigger(userId) });
  const result = await postSigned(h.eventsUrl, SIGNING_SECRET, formBody({ payload: JSON.stringify(payload) }));
  if (answered) await untilEphemeral(userId, before + 1);
  await h.commands.settle();
  return { result, payload };
}

async function untilReply(ts: string) {
  while (!h.sandbox.state.messages.some((m) => m.threadTs === ts)) await new Promise((r) => setImmediate(r));
}

/** The listener's ephemeral answer goes out after the ack; wait for its Web API call to land. */
async function untilEphemeral(user: string, count: number) {
  while (ephemeralsFor(user).length < count) await new Promise((r) => setImmediate(r));
}

describe('Approve', () => {
  it('an approver approves: the use-case gets the verified user id, the card is updated and the thread gets the branch', async () => {
    const { result } = await click('U0APPROVER', 'medic_approve');
    expect(result.status).toBe(200);
    const approve = h.commands.calls.filter((c) => c.method === 'approve').at(-1)?.input as any;
    expect(approve).toMatchObject({ incidentId: incident.id, proposalHash: incident.proposal!.contentHash, caller: { userId: 'U0APPROVER', via: 'slack' } });
    const card = h.sandbox.state.find(cardTs)!;
    expect(JSON.stringify(card.blocks)).toContain('Branch pushed');
    expect(JSON.stringify(card.blocks)).not.toContain('Fixed');
    expect(JSON.stringify(card.blocks)).not.toContain('medic_approve');
    const replies = h.sandbox.state.messages.filter((m) => m.threadTs === cardTs);
    expect(replies).toHaveLength(1);
    expect(replies[0]!.text).toMatch(/fix\/inc-loop-\d+-\d{14}/);
  });

  it('a non-approver is refused with an ephemeral only they see; nothing is enqueued', async () => {
    await click('U0VIEWER', 'medic_approve');
    expect(lastEphemeral('U0VIEWER')).toMatch(/Only approvers/);
    expect(h.commands.incidents.get(incident.id)!.state).toBe('awaiting_approval');
    expect([...h.commands.enqueued].some((j) => j.includes(incident.id))).toBe(false);
  });

  it('ignores identity smuggled into the button value: authority comes from body.user.id', async () => {
    await click('U0VIEWER', 'medic_approve', value({ userId: 'U0APPROVER', approver: true }));
    expect(h.commands.incidents.get(incident.id)!.state).toBe('awaiting_approval');
  });

  it('a double click approves once: one job, one thread reply', async () => {
    await Promise.all([click('U0APPROVER', 'medic_approve'), click('U0APPROVER', 'medic_approve')]);
    expect([...h.commands.enqueued].filter((j) => j.includes(`${incident.id}:`))).toHaveLength(1);
    expect(h.sandbox.state.messages.filter((m) => m.threadTs === cardTs)).toHaveLength(1);
  });

  it('a stale proposal hash is refused (the fix changed since the card was rendered)', async () => {
    await click('U0APPROVER', 'medic_approve', value({ proposalHash: 'sha256-of-an-older-fix' }));
    expect(lastEphemeral('U0APPROVER')).toMatch(/older proposal/);
  });

  it('a malformed button value is answered, never passed on', async () => {
    const calls = h.commands.calls.length;
    await click('U0APPROVER', 'medic_approve', '<script>not json');
    expect(h.commands.calls.length).toBe(calls);
    expect(lastEphemeral('U0APPROVER')).toMatch(/no longer valid/);
  });
});

describe('Reject', () => {
  it('opens a modal for an approver, and the submission rejects with the reason', async () => {
    await click('U0APPROVER', 'medic_reject', value(), false);
    while (h.sandbox.state.views.size === 0) await new Promise((r) => setImmediate(r));
    const [open] = [...h.sandbox.state.views.values()];
    // The title is escaped once for the modal's plain_text, never twice (`&amp;lt;`).
    expect(JSON.stringify(open!.view.blocks)).not.toContain('&amp;lt;');
    // It shows the title people read: the values, not the template's placeholders.
    expect(JSON.stringify(open!.view.blocks)).toContain('Checkout &lt;v2&gt; failed for order 991');
    h.sandbox.state.views.clear();
    expect(open!.userId).toBe('U0APPROVER');
    expect(open!.view.callback_id).toBe('medic_reject_reason');
    const submission = buildViewSubmission({ userId: 'U0APPROVER', reason: 'Hides the real timeout', privateMetadata: String(open!.view.private_metadata) });
    const result = await postSigned(h.eventsUrl, SIGNING_SECRET, formBody({ payload: JSON.stringify(submission) }));
    expect(result.status).toBe(200);
    while (!h.commands.calls.some((c) => c.method === 'reject' && (c.input as any).incidentId === incident.id)) await new Promise((r) => setImmediate(r));
    await untilReply(cardTs);
    await h.commands.settle();
    const reject = h.commands.calls.filter((c) => c.method === 'reject').at(-1)?.input as any;
    expect(reject).toMatchObject({ incidentId: incident.id, reason: 'Hides the real timeout', caller: { userId: 'U0APPROVER' } });
    expect(JSON.stringify(h.sandbox.state.find(cardTs)!.blocks)).toContain('Rejected* by');
  });

  it('keeps the modal open with an inline error when the reason is empty', async () => {
    const submission = buildViewSubmission({ userId: 'U0APPROVER', reason: '  ' });
    const result = await postSigned(h.eventsUrl, SIGNING_SECRET, formBody({ payload: JSON.stringify(submission) }));
    expect(result.status).toBe(200);
    expect(JSON.parse(result.body)).toMatchObject({ response_action: 'errors', errors: { reason: expect.any(String) } });
  });

  it('does not open the modal for a non-approver', async () => {
    await click('U0VIEWER', 'medic_reject');
    expect(lastEphemeral('U0VIEWER')).toMatch(/Only approvers can reject/);
    expect(h.sandbox.state.views.size).toBe(0);
  });
});

describe('Feedback', () => {
  it('records a vote on the root cause and thanks the voter privately', async () => {
    await click('U0VIEWER', 'medic_feedback_rca_down', JSON.stringify({ incidentId: incident.id, target: 'rca', vote: 'down' }));
    const feedback = h.commands.calls.filter((c) => c.method === 'feedback').at(-1)?.input as any;
    expect(feedback).toMatchObject({ incidentId: incident.id, target: 'rca', vote: 'down', caller: { userId: 'U0VIEWER' } });
    expect(lastEphemeral('U0VIEWER')).toMatch(/recorded your feedback/);
  });
});
