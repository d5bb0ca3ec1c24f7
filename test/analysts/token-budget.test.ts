import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { createTokenBudget } from '../../src/adapters/redis/token-budget.js';
import { createScriptedLlm } from '../../src/adapters/scripted-llm/scripted-llm.js';
import { createFallbackAnalyst } from '../../src/analysts/fallback-analyst.js';
import { createLlmAnalyst } from '../../src/analysts/llm-analyst.js';
import { createOfflineAnalyst } from '../../src/analysts/offline-analyst.js';
import { loadPrompts } from '../../src/analysts/prompts.js';
import { ErrorCode } from '../../src/domain/errors.js';
import { createTestRedis } from '../support/redis.js';
import { buildFixInput, buildRcaAnswer, buildRcaInput } from './builders.js';

describe('Redis token budget', () => {
  let redis: Redis;
  let prefix: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ redis, prefix, cleanup } = await createTestRedis());
  });
  afterEach(() => cleanup());

  it('counts per incident and per UTC day, and refuses a call that would cross either limit', async () => {
    let now = new Date('2026-03-02T23:00:00Z');
    const budget = createTokenBudget(redis, prefix, { perIncident: 1_000, perDay: 1_500 }, () => now);
    await budget.record('INC-1', 900);
    await expect(budget.reserve('INC-1', 200)).rejects.toMatchObject({ code: ErrorCode.BudgetExhausted, message: expect.stringMatching(/MEDIC_TOKEN_BUDGET_INCIDENT/) });
    await budget.reserve('INC-2', 500);
    await budget.record('INC-2', 500);
    await expect(budget.reserve('INC-3', 200)).rejects.toThrow(/MEDIC_TOKEN_BUDGET_DAY/);
    now = new Date('2026-03-03T00:00:01Z');
    await budget.reserve('INC-3', 200);
    expect(await budget.spent('INC-1')).toEqual({ incident: 900, day: 0 });
  });

  it('stops the analyst spending and degrades with a "budget exhausted" note the card can show', async () => {
    const budget = createTokenBudget(redis, prefix, { perIncident: 2_500, perDay: 0 });
    const llm = createScriptedLlm({ rca: [buildRcaAnswer()], fix: [{ file: null, newContent: null, explanation: 'x' }] });
    const analyst = createFallbackAnalyst(createLlmAnalyst({ llm, prompts: loadPrompts(), budget, incidentId: 'INC-9' }), createOfflineAnalyst());
    const first = await analyst.rca(buildRcaInput());
    expect(first.provenance.analyst).toBe('llm');
    expect((await budget.spent('INC-9')).incident).toBe(first.provenance.tokens);
    const fix = await analyst.proposeFix(buildFixInput());
    expect(fix.note).toMatch(/LLM token budget exhausted/);
    expect(fix.draft).toBeUndefined();
    expect(llm.calls()).toHaveLength(1);
  });
});
