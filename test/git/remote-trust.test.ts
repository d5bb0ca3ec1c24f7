/**
 * Where the git token may go: each token to its one host, never over plain http:// except to a
 * loopback host, and a catalog remote only where its GitHub slug or an allowed host says.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveGitAuth } from '../../src/adapters/git/git-credentials.js';
import { credentialHosts } from '../../src/app/create-code-host.js';
import { createServiceCatalog } from '../../src/app/create-service-catalog.js';
import { loadConfig } from '../../src/config/load-config.js';
import { ErrorCode } from '../../src/domain/errors.js';
import { tokenForRemote } from '../../src/domain/git/credential-hosts.js';
import { remoteTrustProblem } from '../../src/domain/git/remote-trust.js';
import { runCliWith } from '../support/cli-io.js';
import { ROOT } from '../support/medic-world.js';

const policy = { githubHost: 'github.com', allowedHosts: ['git.internal.example'] };
const repo = (remote: string, github?: string) => ({ id: 'shop', remote, branch: 'main', ...(github ? { github } : {}) });

describe('catalog remotes', () => {
  it('accepts a remote that is the GitHub repository its slug names, in any URL form', () => {
    expect(remoteTrustProblem(repo('https://github.com/acme/shop.git', 'acme/shop'), policy)).toBeUndefined();
    expect(remoteTrustProblem(repo('https://github.com/Acme/Shop', 'acme/shop'), policy)).toBeUndefined();
    expect(remoteTrustProblem(repo('git@github.com:acme/shop.git', 'acme/shop'), policy)).toBeUndefined();
  });

  it('refuses a remote that disagrees with its slug, or names a host nobody allowed', () => {
    expect(remoteTrustProblem(repo('https://evil.example/acme/shop.git', 'acme/shop'), policy)).toContain('is not the GitHub repository github.com/acme/shop');
    expect(remoteTrustProblem(repo('https://github.com/other/shop.git', 'acme/shop'), policy)).toContain('github slug');
    expect(remoteTrustProblem(repo('https://evil.example/shop.git'), policy)).toContain('MEDIC_GIT_ALLOWED_HOSTS');
    expect(remoteTrustProblem(repo('https://git.internal.example/shop.git'), policy)).toBeUndefined();
    expect(remoteTrustProblem(repo('https://user@evil.example:8443/shop.git'), policy)).toContain('evil.example');
  });

  it('refuses plain http:// except on a loopback host; local paths are always fine', () => {
    expect(remoteTrustProblem(repo('http://git.internal.example/shop.git'), policy)).toContain('plain http://');
    expect(remoteTrustProblem(repo('http://github.com/acme/shop.git', 'acme/shop'), policy)).toContain('plain http://');
    expect(remoteTrustProblem(repo('http://127.0.0.1:9418/shop.git'), policy)).toBeUndefined();
    expect(remoteTrustProblem(repo('http://[::1]:9418/shop.git'), policy)).toBeUndefined();
    expect(remoteTrustProblem(repo('/srv/git/shop.git'), policy)).toBeUndefined();
    expect(remoteTrustProblem(repo('ftp://git.internal.example/shop.git'), policy)).toContain('not supported');
  });
});

describe('which token goes where', () => {
  it('binds GIT_TOKEN to MEDIC_REPO_REMOTE\'s host and GITHUB_TOKEN to the GitHub host only', () => {
    const config = loadConfig({ MEDIC_REPO_REMOTE: 'https://git.internal.example/shop.git', GIT_TOKEN: 'gitTokenValue0000', GITHUB_TOKEN: 'ghp_githubTokenValue000000000000000000', MEDIC_CATALOG_FILE: '/dev/null' });
    const hosts = credentialHosts(config, undefined);
    expect(tokenForRemote('https://git.internal.example/other.git', hosts)).toBe('gitTokenValue0000');
    expect(tokenForRemote('https://github.com/acme/shop.git', hosts)).toBe('ghp_githubTokenValue000000000000000000');
    expect(tokenForRemote('https://evil.example/acme/shop.git', hosts)).toBeUndefined();
    expect(tokenForRemote('http://git.internal.example/shop.git', hosts)).toBeUndefined();
    expect(tokenForRemote('/srv/git/shop.git', hosts)).toBeUndefined();
  });

  it('sends each MEDIC_GIT_TOKENS token only to its host', () => {
    const config = loadConfig({ MEDIC_GIT_TOKENS: 'gitlab.example=glpat-one000000, bitbucket.example=bbtwo000000' });
    const hosts = credentialHosts(config, undefined);
    expect(tokenForRemote('https://gitlab.example/a/b.git', hosts)).toBe('glpat-one000000');
    expect(tokenForRemote('https://bitbucket.example/a/b.git', hosts)).toBe('bbtwo000000');
    expect(tokenForRemote('https://gitlab.example.evil/a/b.git', hosts)).toBeUndefined();
    expect(tokenForRemote('https://github.com/a/b.git', hosts)).toBeUndefined();
  });

  it('refuses a malformed MEDIC_GIT_TOKENS and a plain-http MEDIC_REPO_REMOTE at start, never echoing the token', () => {
    const error = (() => { try { loadConfig({ MEDIC_GIT_TOKENS: 'justAToken1234567', MEDIC_REPO_REMOTE: 'http://git.internal.example/shop.git' }); } catch (e) { return e as Error; } return undefined; })();
    expect(error?.message).toContain('MEDIC_GIT_TOKENS');
    expect(error?.message).toContain('plain http://');
    expect(error?.message).not.toContain('justAToken1234567');
  });

  it('never builds an auth header for plain http to a non-loopback host', async () => {
    await expect(resolveGitAuth('http://git.internal.example/shop.git', { token: 'tokenValue0000' })).rejects.toMatchObject({ code: ErrorCode.ConfigInvalid, message: expect.stringContaining('plain http://') });
    expect((await resolveGitAuth('http://127.0.0.1:8080/shop.git', { token: 'tokenValue0000' })).env.GIT_CONFIG_COUNT).toBe('1');
  });
});

describe('a catalog naming an untrusted remote', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });
  const catalogYaml = 'version: 1\nrepositories:\n  - id: shop\n    remote: https://evil.example/acme/shop.git\n    github: acme/shop\nservices:\n  - name: shop\n    repository: shop\n';

  it('stops the start, saying why', async () => {
    dir = await mkdtemp(join(tmpdir(), 'medic-remote-trust-'));
    await writeFile(join(dir, 'catalog.yaml'), catalogYaml);
    const config = loadConfig({ MEDIC_DATA_DIR: dir, MEDIC_CATALOG_FILE: join(dir, 'catalog.yaml') });
    await expect(createServiceCatalog(config, { sampleCatalog: join(dir, 'none.yaml') })).rejects.toMatchObject({ code: ErrorCode.ConfigInvalid, message: expect.stringContaining('repository shop: the remote evil.example/acme/shop is not the GitHub repository github.com/acme/shop') });
  });

  it('fails `medic catalog validate` with the reason, and passes once the host is allowed and the slug dropped', async () => {
    dir = await mkdtemp(join(tmpdir(), 'medic-remote-trust-'));
    await writeFile(join(dir, 'catalog.yaml'), catalogYaml);
    const env = { MEDIC_DATA_DIR: dir, MEDIC_SAMPLE_DIR: join(ROOT, 'data'), MEDIC_CATALOG_FILE: join(dir, 'catalog.yaml') };
    const bad = await runCliWith(env, 'catalog', 'validate');
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('is not the GitHub repository github.com/acme/shop its github slug names');
    await writeFile(join(dir, 'catalog.yaml'), catalogYaml.replace('    github: acme/shop\n', ''));
    const allowed = await runCliWith({ ...env, MEDIC_GIT_ALLOWED_HOSTS: 'evil.example' }, 'catalog', 'validate');
    expect(allowed.code).toBe(0);
  });
});
