import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedLlm, loadLlmScript } from '../../src/adapters/scripted-llm/scripted-llm.js';
import { ErrorCode } from '../../src/domain/errors.js';

const schema = z.object({ cause: z.string() });
const ask = (step: string) => ({ step, system: 'sys', user: 'user text', schema, schemaName: 'answer', maxTokens: 100 });

describe('scripted LLM', () => {
  it('answers per step in order, repeats the last answer and counts usage', async () => {
    const llm = createScriptedLlm({ rca: [{ cause: 'a' }, { cause: 'b' }] });
    const answers = [await llm.complete(ask('rca')), await llm.complete(ask('rca')), await llm.complete(ask('rca'))];
    expect(answers.map((a) => a.value.cause)).toEqual(['a', 'b', 'b']);
    expect(llm.usage().rca?.promptTokens).toBeGreaterThan(0);
  });

  it('validates answers with the request schema and drills faults as coded errors', async () => {
    const llm = createScriptedLlm({ rca: [{ wrong: 1 }], fix: [{ $fault: 'timeout' }], recommend: [{ $fault: 'refusal' }] });
    await expect(llm.complete(ask('rca'))).rejects.toMatchObject({ code: ErrorCode.ModelOutputInvalid });
    await expect(llm.complete(ask('fix'))).rejects.toMatchObject({ code: ErrorCode.UpstreamUnavailable, transient: true });
    await expect(llm.complete(ask('recommend'))).rejects.toMatchObject({ code: ErrorCode.ModelOutputInvalid });
    await expect(llm.complete(ask('other'))).rejects.toThrow(/no answers for step "other"/);
  });

  it('accepts a function script', async () => {
    const llm = createScriptedLlm((request, call) => ({ cause: `${request.step}#${call}` }));
    await expect(llm.complete(ask('rca'))).resolves.toMatchObject({ value: { cause: 'rca#0' } });
  });

  it('loads a script file, and refuses a bad one with what to fix', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'medic-script-'));
    writeFileSync(join(dir, 'ok.json'), JSON.stringify({ rca: [{ cause: 'from file' }] }));
    writeFileSync(join(dir, 'bad.json'), '{"rca": []}');
    writeFileSync(join(dir, 'broken.json'), '{rca');
    await expect(loadLlmScript(join(dir, 'ok.json')).complete(ask('rca'))).resolves.toMatchObject({ value: { cause: 'from file' } });
    expect(() => loadLlmScript(join(dir, 'bad.json'))).toThrow(/non-empty list/);
    expect(() => loadLlmScript(join(dir, 'broken.json'))).toThrow(/MEDIC_LLM_SCRIPT/);
  });
});
