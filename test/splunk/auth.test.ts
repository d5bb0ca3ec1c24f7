import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ErrorCode, MedicError } from '../../src/domain/errors.js';
import { buildErrorRow, CREDENTIALS, startSplunkFixture, T0, type SplunkFixture } from './support/fixtures.js';

async function rejection(promise: Promise<unknown>): Promise<MedicError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(MedicError);
  return error as MedicError;
}

describe('Splunk authentication', () => {
  let fx: SplunkFixture | undefined;
  afterEach(async () => fx?.close());

  it('sends a token as Bearer', async () => {
    fx = await startSplunkFixture({ auth: { kind: 'token', token: CREDENTIALS.token } });
    fx.server.rows.push(buildErrorRow({ n: 1, indexTime: T0 - 1 }));
    expect((await fx.source.poll(undefined)).events).toHaveLength(1);
    expect(fx.server.schemes).toEqual(['Bearer']);
  });

  it('sends username and password as Basic', async () => {
    fx = await startSplunkFixture({ auth: { kind: 'basic', username: CREDENTIALS.username, password: CREDENTIALS.password } });
    fx.server.rows.push(buildErrorRow({ n: 1, indexTime: T0 - 1 }));
    expect((await fx.source.poll(undefined)).events).toHaveLength(1);
    expect(fx.server.schemes).toEqual(['Basic']);
  });

  it('logs in for a session key and logs in again when it expires', async () => {
    fx = await startSplunkFixture({ auth: { kind: 'session', username: CREDENTIALS.username, password: CREDENTIALS.password } });
    fx.server.rows.push(buildErrorRow({ n: 1, indexTime: T0 - 1 }));
    const first = await fx.source.poll(undefined);
    fx.server.expireSessions();
    fx.server.rows.push(buildErrorRow({ n: 2, indexTime: T0 + 1 }));
    const second = await fx.source.poll(first.checkpoint);
    expect(second.events.map((e) => e.id)).toEqual(['splunk:main:26:2']);
    expect(fx.server.schemes).toEqual(['Splunk', 'Splunk', 'Splunk']); // ok, expired (401), ok after re-login
  });

  it.each([
    ['token', { kind: 'token' as const, token: 'tok-wrong' }, 'Splunk answered 401: check SPLUNK_TOKEN'],
    ['basic', { kind: 'basic' as const, username: 'medic', password: 'wrong' }, 'Splunk answered 401: check SPLUNK_USERNAME and SPLUNK_PASSWORD'],
    ['session', { kind: 'session' as const, username: 'medic', password: 'wrong' }, 'Splunk answered 401: check SPLUNK_USERNAME and SPLUNK_PASSWORD'],
  ])('a wrong %s fails clearly, without retrying and without the secret', async (_kind, auth, text) => {
    fx = await startSplunkFixture({ auth });
    const error = await rejection(fx.source.poll(undefined));
    expect(error.code).toBe(ErrorCode.Unauthorized);
    expect(error.transient).toBe(false);
    expect(error.message).toContain(text);
    expect(error.message).not.toContain('wrong');
    expect(fx.server.schemes.length).toBeLessThanOrEqual(1); // a credential error is not retried
    const check = await fx.source.check();
    expect(check).toMatchObject({ ok: false, detail: expect.stringContaining(text) });
  });

  it('check() reports the server version when reachable and authenticated, and says when unreachable', async () => {
    fx = await startSplunkFixture({ server: { version: '9.2.4' } });
    expect(await fx.source.check()).toMatchObject({ name: 'log source', ok: true, detail: 'Splunk 9.2.4 on loopback-splunk; authenticated' });
    const url = fx.server.url;
    await fx.close();
    fx = await startSplunkFixture({ client: { url, retries: 0 } });
    const check = await fx.source.check();
    expect(check.ok).toBe(false);
    expect(check.detail).toMatch(/unreachable \(ECONNREFUSED\); check SPLUNK_URL/);
  });
});

describe('Splunk over TLS', () => {
  const dir = mkdtempSync(join(tmpdir(), 'medic-splunk-tls-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  const tls = { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  let fx: SplunkFixture | undefined;
  afterEach(async () => fx?.close());
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('verifies certificates by default and says to set SPLUNK_CA_FILE', async () => {
    fx = await startSplunkFixture({ server: { tls } });
    const error = await rejection(fx.source.poll(undefined));
    expect(error.message).toMatch(/certificate Medic cannot verify .*set SPLUNK_CA_FILE/);
    expect(error.transient).toBe(false);
  });

  it('trusts a private CA when given one', async () => {
    fx = await startSplunkFixture({ server: { tls }, client: { ca: tls.cert } });
    fx.server.rows.push(buildErrorRow({ n: 1, indexTime: T0 - 1 }));
    expect((await fx.source.poll(undefined)).events).toHaveLength(1);
  });
});
