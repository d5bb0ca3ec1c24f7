import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAiLlm } from '../../src/adapters/openai/openai-llm.js';
import { createFallbackAnalyst } from '../../src/analysts/fallback-analyst.js';
import { createLlmAnalyst } from '../../src/analysts/llm-analyst.js';
import { createOfflineAnalyst, OFFLINE_MAX_CONFIDENCE } from '../../src/analysts/offline-analyst.js';
import { loadPrompts } from '../../src/analysts/prompts.js';
import { startLoopbackOpenAI, type ChatReply, type LoopbackOpenAI } from '../loopback/openai-server.js';
import { buildFixInput, buildRcaAnswer, buildRcaInput, FIXED_TOTAL_TS } from './builders.js';

const prompts = loadPrompts();

/** Every fault the endpoint can throw at a step, each scripted for every attempt the adapter makes. */
const FAULTS: [string, ChatReply[]][] = [
  ['persistent 429 with retry-after-ms', Array(2).fill({ fault: 'rate-limit', retryAfterMs: 0 })],
  ['persistent 429 with retry-after', Array(2).fill({ fault: 'rate-limit', retryAfterSeconds: 0.01 })],
  ['persistent 500', Array(2).fill({ fault: 'server-error' })],
  ['timeout', Array(2).fill({ fault: 'hang' })],
  ['malformed HTTP body', Array(2).fill({ fault: 'malformed-body' })],
  ['schema-invalid JSON twice', Array(2).fill({ json: { file: 42, rootCause: 7 } })],
  ['refusal', [{ fault: 'refusal' }]],
  ['truncation', [{ fault: 'length' }]],
  ['content filter', [{ fault: 'content-filter' }]],
];

describe('every endpoint fault ends in a degraded result, never a crash and never a fix', () => {
  let server: LoopbackOpenAI;
  beforeEach(async () => {
    server = await startLoopbackOpenAI();
  });
  afterEach(() => server.close());

  const analyst = () => {
    const llm = createOpenAiLlm({ apiKey: 'sk-loopback-key-0000000000', baseURL: server.url, models: { default: 'm' }, timeoutMs: 250, maxRetries: 1, responseFormat: 'json_schema' });
    return createFallbackAnalyst(createLlmAnalyst({ llm, prompts }), createOfflineAnalyst());
  };

  it.each(FAULTS)('rca degrades to offline on %s', async (_name, replies) => {
    server.script(...replies);
    const result = await analyst().rca(buildRcaInput());
    expect(result.provenance.analyst).toBe('offline');
    expect(result.rca.confidence).toBeLessThanOrEqual(OFFLINE_MAX_CONFIDENCE);
    expect(result.rca.summary).toMatch(/^Degraded analysis \(LLM unavailable/);
  });

  it.each(FAULTS)('the fix step gives a note and no draft on %s', async (_name, replies) => {
    server.script(...replies);
    const result = await analyst().proposeFix(buildFixInput());
    expect(result.draft).toBeUndefined();
    expect(result.note).toMatch(/^No fix proposed/);
  });

  it('the same path gives a validated draft when the model answers well', async () => {
    server.script({ json: { file: 'src/cart/total.ts', newContent: FIXED_TOTAL_TS, explanation: 'Skip lines without a product.' } });
    const result = await analyst().proposeFix(buildFixInput());
    expect(result.draft).toEqual({ file: 'src/cart/total.ts', after: FIXED_TOTAL_TS, explanation: 'Skip lines without a product.' });
    expect(result.provenance).toMatchObject({ analyst: 'llm', promptVersion: prompts.fix.version });
  });

  it('a recommend fault degrades to an offline recommendation with the reason', async () => {
    server.script({ fault: 'refusal' });
    const result = await analyst().recommend(buildRcaAnswer());
    expect(result.provenance.analyst).toBe('offline');
    expect(result.recommendation.summary).toMatch(/^Degraded \(LLM unavailable/);
  });
});
