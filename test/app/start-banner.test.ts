/** The start-up banner promises only what the configuration delivers. */
import { describe, expect, it } from 'vitest';
import { presentStartBanner } from '../../src/app/start-banner.js';

describe('the start-up banner', () => {
  it('without a model: says where the sandbox is, who to act as, and what an LLM key adds', () => {
    const text = presentStartBanner({ sandboxUrl: 'http://127.0.0.1:3001/', analyst: 'offline', verbose: false });
    expect(text).toContain('http://127.0.0.1:3001/');
    expect(text).toContain('Alice (approver)');
    expect(text).toMatch(/offer[s]? Approve only when Medic has a fix it can\s+propose without a model/);
    expect(text).toContain('Set OPENAI_API_KEY');
    expect(text).toContain('npm start -- --verbose');
  });

  it('with a model: no offline caveat', () => {
    const text = presentStartBanner({ sandboxUrl: 'http://127.0.0.1:3001/', analyst: 'openai', verbose: true });
    expect(text).not.toContain('Set OPENAI_API_KEY');
    expect(text).toContain('by the configured model');
    expect(text).toContain('whole cards (--verbose)');
  });
});
