import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpsRoutes } from '../../src/http/ops-routes.js';
import { startHttpServer } from '../../src/http/start-http-server.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { ROOT, createWorld, type World } from '../support/medic-world.js';
import { startOwnRedis, type OwnRedis } from '../support/own-redis.js';

/** GET with a hard bound: no answer within `withinMs` fails the request rather than waiting. */
function get(port: number, path: string, withinMs: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, timeout: withinMs }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${withinMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

/** Starts `--role web` and resolves with the port it logged. */
function startWeb(env: Record<string, string>, children: ChildProcess[]): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/main.ts'), '--role', 'web', '--exit-with-parent'], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const port = /web role on http:\/\/[^:]+:(\d+)/.exec(out)?.[1];
      if (port) resolve(Number(port));
    });
    child.stderr.resume();
    child.once('exit', (code) => reject(new Error(`web role exited (${code}): ${out.slice(-2_000)}`)));
  });
}

describe('/readyz', () => {
  it('answers 503 within its bound even if a readiness check hangs', async () => {
    const ops = createOpsRoutes({ registry: createMetrics().registry, ready: () => new Promise(() => undefined), readyTimeoutMs: 300 });
    const http = await startHttpServer(0, [ops]);
    try {
      const hung = await get(http.port, '/readyz', 1_500);
      expect(hung.status).toBe(503);
      expect(hung.body).toContain('no answer within 300 ms');
    } finally {
      await http.close();
    }
  });

  let world: World | undefined;
  let redis: OwnRedis | undefined;
  const children: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    await world?.close();
    await redis?.stop();
  });

  it('answers 503 at once from the web role when Redis is down, and 200 again once it is back', async () => {
    redis = await startOwnRedis();
    world = await createWorld({ llm: 'offline' });
    const port = await startWeb({ ...world.env, REDIS_URL: redis.url, LOG_LEVEL: 'info', MEDIC_EMBEDDED_REDIS: 'false' }, children);
    const up = await get(port, '/readyz', 1_500);
    expect(up.status).toBe(200);
    expect(JSON.parse(up.body)).toMatchObject({ ok: true, checks: [{ name: 'redis', ok: true }] });

    await redis.kill();
    for (let i = 0; i < 5; i++) {
      // Each answer comes within the bound: the PING is not queued behind a reconnect.
      const down = await get(port, '/readyz', 1_500);
      expect(down.status).toBe(503);
      expect(JSON.parse(down.body)).toMatchObject({ ok: false, checks: [{ name: 'redis', ok: false }] });
    }

    await redis.restart();
    const back = await world.waitFor(async () => (await get(port, '/readyz', 1_500)).status === 200, 'readiness after the restart', 20_000);
    expect(back).toBe(true);
  }, 60_000);
});
