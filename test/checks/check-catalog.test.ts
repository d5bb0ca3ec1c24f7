/** `check:` in the service catalog: read with the place of each problem, and routed per service ("not checked" without it). */
import { describe, expect, it } from 'vitest';
import { createStaticServiceCatalog } from '../../src/adapters/catalog-files/file-service-catalog.js';
import type { CodeHost } from '../../src/app/create-code-host.js';
import { createRoutedCodeHost } from '../../src/app/routed-code-host.js';
import { createProposalChecksCheck } from '../../src/app/proposal-checks-doctor.js';
import { assembleCatalog } from '../../src/domain/catalog/assemble-catalog.js';
import { parseBackstageEntities } from '../../src/domain/catalog/parse-backstage-entities.js';
import { parseCatalogFile } from '../../src/domain/catalog/parse-catalog-file.js';
import { createFixProposal } from '../../src/domain/fix.js';
import type { CodeRepository } from '../../src/ports/code.js';
import { cardOf } from './check-world.js';

const file = (check: string) => `version: 1
repositories: [{ id: mono, remote: /srv/mono.git }]
services:
  - name: pay
    repository: mono
    path: services/pay
${check}
  - { name: web, repository: mono, path: web }
`;

describe("a service's check: settings", () => {
  const read = (check: string) => parseCatalogFile(file(check), 'catalog.yaml');

  it('reads the command with its defaults and its limits', () => {
    expect(read('    check: { command: npm run build }').part?.services[0]?.check).toEqual({ command: 'npm run build', timeoutS: 300, memoryMb: 4_096 });
    expect(read('    check: { command: "go build ./...", timeout_s: 120, memory_mb: 2048 }').part?.services[0]?.check).toEqual({ command: 'go build ./...', timeoutS: 120, memoryMb: 2_048 });
    expect(read('').part?.services[0]?.check).toBeUndefined();
  });

  it('lists every problem with its place', () => {
    const problems = (check: string) => read(check).problems.map((p) => `${p.where}: ${p.message}`);
    expect(problems('    check: { command: "" }')).toEqual(['catalog.yaml: services.0.check.command: must not be empty']);
    expect(problems('    check: { command: "npm test", timeout_s: 0, memory_mb: 10 }')).toEqual([
      expect.stringMatching(/^catalog\.yaml: services\.0\.check\.timeout_s: .*>=1/),
      expect.stringMatching(/^catalog\.yaml: services\.0\.check\.memory_mb: .*>=256/),
    ]);
    expect(problems('    check: { command: "npm test", timeout_s: 99999 }')).toEqual([expect.stringMatching(/^catalog\.yaml: services\.0\.check\.timeout_s: .*<=1800/)]);
    expect(problems('    check: { cmd: "npm test" }')).toEqual([expect.stringMatching(/^catalog\.yaml: services\.0\.check(\.command)?: /), expect.stringMatching(/cmd/)]);
    expect(problems('    check: { command: "npm test\\nrm -rf /" }')).toEqual(['catalog.yaml: services.0.check.command: must be one line of shell, without control characters']);
    expect(problems('    check: npm test')).toEqual([expect.stringMatching(/^catalog\.yaml: services\.0\.check: /)]);
  });
});

describe('the check annotations of a Backstage component', () => {
  const entity = (annotations: Record<string, string>) => parseBackstageEntities(`apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: pay
  annotations: ${JSON.stringify({ 'github.com/project-slug': 'acme/pay', ...annotations })}
spec: { owner: team-pay }
`, 'catalog-info.yaml');

  it('reads medic.dev/check-command and its limits', () => {
    expect(entity({ 'medic.dev/check-command': 'mvn -q -o compile', 'medic.dev/check-timeout-s': '600' }).part?.services[0]?.check).toEqual({ command: 'mvn -q -o compile', timeoutS: 600, memoryMb: 4_096 });
    expect(entity({}).part?.services[0]?.check).toBeUndefined();
  });

  it('names the annotation of each problem', () => {
    const problems = entity({ 'medic.dev/check-command': 'mvn -q -o compile', 'medic.dev/check-timeout-s': 'ten', 'medic.dev/check-memory-mb': '1' }).problems;
    expect(problems.map((p) => p.where)).toEqual(['catalog-info.yaml (document 1): pay: medic.dev/check-timeout-s', 'catalog-info.yaml (document 1): pay: medic.dev/check-memory-mb']);
  });
});

