import { createRedisDeliveryClaims } from '../adapters/redis/delivery-claims.js';
import { createSlackApp } from '../adapters/slack/create-slack-app.js';
import { createOpsRoutes, type Route } from '../http/ops-routes.js';
import { startHttpServer } from '../http/start-http-server.js';
import { analystModeOf } from './create-analyst.js';
import { presentStartBanner } from './start-banner.js';
import type { Runtime } from './start-runtime.js';
import { listenOrExplain } from './port-in-use.js';

/**
 * The web role: health, readiness and metrics on PORT, beside Slack's `/slack/events` receiver
 * when the chat is Slack or the sandbox (Socket Mode needs no inbound port for Slack).
 */
export async function startWebRole(runtime: Runtime): Promise<() => Promise<void>> {
  const { medic, metrics, config, logger, adapters } = runtime;
  const ops = createOpsRoutes({
    registry: metrics.registry,
    beforeScrape: () => medic.refreshGauges(),
    ready: () => medic.ready(),
    metricsToken: config.MEDIC_METRICS_TOKEN,
  });
  const slack = adapters.slack;
  // Shared by every web process and kept across restarts, so a replayed signed request runs once.
  const ledger = createRedisDeliveryClaims(runtime.redis, config.MEDIC_REDIS_PREFIX);
  const stops: (() => Promise<void>)[] = [];
  if (slack && !slack.appToken) {
    const route = (path: string) => ({ path, method: 'GET', handler: (req: Parameters<Route>[0], res: Parameters<Route>[1]) => void ops(req, res) });
    const app = createSlackApp({
      botToken: slack.botToken, signingSecret: slack.signingSecret, apiUrl: slack.apiUrl, port: config.PORT, host: config.HOST, retries: config.SLACK_RETRIES,
      commands: medic.commands, actions: medic.actions, grouping: medic.grouping, authority: adapters.authority, audit: medic.audit, ledger, followUps: medic.followUps, customRoutes: ['/healthz', '/readyz', '/metrics'].map(route),
    });
    const { eventsUrl } = await listenOrExplain(() => app.start(), { host: config.HOST, port: config.PORT, variable: 'PORT' });
    if (eventsUrl && !config.MEDIC_SANDBOX_EVENTS_URL) runtime.eventsUrl.value = eventsUrl;
    const port = eventsUrl ? new URL(eventsUrl).port : String(config.PORT);
    logger.info({ eventsUrl }, `web role on http://${config.HOST}:${port}: /slack/events, /healthz, /readyz, /metrics`);
    stops.push(() => app.stop());
  } else {
    if (slack?.appToken) {
      const app = createSlackApp({ botToken: slack.botToken, signingSecret: slack.signingSecret, appToken: slack.appToken, apiUrl: slack.apiUrl, retries: config.SLACK_RETRIES, commands: medic.commands, actions: medic.actions, grouping: medic.grouping, authority: adapters.authority, audit: medic.audit, ledger, followUps: medic.followUps });
      await app.start();
      stops.push(() => app.stop());
    }
    const http = await listenOrExplain(() => startHttpServer(config.PORT, [ops], config.HOST), { host: config.HOST, port: config.PORT, variable: 'PORT' });
    logger.info({ port: http.port }, `web role on http://${config.HOST}:${http.port}: /healthz, /readyz, /metrics`);
    stops.push(() => http.close());
  }
  if (runtime.sandbox) {
    process.stdout.write(presentStartBanner({ sandboxUrl: runtime.sandbox.url, analyst: analystModeOf(config), verbose: runtime.verboseChat }));
  }
  return async () => {
    for (const stop of stops) await stop().catch(() => undefined);
  };
}
