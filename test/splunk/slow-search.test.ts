import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAuditLog } from '../../src/adapters/redis/audit-log.js';
import { MedicError } from '../../src/domain/errors.js';
import { loadConfig } from '../../src/config/load-config.js';
import { createGatewayStack } from '../../src/gateway/create-gateway.js';
import { createPipelineContext } from '../../src/gateway/invocation-scope.js';
import { createTestRedis } from '../support/redis.js';
import { buildErrorRow, startSplunkFixture, T0, type SplunkFixture } from './support/fixtures.js';

describe('Splunk reads and the gateway deadline', () => {
  let fx: SplunkFixture;
  let redis: Awaited<ReturnType<typeof createTestRedis>>;
  beforeEach(async () => void (redis = await createTestRedis()));
  afterEach(async () => {
    await fx.close();
    await redis.cleanup();
  });

  it('a poll slower than the 5 s read default succeeds when SPLUNK_READ_TIMEOUT_MS allows it', async () => {
    fx = await startSplunkFixture({ client: { readTimeoutMs: 20_000, retries: 0 } });
    for (let n = 1; n <= 3; n++) fx.server.rows.push(buildErrorRow({ n, indexTime: T0 - 10 + n }));
    const config = loadConfig({ SPLUNK_READ_TIMEOUT_MS: '20000' });
    expect(config.MEDIC_GATEWAY_READ_TIMEOUT_MS).toBe(5_000);
    const { gateway } = createGatewayStack({ redis: redis.redis, prefix: redis.prefix, audit: createAuditLog(redis.redis, redis.prefix), actions: [], config: { ...config, MEDIC_APPROVERS: [] }, ports: { logs: fx.source } });
    // The tool's deadline is the adapter's own: a connect plus a read timeout.
    expect(gateway.registry.get('logs.poll')?.timeoutMs).toBe(21_000);
    fx.server.fault({ kind: 'slow', ms: 6_000 });
    const result = await gateway.invoke({ tool: 'logs.poll', args: {} }, createPipelineContext());
    expect(result.status).toBe('executed');
    expect(result.status === 'executed' && (result.value as { events: unknown[] }).events).toHaveLength(3);
    expect(fx.server.cancelled.requests).toBe(0);
  }, 20_000);

  it('an aborted read cancels the HTTP request in flight and is not retried', async () => {
    fx = await startSplunkFixture({ client: { readTimeoutMs: 20_000, retries: 3 } });
    fx.server.rows.push(buildErrorRow({ n: 1, indexTime: T0 - 5 }));
    fx.server.fault({ kind: 'slow', ms: 10_000 });
    const controller = new AbortController();
    const polling = fx.source.poll(undefined, { signal: controller.signal }).then(() => undefined, (e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 300));
    controller.abort(new Error('the gateway deadline passed'));
    const error = await polling;
    expect(error).toBeInstanceOf(MedicError);
    expect((error as MedicError).message).toMatch(/cancelled by its caller \(the gateway deadline passed\)/);
    // Splunk sees the one request close before it was evaluated, and no retry reaches the search.
    for (let i = 0; i < 50 && fx.server.cancelled.requests === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fx.server.cancelled.requests).toBe(1);
    expect(fx.server.searches.filter((s) => s.endpoint === 'export')).toHaveLength(0);
  });
});
