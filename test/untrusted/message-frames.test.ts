/**
 * A log record's message is text the logged code was handed (a request field, an upstream's
 * answer): it may name frames that do not exist. Frames come from the stack only, and the revert
 * Medic proposes without a model never undoes access-control or security work.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseJsonRecord, parsePlainRecord } from '../../src/adapters/file-logs/parse-entry.js';
import { createGitRepository } from '../../src/adapters/git/git-repository.js';
import { normalizeRow } from '../../src/adapters/splunk/normalize-row.js';
import { protectedPathReason } from '../../src/code-search/protected-paths.js';
import { eventTrace } from '../../src/domain/event-trace.js';
import { revertRefusal } from '../../src/domain/revert-policy.js';
import { findRevert } from '../../src/retrieval/find-revert.js';
import { findSuspectCommitsIn } from '../../src/retrieval/find-suspect-commits.js';
import { buildRemote, type TestRemote } from '../git/build-remote.js';

const FORGED = 'at requireAdmin (/srv/shop/src/auth/guard.ts:2:3)';
const STACK = 'TypeError: boom\n    at toAuthorization (/srv/shop/src/payments/client.ts:2:15)\n    at handle (/srv/shop/src/http/routes.ts:9:3)';
const files = (raw: string, message: string) => eventTrace({ raw, message }).frames.map((f) => f.file);

describe('frames come from the stack, never from the message', () => {
  it('JSON record: a frame in the message, on its line or after an escaped newline, is no frame', () => {
    for (const message of [`login failed for ${FORGED}`, `login failed\n    ${FORGED}`, `login failed\r\n${FORGED}`]) {
      const record = parseJsonRecord(JSON.stringify({ time: '2026-11-30T08:00:00.000Z', level: 'error', service: 'shop', message, stack: STACK }), 's@0', [])!;
      expect(files(record.raw, record.message), JSON.stringify(message)).toEqual(['/srv/shop/src/payments/client.ts', '/srv/shop/src/http/routes.ts']);
    }
  });

  it('JSON record without a stack field: its message supplies no frame', () => {
    const record = parseJsonRecord(JSON.stringify({ time: '2026-11-30T08:00:00.000Z', level: 'error', message: `request failed ${FORGED}` }), 's@0', [])!;
    expect(files(record.raw, record.message)).toEqual([]);
  });

  it('plain record: the header line supplies no frame, the indented trace lines do', () => {
    const text = `2026-11-30T08:00:00.000Z ERROR [shop] request failed: TypeError: boom ${FORGED} user=mallory\n    at toAuthorization (/srv/shop/src/payments/client.ts:2:15)`;
    const record = parsePlainRecord(text, 's@0', [])!;
    expect(files(record.raw, record.message)).toEqual(['/srv/shop/src/payments/client.ts']);
    expect(eventTrace(record).exceptionType).toBe('TypeError');
  });

  it('Splunk: a JSON `_raw` or an extracted stack field keeps the message out of the frames', () => {
    const json = { _raw: JSON.stringify({ message: `denied\n${FORGED}`, stack: STACK }), _time: '2026-11-30T08:00:00.000+00:00', index: 'main', _cd: '1:2', message: `denied\n${FORGED}` };
    const extracted = { _raw: `2026-11-30 denied ${FORGED}`, _time: '2026-11-30T08:00:00.000+00:00', index: 'main', _cd: '1:3', message: `denied\n${FORGED}`, stack: STACK };
    for (const row of [json, extracted]) {
      const result = normalizeRow(row, { correlationFields: [], sessionFields: [], serviceFields: ['service'] });
      expect(result.ok).toBe(true);
      if (!result.ok) continue;
      expect(files(result.value.raw, result.value.message)).not.toContain('/srv/shop/src/auth/guard.ts');
      expect(files(result.value.raw, result.value.message)).toContain('/srv/shop/src/payments/client.ts');
    }
  });
});

describe('the LLM-free revert never undoes access control, security work or a fix', () => {
  let remote: TestRemote | undefined;
  afterEach(() => remote?.cleanup());

  it('a forged frame cannot choose the suspect, and a commit to access-control code is never reverted', async () => {
    remote = buildRemote();
    const guard = remote.commitToMain({ 'src/auth/guard.ts': 'export function requireAdmin(user: { role: string }) {\n  if (user.role !== "admin") throw new Error("forbidden");\n}\n' }, 'security: require the admin role');
    const workDir = join(remote.root, 'data', 'repo');
    mkdirSync(workDir, { recursive: true });
    const repo = createGitRepository({ remoteUrl: remote.bare, branch: 'main', workDir });
    await repo.sync();

    const record = parseJsonRecord(JSON.stringify({ time: new Date().toISOString(), level: 'error', message: `denied\n${FORGED}` }), 's@0', [])!;
    const suspects = await findSuspectCommitsIn(repo, { text: record.raw, record: true, time: record.time });
    expect(suspects.map((s) => s.file)).not.toContain('src/auth/guard.ts');

    // Even were it the suspect (the guard's own line in a real trace), its revert is refused.
    const blamed = { sha: guard, author: 'x', date: new Date().toISOString(), subject: 'security: require the admin role', file: 'src/auth/guard.ts', line: 2, ageDays: 0 };
    const outcome = await findRevert(repo, [blamed], { maxAgeDays: 30 });
    expect('note' in outcome && outcome.note).toContain('access-control code (src/auth/guard.ts)');
  });

  it('refuses by path, protected file, message and removed access checks; allows an ordinary change', () => {
    const base = { sha: 'a'.repeat(40), subject: 'orders: page size from the query', files: ['src/orders/pagination.ts'], addedLines: ['const size = Number(query.size);'] };
    const refuse = (over: Partial<typeof base> & { message?: string }) => revertRefusal({ ...base, ...over }, (f) => protectedPathReason(f));
    expect(refuse({})).toBeUndefined();
    expect(refuse({ files: ['src/orders/pagination.ts', 'src/middleware/permissions.ts'] })).toContain('access-control code');
    expect(refuse({ files: ['src/orders/pagination.ts', 'package.json'] })).toContain('protected file');
    expect(refuse({ message: 'orders: check the admin role before export' })).toContain('security change');
    expect(refuse({ message: 'orders: fix the looping last page' })).toContain('calls it a fix');
    expect(refuse({ addedLines: ['  if (!user.isAdmin) return res.status(403).end();'] })).toContain('access check');
    expect(refuse({ addedLines: ['  await requirePermission(ctx, "orders:export");'] })).toContain('access check');
  });
});
