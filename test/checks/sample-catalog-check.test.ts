/** The sample catalog's check commands run offline on the sample repositories, as the default run does. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createGitRepository } from '../../src/adapters/git/git-repository.js';
import { createGitRunner } from '../../src/adapters/git/git-runner.js';
import { createProposalChecker } from '../../src/adapters/git/proposal-checker.js';
import { parseCatalogFile } from '../../src/domain/catalog/parse-catalog-file.js';
import { createFixProposal } from '../../src/domain/fix.js';
import { seedSampleRemote } from '../../src/sample/seed-sample-remote.js';

const dir = mkdtempSync(join(tmpdir(), 'medic-sample-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const catalog = parseCatalogFile(readFileSync('data/catalog.yaml', 'utf8'), 'data/catalog.yaml').part!;

async function checkerFor(repository: string) {
  const remoteDir = join(dir, `${repository}.git`);
  await seedSampleRemote({ sourceDir: `data/${repository}`, historyFile: `data/${repository}.history.json`, remoteDir, branch: 'main' });
  const clone = join(dir, repository);
  await createGitRepository({ remoteUrl: remoteDir, branch: 'main', workDir: clone }).sync();
  return { clone, check: createProposalChecker({ git: createGitRunner({ workDir: clone, remoteUrl: remoteDir }), branch: 'main', worktreeRoot: join(dir, 'worktrees'), medicNodeModules: resolve('node_modules') }) };
}

describe('the sample catalog\'s checks', () => {
  it.each([['shop', 'sample-service', 'src/checkout/discounts.ts'], ['loyalty', 'sample-loyalty', 'src/points/tiers.ts']])('%s: a comment passes, a type error fails', async (service, repository, file) => {
    const settings = catalog.services.find((s) => s.name === service)?.check;
    expect(settings).toBeDefined();
    const { clone, check } = await checkerFor(repository);
    const before = readFileSync(join(clone, file), 'utf8');
    const fine = createFixProposal({ file, before, after: `${before}// checked\n`, explanation: 'a comment' });
    expect(await check({ proposal: fine, settings: settings!, path: '' })).toMatchObject({ status: 'passed' });
    const broken = createFixProposal({ file, before, after: `${before}export const broken: number = 'text';\n`, explanation: 'a type error' });
    const failed = await check({ proposal: broken, settings: settings!, path: '' });
    expect(failed).toMatchObject({ status: 'failed', output: expect.stringMatching(/error TS2322/) });
  }, 90_000);
});