describe('the routed proposal check', () => {
  const { catalog } = assembleCatalog([parseCatalogFile(file('    check: { command: "npm run build", timeout_s: 60 }'), 'c.yaml').part!], { channel: 'incidents' });
  const log: string[] = [];
  const check = async () => ({ name: 'code repository', adapter: 'git mono', ok: true, detail: 'mono' });
  const repo = { check } as unknown as CodeRepository;
  const host: CodeHost = {
    repositoryId: 'mono', remoteUrl: '/srv/mono.git', cloneDir: '/data/mono', repo, unlockedRepo: repo, withDataLock: (fn) => fn(),
    publisher: { check, publish: async () => ({ branch: 'fix/x', commit: 'c', pushStatus: 'pushed' }) },
    pullRequests: { check, open: async () => undefined },
    checkProposal: async ({ proposal, settings, path }) => (log.push(`${path}: ${settings.command} ${settings.timeoutS}s`), { status: 'passed', contentHash: proposal.contentHash, at: 'now', command: settings.command, durationMs: 3_200 }),
  };
  const services: Record<string, string> = { 'inc-pay': 'pay', 'inc-web': 'web', 'inc-other': 'mystery' };
  const routed = createRoutedCodeHost({ catalog: createStaticServiceCatalog(catalog!), hostFor: () => host, currentIncident: () => undefined, serviceOf: async (id) => services[id] });

  it("runs the service's own command in its directory", async () => {
    const proposal = createFixProposal({ file: 'services/pay/src/charge.ts', before: 'a\n', after: 'b\n', explanation: 'fix' });
    const result = await routed.checkProposal({ incidentId: 'inc-pay', proposal });
    expect(log).toEqual(['services/pay: npm run build 60s']);
    expect(cardOf(proposal, result).checkText).toBe('Check ✓ `npm run build` 3.2 s');
  });

  it('says "not checked" for a service without a command, and keeps Approve', async () => {
    const proposal = createFixProposal({ file: 'web/app.ts', before: 'a\n', after: 'b\n', explanation: 'fix' });
    const result = await routed.checkProposal({ incidentId: 'inc-web', proposal });
    expect(result).toMatchObject({ status: 'not-checked', reason: 'the service catalog names no check command for web' });
    const card = cardOf(proposal, result);
    expect(card.checkText).toBe('Check – not checked: the service catalog names no check command for web');
    expect(card.buttons).toContain('medic_approve');
    // A record from before checks existed reads the same.
    expect(cardOf(proposal, undefined).checkText).toBe('Check – not checked');
  });

  it('does not run a proposal outside the service\'s directory', async () => {
    const proposal = createFixProposal({ file: 'web/app.ts', before: 'a\n', after: 'b\n', explanation: 'fix' });
    expect(await routed.checkProposal({ incidentId: 'inc-pay', proposal })).toMatchObject({ status: 'not-run', reason: expect.stringContaining('outside pay') });
    expect(await routed.checkProposal({ incidentId: 'inc-other', proposal })).toMatchObject({ status: 'not-checked' });
  });
});

describe("doctor's proposal checks", () => {
  const { catalog } = assembleCatalog([parseCatalogFile(file('    check: { command: "npm run build" }'), 'c.yaml').part!], { channel: 'incidents' });
  const doctor = (prefix: string[], label: string) => createProposalChecksCheck(createStaticServiceCatalog(catalog!), () => ({ prefix, label })).check();

  it('names the checked services and the isolation, and fails where a check would run online', async () => {
    expect(await doctor(['unshare', '-n'], 'no network (network namespace)')).toEqual({
      name: 'proposal checks', adapter: 'bash, ulimit -v, unshare', ok: true, detail: 'checked: pay; not checked: web; no network (network namespace)',
    });
    expect(await doctor([], 'network not isolated (unshare -n and unshare -rn both failed here); proxy variables cleared')).toMatchObject({ ok: false, detail: expect.stringContaining('network not isolated') });
  });
});
