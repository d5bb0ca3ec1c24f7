import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAIEmbedder } from '../../src/adapters/embedding/openai-embedder.js';
import { createSlackChat } from '../../src/adapters/slack/slack-chat.js';
import { createHecClient } from '../../src/adapters/splunk/hec-client.js';
import { createSlackSandbox } from '../../src/sandbox/create-slack-sandbox.js';
import { loadConfig } from '../../src/config/load-config.js';
import { clearKnownSecrets } from '../../src/domain/untrusted/known-secrets.js';
import { redactSecrets } from '../../src/domain/untrusted/redact.js';
import { createLogger } from '../../src/observability/logger.js';
import { untrusted } from '../../src/presenters/mrkdwn.js';
import { presentPullRequestBody, presentPullRequestTitle } from '../../src/presenters/pull-request-body.js';
import { similarDocsQuery } from '../../src/retrieval/find-similar-docs.js';
import { buildEvent } from '../analysts/builders.js';
import { startHecServer } from '../loopback/hec-server.js';
import { startLoopbackOpenAI, type LoopbackOpenAI } from '../loopback/openai-server.js';

// Values with no recognisable shape: only knowing them can catch them.
const HEC = 'hec-plain-value-0001';
const SPLUNK_PASSWORD = 'autumn leaves fall';
const REDIS_PASSWORD = 'r3disInUrl';

describe("Medic's configured secrets are redacted by value", () => {
  afterEach(() => clearKnownSecrets());

  it('wherever they appear, in plain, URL-encoded and base64 forms', () => {
    loadConfig({ SPLUNK_HEC_URL: 'https://hec.example:8088', SPLUNK_HEC_TOKEN: HEC, SPLUNK_PASSWORD, REDIS_URL: `redis://:${REDIS_PASSWORD}@cache:6379` });
    const text = [
      `forwarder started with ${HEC}`,
      `login "${SPLUNK_PASSWORD}" refused`,
      `GET /x?v=${encodeURIComponent(SPLUNK_PASSWORD)}`,
      `header ${Buffer.from(HEC).toString('base64')}`,
      `redis said ${REDIS_PASSWORD} is wrong`,
    ].join('\n');
    const out = redactSecrets(text);
    for (const value of [HEC, SPLUNK_PASSWORD, encodeURIComponent(SPLUNK_PASSWORD), Buffer.from(HEC).toString('base64').replace(/=+$/, ''), REDIS_PASSWORD]) {
      expect(out).not.toContain(value);
    }
    expect(out).toContain('[REDACTED:configured-secret]');
  });

  it('in every card and thread message bound for Slack, whatever built it', async () => {
    loadConfig({ SPLUNK_HEC_URL: 'https://hec.example:8088', SPLUNK_HEC_TOKEN: HEC });
    const sandbox = await createSlackSandbox({ port: 0, signingSecret: 's', botToken: 'xoxb-outbound-test', medicEventsUrl: 'http://127.0.0.1:9/' });
    try {
      const chat = createSlackChat({ channel: 'incidents', token: 'xoxb-outbound-test', apiUrl: sandbox.apiUrl, retries: 0 });
      const card = await chat.postCard('k1', { text: `forwarder uses ${HEC}`, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: `token ${HEC}` } }] });
      await chat.updateCard(card, { text: `still ${HEC}`, blocks: [] });
      const stored = JSON.stringify(sandbox.state.messages);
      expect(stored).toContain('[REDACTED:configured-secret]');
      expect(stored).not.toContain(HEC);
    } finally {
      await sandbox.close();
    }
  });

  it('leaves ordinary settings alone', () => {
    loadConfig({ MEDIC_SLACK_CHANNEL: 'incidents', MEDIC_REPO_BRANCH: 'main' });
    expect(redactSecrets('posting to incidents on main')).toBe('posting to incidents on main');
  });
});

describe('every text leaving the process is redacted', () => {
  let server: LoopbackOpenAI;
  beforeAll(async () => {
    server = await startLoopbackOpenAI({ dimension: 16 });
  });
  afterAll(() => server.close());

  it('the similar-docs query sent to the embeddings endpoint', async () => {
    const event = buildEvent({ message: 'login failed token=tk9f8e7d6c5b4a password=hunter2x', raw: 'login failed token=tk9f8e7d6c5b4a password=hunter2x\n    at login (src/auth.ts:10:5)' });
    const query = similarDocsQuery(event, 'login failed token=<*> password=<*>');
    expect(query).not.toContain('tk9f8e7d6c5b4a');
    expect(query).not.toContain('hunter2x');
    const embedder = await createOpenAIEmbedder({ apiKey: 'sk-loopback', baseURL: server.url, model: 'text-embedding-3-small', dimensions: 16, maxRetries: 0 });
    await embedder.embed([event.raw, 'Cookie: sid=s%3Aabc123xyz']);
    const bodies = server.requests.filter((r) => r.path === '/v1/embeddings').map((r) => JSON.stringify(r.body));
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) for (const secret of ['tk9f8e7d6c5b4a', 'hunter2x', 's%3Aabc123xyz']) expect(body).not.toContain(secret);
  });

  it('Slack text and the pull request read a secret name in its compatibility form (fullwidth ｐａｓｓｗｏｒｄ＝)', () => {
    const shapes = ['login ｐａｓｓｗｏｒｄ=hunter2x refused', 'login ｐａｓｓｗｏｒｄ＝hunter2x refused', 'ＤＢ＿ＰＡＳＳ＝hunter2x', 'ｔｏｋｅｎ： hunter2x'];
    for (const text of shapes) {
      expect(untrusted(text, 500), text).not.toContain('hunter2x');
      const body = presentPullRequestBody({ incidentId: 'inc-1', incidentTitle: text, rootCause: text, confidence: 0.5, evidence: [text], approver: 'U1', file: 'src/a.ts', explanation: text });
      expect(body, text).not.toContain('hunter2x');
      expect(presentPullRequestTitle({ incidentId: 'inc-1', incidentTitle: text }), text).not.toContain('hunter2x');
    }
    // Folding happens only where it reveals a secret: other fullwidth text keeps its characters.
    expect(untrusted('ｴﾗｰ (ＡＰＩ)', 100)).toBe('ｴﾗｰ (ＡＰＩ)');
  });

  it('structured log fields, not only messages', async () => {
    const destination = new PassThrough();
    const chunks: string[] = [];
    destination.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
    const logger = createLogger({ level: 'info', destination });
    logger.info({ event: { raw: 'retry with DB_PASS=s3cr3tValue' }, stderr: ['remote: ghp_R4nd0mT0k3nV4lu3Abcdefghij0123456789'] }, 'git failed');
    await new Promise((resolve) => setImmediate(resolve));
    const line = chunks.join('');
    expect(line).toContain('git failed');
    expect(line).not.toContain('s3cr3tValue');
    expect(line).not.toContain('ghp_R4nd0m');
  });

  it('audit events forwarded to Splunk HEC', async () => {
    const token = '0f6a5e5e-2b7b-4c1e-9a55-5c1b7f2f0002';
    const hec = await startHecServer(token);
    try {
      await createHecClient({ url: hec.url, token, sourcetype: 'medic:audit' }).send([{ time: 1, event: { action: 'fix.rejected', reason: 'reverted: it logged password=Hunter2Hunter2' } }]);
      expect(JSON.stringify(hec.received)).toContain('fix.rejected');
      expect(JSON.stringify(hec.received)).not.toContain('Hunter2Hunter2');
    } finally {
      await hec.close();
    }
  });
});
