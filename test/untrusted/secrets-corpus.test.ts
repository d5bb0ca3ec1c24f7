import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiLlm } from '../../src/adapters/openai/openai-llm.js';
import { createLlmAnalyst } from '../../src/analysts/llm-analyst.js';
import { createOfflineAnalyst } from '../../src/analysts/offline-analyst.js';
import { loadPrompts } from '../../src/analysts/prompts.js';
import { redactSecrets } from '../../src/domain/untrusted/redact.js';
import { escapeMrkdwn } from '../../src/presenters/incident-card.js';
import { buildRcaAnswer, buildRcaInput, buildRecommendation } from '../analysts/builders.js';
import { startLoopbackOpenAI, type LoopbackOpenAI } from '../loopback/openai-server.js';

interface SecretShape {
  id: string;
  text: string;
  secret: string;
}
const corpus = JSON.parse(readFileSync(new URL('../fixtures/secrets-corpus.json', import.meta.url), 'utf8')) as SecretShape[];

function incidentWithSecrets() {
  const input = buildRcaInput();
  input.logs.entries = corpus.map((s, i) => ({ id: `log-${i}`, time: '2026-03-02T10:15:00Z', level: 'error', service: 'checkout', message: s.text }));
  input.event.raw = corpus.map((s) => s.text).join('\n');
  input.event.message = corpus[0]!.text;
  input.similarDocs[0]!.excerpt = corpus.slice(0, 5).map((s) => s.text).join(' ');
  input.recentChanges[0]!.subject = corpus[5]!.text;
  return input;
}

describe('no secret shape survives redaction', () => {
  it('holds at least 20 shapes', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(20);
  });

  it.each(corpus.map((s) => [s.id, s] as const))('%s is redacted and labelled', (_id, shape) => {
    const out = redactSecrets(shape.text);
    expect(out).not.toContain(shape.secret);
    expect(out).toMatch(/\[REDACTED:[a-z-]+\]/);
  });

  it.each(corpus.map((s) => [s.id, s] as const))('%s never reaches Slack text or a commit message', (_id, shape) => {
    expect(escapeMrkdwn(redactSecrets(shape.text))).not.toContain(escapeMrkdwn(shape.secret));
    const commit = redactSecrets(`fix(checkout): guard missing product\n\nRoot cause: ${shape.text}`);
    expect(commit).not.toContain(shape.secret);
  });

  it('offline analysis quoting the event carries no secret (it feeds cards and commit messages)', async () => {
    const input = incidentWithSecrets();
    input.similarDocs = [];
    input.event.message = corpus.map((s) => s.text).join(' ; ').slice(0, 16_000);
    const { rca } = await createOfflineAnalyst().rca(input);
    const text = JSON.stringify(rca);
    for (const shape of corpus) expect(text).not.toContain(shape.secret);
  });
});

describe('no secret reaches the model', () => {
  let server: LoopbackOpenAI;
  beforeAll(async () => {
    server = await startLoopbackOpenAI();
  });
  afterAll(() => server.close());

  it('the recorded request bodies of rca and recommend hold none of the corpus', async () => {
    server.script({ json: buildRcaAnswer({ rootCause: corpus.map((s) => s.text).join(' ') }) }, { json: buildRecommendation() });
    const llm = createOpenAiLlm({ apiKey: 'loopback-key', baseURL: server.url, models: { default: 'm' }, timeoutMs: 2_000, maxRetries: 0, responseFormat: 'json_schema' });
    const analyst = createLlmAnalyst({ llm, prompts: loadPrompts() });
    const { rca } = await analyst.rca(incidentWithSecrets());
    // The model's own answer echoing secrets is fenced and redacted again before recommend sees it.
    await analyst.recommend(rca);
    const bodies = server.chatRequests().map((r) => r.raw);
    expect(bodies).toHaveLength(2);
    for (const body of bodies) for (const shape of corpus) expect(body, shape.id).not.toContain(JSON.stringify(shape.secret).slice(1, -1));
    expect(bodies[0]).toContain('[REDACTED:');
  });
});
