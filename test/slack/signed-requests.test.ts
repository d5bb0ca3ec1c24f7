/**
 * Bolt's HTTP receiver as Medic configures it, driven with signed requests the way Slack sends
 * them (REFERENCE §2.1–2.2): a bad signature, a stale timestamp or a wrong content type never
 * reaches a listener; a replayed request passes the signature check but changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_CONTENT_TYPE, formBody, postSigned, signSlackRequest } from '../../src/sandbox/sign-request.js';
import { buildAnalysedIncident } from '../fixtures/slack/build-incident.js';
import { buildBlockActions } from '../fixtures/slack/build-payloads.js';
import { SIGNING_SECRET, startSlackHarness, type SlackHarness } from './support/slack-harness.js';

let h: SlackHarness;
const incident = buildAnalysedIncident();
const approveValue = JSON.stringify({ incidentId: incident.id, proposalHash: incident.proposal!.contentHash });

beforeAll(async () => {
  h = await startSlackHarness();
  h.commands.add(incident);
});
afterAll(async () => h.close());

const approveBody = () => formBody({ payload: JSON.stringify(buildBlockActions({ userId: 'U0VIEWER', value: approveValue, channel: h.sandbox.channelId })) });
const approveCalls = () => h.commands.calls.filter((c) => c.method === 'approve').length;

async function post(rawBody: string, headers: Record<string, string>, contentType = FORM_CONTENT_TYPE) {
  const response = await fetch(h.eventsUrl, { method: 'POST', headers: { 'content-type': contentType, ...headers }, body: rawBody });
  return { status: response.status, body: await response.text() };
}

describe('signed requests to /slack/events', () => {
  it('accepts a valid signature and acks with 200', async () => {
    const before = approveCalls();
    const result = await postSigned(h.eventsUrl, SIGNING_SECRET, approveBody());
    expect(result.status).toBe(200);
    await h.commands.settle();
    expect(approveCalls()).toBe(before + 1);
  });

  it('rejects a wrong signature with 401 and an empty body, before any listener runs', async () => {
    const before = approveCalls();
    const body = approveBody();
    const headers = signSlackRequest('not-the-secret', body, Date.now() / 1000);
    const result = await post(body, headers);
    expect(result).toEqual({ status: 401, body: '' });
    expect(approveCalls()).toBe(before);
  });

  it('rejects a body changed after signing (the signature covers the raw bytes)', async () => {
    const body = approveBody();
    const headers = signSlackRequest(SIGNING_SECRET, body, Date.now() / 1000);
    const result = await post(body.replace('U0VIEWER', 'U0APPROVER'), headers);
    expect(result.status).toBe(401);
  });

  it('rejects a timestamp older than 5 minutes even when correctly signed', async () => {
    const before = approveCalls();
    const body = approveBody();
    const sixMinutesAgo = Date.now() / 1000 - 6 * 60;
    const result = await post(body, signSlackRequest(SIGNING_SECRET, body, sixMinutesAgo));
    expect(result).toEqual({ status: 401, body: '' });
    expect(approveCalls()).toBe(before);
  });

  it('rejects a request without the signature headers', async () => {
    const result = await post(approveBody(), {});
    expect(result.status).toBe(401);
  });

  it('accepts a replay within the window by signature, but the second delivery has no effect', async () => {
    const before = approveCalls();
    const body = approveBody();
    const headers = signSlackRequest(SIGNING_SECRET, body, Date.now() / 1000);
    const first = await post(body, headers);
    const replay = await post(body, headers);
    await h.commands.settle();
    expect([first.status, replay.status]).toEqual([200, 200]);
    expect(approveCalls()).toBe(before + 1);
  });

  it('acks and drops a Slack retry (X-Slack-Retry-Num) of a delivery already handled', async () => {
    const before = approveCalls();
    const body = approveBody();
    expect((await postSigned(h.eventsUrl, SIGNING_SECRET, body)).status).toBe(200);
    const retry = await postSigned(h.eventsUrl, SIGNING_SECRET, body, { headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' } });
    await h.commands.settle();
    expect(retry.status).toBe(200);
    expect(approveCalls()).toBe(before + 1);
  });

  it('answers 400 to a form body sent with a content type that is not exactly form-urlencoded', async () => {
    const before = approveCalls();
    const body = approveBody();
    const headers = signSlackRequest(SIGNING_SECRET, body, Date.now() / 1000);
    // Bolt compares the content type by string equality; with a charset it JSON-parses and fails.
    const result = await post(body, headers, 'application/x-www-form-urlencoded; charset=utf-8');
    expect(result.status).toBe(400);
    expect(approveCalls()).toBe(before);
  });

  it('answers the url_verification challenge (Events API setup)', async () => {
    const body = JSON.stringify({ type: 'url_verification', token: 'unused', challenge: 'c-123' });
    const result = await postSigned(h.eventsUrl, SIGNING_SECRET, body, { contentType: 'application/json' });
    expect(result.status).toBe(200);
    expect(JSON.parse(result.body)).toEqual({ challenge: 'c-123' });
  });
});
