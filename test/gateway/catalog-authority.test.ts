import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runApprovedAction } from '../../src/gateway/actions/action-use-cases.js';
import type { ToolIntent } from '../../src/gateway/registry/effect.js';
import { createTestRedis } from '../support/redis.js';
import { buildCountingAutomation, buildHarness, exampleArgs } from './support.js';
import { assembleCatalog } from '../../src/domain/catalog/assemble-catalog.js';
import { parseCatalogFile } from '../../src/domain/catalog/parse-catalog-file.js';
import { resolveService } from '../../src/domain/catalog/resolve-service.js';
import { createCatalogAuthority } from '../../src/gateway/authority/catalog-authority.js';

const { catalog } = assembleCatalog([parseCatalogFile(`version: 1
services:
  - name: checkout
    approvers: [U_CHECKOUT, group:S_CHECKOUT]
    readers: [U_READER]
  - name: payments
    approvers: [U_PAY]
    elevated_approvers: [U_PAY_SRE]
`, 'c.yaml').part!], { channel: 'incidents' });
const services: Record<string, string> = { 'inc-checkout': 'checkout', 'inc-payments': 'payments', 'inc-mystery': 'mystery' };

const authority = createCatalogAuthority({
  approvers: ['U_GLOBAL'], elevatedApprovers: ['U_GLOBAL_SRE'], readers: [],
  userGroups: { resolveMembers: async (id) => (id === 'S_CHECKOUT' ? ['U_IN_GROUP'] : []) },
  routeOf: async (incidentId) => resolveService(catalog!, services[incidentId] ?? ''),
});

describe('authority per service', () => {
  it("grants a service's approvers on its incidents only", async () => {
    expect(await authority.resolve('U_CHECKOUT', { incidentId: 'inc-checkout' })).toEqual({ approver: true, elevated: false, reader: true });
    expect(await authority.resolve('U_PAY', { incidentId: 'inc-checkout' })).toEqual({ approver: false, elevated: false, reader: false });
    expect(await authority.resolve('U_IN_GROUP', { incidentId: 'inc-checkout' })).toMatchObject({ approver: true });
    expect(await authority.resolve('U_IN_GROUP', { incidentId: 'inc-payments' })).toMatchObject({ approver: false });
    expect(await authority.resolve('U_PAY_SRE', { incidentId: 'inc-payments' })).toEqual({ approver: true, elevated: true, reader: true });
    expect(await authority.resolve('U_PAY_SRE', { incidentId: 'inc-checkout' })).toMatchObject({ elevated: false });
    expect(await authority.resolve('U_READER', { incidentId: 'inc-checkout' })).toEqual({ approver: false, elevated: false, reader: true });
  });

  it('keeps the global lists everywhere, unknown services and unscoped questions included', async () => {
    for (const incidentId of ['inc-checkout', 'inc-payments', 'inc-mystery']) expect(await authority.resolve('U_GLOBAL', { incidentId })).toMatchObject({ approver: true });
    expect(await authority.resolve('U_GLOBAL_SRE', { incidentId: 'inc-mystery' })).toMatchObject({ elevated: true });
    // Without an incident only the global lists count: a service approver is nobody in particular.
    expect(await authority.resolve('U_CHECKOUT')).toEqual({ approver: false, elevated: false, reader: false });
    expect(await authority.resolve('U_GLOBAL')).toMatchObject({ approver: true });
  });

  it('never grants anything to an id posing as a group', async () => {
    expect(await authority.resolve('group:S_CHECKOUT', { incidentId: 'inc-checkout' })).toEqual({ approver: false, elevated: false, reader: false });
  });
});

describe('the gateway with authority per service', () => {
  let env: Awaited<ReturnType<typeof createTestRedis>>;
  beforeEach(async () => (env = await createTestRedis()));
  afterEach(async () => env.cleanup());

  it("refuses and audits another service's approver, and runs the action for the incident's own approver", async () => {
    const automation = buildCountingAutomation();
    const h = buildHarness(env.redis, env.prefix, { deps: { automation: automation.client }, authority });
    const proposed: ToolIntent[] = [{ tool: 'deploy.scale', args: exampleArgs('deploy.scale') }];
    const normalized = h.gateway.registry.normalize('deploy.scale', proposed[0]!.args);
    if (!normalized.ok) throw new Error('example must be valid');
    const request = { gateway: h.gateway, approvals: h.approvals, proposed, tool: 'deploy.scale', argsHash: normalized.argsHash, incidentId: 'inc-checkout' };

    expect(await runApprovedAction({ ...request, userId: 'U_PAY' })).toMatchObject({ status: 'denied', code: 'ERR_TOOL_DENIED' });
    expect(automation.runs).toHaveLength(0);
    const denied = (await h.audit.list({ incidentId: 'inc-checkout' })).filter((a) => a.outcome === 'denied');
    expect(denied.map((a) => a.actor.id)).toContain('U_PAY');

    expect(await runApprovedAction({ ...request, userId: 'U_CHECKOUT' })).toMatchObject({ status: 'executed' });
    expect(automation.runs).toHaveLength(1);
  });
});
