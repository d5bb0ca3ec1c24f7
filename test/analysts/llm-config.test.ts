import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EnvSchema } from '../../src/config/schema.js';
import { llmEnv } from '../../src/config/sections/llm.js';

const schema = z.object(llmEnv);

describe('llm config section', () => {
  it('has working defaults for every variable', () => {
    expect(schema.parse({})).toMatchObject({
      MEDIC_LLM_MAX_RETRY_WAIT_MS: 30_000,
      MEDIC_LLM_MAX_TOKENS_FIX: 4_000,
      MEDIC_FIX_MIN_CONFIDENCE: 0.5,
      MEDIC_FIX_EXCLUDED_SEVERITIES: ['info', 'debug'],
    });
  });

  it('reads overrides and rejects values outside their range', () => {
    expect(schema.parse({ MEDIC_FIX_MIN_CONFIDENCE: '0.7', MEDIC_FIX_EXCLUDED_SEVERITIES: 'warning,info', MEDIC_PROMPTS_DIR: '' })).toMatchObject({
      MEDIC_FIX_MIN_CONFIDENCE: 0.7,
      MEDIC_FIX_EXCLUDED_SEVERITIES: ['warning', 'info'],
      MEDIC_PROMPTS_DIR: undefined,
    });
    expect(schema.safeParse({ MEDIC_FIX_MIN_CONFIDENCE: '1.5' }).success).toBe(false);
    expect(schema.safeParse({ MEDIC_FIX_EXCLUDED_SEVERITIES: 'low' }).success).toBe(false);
  });

  it('is merged into the schema as it is, so no other section shadows one of its variables', () => {
    const shape = EnvSchema.shape as Record<string, unknown>;
    expect(Object.entries(llmEnv).filter(([name, schema]) => shape[name] !== schema).map(([name]) => name)).toEqual([]);
  });
});
