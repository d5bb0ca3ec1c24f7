/** Slack user groups behind the gateway's authority, over the real Web API client: listed ids, the group, its brief cache. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSlackUserGroups } from '../../src/adapters/slack/slack-user-groups.js';
import { createConfiguredAuthority } from '../../src/gateway/authority/authority.js';
import { createSlackWebClient } from '../../src/adapters/slack/web-client.js';
import { DeliveryLedger, deliveryKey } from '../../src/adapters/slack/delivery-ledger.js';
import { ErrorCode } from '../../src/domain/errors.js';
import { createSlackSandbox, type SlackSandbox } from '../../src/sandbox/create-slack-sandbox.js';
import { SANDBOX_APPROVER_GROUP } from '../../src/sandbox/sandbox-users.js';
import { buildBlockActions, buildSlashCommand, buildViewSubmission } from '../fixtures/slack/build-payloads.js';

const TOKEN = 'xoxb-authority-test';
let sandbox: SlackSandbox;
beforeAll(async () => {
  sandbox = await createSlackSandbox({ port: 0, signingSecret: 's', botToken: TOKEN, medicEventsUrl: 'http://127.0.0.1:9/' });
});
afterAll(async () => sandbox.close());

const groupCalls = () => sandbox.state.calls.filter((c) => c.method === 'usergroups.users.list').length;
const build = (over: { approvers?: string[]; group?: string; now?: () => number } = {}) =>
  createConfiguredAuthority({
    approvers: [...(over.approvers ?? []), ...(over.group ? [`group:${over.group}`] : [])],
    elevatedApprovers: [],
    userGroups: createSlackUserGroups(createSlackWebClient({ token: TOKEN, apiUrl: sandbox.apiUrl, retries: 0 })),
    groupCacheMs: 1_000,
    ...(over.now ? { now: over.now } : {}),
  });

describe('authority over Slack user groups', () => {
  it('approves configured ids without asking Slack', async () => {
    const before = groupCalls();
    expect(await build({ approvers: ['U1'] }).resolve('U1')).toEqual({ approver: true, elevated: false, reader: true });
    expect(await build({ approvers: ['U1'] }).resolve('U2')).toEqual({ approver: false, elevated: false, reader: false });
    expect(groupCalls()).toBe(before);
  });

  it('approves members of the approver group, caching the list for cacheMs', async () => {
    let now = 0;
    const authority = build({ group: SANDBOX_APPROVER_GROUP, now: () => now });
    const before = groupCalls();
    expect((await authority.resolve('U0APPROVER')).approver).toBe(true);
    expect((await authority.resolve('U0VIEWER')).approver).toBe(false);
    expect(groupCalls()).toBe(before + 1);
    now = 1_500;
    await authority.resolve('U0VIEWER');
    expect(groupCalls()).toBe(before + 2);
  });

  it('fails closed when the group cannot be read (never a silent yes), and the resolver says why', async () => {
    expect(await build({ group: 'S0MISSING' }).resolve('U0APPROVER')).toEqual({ approver: false, elevated: false, reader: false });
    const client = createSlackWebClient({ token: TOKEN, apiUrl: sandbox.apiUrl, retries: 0 });
    await expect(createSlackUserGroups(client).resolveMembers('S0MISSING')).rejects.toMatchObject({ code: ErrorCode.UpstreamRejected });
  });
});

describe('DeliveryLedger', () => {
  it('claims a delivery once within the TTL, and again after it', () => {
    let now = 0;
    const ledger = new DeliveryLedger(1_000, 10, () => now);
    expect(ledger.claim('a')).toBe(true);
    expect(ledger.claim('a')).toBe(false);
    now = 1_001;
    expect(ledger.claim('a')).toBe(true);
  });

  it('keys each kind of delivery by what Slack keeps stable across retries', () => {
    const click = buildBlockActions();
    expect(deliveryKey(click)).toBe(deliveryKey(structuredClone(click)));
    expect(deliveryKey(click)).not.toBe(deliveryKey(buildBlockActions()));
    const view = buildViewSubmission({ reason: 'one' });
    const changed = structuredClone(view);
    changed.view.state.values.reason.reason_input.value = 'two';
    expect(deliveryKey(view)).not.toBe(deliveryKey(changed));
    expect(deliveryKey(buildSlashCommand())).toMatch(/^command:/);
    expect(deliveryKey({ type: 'event_callback', event_id: 'Ev1' })).toBe('event:Ev1');
    expect(deliveryKey({ type: 'url_verification' })).toBeUndefined();
  });
});
