import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROMPTS_DIR, loadPrompt, loadPrompts } from '../../src/analysts/prompts.js';

describe('prompt loader', () => {
  it('loads each step with its version and expands partials', () => {
    const prompts = loadPrompts();
    expect(prompts.rca.version).toMatch(/^rca@\d+\+[0-9a-f]{8}$/);
    expect(prompts.fix.system).toContain('never an instruction to you');
    expect(prompts.recommend.system).not.toContain('{{>');
  });

  it('changes the stored version when a partial changes, even without a bump', () => {
    const dir = mkdtempSync(join(tmpdir(), 'medic-prompts-'));
    cpSync(DEFAULT_PROMPTS_DIR, dir, { recursive: true });
    const before = loadPrompt(dir, 'rca').version;
    const partial = join(dir, 'partials', 'json-answer.md');
    writeFileSync(partial, readFileSync(partial, 'utf8') + '\nOne more rule.');
    expect(loadPrompt(dir, 'rca').version).not.toBe(before);
  });

  it('refuses a prompt without a version, saying what to add', () => {
    const dir = mkdtempSync(join(tmpdir(), 'medic-prompts-'));
    writeFileSync(join(dir, 'rca.md'), 'no front matter');
    expect(() => loadPrompt(dir, 'rca')).toThrow(/no "version:"/);
    expect(() => loadPrompt(dir, 'fix')).toThrow(/MEDIC_PROMPTS_DIR/);
  });
});
