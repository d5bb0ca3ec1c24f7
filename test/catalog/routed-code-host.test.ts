import { describe, expect, it } from 'vitest';
import { createStaticServiceCatalog } from '../../src/adapters/catalog-files/file-service-catalog.js';
import { createRoutedCodeHost } from '../../src/app/routed-code-host.js';
import type { CodeHost } from '../../src/app/create-code-host.js';
import { assembleCatalog } from '../../src/domain/catalog/assemble-catalog.js';
import { parseCatalogFile } from '../../src/domain/catalog/parse-catalog-file.js';
import { createFixProposal } from '../../src/domain/fix.js';
import type { CodeRepository } from '../../src/ports/code.js';

const { catalog } = assembleCatalog([parseCatalogFile(`version: 1
unknown_services: { route_to: web }
repositories:
  - { id: mono, remote: /srv/mono.git }
  - { id: web, remote: /srv/web.git }
services:
  - { name: pay, repository: mono, path: services/pay }
  - { name: cart, repository: mono, path: services/cart }
  - { name: web, repository: web }
  - { name: docs }
`, 'c.yaml').part!], { channel: 'incidents' });

/** An in-memory code host over a fixed file list, recording what ran on it. */
function buildHost(id: string, files: string[], log: string[]): CodeHost {
  const check = async () => ({ name: 'code repository', adapter: `git ${id}`, ok: true, detail: id });
  const repo: CodeRepository = {
    check,
    sync: async () => void log.push(`sync ${id}`),
    listFiles: async () => files,
    readFile: async (path) => (files.includes(path) ? `${id}:${path}` : undefined),
    recentChanges: async () => [],
    blame: async () => undefined,
    blameFunction: async () => undefined,
    commitFileChange: async () => undefined,
  };
  return {
    repositoryId: id, remoteUrl: `/srv/${id}.git`, cloneDir: `/data/${id}`, repo, unlockedRepo: repo, withDataLock: (fn) => fn(),
    publisher: { check, publish: async (input) => (log.push(`publish ${id} ${input.proposal.file}`), { branch: input.branch, commit: 'c0ffee', pushStatus: 'pushed' }) },
    pullRequests: { check, open: async () => undefined },
    checkProposal: async ({ proposal, settings, path }) => (log.push(`check ${id} ${path} ${settings.command}`), { status: 'passed', contentHash: proposal.contentHash, at: 'now', command: settings.command }),
  };
}

function buildRouted(current: { incident?: string }) {
  const log: string[] = [];
  const files: Record<string, string[]> = { mono: ['services/pay/src/charge.ts', 'services/cart/src/cart.ts', 'README.md'], web: ['src/app.ts'] };
  const services: Record<string, string> = { 'inc-pay': 'pay', 'inc-cart': 'cart', 'inc-docs': 'docs', 'inc-other': 'mystery' };
  const routed = createRoutedCodeHost({
    catalog: createStaticServiceCatalog(catalog!),
    hostFor: (repository) => buildHost(repository.id, files[repository.id] ?? [], log),
    currentIncident: () => current.incident,
    serviceOf: async (id) => services[id],
  });
  return { routed, log };
}

const publish = (incidentId: string, file: string) => ({ incidentId, branch: `fix/${incidentId}-1`, message: 'm', proposal: createFixProposal({ file, before: 'a\n', after: 'b\n', explanation: 'x' }) });

