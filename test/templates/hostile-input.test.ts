import { describe, expect, it } from 'vitest';
import { defaultMinerOptions } from '../../src/domain/templates/miner-options.js';
import { createTemplateMiner } from '../../src/domain/templates/template-miner.js';

/** A distinct lowercase word for every n, so no digit masks it. */
function word(n: number): string {
  let out = '';
  let rest = n;
  do {
    out += String.fromCharCode(97 + (rest % 26));
    rest = Math.floor(rest / 26);
  } while (rest > 0);
  return out;
}

function largestTemplate(miner: ReturnType<typeof createTemplateMiner>): { tokens: number; tokenLength: number } {
  let tokens = 0;
  let tokenLength = 0;
  for (const group of miner.snapshot().groups) {
    tokens = Math.max(tokens, group.template.length);
    for (const token of group.template) tokenLength = Math.max(tokenLength, token.length);
  }
  return { tokens, tokenLength };
}

describe('template miner on hostile input', () => {
  it('caps what it keeps of a 1 MB line', () => {
    const miner = createTemplateMiner();
    const result = miner.add(`${'x'.repeat(1 << 20)} ${'y '.repeat(1 << 19)}`);
    expect(result.template.length).toBeLessThanOrEqual(defaultMinerOptions.maxMessageLength);
    const largest = largestTemplate(miner);
    expect(largest.tokens).toBeLessThanOrEqual(defaultMinerOptions.maxTokens);
    expect(largest.tokenLength).toBeLessThanOrEqual(defaultMinerOptions.maxTokenLength);
  });

  it('accepts binary bytes and yields serializable templates', () => {
    const miner = createTemplateMiner();
    const bytes = Buffer.from(Array.from({ length: 1 << 16 }, (_, i) => (i * 7919) % 256));
    const first = miner.add(bytes.toString('latin1'));
    miner.add(bytes.toString('utf8'));
    // eslint-disable-next-line no-control-regex -- checks that control bytes were dropped
    expect(first.template).not.toMatch(/[\u0000-\u0008\u000e-\u001f]/);
    expect(() => JSON.parse(JSON.stringify(miner.snapshot()))).not.toThrow();
    expect(largestTemplate(miner).tokens).toBeLessThanOrEqual(defaultMinerOptions.maxTokens);
  });

  it('keeps a line of 100k distinct tokens to the token cap', () => {
    const miner = createTemplateMiner();
    const line = Array.from({ length: 100_000 }, (_, i) => word(i)).join(' ');
    expect(miner.add(line).template.split(' ').length).toBeLessThanOrEqual(defaultMinerOptions.maxTokens);
  });

  it('bounds the number of groups under 100k distinct messages', () => {
    const miner = createTemplateMiner({ maxGroups: 500 });
    for (let i = 0; i < 100_000; i += 1) miner.add(`${word(i)} happened`);
    expect(miner.groupCount()).toBe(500);
    expect(miner.snapshot().groups).toHaveLength(500);
  });

  it('bounds groups that share a length and first token, so each message costs bounded work', () => {
    const miner = createTemplateMiner({ maxGroupsPerBucket: 50 });
    // Two plain words differ each time: never folded, each message is a new group.
    for (let i = 0; i < 20_000; i += 1) miner.add(`login failed for ${word(i)} ${word(i * 7 + 3)} at gateway`);
    expect(miner.groupCount()).toBe(50);
  });

  it('folds a flood of distinct values at one position into one group', () => {
    const miner = createTemplateMiner();
    const ids = new Set<string>();
    for (let i = 0; i < 10_000; i += 1) ids.add(miner.add(`login failed for ${word(i)} at gateway`).groupId);
    expect(miner.groupCount()).toBe(1);
    expect(ids.size).toBeLessThanOrEqual(3);
    expect(miner.snapshot().aliases.length).toBeLessThanOrEqual(defaultMinerOptions.maxAliases);
  });
});
