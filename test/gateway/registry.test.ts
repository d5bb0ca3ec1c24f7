import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EFFECT_CLASSES } from '../../src/gateway/registry/effect.js';
import { isSelector, selectsAsLiteral } from '../../src/gateway/arguments/identifiers.js';
import { FORBIDDEN_TOOLS, parsePolicy } from '../../src/gateway/actions/policy.js';
import { createToolRegistry } from '../../src/gateway/registry/registry.js';
import { createTestRedis } from '../support/redis.js';
import { APPROVER, buildCountingAutomation, buildFakePorts, buildHarness, exampleArgs, TEST_POLICY } from './support.js';

const SELECTORS = ['*', 'all', 'ALL', '%', 'orders-*', 'orders?', 'orders-[ab]', '{a,b}', '.*', '^orders.+$', 'orders|billing', '/orders.*/i', 'orders%'];

/** Sets the value at a path; `*` picks the first existing key or index of the container. */
function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target as Record<string | number, unknown>;
  path.forEach((segment, i) => {
    const key = segment === '*' ? (Array.isArray(node) ? 0 : Object.keys(node)[0]!) : segment;
    if (i === path.length - 1) node[key] = value;
    else node = node[key] as Record<string | number, unknown>;
  });
}

describe('the registry', () => {
  let env: Awaited<ReturnType<typeof createTestRedis>>;
  beforeEach(async () => (env = await createTestRedis()));
  afterEach(async () => env.cleanup());

  it('declares every action Medic takes, each with an effect class, and nothing it must never do', () => {
    const registry = createToolRegistry({ ...buildFakePorts(), actions: TEST_POLICY });
    const names = registry.list().map((s) => s.name);
    for (const name of ['logs.window', 'docs.search', 'code.search', 'code.read-file', 'git.log', 'git.publish-fix', 'github.open-pr', 'slack.post-card', 'slack.update-card', 'slack.reply', 'deploy.scale', 'db.failover']) {
      expect(names).toContain(name);
    }
    for (const spec of registry.list()) expect(EFFECT_CLASSES).toContain(spec.effect);
    expect(registry.get('git.publish-fix')?.effect).toBe('MUTATING');
    expect(registry.get('github.open-pr')?.effect).toBe('MUTATING');
    for (const name of FORBIDDEN_TOOLS) expect(registry.get(name)).toBeUndefined();
  });

  it('denies unknown and never-registered tools, fail closed, and audits each denial', async () => {
    const h = buildHarness(env.redis, env.prefix, { deps: buildFakePorts() });
    const ctx = { caller: { kind: 'user' as const, userId: APPROVER }, incidentId: 'inc-1' };
    const names = ['forged.admin-tool', ...FORBIDDEN_TOOLS, 'git.force-push'];
    for (const tool of names) {
      expect(await h.gateway.invoke({ tool, args: { branch: 'main' } }, ctx)).toMatchObject({ status: 'denied', code: 'ERR_TOOL_UNKNOWN' });
    }
    expect(await h.audit.length()).toBe(names.length);
    expect((await h.audit.list())[0]).toMatchObject({ outcome: 'denied', details: { tool: 'forged.admin-tool', effect: 'UNKNOWN', code: 'ERR_TOOL_UNKNOWN' } });
  });

  it('refuses a client-plane intent sent to the server', async () => {
    const h = buildHarness(env.redis, env.prefix, { deps: buildFakePorts() });
    const pipeline = { caller: { kind: 'pipeline' as const } };
    expect(await h.gateway.invoke({ tool: 'card.show-diff', args: {} }, pipeline)).toMatchObject({ status: 'denied', code: 'ERR_TOOL_DENIED' });
    expect(await h.gateway.invoke({ tool: 'code.list-files', args: {}, plane: 'client' }, pipeline)).toMatchObject({ status: 'denied' });
  });

  it('refuses a policy action that would shadow a built-in tool or name a forbidden one', () => {
    const shadow = parsePolicy('version: 1\nactions:\n  - { name: logs.window, summary: s, effect: READ_ONLY, permission: read, reversible: true, webhook: /h, target: s, args: { s: { type: slug } } }\n', 'p');
    expect(() => createToolRegistry({ actions: shadow })).toThrow(/declared twice/);
    expect(() => parsePolicy('version: 1\nactions:\n  - { name: git.force-push, summary: s, effect: DESTRUCTIVE, permission: elevated, reversible: false, webhook: /h, target: s, args: { s: { type: slug } } }\n', 'p')).toThrow(/never do/);
  });

  it('recognises selectors and lets explicit names through', () => {
    for (const value of SELECTORS) expect(isSelector(value)).toBe(true);
    for (const value of ['orders-api', 'prod', 'txn-123', 'fix/inc-1-20250301100000', 'src/orders/order-repository.ts', 'Checkout API']) expect(isSelector(value)).toBe(false);
  });

  it('rejects a wildcard or regex in every identifier field of every tool before dispatch', async () => {
    const ports = buildFakePorts();
    const automation = buildCountingAutomation();
    const h = buildHarness(env.redis, env.prefix, { deps: { ...ports, automation: automation.client } });
    let calls = 0;
    let fields = 0;
    for (const spec of h.gateway.registry.list()) {
      for (const path of spec.identifiers) {
        fields += 1;
        // Operational targets and fix branches refuse every pattern; names and paths used only as
        // quoted literals refuse what still selects there (a `*`, a bare selector word).
        const strict = spec.proposable === true || path.at(-1) === 'branch';
        for (const selector of SELECTORS) {
          const args = exampleArgs(spec.name);
          setPath(args, path, selector);
          if (!strict && !selectsAsLiteral(selector)) {
            expect(h.gateway.registry.normalize(spec.name, args)).not.toMatchObject({ code: 'ERR_TOOL_WILDCARD_PROHIBITED' });
            continue;
          }
          calls += 1;
          const result = await h.gateway.invoke({ tool: spec.name, args }, { caller: { kind: 'user', userId: APPROVER }, incidentId: 'inc-1' });
          expect({ tool: spec.name, path: path.join('.'), selector, result: result.status === 'denied' ? result.code : result.status }).toEqual({
            tool: spec.name,
            path: path.join('.'),
            selector,
            result: 'ERR_TOOL_WILDCARD_PROHIBITED',
          });
        }
      }
    }
    expect(fields).toBeGreaterThanOrEqual(20);
    // Nothing was dispatched to any port or to the automation, and every refusal was audited.
    expect(ports.calls).toEqual({});
    expect(automation.runs).toHaveLength(0);
    expect(await h.audit.length()).toBe(calls);
  });

  it('accepts every example intent, so the wildcard test above refuses for the selector alone', () => {
    const registry = createToolRegistry({ ...buildFakePorts(), actions: TEST_POLICY });
    for (const spec of registry.list()) expect(registry.normalize(spec.name, exampleArgs(spec.name))).toMatchObject({ ok: true });
  });

  it('caps an integer above its bound and flags it, and refuses one below its minimum', () => {
    const registry = createToolRegistry({ actions: TEST_POLICY });
    expect(registry.normalize('deploy.scale', { ...exampleArgs('deploy.scale'), replicas: 25 })).toMatchObject({ ok: true, args: { replicas: 10 }, capped: [{ field: 'replicas', requested: 25, cap: 10 }] });
    expect(registry.normalize('deploy.scale', { ...exampleArgs('deploy.scale'), replicas: 0 })).toMatchObject({ ok: false, code: 'ERR_VALIDATION_FAILED' });
    expect(registry.normalize('deploy.scale', { ...exampleArgs('deploy.scale'), approved: true })).toMatchObject({ ok: false, code: 'ERR_VALIDATION_FAILED' });
  });
});
