import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, LogLevel, type CustomRoute, type Logger, type Middleware, type AnyMiddlewareArgs } from '@slack/bolt';
import type { AuditLog } from '../../ports/audit.js';
import type { ClickFollowUps } from '../../ports/click-follow-ups.js';
import type { Authority } from '../../ports/authority.js';
import type { IncidentCommands } from '../../use-cases/incident-commands.js';
import type { ActionCommands } from '../../use-cases/run-action.js';
import { claimAll, DeliveryLedger, deliveryKey, replayKeys, type DeliveryClaims } from './delivery-ledger.js';
import { queueClicksFirst } from './queue-clicks-first.js';
import { boundEventBodies } from './bounded-event-body.js';
import { registerActionButtons } from './listeners/action-buttons.js';
import { registerDecisionActions } from './listeners/decision-actions.js';
import { registerDetailsAction } from './listeners/details-action.js';
import type { GroupingCommands } from '../../use-cases/grouping-commands.js';
import { registerOpenIncidentAction } from './listeners/open-incident-action.js';
import { registerFeedbackAction } from './listeners/feedback-action.js';
import { registerMedicCommand } from './listeners/medic-command.js';
import { registerRejectSubmission } from './listeners/reject-submission.js';
import { registerStepUpSubmission } from './listeners/step-up-submission.js';
import { refuseFutureDated } from './request-window.js';
import { toSlackError } from './slack-errors.js';
import { slackClientOptions } from './web-client.js';

export interface SlackAppOptions {
  botToken: string;
  signingSecret: string;
  /** xapp-… selects Socket Mode; without it the HTTP receiver serves `/slack/events` on `port`. */
  appToken?: string;
  apiUrl: string;
  port?: number;
  /** Bind address for the HTTP receiver (default: all interfaces, as Slack must reach it). */
  host?: string;
  commands: IncidentCommands;
  authority: Authority;
  /** Where replies to the requester (ephemerals, modals, response_url answers) are audited. */
  audit?: AuditLog;
  /** The card's operational-action buttons; without it they are not served (no gateway wired). */
  actions?: ActionCommands;
  /** Open incident on the overflow card (and other grouping decisions), when the gateway is built. */
  grouping?: GroupingCommands;
  command?: string;
  retries?: number;
  logger?: Logger;
  logLevel?: LogLevel;
  /** Known bot ids skip Bolt's auth.test on start (tests, benchmarks). */
  botId?: string;
  botUserId?: string;
  /** Shared through Redis in a deployment, so replays are dropped across processes and restarts. */
  ledger?: DeliveryClaims;
  /**
   * Where acked clicks (Approve, Run, Request step-up, feedback) go for a worker to answer, so
   * this event loop only verifies and acks. Without it they are answered here after the ack.
   */
  followUps?: ClickFollowUps;
  /** The clock the request-date check uses (tests). */
  now?: () => number;
  /** Extra HTTP routes served beside `/slack/events` in HTTP mode (health, readiness, metrics). */
  customRoutes?: CustomRoute[];
}

export interface SlackAppHandle {
  app: App;
  /** Verifies the token (auth.test) and starts receiving; in HTTP mode returns the events URL. */
  start(): Promise<{ eventsUrl?: string }>;
  stop(): Promise<void>;
}

/**
 * Drops retries and replays of deliveries already handled (acked, no effect). Two keys: the
 * delivery's identity (stable across Slack's retries) and, over HTTP, the request signature (an
 * identical replay of any signed request, whatever its type).
 */
function dropDuplicates(ledger: DeliveryClaims): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    const context = args.context as { slackSignature?: unknown };
    const signature = typeof context.slackSignature === 'string' ? context.slackSignature : undefined;
    const body = args.body as unknown as Record<string, unknown>;
    if (!(await claimAll(ledger, replayKeys(body, signature)))) {
      if ('ack' in args && typeof args.ack === 'function') await args.ack();
      args.logger.debug(`Dropped a duplicate Slack delivery ${deliveryKey(body) ?? 'by signature'}`);
      return;
    }
    await args.next();
  };
}

