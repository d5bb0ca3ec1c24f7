import { describe, expect, it } from 'vitest';
import { assembleCatalog } from '../../src/domain/catalog/assemble-catalog.js';
import { implicitCatalog } from '../../src/domain/catalog/implicit-catalog.js';
import { parseBackstageEntities, parseSourceLocation } from '../../src/domain/catalog/parse-backstage-entities.js';
import { parseCatalogFile } from '../../src/domain/catalog/parse-catalog-file.js';
import { allowsAction, opensIncident, resolveService } from '../../src/domain/catalog/resolve-service.js';

const MEDIC_FILE = `version: 1
default_channel: "#incidents"
repositories:
  - id: shop
    remote: https://github.com/acme/shop.git
    github: acme/shop
services:
  - name: checkout
    aliases: [Shop-Checkout, checkout-worker]
    repository: shop
    path: ./services/checkout/
    channel: checkout-oncall
    approvers: [U1, group:S1]
    elevated_approvers: [U2]
    readers: [U9]
    open: { min_severity: warning }
    splunk: { index: shop, sourcetype: "checkout:json" }
    actions: [restart-service]
  - name: docs-site
`;

const BACKSTAGE = `apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: payments
  annotations:
    github.com/project-slug: acme/shop
    backstage.io/source-location: url:https://github.com/acme/shop/tree/main/services/payments/
    slack.com/channel: "#payments-oncall"
    medic.dev/aliases: payments-api, psp-client
    medic.dev/approvers: U7, group:S7
    medic.dev/elevated-approvers: U8
spec:
  type: service
  owner: group:payments-team
---
apiVersion: backstage.io/v1alpha1
kind: System
metadata:
  name: shop
---
apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: ledger
  annotations:
    github.com/project-slug: acme/Ledger
    slack.com/bot-notify: ledger-oncall
spec:
  owner: team-ledger
`;

describe("Medic's catalog file", () => {
  it('reads every field, normalizing channels and paths', () => {
    const { part, problems } = parseCatalogFile(MEDIC_FILE, 'catalog.yaml');
    expect(problems).toEqual([]);
    expect(part?.defaultChannel).toBe('incidents');
    expect(part?.services[0]).toMatchObject({
      name: 'checkout', aliases: ['Shop-Checkout', 'checkout-worker'], repository: 'shop', path: 'services/checkout', channel: 'checkout-oncall',
      approvers: ['U1', 'group:S1'], elevatedApprovers: ['U2'], readers: ['U9'], minSeverity: 'warning', splunk: { index: 'shop', sourcetype: 'checkout:json' }, actions: ['restart-service'],
    });
    expect(part?.services[1]).toMatchObject({ name: 'docs-site', path: '', minSeverity: 'error' });
  });

  it('lists every problem with its place', () => {
    const { part, problems } = parseCatalogFile(`version: 2
repositories:
  - id: Shop
services:
  - name: checkout
    path: ../elsewhere
    approvers: ["*"]
    colour: blue
`, 'bad.yaml');
    expect(part).toBeUndefined();
    const where = problems.map((p) => p.where);
    expect(where).toEqual(expect.arrayContaining(['bad.yaml: version', 'bad.yaml: repositories.0.id', 'bad.yaml: repositories.0.remote', 'bad.yaml: services.0.path', 'bad.yaml: services.0.approvers.0', 'bad.yaml: services.0']));
  });

  it('says when the file is not YAML', () => {
    expect(parseCatalogFile('services: [unclosed', 'x.yaml').problems[0]?.message).toMatch(/not valid YAML/);
  });
});

