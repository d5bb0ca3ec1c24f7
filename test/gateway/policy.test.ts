import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadPolicy } from '../../src/gateway/actions/policy.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

describe('the action policy file', () => {
  it('ships realistic actions of every effect class, replicas bounded 1–10', async () => {
    const actions = await loadPolicy(fileURLToPath(new URL('../../data/policy/actions.yaml', import.meta.url)));
    expect(actions.map((a) => `${a.name}:${a.effect}`)).toEqual([
      'diagnostics.pod-logs:READ_ONLY',
      'deploy.restart-service:MUTATING',
      'deploy.scale:MUTATING',
      'deploy.rollback:DESTRUCTIVE',
      'db.failover:DESTRUCTIVE',
    ]);
    expect(actions.find((a) => a.name === 'deploy.scale')?.args.replicas).toMatchObject({ type: 'int', min: 1, max: 10 });
  });

  it('lists every problem of an evil file with its place', async () => {
    const error = await loadPolicy(fixture('evil.yaml')).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ERR_CONFIG_INVALID' });
    const message = (error as Error).message;
    expect(message).toContain('actions.0.permission: DESTRUCTIVE actions need at least "elevated"');
    expect(message).toContain('actions.0.target: must name a required slug argument');
    expect(message).toContain('actions.1.webhook');
    expect(message).toContain('actions.1.args.pattern');
  });

  it('explains a malformed or empty file, and treats a missing one as no actions', async () => {
    await expect(loadPolicy(fixture('malformed.yaml'))).rejects.toThrow(/not valid YAML/);
    await expect(loadPolicy(fixture('empty.yaml'))).rejects.toThrow(/version/);
    expect(await loadPolicy(fixture('does-not-exist.yaml'))).toEqual([]);
  });
});
