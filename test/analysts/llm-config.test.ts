import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { llmEnv } from '../../src/config/sections/llm.js';

const schema = z.object(llmEnv);

describe('llm config section', () => {
  it('has working defaults for every variable', () => {
    expect(schema.parse({})).toMatchObject({
      MEDIC_MODEL: 'gpt-4o-mini',
      MEDIC_LLM_RESPONSE_FORMAT: 'json_schema',
      MEDIC_FIX_MIN_CONFIDENCE: 0.5,
      MEDIC_FIX_EXCLUDED_SEVERITIES: ['info', 'debug'],
      MEDIC_LLM_TOKENS_PER_INCIDENT: 60_000,
    });
  });

  it('reads overrides and rejects values outside their range', () => {
    expect(schema.parse({ MEDIC_FIX_MIN_CONFIDENCE: '0.7', MEDIC_FIX_EXCLUDED_SEVERITIES: 'warning,info', MEDIC_MODEL_RCA: '' })).toMatchObject({
      MEDIC_FIX_MIN_CONFIDENCE: 0.7,
      MEDIC_FIX_EXCLUDED_SEVERITIES: ['warning', 'info'],
      MEDIC_MODEL_RCA: undefined,
    });
    expect(schema.safeParse({ MEDIC_FIX_MIN_CONFIDENCE: '1.5' }).success).toBe(false);
    expect(schema.safeParse({ MEDIC_FIX_EXCLUDED_SEVERITIES: 'low' }).success).toBe(false);
    expect(schema.safeParse({ MEDIC_LLM_RESPONSE_FORMAT: 'text' }).success).toBe(false);
  });
});
