/**
 * The credential path against a real smart-HTTP server that demands Basic auth: the token goes
 * only into a per-command header, never into `.git/config`, the remote URL, errors or logs.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitFixPublisher } from '../../src/adapters/git/git-fix-publisher.js';
import { createGitRepository } from '../../src/adapters/git/git-repository.js';
import { ErrorCode } from '../../src/domain/errors.js';
import { createFixProposal, fixBranchName } from '../../src/domain/fix.js';
import { startGitHttpServer, type LoopbackGitServer } from '../loopback/git-http-server.js';
import { SAMPLE_FILES, buildRemote, gitIn, remoteBranches, type TestRemote } from './build-remote.js';

const TOKEN = 'ghs_loopbackInstallationToken0123456789';
const BASIC = Buffer.from(`x-access-token:${TOKEN}`).toString('base64');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return [];
    return stat.isDirectory() ? filesUnder(path) : [path];
  });
}

/** Every file of the clone's .git (config, worktree metadata, logs, packed refs) is token-free. */
function expectNoTokenUnder(dir: string): void {
  for (const file of filesUnder(dir)) {
    const text = readFileSync(file).toString('latin1');
    expect(text.includes(TOKEN), file).toBe(false);
    expect(text.includes(BASIC), file).toBe(false);
  }
}

describe('git over smart HTTP with credentials', () => {
  let remote: TestRemote;
  let server: LoopbackGitServer;
  let workDir: string;
  const logs: string[] = [];
  const logger = { info: (o: object, m: string) => void logs.push(JSON.stringify({ ...o, m })), warn: (o: object, m: string) => void logs.push(JSON.stringify({ ...o, m })) };

  beforeEach(async () => {
    remote = buildRemote('shop.git');
    server = await startGitHttpServer({ root: remote.root, token: TOKEN });
    workDir = join(remote.root, 'data', 'repo');
    logs.length = 0;
  });
  afterEach(async () => {
    await server.close();
    remote.cleanup();
  });

  it('demands credentials: without them sync fails with a coded, actionable error', async () => {
    const repo = createGitRepository({ remoteUrl: server.url('shop.git'), branch: 'main', workDir });
    const error = await repo.sync().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ErrorCode.UpstreamRejected, message: expect.stringContaining('GIT_TOKEN') });
    expect(server.requests.some((r) => !r.authorized)).toBe(true);
  });

  it('a wrong token is refused and never echoed back', async () => {
    const wrong = 'ghp_wrongTokenWrongTokenWrongToken0000';
    const repo = createGitRepository({ remoteUrl: server.url('shop.git'), branch: 'main', workDir, credentials: { token: wrong } });
    const error = (await repo.sync().catch((e: unknown) => e)) as Error;
    expect(error).toMatchObject({ code: ErrorCode.UpstreamRejected });
    expect(error.message).not.toContain(wrong);
    expect(error.message).not.toContain(Buffer.from(`x-access-token:${wrong}`).toString('base64'));
    expect((await repo.check()).detail).not.toContain(wrong);
  });

  it('syncs, commits and pushes with the token only in a per-command header', async () => {
    const credentials = { token: async () => TOKEN };
    const repo = createGitRepository({ remoteUrl: server.url('shop.git'), branch: 'main', workDir, credentials });
    await repo.sync();
    expect(await repo.readFile('src/payments/client.ts')).toBe(SAMPLE_FILES['src/payments/client.ts']);

    const branch = fixBranchName('INC-7', '2026-03-02T08:00:00Z');
    const proposal = createFixProposal({ file: 'src/payments/client.ts', before: SAMPLE_FILES['src/payments/client.ts']!, after: 'export function authId(body: { auth: { id: string } | null }): string | undefined {\n  return body.auth?.id;\n}\n', explanation: 'null-safe' });
    const publisher = createGitFixPublisher({
      remoteUrl: server.url('shop.git'), branch: 'main', workDir, credentials, logger,
      beforePush: () => expectNoTokenUnder(join(workDir, '.git')),
    });
    const result = await publisher.publish({ incidentId: 'INC-7', branch, proposal, message: 'Null-safe authorization id' });
    expect(result).toMatchObject({ branch, pushStatus: 'pushed' });
    expect(remoteBranches(remote.bare).get(branch)).toBe(result.commit);

    // Every request that reached the server with a header carried exactly our scoped Basic header.
    expect(server.requests.filter((r) => r.authorization).every((r) => r.authorization === `basic ${BASIC}`)).toBe(true);
    expect(server.requests.some((r) => r.path.includes('git-receive-pack') && r.authorized)).toBe(true);
    expect(gitIn(workDir, 'remote', 'get-url', 'origin').trim()).toBe(server.url('shop.git'));
    expectNoTokenUnder(join(workDir, '.git'));
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.join('\n')).not.toContain(TOKEN);
    expect(logs.join('\n')).not.toContain(BASIC);
  });

  it('a failed push leaves the branch local with the reason, and a retry pushes the same commit', async () => {
    const credentials = { token: TOKEN };
    const publisher = createGitFixPublisher({ remoteUrl: server.url('shop.git'), branch: 'main', workDir, credentials, logger });
    const input = {
      incidentId: 'INC-8', branch: fixBranchName('INC-8', '2026-03-02T09:00:00Z'),
      proposal: createFixProposal({ file: 'README.md', before: '# shop\n', after: '# shop service\n', explanation: 'title' }),
      message: 'Retitle',
    };
    server.rejectPushes = true;
    const failed = await publisher.publish(input);
    expect(failed).toMatchObject({ pushStatus: 'failed', pushError: expect.stringContaining('git push failed') });
    expect(failed.pushError).not.toContain(TOKEN);
    expect(remoteBranches(remote.bare).has(input.branch)).toBe(false);
    expect(gitIn(workDir, 'rev-parse', `refs/heads/${input.branch}`).trim()).toBe(failed.commit);

    server.rejectPushes = false;
    const retried = await publisher.publish(input);
    expect(retried).toEqual({ branch: input.branch, commit: failed.commit, pushStatus: 'pushed' });
    expect(gitIn(remote.bare, 'rev-list', '--count', `main..${input.branch}`).trim()).toBe('1');
    expect(logs.join('\n')).not.toContain(TOKEN);
    expectNoTokenUnder(join(workDir, '.git'));
  });
});
