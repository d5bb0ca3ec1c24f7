/**
 * /slack/events holds no more than its bound of an unsigned body: a declared or streamed body
 * past it is answered 413 and the rest is never read; a signed request under it still works.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EVENT_BODY_BYTES } from '../../src/adapters/slack/bounded-event-body.js';
import { formBody, postSigned } from '../../src/sandbox/sign-request.js';
import { buildAnalysedIncident } from '../fixtures/slack/build-incident.js';
import { buildBlockActions } from '../fixtures/slack/build-payloads.js';
import { SIGNING_SECRET, startSlackHarness, type SlackHarness } from './support/slack-harness.js';

let h: SlackHarness;
const incident = buildAnalysedIncident();

beforeAll(async () => {
  h = await startSlackHarness();
  h.commands.add(incident);
});
afterAll(async () => h.close());

/** Streams `total` bytes without a content-length (chunked), counting what the server let through. */
function streamUnsigned(total: number, contentType: string): Promise<{ status: number; sent: number }> {
  return new Promise((resolve, reject) => {
    const url = new URL(h.eventsUrl);
    let sent = 0;
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': contentType } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, sent }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error)));
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const pump = () => {
      while (sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

describe('the body bound of /slack/events', () => {
  it('answers 413 to a declared content-length over the bound, before the body is sent', async () => {
    const url = new URL(h.eventsUrl);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(MAX_EVENT_BODY_BYTES + 1) } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error)));
      // Only the first bytes go out: the answer must come without the rest.
      req.write('{"type":"event_callback"');
    });
    expect(status).toBe(413);
  });

  it('stops reading a chunked body past the bound and answers 413, for forms and JSON alike', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'application/json']) {
      const result = await streamUnsigned(64 * 1024 * 1024, type);
      expect(result.status).toBe(413);
    }
  });

  it('still takes a signed click under the bound', async () => {
    const value = JSON.stringify({ incidentId: incident.id, proposalHash: incident.proposal!.contentHash });
    const result = await postSigned(h.eventsUrl, SIGNING_SECRET, formBody({ payload: JSON.stringify(buildBlockActions({ userId: 'U0VIEWER', value, channel: h.sandbox.channelId })) }));
    expect(result.status).toBe(200);
  });
});
