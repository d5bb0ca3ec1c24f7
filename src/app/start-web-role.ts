import { createOpsRoutes } from '../http/ops-routes.js';
import { startHttpServer } from '../http/start-http-server.js';
import type { Runtime } from './start-runtime.js';

/** The web role: health, readiness and metrics on PORT (and, with Slack, its receiver). */
export async function startWebRole(runtime: Runtime): Promise<() => Promise<void>> {
  const { medic, metrics, config, logger } = runtime;
  const ops = createOpsRoutes({
    registry: metrics.registry,
    beforeScrape: () => medic.refreshGauges(),
    ready: async () => (await medic.checks()).filter((c) => c.name === 'redis'),
  });
  const http = await startHttpServer(config.PORT, [ops]);
  logger.info({ port: http.port }, `ops endpoints on http://127.0.0.1:${http.port}/healthz, /readyz, /metrics`);
  return () => http.close();
}