describe('Backstage catalog-info.yaml', () => {
  it('maps Components: name, owner, project slug, source location path, Slack channel and Medic annotations', () => {
    const { part, problems } = parseBackstageEntities(BACKSTAGE, 'catalog-info.yaml');
    expect(problems).toEqual([]);
    expect(part?.services.map((s) => s.name)).toEqual(['payments', 'ledger']);
    expect(part?.services[0]).toMatchObject({
      owner: 'group:payments-team', repository: 'acme-shop', path: 'services/payments', channel: 'payments-oncall',
      aliases: ['payments-api', 'psp-client'], approvers: ['U7', 'group:S7'], elevatedApprovers: ['U8'],
    });
    expect(part?.services[1]).toMatchObject({ repository: 'acme-ledger', channel: 'ledger-oncall', owner: 'team-ledger', path: '' });
    expect(part?.repositories).toEqual([
      { id: 'acme-shop', remote: 'https://github.com/acme/shop.git', branch: 'main', github: 'acme/shop' },
      { id: 'acme-ledger', remote: 'https://github.com/acme/Ledger.git', branch: 'main', github: 'acme/Ledger' },
    ]);
  });

  it('reads the branch and directory of a source location', () => {
    expect(parseSourceLocation('url:https://github.com/acme/shop/tree/release/services/pay/')).toEqual({ slug: 'acme/shop', branch: 'release', path: 'services/pay' });
    expect(parseSourceLocation('url:https://github.com/acme/shop')).toEqual({ slug: 'acme/shop', branch: undefined, path: undefined });
  });

  it('lists bad annotations with the entity they belong to', () => {
    const { problems } = parseBackstageEntities('kind: Component\nmetadata:\n  name: x\n  annotations:\n    medic.dev/approvers: "U1, all users"\n    medic.dev/min-severity: loud\n', 'c.yaml');
    expect(problems.map((p) => p.where).sort()).toEqual(['c.yaml (document 1): x: medic.dev/approvers', 'c.yaml (document 1): x: medic.dev/min-severity']);
  });
});

describe('the assembled catalog', () => {
  const medic = parseCatalogFile(MEDIC_FILE, 'catalog.yaml').part!;
  const backstage = parseBackstageEntities(BACKSTAGE, 'catalog-info.yaml').part!;

  it('joins both sources and routes by name or alias, case-insensitively', () => {
    const { catalog, problems } = assembleCatalog([medic, backstage], { channel: 'fallback' });
    expect(problems).toEqual([]);
    const route = resolveService(catalog!, 'shop-checkout');
    expect(route).toMatchObject({ known: true, channel: 'checkout-oncall', service: { name: 'checkout' }, repository: { id: 'shop' } });
    expect(resolveService(catalog!, 'PSP-client')).toMatchObject({ known: true, service: { name: 'payments' }, repository: { id: 'acme-shop' } });
    expect(resolveService(catalog!, 'docs-site')).toMatchObject({ known: true, channel: 'incidents' });
    expect(resolveService(catalog!, 'docs-site')).not.toHaveProperty('repository');
    expect(resolveService(catalog!, 'nobody')).toEqual({ known: false, name: 'nobody', channel: 'incidents' });
  });

  it('lists every cross-reference problem', () => {
    const clash = parseCatalogFile(`version: 1
repositories:
  - id: shop
    remote: https://other.example/shop.git
  - id: mono
    remote: https://token@example.test/mono.git
services:
  - name: payments
  - name: cart
    aliases: [checkout-worker]
    repository: ghost
  - name: a
    repository: mono
    path: services
  - name: b
    repository: mono
    path: services/b
`, 'second.yaml').part!;
    const { catalog, problems } = assembleCatalog([medic, backstage, clash], { channel: 'x' });
    expect(catalog).toBeUndefined();
    const messages = problems.map((p) => `${p.where}: ${p.message}`);
    expect(messages).toEqual(expect.arrayContaining([
      expect.stringContaining('repository shop: is also declared in catalog.yaml with another remote or branch'),
      expect.stringContaining('must not contain credentials'),
      expect.stringContaining('service payments: is also declared in catalog-info.yaml'),
      expect.stringContaining('alias "checkout-worker" already names service checkout'),
      expect.stringContaining('names repository ghost'),
      expect.stringContaining('overlaps service a'),
    ]));
  });

  it('applies the opening severity and the allowed actions per service', () => {
    const { catalog } = assembleCatalog([medic], { channel: 'x' });
    const checkout = resolveService(catalog!, 'checkout');
    expect([opensIncident(checkout, 'warning'), opensIncident(checkout, 'info')]).toEqual([true, false]);
    expect([allowsAction(checkout, 'restart-service'), allowsAction(checkout, 'scale-down')]).toEqual([true, false]);
    expect(allowsAction(resolveService(catalog!, 'docs-site'), 'scale-down')).toBe(true);
  });
});

describe('the implicit one-service catalog', () => {
  it('routes every name to the one repository and channel the single-service variables describe', () => {
    const catalog = implicitCatalog({ channel: '#ops', remote: 'https://github.com/acme/shop.git', branch: 'trunk', github: 'acme/shop' });
    expect(resolveService(catalog, 'anything')).toMatchObject({ known: true, channel: 'ops', repository: { id: 'default', remote: 'https://github.com/acme/shop.git', branch: 'trunk', github: 'acme/shop' } });
    expect(implicitCatalog({ channel: 'incidents', branch: 'main' }).repositories[0]).toEqual({ id: 'default', branch: 'main', seedFrom: 'sample-service' });
  });
});
