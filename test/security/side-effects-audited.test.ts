/**
 * Side effects that do not pass the tool gateway — replies to the requester in Slack and the HEC
 * forwarder — each leave an audit record with their outcome (README: side effects outside the gateway).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FORWARD_ACTION, forwardAudit } from '../../jobs/forward-audit.js';
import { createAuditLog } from '../../src/adapters/redis/audit-log.js';
import { createHecClient } from '../../src/adapters/splunk/hec-client.js';
import { PIPELINE_ACTOR, type AuditEvent } from '../../src/domain/audit.js';
import type { AuditLog } from '../../src/ports/audit.js';
import { formBody, postSigned } from '../../src/sandbox/sign-request.js';
import { buildAnalysedIncident } from '../fixtures/slack/build-incident.js';
import { buildBlockActions, buildSlashCommand } from '../fixtures/slack/build-payloads.js';
import { startHecServer, type LoopbackHec } from '../loopback/hec-server.js';
import { createTestRedis } from '../support/redis.js';
import { SIGNING_SECRET, startSlackHarness, type SlackHarness } from '../slack/support/slack-harness.js';

let ctx: Awaited<ReturnType<typeof createTestRedis>>;
let audit: AuditLog;
beforeEach(async () => {
  ctx = await createTestRedis();
  audit = createAuditLog(ctx.redis, ctx.prefix);
});
afterEach(async () => ctx.cleanup());

async function eventually(probe: () => Promise<AuditEvent | undefined>, what: string): Promise<AuditEvent> {
  for (let i = 0; i < 200; i += 1) {
    const found = await probe();
    if (found) return found;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no audit record for ${what}`);
}
const find = (action: string, userId: string) => async () => (await audit.list({ count: 500 })).find((a) => a.action === action && a.actor.id === userId);

describe('replies to the requester in Slack', () => {
  let h: SlackHarness;
  const incident = buildAnalysedIncident();
  beforeEach(async () => {
    h = await startSlackHarness({ audit });
    h.commands.add({ ...incident, card: { channel: h.sandbox.channelId, ts: '1.1' } });
  });
  afterEach(async () => h.close());

  it('audits the ephemeral answer to a click, the modal it opens and the slash command reply', async () => {
    const value = JSON.stringify({ incidentId: incident.id, proposalHash: incident.proposal!.contentHash });
    await postSigned(h.eventsUrl, SIGNING_SECRET, formBody({ payload: JSON.stringify(buildBlockActions({ userId: 'U0VIEWER', value, channel: h.sandbox.channelId })) }));
    expect(await eventually(find('slack.ephemeral', 'U0VIEWER'), 'the ephemeral')).toMatchObject({ outcome: 'done', details: { channel: h.sandbox.channelId } });

    await postSigned(h.eventsUrl, SIGNING_SECRET, formBody({ payload: JSON.stringify(buildBlockActions({ userId: 'U0APPROVER', actionId: 'medic_reject', value, channel: h.sandbox.channelId, triggerId: h.sandbox.state.newTrigger('U0APPROVER') })) }));
    expect(await eventually(find('slack.views-open', 'U0APPROVER'), 'the reject modal')).toMatchObject({ outcome: 'done' });

    const responseUrl = `${h.sandbox.url}respond/cmd-audited`;
    h.sandbox.state.responseUrls.set('cmd-audited', { userId: 'U0OTHER', channel: h.sandbox.channelId });
    await postSigned(h.eventsUrl, SIGNING_SECRET, formBody(buildSlashCommand({ userId: 'U0OTHER', text: 'help', responseUrl, channel: h.sandbox.channelId })));
    expect(await eventually(find('slack.respond', 'U0OTHER'), 'the /medic answer')).toMatchObject({ outcome: 'done', details: { command: 'help' } });
    await h.commands.settle();
  });
});

describe('the HEC forwarder', () => {
  const TOKEN = '0f6a5e5e-2b7b-4c1e-9a55-5c1b7f2f0002';
  let hec: LoopbackHec;
  beforeEach(async () => {
    hec = await startHecServer(TOKEN);
  });
  afterEach(async () => hec.close());

  it('audits each run that forwarded something, never its own record alone, and an outage once', async () => {
    const deps = { redis: ctx.redis, prefix: ctx.prefix, hec: createHecClient({ url: hec.url, token: TOKEN, sourcetype: 'medic:audit' }), batch: 10, audit };
    await audit.append([{ at: new Date().toISOString(), action: 'step.rca', outcome: 'done', actor: PIPELINE_ACTOR, incidentId: 'inc-1' }]);
    expect(await forwardAudit(deps)).toBe(1);
    const forwards = async () => (await audit.list({ count: 100 })).filter((a) => a.action === FORWARD_ACTION);
    expect((await forwards()).map((a) => [a.outcome, a.details?.sent])).toEqual([['done', 1]]);
    // The next run sends only that record: nothing new is audited, so the trail does not feed itself.
    expect(await forwardAudit(deps)).toBe(1);
    expect(await forwardAudit(deps)).toBe(0);
    expect(await forwards()).toHaveLength(1);

    await audit.append([{ at: new Date().toISOString(), action: 'step.card', outcome: 'done', actor: PIPELINE_ACTOR, incidentId: 'inc-1' }]);
    hec.fail(503, { text: 'Server is busy', code: 9 }, 2);
    await expect(forwardAudit(deps)).rejects.toBeTruthy();
    await expect(forwardAudit(deps)).rejects.toBeTruthy();
    expect((await forwards()).filter((a) => a.outcome === 'failed')).toHaveLength(1);
    expect(await forwardAudit(deps)).toBeGreaterThanOrEqual(2);
  });
});