/**
 * Medic's Slack app: a thin transport. Signature verification, the 3-second ack deadline and
 * retry headers are Bolt's HTTP receiver (or Socket Mode); each listener acks, calls one use-case
 * and renders. Nothing slow runs before the ack.
 */
export function createSlackApp(options: SlackAppOptions): SlackAppHandle {
  const socketMode = options.appToken !== undefined && options.appToken !== '';
  const receiver = socketMode
    ? undefined
    : new HTTPReceiver({
        signingSecret: options.signingSecret,
        port: options.port ?? 3000,
        customRoutes: options.customRoutes ?? [],
        ...(options.logger ? { logger: options.logger } : {}),
        logLevel: options.logLevel ?? LogLevel.WARN,
        // The signature is a replay key: an identical signed request has the identical signature.
        customPropertiesExtractor: (req) => ({ slackSignature: String(req.headers['x-slack-signature'] ?? '') }),
      });
  const ledger = options.ledger ?? new DeliveryLedger();
  if (receiver && options.followUps) {
    receiver.requestListener = queueClicksFirst(receiver.requestListener, { signingSecret: options.signingSecret, followUps: options.followUps, ...(options.now ? { now: options.now } : {}) });
  }
  if (receiver) receiver.requestListener = refuseFutureDated(receiver.requestListener, options.now);
  // Outermost: no body is held past its bound, whatever reads it next.
  if (receiver) receiver.requestListener = boundEventBodies(receiver.requestListener);
  const app = new App({
    token: options.botToken,
    ...(socketMode ? { socketMode: true, appToken: options.appToken, signingSecret: options.signingSecret } : { receiver }),
    clientOptions: slackClientOptions({ apiUrl: options.apiUrl, retries: options.retries ?? 3 }),
    ...(options.botId && options.botUserId ? { botId: options.botId, botUserId: options.botUserId } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    logLevel: options.logLevel ?? LogLevel.WARN,
    // Medic keeps no conversation state in Bolt: its per-request store lookup is pure overhead.
    convoStore: false,
    // auth.test runs in start(), so a bad token is a clear error instead of an unhandled rejection.
    deferInitialization: true,
  });
  const deps = { commands: options.commands, authority: options.authority, audit: options.audit, ...(options.grouping ? { grouping: options.grouping } : {}), ...(options.followUps ? { followUps: options.followUps } : {}) };
  app.use(dropDuplicates(ledger));
  registerDecisionActions(app, deps);
  registerDetailsAction(app, deps);
  registerRejectSubmission(app, deps);
  registerFeedbackAction(app, deps);
  registerMedicCommand(app, deps, options.command);
  if (options.grouping) registerOpenIncidentAction(app, options.grouping, options.audit);
  if (options.actions) {
    registerActionButtons(app, options.commands, options.actions, options.audit, options.followUps);
    registerStepUpSubmission(app, options.actions, options.audit);
  }
  app.error(async (error) => {
    app.logger.error(`Slack listener failed: ${error.code ?? ''} ${error.message}`);
  });

  return {
    app,
    async start() {
      try {
        await app.init();
      } catch (error) {
        throw toSlackError(error, 'auth.test');
      }
      if (socketMode) {
        await app.start();
        return {};
      }
      const port = options.port ?? 3000;
      const server: Server = await app.start(options.host ? { port, host: options.host } : port);
      const address = server.address() as AddressInfo;
      const host = address.family === 'IPv6' ? `[${address.address === '::' ? '::1' : address.address}]` : address.address === '0.0.0.0' ? '127.0.0.1' : address.address;
      return { eventsUrl: `http://${host}:${address.port}/slack/events` };
    },
    async stop() {
      await app.stop();
    },
  };
}
