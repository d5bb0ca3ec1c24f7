import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { MedicError } from '../../src/domain/errors.js';

describe('configuration', () => {
  it('runs on defaults with nothing configured', () => {
    const config = loadConfig({});
    expect(config.MEDIC_REDIS_PREFIX).toBe('{medic}:');
    expect(config.MEDIC_LLM).toBe('auto');
    expect(config.MEDIC_APPROVERS).toEqual(['local-operator']);
  });

  it('lists every invalid variable with what to set, and never echoes a secret', () => {
    try {
      loadConfig({ PORT: 'eighty', MEDIC_REDIS_PREFIX: 'no-colon', REDIS_URL: 'not a url', OPENAI_BASE_URL: 'nope', MEDIC_LLM: 'gpt' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(MedicError);
      const message = (error as MedicError).message;
      for (const name of ['PORT', 'MEDIC_REDIS_PREFIX', 'REDIS_URL', 'OPENAI_BASE_URL', 'MEDIC_LLM']) expect(message).toContain(name);
      expect(message).toContain('.env.example');
    }
  });

  it('reads lists and booleans from strings', () => {
    const config = loadConfig({ MEDIC_APPROVERS: 'U1, U2 ,', MEDIC_EMBEDDED_REDIS: 'false' });
    expect(config.MEDIC_APPROVERS).toEqual(['U1', 'U2']);
    expect(config.MEDIC_EMBEDDED_REDIS).toBe(false);
  });
});

describe('.env.example', () => {
  it('documents every variable the schema reads, and loads as a valid configuration', async () => {
    const { readFileSync } = await import('node:fs');
    const { parseEnv } = await import('node:util');
    const { EnvSchema } = await import('../../src/config/schema.js');
    const example = parseEnv(readFileSync(new URL('../../.env.example', import.meta.url), 'utf8'));
    const shape = EnvSchema.shape;
    expect(Object.keys(shape).filter((key) => !(key in example))).toEqual([]);
    expect(Object.keys(example).filter((key) => !(key in shape))).toEqual([]);
    expect(() => loadConfig(example)).not.toThrow();
  });
});
