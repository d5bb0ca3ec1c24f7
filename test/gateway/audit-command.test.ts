import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAuditCommand, parseAuditArgs } from '../../src/cli/commands/audit.js';
import { buildCliIo } from '../support/cli-io.js';
import { createTestRedis } from '../support/redis.js';
import { APPROVER, buildFakePorts, buildHarness } from './support.js';

function buildIo() {
  const io = buildCliIo();
  return { io, out: io.out, err: io.err };
}

describe('medic audit', () => {
  let env: Awaited<ReturnType<typeof createTestRedis>>;
  beforeEach(async () => (env = await createTestRedis()));
  afterEach(async () => env.cleanup());

  it('parses its flags and refuses bad ones', () => {
    expect(parseAuditArgs(['--incident', 'inc-1', '--tool', 'deploy.scale', '--decision', 'denied'])).toMatchObject({ incidentId: 'inc-1', tool: 'deploy.scale', decision: 'denied' });
    expect(parseAuditArgs(['--decision', 'maybe'])).toMatch(/one of/);
    expect(parseAuditArgs(['--incident'])).toBe('option --incident needs a value');
    expect(parseAuditArgs(['--bogus', 'x'])).toBe('unknown option --bogus');
  });

  it('lists gateway records filtered by incident, tool and decision', async () => {
    const h = buildHarness(env.redis, env.prefix, { deps: buildFakePorts() });
    await h.gateway.invoke({ tool: 'code.list-files', args: {} }, { caller: { kind: 'pipeline' }, incidentId: 'inc-1' });
    await h.gateway.invoke({ tool: 'deploy.scale', args: { service: 'orders-api', namespace: 'prod', replicas: 2 } }, { caller: { kind: 'pipeline' }, incidentId: 'inc-1' });
    await h.gateway.invoke({ tool: 'nope', args: {} }, { caller: { kind: 'user', userId: APPROVER }, incidentId: 'inc-2' });
    const command = createAuditCommand(async () => ({ audit: h.audit }));

    const denied = buildIo();
    expect(await command.run(['--decision', 'denied', '--json'], denied.io)).toBe(0);
    expect(denied.out().trim().split('\n').map((l) => JSON.parse(l).details.tool)).toEqual(['deploy.scale', 'nope']);

    const byTool = buildIo();
    expect(await command.run(['--incident', 'inc-1', '--tool', 'code.list-files'], byTool.io)).toBe(0);
    expect(byTool.out()).toContain('allowed  code.list-files');
    expect(byTool.err()).toContain('1 record(s)');

    const bad = buildIo();
    expect(await command.run(['--decision', 'nope'], bad.io)).toBe(2);
    expect(bad.err()).toContain('usage: medic audit');
  });
});
