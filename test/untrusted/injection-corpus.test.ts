import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createScriptedLlm } from '../../src/adapters/scripted-llm/scripted-llm.js';
import { createLlmAnalyst } from '../../src/analysts/llm-analyst.js';
import { loadPrompts } from '../../src/analysts/prompts.js';
import { fenceUntrusted, readFenced } from '../../src/domain/untrusted/fence.js';
import { sanitizeUntrusted } from '../../src/domain/untrusted/prepare.js';
import { escapeMrkdwn } from '../../src/presenters/incident-card.js';
import { buildRcaAnswer, buildRcaInput } from '../analysts/builders.js';

interface Hostile {
  id: string;
  note: string;
  text: string;
}
const corpus = JSON.parse(readFileSync(new URL('../fixtures/injection-corpus.json', import.meta.url), 'utf8')) as Hostile[];
const DELIMITER_OPEN = /<<\s*\/?\s*untrusted/gi;
const DELIMITER_CLOSE = /untrusted[^\n<>]{0,80}>>/gi;
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]|\udb40[\udc00-\udfff]/;
const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;

describe('the injection corpus never leaves its fence', () => {
  it('holds at least 30 hostile inputs', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(30);
  });

  it.each(corpus.map((c) => [c.id, c] as const))('%s stays inside a single fence', (_id, hostile) => {
    const nonce = randomBytes(8).toString('hex');
    const text = hostile.text.replaceAll('${NONCE}', nonce);
    const fenced = fenceUntrusted('logs', text, nonce);
    // Exactly one opening and one closing delimiter: the real ones.
    expect(count(fenced, DELIMITER_OPEN)).toBe(2);
    expect(count(fenced, DELIMITER_CLOSE)).toBe(2);
    expect(fenced.split(nonce)).toHaveLength(3);
    const inside = readFenced(fenced, 'logs', nonce);
    expect(inside).toBeDefined();
    expect(fenced.endsWith(`<</untrusted-logs nonce=${nonce}>>`)).toBe(true);
    expect(inside).not.toMatch(INVISIBLE);
  });

  it('every section of a real RCA prompt built from the whole corpus keeps its fences', async () => {
    const nonce = 'f00dfacecafe1234';
    const input = buildRcaInput();
    input.logs.entries = corpus.map((c, i) => ({ id: `log-${i}`, time: `2026-03-02T10:${String(i % 60).padStart(2, '0')}:00Z`, level: 'error', service: 'checkout', message: c.text.replaceAll('${NONCE}', nonce) }));
    input.event.message = corpus.map((c) => c.text).join(' | ').slice(0, 16_000);
    input.similarDocs[0]!.excerpt = corpus[0]!.text;
    input.recentChanges[0]!.subject = corpus[1]!.text;
    const llm = createScriptedLlm({ rca: [buildRcaAnswer()] });
    const { context } = await createLlmAnalyst({ llm, prompts: loadPrompts(), nonce: () => nonce }).rca(input);
    for (const label of ['event', 'logs', 'docs', 'changes']) {
      expect(count(context ?? '', new RegExp(`<<untrusted-${label} nonce=${nonce}>>`, 'g'))).toBe(1);
      expect(count(context ?? '', new RegExp(`<</untrusted-${label} nonce=${nonce}>>`, 'g'))).toBe(1);
    }
    expect(count(context ?? '', DELIMITER_OPEN)).toBe(8);
    expect(context).not.toMatch(INVISIBLE);
  });
});

describe('the injection corpus never reaches Slack unescaped', () => {
  it.each(corpus.map((c) => [c.id, c] as const))('%s cannot ping, link or hide text', (_id, hostile) => {
    const slack = escapeMrkdwn(sanitizeUntrusted(hostile.text));
    expect(slack).not.toMatch(/[<>]/);
    expect(slack).not.toMatch(/<!(channel|here|everyone|subteam)/);
    expect(slack).not.toMatch(INVISIBLE);
  });
});
