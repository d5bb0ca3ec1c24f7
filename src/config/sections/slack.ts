import { z } from 'zod';
import { boolFrom, intFrom, optionalString, urlString } from '../env-helpers.js';

/**
 * Slack. Setting SLACK_BOT_TOKEN (with SLACK_SIGNING_SECRET) switches the real Slack app on when
 * MEDIC_CHAT=auto; without a token Medic starts the local Slack sandbox and points the same adapter
 * at it. SLACK_APP_TOKEN (xapp-…) selects Socket Mode instead of the HTTP receiver on PORT.
 * This shape is merged into the schema in src/config/schema.ts.
 */
export const slackEnv = {
  SLACK_BOT_TOKEN: optionalString,
  SLACK_SIGNING_SECRET: optionalString,
  SLACK_APP_TOKEN: optionalString,
  /** The Web API base; the sandbox and self-hosted proxies plug in here. */
  SLACK_API_URL: z.preprocess((v) => (v === '' || v === undefined ? 'https://slack.com/api/' : v), z.string().url()),
  /** A Slack user group id (S…) whose members may approve, in addition to MEDIC_APPROVERS. */
  MEDIC_APPROVER_GROUP: optionalString,
  /**
   * Retries inside the Slack client of the web role's interactive replies (modals, ephemerals),
   * where a request must be answered within Slack's 3 s. Cards never use them: their delivery job
   * owns every retry (MEDIC_CARD_RETRY_*), so no call keeps retrying after its caller gave up.
   */
  SLACK_RETRIES: intFrom(3, 0, 10),
  /** One Web API call's deadline; the request is cancelled then (a post is looked up before a retry). */
  SLACK_TIMEOUT_MS: intFrom(8_000, 500, 15_000),
  /** Slack calls per second per channel, across every worker (Slack allows about one message a second). */
  MEDIC_SLACK_CALLS_PER_S: intFrom(1, 1, 100),
  /** The card delivery job's first retry delay; it doubles per try unless Slack sent Retry-After. */
  MEDIC_CARD_RETRY_MIN_MS: intFrom(2_000, 10, 3_600_000),
  /** The longest wait between two tries of a card (default 3 h): the card comes once Slack answers. */
  MEDIC_CARD_RETRY_MAX_MS: intFrom(10_800_000, 100, 86_400_000),
  /** Tries before a card is given up (at MEDIC_CARD_RETRY_MAX_MS apart, the default is weeks). */
  MEDIC_CARD_ATTEMPTS: intFrom(200, 1, 10_000),
  /** Where the local sandbox listens (0 picks a free port). */
  MEDIC_SANDBOX_PORT: intFrom(3001, 0, 65_535),
  /** Overrides the sandbox's view of Medic's events endpoint (default http://127.0.0.1:PORT/slack/events). */
  MEDIC_SANDBOX_EVENTS_URL: urlString,
  /**
   * The sandbox refuses to start beside a real code host (GitHub) or with NODE_ENV=production:
   * its page approves fixes for whoever reaches it. `true` starts it anyway; its users are then
   * never approvers unless MEDIC_APPROVERS names them.
   */
  MEDIC_SANDBOX_FORCE: boolFrom(false),
};

export const SlackEnvObject = z.object(slackEnv);
export type SlackEnv = z.infer<typeof SlackEnvObject>;

/** `auto` picks Slack when a bot token is set, otherwise the sandbox. */
export function isRealSlack(env: Pick<SlackEnv, 'SLACK_BOT_TOKEN'> & { MEDIC_CHAT: 'auto' | 'console' | 'slack' }): boolean {
  return env.MEDIC_CHAT === 'slack' || (env.MEDIC_CHAT === 'auto' && env.SLACK_BOT_TOKEN !== undefined);
}