describe('the routed code host', () => {
  it("lists only the service's directory of a monorepo, and routes undeclared services where the catalog says", async () => {
    const current: { incident?: string } = {};
    const { routed } = buildRouted(current);
    current.incident = 'inc-pay';
    expect(await routed.repo.listFiles()).toEqual(['services/pay/src/charge.ts']);
    current.incident = 'inc-cart';
    expect(await routed.unlockedRepo.listFiles()).toEqual(['services/cart/src/cart.ts']);
    current.incident = 'inc-other';
    expect(await routed.repo.listFiles()).toEqual(['src/app.ts']);
    // A declared service without a repository sees an empty tree.
    current.incident = 'inc-docs';
    expect(await routed.repo.listFiles()).toEqual([]);
    expect(await routed.repo.readFile('README.md')).toBeUndefined();
  });

  it('syncs every repository outside an incident, and only its own inside one', async () => {
    const current: { incident?: string } = {};
    const { routed, log } = buildRouted(current);
    await routed.repo.sync();
    expect(log).toEqual(['sync mono', 'sync web']);
    current.incident = 'inc-pay';
    await routed.repo.sync();
    expect(log.at(-1)).toBe('sync mono');
    expect(log).toHaveLength(3);
  });

  it("publishes into the service's repository and directory only", async () => {
    const { routed, log } = buildRouted({});
    await routed.publisher.publish(publish('inc-pay', 'services/pay/src/charge.ts'));
    expect(log).toEqual(['publish mono services/pay/src/charge.ts']);
    await expect(routed.publisher.publish(publish('inc-pay', 'services/cart/src/cart.ts'))).rejects.toThrow(/outside pay's directory services\/pay\//);
    await expect(routed.publisher.publish(publish('inc-docs', 'README.md'))).rejects.toThrow(/no repository in the service catalog/);
    expect(log).toHaveLength(1);
  });

  it('checks every repository in one line', async () => {
    const { routed } = buildRouted({});
    expect(await routed.repo.check()).toMatchObject({ ok: true, adapter: 'git mono, git web' });
  });

  it("follows the merge and the deploy on the incident's own repository, where its host can tell", async () => {
    const current: { incident?: string } = {};
    const asked: string[] = [];
    const routed = createRoutedCodeHost({
      catalog: createStaticServiceCatalog(catalog!),
      hostFor: (repository) => {
        const h = buildHost(repository.id, [], []);
        if (repository.id !== 'mono') return h;
        return {
          ...h,
          pullRequests: {
            ...h.pullRequests,
            mergeState: async (fix) => (asked.push(`merge ${repository.id} ${fix.branch} ${fix.pullNumber}`), { merged: true, commit: 'c0ffee', mergedAt: '2026-03-01T11:00:00.000Z' }),
            deployment: async (commit, since, kind, environment) => (asked.push(`deploy ${repository.id} ${commit} ${since} ${kind} ${environment}`), { at: since, marker: 'release v1' }),
          },
        };
      },
      currentIncident: () => current.incident,
      serviceOf: async (id) => ({ 'inc-pay': 'pay', 'inc-web': 'web', 'inc-docs': 'docs' })[id],
    });
    current.incident = 'inc-pay';
    expect(await routed.pullRequests.mergeState!({ branch: 'fix/inc-pay-1', pullNumber: 4 })).toEqual({ merged: true, commit: 'c0ffee', mergedAt: '2026-03-01T11:00:00.000Z' });
    expect(await routed.pullRequests.deployment!('c0ffee', '2026-03-01T11:00:00.000Z', 'github-release', 'production')).toEqual({ at: '2026-03-01T11:00:00.000Z', marker: 'release v1' });
    // The web repository's host cannot tell, and docs has no repository at all.
    current.incident = 'inc-web';
    expect(await routed.pullRequests.mergeState!({ branch: 'fix/inc-web-1' })).toEqual({ merged: false });
    expect(await routed.pullRequests.deployment!('c0ffee', '2026-03-01T11:00:00.000Z', 'github-deployment')).toBeUndefined();
    current.incident = 'inc-docs';
    expect(await routed.pullRequests.mergeState!({ branch: 'fix/inc-docs-1' })).toEqual({ merged: false });
    expect(asked).toEqual(['merge mono fix/inc-pay-1 4', 'deploy mono c0ffee 2026-03-01T11:00:00.000Z github-release production']);
  });

  it('has no merge state or deploy marker where no repository can tell', () => {
    const { routed } = buildRouted({});
    expect('mergeState' in routed.pullRequests).toBe(false);
    expect('deployment' in routed.pullRequests).toBe(false);
  });
});
