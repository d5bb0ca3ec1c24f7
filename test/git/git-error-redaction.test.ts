/** Git's errors are redacted, but the stamp of a fix branch name is never mistaken for a card number. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { redactGitText } from '../../src/adapters/git/git-credentials.js';
import { createGitRunner } from '../../src/adapters/git/git-runner.js';
import { fixBranchName } from '../../src/domain/fix.js';
import { gitIn } from './build-remote.js';

// An incident id as ingest makes them; 20260301102006 passes the Luhn check, as one stamp in ten does.
const BRANCH = fixBranchName('inc-4be0c1d2a9f3-t2k9xz', '2026-03-01T10:20:06Z');

describe('git error redaction', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'medic-git-redact-'));
    gitIn(dir, 'init', '--quiet', '--initial-branch=main', dir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps a fix branch name whole in a real git error', async () => {
    expect(BRANCH).toBe('fix/inc-4be0c1d2a9f3-t2k9xz-20260301102006');
    const git = createGitRunner({ workDir: dir, remoteUrl: dir });
    const message = await git.run(['log', '--max-count=1', BRANCH, '--']).then(() => 'no error', (e: unknown) => (e as Error).message);
    expect(message).toContain(BRANCH);
    expect(message).not.toContain('[REDACTED');
  });

  it('still redacts a card number, a token and a known secret beside the branch name', () => {
    const text = `error: failed to push ${BRANCH}; card 4111 1111 1111 1111, token ghp_abcdefghijklmnopqrstuvwxyz0123, pass s3cr3t-value`;
    const out = redactGitText(text, ['s3cr3t-value']);
    expect(out).toContain(BRANCH);
    expect(out).not.toContain('4111 1111 1111 1111');
    expect(out).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123');
    expect(out).not.toContain('s3cr3t-value');
  });

  it('spares only the stamp in a fix branch position: card-shaped digits elsewhere are still checked', () => {
    expect(redactGitText('card 4111111111111111 declined', [])).not.toContain('4111111111111111');
    expect(redactGitText('refs/heads/feature/x: 4111111111111111', [])).not.toContain('4111111111111111');
  });
});
